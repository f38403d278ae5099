//! The supervisor's part in a crash: a session reports that its adapter crashed, the
//! supervisor consults the session's [`RestartTracker`] and answers with a restart
//! after a backoff (a ractor timer, never a sleep in a handler) or with failure.

use ractor::ActorRef;

use crate::error::AdapterExit;
use crate::session::{CrashDecision, SessionId, SessionMsg};
use crate::supervisor::actor::{SupervisorMsg, SupervisorState};
use crate::supervisor::RestartDecision;

impl SupervisorState {
    pub(super) fn on_adapter_crashed(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        session: SessionId,
        exit: AdapterExit,
    ) {
        let Some(handle) = self.sessions.get(&session).map(|h| h.value().clone()) else {
            return;
        };
        tracing::warn!(%session, %exit, "adapter crashed");
        let now = tokio::time::Instant::now().into_std();
        let sample = self.next_random();
        let policy = &self.config.restart_policy;
        let tracker = self.restarts.entry(session).or_default();
        let decision = tracker.on_crash(policy, now, sample);
        let crash = tracker.crashes();
        let message = match decision {
            RestartDecision::Restart { attempt, after } => {
                myself.send_after(after, move || SupervisorMsg::RestartDue {
                    session,
                    attempt,
                    crash,
                });
                CrashDecision::Scheduled {
                    attempt,
                    after,
                    crash,
                }
            }
            RestartDecision::GiveUp { reason } => {
                tracing::error!(%session, %reason, "restart budget spent; the session fails");
                CrashDecision::GiveUp {
                    reason: format!("{reason}; the last crash: {exit}"),
                }
            }
        };
        let _ = handle.actor_ref().cast(SessionMsg::Supervision(message));
    }

    pub(super) fn on_restart_due(&mut self, session: SessionId, attempt: u32, crash: u64) {
        if let Some(handle) = self.sessions.get(&session) {
            let _ = handle
                .actor_ref()
                .cast(SessionMsg::Supervision(CrashDecision::RestartNow {
                    attempt,
                    crash,
                }));
        }
    }

    /// A session's restarted adapter came up: its stable period starts now.
    pub(super) fn on_adapter_restarted(&mut self, session: SessionId) {
        if let Some(tracker) = self.restarts.get_mut(&session) {
            tracker.on_restarted(tokio::time::Instant::now().into_std());
        }
    }

    /// A number in `[0, 1)` for the backoff's jitter (xorshift64).
    fn next_random(&mut self) -> f64 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}
