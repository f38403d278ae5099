//! The [`Phase::Failed`] phase: a session that cannot go on ([`Failure`] says why).
//! Its adapter is stopped, every request pending and every stop waiter is answered
//! with the failure, and every later request is refused with it. Also here: answering
//! what a crash left pending, once the supervisor has decided (a restart is scheduled,
//! the session fails, or it was ended meanwhile).

use crate::core::command::{Answer, Effect};
use crate::core::failure::Failure;
use crate::core::pending::Pending;
use crate::core::phase::Phase;
use crate::core::session::SessionCore;
use crate::core::session_event::EventKind;
use crate::core::state::SessionState;
use crate::error::SessionError;

impl SessionCore {
    /// The session cannot go on.
    pub(super) fn on_fail(&mut self, cause: Failure) {
        if matches!(
            self.state(),
            SessionState::Failed | SessionState::Terminated
        ) {
            self.release_held();
            return;
        }
        if let Some(exit) = self.phase.crash().cloned() {
            self.emit(EventKind::AdapterCrashed {
                exit,
                attempt: None,
                restart_in_ms: None,
            });
        }
        if self.phase.is_live() {
            self.effects.push(Effect::StopAdapter);
        }
        let reason = cause.to_string();
        self.enter(Phase::Failed(cause));
        self.emit(EventKind::SessionFailed {
            reason: reason.clone(),
        });
        self.fail_pending(SessionError::SessionFailed { reason });
    }

    /// The session was ended between a crash and the supervisor's decision: the agent
    /// requests the crash held will never get an adapter's answer, so they get the
    /// crash, and the crash is over. Only while no adapter runs (a new start's requests
    /// are its own).
    pub(super) fn release_held(&mut self) {
        let Phase::Ended { held } = &mut self.phase else {
            return;
        };
        let Some(exit) = held.take() else {
            return;
        };
        let held: Vec<_> = self
            .pending
            .iter()
            .filter(|(_, p)| matches!(p, Pending::Agent { .. }))
            .map(|(tag, _)| *tag)
            .collect();
        for tag in held {
            if let Some(Pending::Agent { token, .. }) = self.pending.remove(&tag) {
                let error = SessionError::AdapterExited { exit: exit.clone() };
                self.reply(token, Err(error));
            }
        }
    }

    /// Answer every agent request still pending, and every stop waiter, with `error`.
    pub(super) fn fail_pending(&mut self, error: SessionError) {
        for (_, pending) in std::mem::take(&mut self.pending) {
            match pending {
                Pending::Agent { token, .. } => self.reply(token, Err(error.clone())),
                Pending::Ending { token: Some(token) } => self.reply(token, Ok(Answer::Done)),
                Pending::Ending { token: None }
                | Pending::Startup(_)
                | Pending::TraceStop(_)
                | Pending::CallStop(_) => {}
                // Never told where: each breakpoint of a shared id gets the hit.
                Pending::StopHits(ids) => self.breakpoints.record_hits(&ids, None),
            }
        }
        for waiter in std::mem::take(&mut self.waiters) {
            self.reply(waiter.token, Err(error.clone()));
        }
    }
}
