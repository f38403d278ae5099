//! Where the session's adapter is in its life, as one value: none runs, one runs (and
//! whether it takes breakpoints yet), one is being ended (and whether a graceful
//! `terminate` goes first), or one crashed and the supervisor's restart is awaited
//! (how it ended, and which restart is due). Each phase holds only what exists in it,
//! so "being ended, with no adapter", "taking breakpoints, with no adapter" or "a
//! restart due, with an adapter running" cannot be written down.
//!
//! What moves it:
//! - a run starts an adapter: [`AdapterPhase::started`];
//! - the adapter says `initialized`: [`AdapterPhase::initialized`];
//! - an agent or the session's own end asks it to go: [`AdapterPhase::ending`], or
//!   [`AdapterPhase::terminating`] for DAP's graceful `terminate` first;
//! - it closes or is given up on: [`AdapterPhase::Down`];
//! - it crashes: [`AdapterPhase::crashed`], then [`AdapterPhase::restart_scheduled`]
//!   once the supervisor decided; the restart itself is a start.

use crate::core::graceful::Graceful;
use crate::core::relaunch::Relaunch;
use crate::error::AdapterExit;

/// The adapter's phase.
#[derive(Debug, Default)]
pub(crate) enum AdapterPhase {
    /// No adapter runs: before the first start, and after one closed or was given up
    /// on.
    #[default]
    Down,
    /// An adapter runs. `accepts_breakpoints`: it sent `initialized`, so breakpoint
    /// changes go to it at once rather than waiting in the cache for the handshake.
    Live { accepts_breakpoints: bool },
    /// An adapter runs and is being let go: a `disconnect` is on its way, or first the
    /// graceful `terminate` in `graceful` (see `graceful.rs`); `relaunch`, an agent's
    /// restart that starts the program again once this adapter has ended
    /// (`relaunch.rs`).
    Ending {
        graceful: Option<Graceful>,
        relaunch: Option<Relaunch>,
    },
    /// No adapter runs: the last one crashed (`exit`, how), and the session waits for
    /// the supervisor: for its decision while `restart_due` is `None`, then for the
    /// backoff of the restart it scheduled for its crash number `restart_due`.
    Crashed {
        exit: AdapterExit,
        restart_due: Option<u64>,
    },
}

impl AdapterPhase {
    /// A freshly started adapter: live, and not yet `initialized`.
    pub(crate) fn started() -> Self {
        Self::Live {
            accepts_breakpoints: false,
        }
    }

    /// An adapter runs (live or being ended).
    pub(crate) fn is_live(&self) -> bool {
        matches!(self, Self::Live { .. } | Self::Ending { .. })
    }

    /// The adapter crashed: no adapter runs until the supervisor restarts one.
    pub(crate) fn crashed(exit: AdapterExit) -> Self {
        Self::Crashed {
            exit,
            restart_due: None,
        }
    }

    /// How the last adapter crashed, while its restart is awaited.
    pub(crate) fn crash(&self) -> Option<&AdapterExit> {
        match self {
            Self::Crashed { exit, .. } => Some(exit),
            _ => None,
        }
    }

    /// The supervisor scheduled the restart for its crash number `crash`. False (and
    /// no change) when no crash awaits one.
    pub(crate) fn restart_scheduled(&mut self, crash: u64) -> bool {
        match self {
            Self::Crashed { restart_due, .. } => {
                *restart_due = Some(crash);
                true
            }
            _ => false,
        }
    }

    /// Whether the restart for the supervisor's crash number `crash` is the one
    /// awaited: a timer of an earlier crash is not.
    pub(crate) fn awaits_restart(&self, crash: u64) -> bool {
        matches!(self, Self::Crashed { restart_due: Some(due), .. } if *due == crash)
    }

    /// An adapter runs and nobody asked it to go.
    pub(crate) fn is_serving(&self) -> bool {
        matches!(self, Self::Live { .. })
    }

    /// An adapter runs and is being let go.
    pub(crate) fn is_ending(&self) -> bool {
        matches!(self, Self::Ending { .. })
    }

    /// Breakpoint changes go to the adapter now: it is configured and not being let go.
    pub(crate) fn accepts_breakpoints(&self) -> bool {
        matches!(
            self,
            Self::Live {
                accepts_breakpoints: true
            }
        )
    }

    /// The adapter said `initialized`.
    pub(crate) fn initialized(&mut self) {
        if let Self::Live {
            accepts_breakpoints,
        } = self
        {
            *accepts_breakpoints = true;
        }
    }

    /// The adapter's connection was replaced by a new one (a program with a session of
    /// its own, `bootstrap.rs`): the new one has not said `initialized`.
    pub(crate) fn reconnected(&mut self) {
        if let Self::Live {
            accepts_breakpoints,
        } = self
        {
            *accepts_breakpoints = false;
        }
    }

    /// Let the adapter go (`disconnect`). No adapter, no change.
    pub(crate) fn ending(&mut self) {
        if self.is_live() {
            *self = Self::Ending {
                graceful: None,
                relaunch: None,
            };
        }
    }

    /// Ask the debuggee to end first (`terminate`), then let the adapter go.
    pub(crate) fn terminating(&mut self, graceful: Graceful) {
        *self = Self::Ending {
            graceful: Some(graceful),
            relaunch: None,
        };
    }

    /// The graceful `terminate` under way, if any.
    pub(crate) fn graceful_mut(&mut self) -> Option<&mut Graceful> {
        match self {
            Self::Ending { graceful, .. } => graceful.as_mut(),
            _ => None,
        }
    }

    /// The graceful `terminate` under way, if any.
    pub(crate) fn graceful(&self) -> Option<&Graceful> {
        match self {
            Self::Ending { graceful, .. } => graceful.as_ref(),
            _ => None,
        }
    }

    /// The relaunch waiting for this adapter's end, if any.
    pub(crate) fn relaunch(&self) -> Option<&Relaunch> {
        match self {
            Self::Ending { relaunch, .. } => relaunch.as_ref(),
            _ => None,
        }
    }

    /// The graceful `terminate` under way is over: the adapter is still let go.
    pub(crate) fn graceful_done(&mut self) {
        if let Self::Ending { graceful, .. } = self {
            *graceful = None;
        }
    }

    /// Start the program again once this adapter has ended: an agent's restart by
    /// relaunch. False (and no change) when no adapter is being let go.
    pub(crate) fn relaunch_after(&mut self, restart: Relaunch) -> bool {
        match self {
            Self::Ending { relaunch, .. } => {
                *relaunch = Some(restart);
                true
            }
            _ => false,
        }
    }

    /// The relaunch waiting for this adapter's end, taken out.
    pub(crate) fn take_relaunch(&mut self) -> Option<Relaunch> {
        match self {
            Self::Ending { relaunch, .. } => relaunch.take(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_started_adapter_takes_breakpoints_once_initialized() {
        let mut phase = AdapterPhase::started();
        assert!(phase.is_live() && phase.is_serving() && !phase.accepts_breakpoints());
        phase.initialized();
        assert!(phase.accepts_breakpoints());
        phase.reconnected();
        assert!(!phase.accepts_breakpoints());
    }

    #[test]
    fn an_adapter_being_let_go_is_live_and_takes_no_breakpoints() {
        let mut phase = AdapterPhase::started();
        phase.initialized();
        phase.ending();
        assert!(phase.is_live() && phase.is_ending() && !phase.is_serving());
        assert!(!phase.accepts_breakpoints());
        // A late `initialized` does not bring it back.
        phase.initialized();
        assert!(!phase.accepts_breakpoints() && phase.is_ending());
    }

    #[test]
    fn a_crash_awaits_the_restart_scheduled_for_it_only() {
        let mut phase = AdapterPhase::crashed(AdapterExit::default());
        assert!(!phase.is_live() && phase.crash().is_some());
        assert!(!phase.awaits_restart(1), "no restart scheduled yet");
        assert!(phase.restart_scheduled(2));
        assert!(phase.awaits_restart(2) && !phase.awaits_restart(1));
        // A crashed adapter is not ended or told it is initialized.
        phase.ending();
        phase.initialized();
        assert!(phase.awaits_restart(2) && !phase.accepts_breakpoints());
        // The restart is a start: the crash is over.
        phase = AdapterPhase::started();
        assert!(phase.crash().is_none() && !phase.awaits_restart(2));
        assert!(!phase.restart_scheduled(3), "no crash awaits a restart");
    }

    #[test]
    fn a_relaunch_waits_only_on_an_adapter_being_let_go() {
        let relaunch = || Relaunch { token: 1, epoch: 4 };
        let mut phase = AdapterPhase::started();
        assert!(
            !phase.relaunch_after(relaunch()),
            "a live adapter is not ending"
        );
        phase.ending();
        assert!(phase.relaunch_after(relaunch()));
        let taken = phase.take_relaunch().expect("the relaunch waits");
        assert_eq!(taken.epoch, 4);
        assert!(phase.take_relaunch().is_none(), "taken once");
        assert!(!AdapterPhase::Down.relaunch_after(relaunch()));
    }

    #[test]
    fn no_adapter_cannot_be_ending() {
        let mut phase = AdapterPhase::Down;
        phase.ending();
        assert!(!phase.is_live() && !phase.is_ending());
        phase.initialized();
        assert!(!phase.accepts_breakpoints());
        assert!(phase.graceful_mut().is_none());
    }
}
