//! Progress for long calls. A client that gives a progress token with a tool call hears
//! from the server every [`PROGRESS_INTERVAL`] while the call waits (for the program to
//! stop, for the user's approval), so a client with a request timeout that progress
//! resets does not give up on a wait that is going as asked.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};

/// How often a call under way reports progress, and how long it runs before the first
/// report: 1 s.
pub const PROGRESS_INTERVAL: Duration = Duration::from_secs(1);

/// Report the progress of `tool` to `peer` under `token` every [`PROGRESS_INTERVAL`],
/// as the seconds the call has taken, saying whether it waits for the user's approval
/// (`asking`). Never ends: the caller drops it when the call ends. Without a token, or
/// once the client is gone, it reports nothing.
pub(crate) async fn report(
    peer: Peer<RoleServer>,
    token: Option<ProgressToken>,
    tool: String,
    asking: Arc<AtomicBool>,
) {
    let Some(token) = token else {
        return std::future::pending().await;
    };
    let start = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(start + PROGRESS_INTERVAL, PROGRESS_INTERVAL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let secs = start.elapsed().as_secs();
        let waiting_on = if asking.load(Ordering::Relaxed) {
            "the user's approval"
        } else {
            "the debugger"
        };
        let param = ProgressNotificationParam::new(token.clone(), secs as f64)
            .with_message(format!("{tool}: waiting on {waiting_on} for {secs} s"));
        if peer.notify_progress(param).await.is_err() {
            return std::future::pending().await;
        }
    }
}
