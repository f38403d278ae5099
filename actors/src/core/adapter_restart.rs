//! Crashes and restarts, as the session core sees them. The core tells a crash (the
//! adapter ended while the session was live and nobody asked it to) from a normal end,
//! reports the crash, and waits for the supervisor's decision: a restart after a
//! backoff, or failure. A restart replays the start plan with a fresh adapter; the
//! cached breakpoints and exception filters go to it during configuration.

use crate::core::command::{Answer, Effect};
use crate::core::handshake::Starter;
use crate::core::pending::Pending;
use crate::core::phase::Phase;
use crate::core::session::SessionCore;
use crate::core::state::SessionState;
use crate::error::{AdapterExit, SessionError};
use crate::events::EventKind;

impl SessionCore {
    /// What this session's attach reached, to check before its adapter is restarted.
    pub fn attach_target(&self) -> Option<&crate::core::attach_target::AttachTarget> {
        self.plan.as_ref()?.attach_target.as_ref()
    }

    /// A launch's plan with the check it must pass before its adapter is restarted
    /// (`replay_check.rs`); `None` when it has none.
    pub(crate) fn replay_check(
        &self,
    ) -> Option<(
        crate::core::replay_check::ReplayCheck,
        crate::core::command::StartPlan,
    )> {
        let plan = self.plan.as_ref()?;
        Some((plan.replay_check.clone()?, plan.clone()))
    }

    /// Whether the adapter's end is a crash: it ended on its own while the session was
    /// live, outside a start an agent is waiting for (that start fails instead).
    pub(super) fn is_crash(&self, exit: &AdapterExit) -> bool {
        let live = matches!(
            self.state(),
            SessionState::Initializing
                | SessionState::Configured
                | SessionState::Running
                | SessionState::Stopped
        );
        let agent_start = self
            .phase
            .handshake()
            .is_some_and(|h| h.starter.token().is_some());
        let child = self.config.parent.is_some();
        live && !exit.requested
            && !self.phase.is_ending()
            && !self.run.terminated_seen
            && !agent_start
            && !child
    }

    /// The adapter crashed: hold what is pending until the supervisor decides.
    pub(super) fn on_crash(&mut self, exit: AdapterExit) {
        // The bootstrap belongs to the run that crashed.
        self.stop_bootstrap();
        // Whatever restart was due answered an earlier crash.
        self.last_crash = Some(format!("the adapter crashed: {exit}"));
        self.enter(Phase::Crashed {
            exit: exit.clone(),
            restart_due: None,
        });
        self.effects.push(Effect::ReportCrash(exit));
    }

    /// The supervisor will restart the adapter after `after`, for its crash `crash`.
    pub(super) fn on_adapter_restart_scheduled(
        &mut self,
        attempt: u32,
        after: std::time::Duration,
        crash: u64,
    ) {
        if !self.phase.restart_scheduled(crash) {
            self.release_held();
            return;
        }
        let exit = self.phase.crash().cloned().unwrap_or_default();
        self.emit(EventKind::AdapterCrashed {
            exit: exit.clone(),
            attempt: Some(attempt),
            restart_in_ms: Some(after.as_millis() as u64),
        });
        let error = SessionError::AdapterCrashed {
            exit,
            attempt,
            retry_in: after,
        };
        self.fail_pending(error);
    }

    /// The backoff of crash `crash` is over: a fresh adapter with the same plan.
    pub(super) fn restart_adapter(&mut self, attempt: u32, crash: u64) {
        if !self.awaits_restart(crash) || self.plan.is_none() {
            // Ended by an agent in the meantime (nothing to restart), or a timer of an
            // earlier crash (the current one's backoff is not over).
            return;
        }
        self.restarts += 1;
        self.begin_run(Starter::Restart { attempt });
    }

    /// Whether the restart for the supervisor's crash `crash` is the one this session
    /// waits for: it is restarting, and that crash's restart was the last scheduled.
    pub fn awaits_restart(&self, crash: u64) -> bool {
        self.phase.awaits_restart(crash)
    }

    /// The session cannot go on.
    pub(super) fn on_fail(&mut self, reason: String) {
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
        self.enter(Phase::Failed {
            reason: reason.clone(),
        });
        self.emit(EventKind::SessionFailed {
            reason: reason.clone(),
        });
        self.fail_pending(SessionError::SessionFailed { reason });
    }

    /// The session was ended between a crash and the supervisor's decision: the agent
    /// requests the crash held will never get an adapter's answer, so they get the
    /// crash, and the crash is over. Only while no adapter runs (a new start's requests
    /// are its own).
    fn release_held(&mut self) {
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
    fn fail_pending(&mut self, error: SessionError) {
        for (_, pending) in std::mem::take(&mut self.pending) {
            match pending {
                Pending::Agent { token, .. } => self.reply(token, Err(error.clone())),
                Pending::Ending { token: Some(token) } => self.reply(token, Ok(Answer::Done)),
                Pending::Ending { token: None } | Pending::Startup(_) | Pending::TraceStop(_) => {}
            }
        }
        for waiter in std::mem::take(&mut self.waiters) {
            self.reply(waiter.token, Err(error.clone()));
        }
    }
}
