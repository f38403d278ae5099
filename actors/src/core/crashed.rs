//! The [`Phase::Crashed`] phase: crashes and restarts, as the session core sees them.
//! The core tells a crash (the adapter ended while the session was live and nobody
//! asked it to) from a normal end, reports the crash, and waits for the supervisor's
//! decision: a restart after a backoff, or failure (`failed.rs`). A restart replays
//! the start plan with a fresh adapter; the cached breakpoints and exception filters
//! go to it during configuration.

use crate::core::command::Effect;
use crate::core::handshake::Starter;
use crate::core::phase::Phase;
use crate::core::session::SessionCore;
use crate::core::session_event::EventKind;
use crate::core::state::SessionState;
use crate::error::{AdapterExit, SessionError};

impl SessionCore {
    /// What this session's attach reached, to check before its adapter is restarted.
    pub fn attach_target(&self) -> Option<&crate::core::attach_target::AttachTarget> {
        self.plan.as_ref()?.attach_target.as_ref()
    }

    /// A launch's plan with the check it must pass before its adapter is restarted
    /// (`start_plan.rs`); `None` when it has none.
    pub(crate) fn replay_check(
        &self,
    ) -> Option<(
        crate::core::start_plan::ReplayCheck,
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
}
