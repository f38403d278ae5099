//! Timing a session to its first stop, for the benches that set one start beside
//! another (`core_open`, `attach_mapped`).

use std::time::{Duration, Instant};

use dapvisor::{RunTicket, Runtime, SessionHandle, StopOutcome};

/// How long a session's first stop may take before the bench gives up on it.
pub const STOP_WAIT: Duration = Duration::from_secs(120);

/// Wait for `session`'s first stop, then end the session: how long since `start`.
pub async fn timed_to_first_stop(
    runtime: &Runtime,
    session: SessionHandle,
    start: Instant,
) -> Duration {
    let outcome = session
        .wait_for_stop(RunTicket { epoch: 0 }, STOP_WAIT)
        .await
        .expect("a stop");
    assert!(
        matches!(outcome, StopOutcome::Stopped(_)),
        "stopped: {outcome:?}"
    );
    let took = start.elapsed();
    runtime.end_session(session.id()).await.expect("ended");
    took
}
