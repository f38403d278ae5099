//! The idle reaper: a session no agent has asked anything of for the idle limit is
//! removed and ended the way a shutdown ends it (a `disconnect`, then its actor), and
//! then announced (`SessionReaped`, `SessionClosed`, the end of its stream). Adapter
//! events do not count as use; reading a snapshot does not either. A handle to a reaped session answers with how long it had been idle; one
//! to a failed session that was then reaped answers with its failure.

use std::sync::atomic::Ordering;

use tokio::time::Instant;

use crate::error::SessionError;
use crate::events::EventKind;
use crate::supervisor::actor::SupervisorState;
use crate::supervisor::shutdown::{announce_closed, end_session};

impl SupervisorState {
    /// End every session idle for the limit or longer at `now`.
    pub(super) fn sweep(&mut self, now: Instant) {
        let Some(limit) = self.config.idle_limit else {
            return;
        };
        let idle: Vec<_> = self
            .sessions
            .iter()
            .filter_map(|entry| {
                let shared = entry.value().shared();
                // A request in flight (a slow launch, a long wait for a stop) is use.
                if shared.queued.load(Ordering::Acquire) > 0 {
                    return None;
                }
                let idle_for = now.saturating_duration_since(shared.last_used());
                (idle_for >= limit).then(|| (*entry.key(), idle_for))
            })
            .collect();
        for (id, idle_for) in idle {
            let why = SessionError::Reaped {
                session: id.to_string(),
                idle_secs: idle_for.as_secs(),
            };
            tracing::info!(session = %id, idle_secs = idle_for.as_secs(), "reaping idle session");
            if let Some(handle) = self.sessions.get(&id).map(|h| h.value().clone()) {
                // A failed session keeps its failure (the first reason recorded wins):
                // that, not the idleness, is what its agent needs to hear.
                handle.shared().set_ended(why);
            }
            let reason = format!("reaped after {}s idle", idle_for.as_secs());
            let Some(handle) = self.forget(id, &reason) else {
                continue;
            };
            // Ended as a shutdown ends it, from a task: a `disconnect` first, so an
            // attached process is detached from (with its breakpoints taken out)
            // rather than left behind by a killed debugger, then the actor stopped;
            // only then is the reaping announced, so that nothing of the session's
            // follows its `SessionClosed`.
            let (grace, wait) = (self.config.shutdown_grace, self.config.session_stop_wait);
            let hub = self.hub.clone();
            let reaped = EventKind::SessionReaped {
                idle_secs: idle_for.as_secs(),
            };
            tokio::spawn(async move {
                end_session(&handle, grace, wait, &reason).await;
                announce_closed(id, Some(&handle), &hub, &reason, Some(reaped));
            });
        }
    }
}
