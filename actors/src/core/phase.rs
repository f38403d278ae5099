//! [`Phase`]: where a session is in its life, as one value whose variants carry what
//! exists in them. The agent-facing [`SessionState`] is computed from it.
//!
//! ```text
//! NotStarted --start--> Starting --handshake done--> Live --let go--> Ending --closed--> Ended
//! Starting | Live --closed unasked--> Crashed --restart--> Starting
//! Crashed --restart budget spent, target gone, runtime stopping--> Failed
//! Live (js-debug) --program's connection broke--> Severed --server's end--> Crashed
//! Ended --start--> Starting   (a new adapter, same session)
//! ```
//!
//! While an adapter runs the program has a life of its own ([`Program`]): it may stop
//! or end while the handshake still waits for the `launch` answer, and the adapter may
//! be let go while it runs or is stopped. So the phases with an adapter carry where
//! the program is, rather than forcing the two into one line.
//!
//! Which phase does what: `starting.rs` (Starting), `ending.rs`, `graceful.rs` and
//! `relaunch.rs` (Ending, and the adapter's close that leads to Ended), `crashed.rs`
//! (Crashed), `failed.rs` (Failed), `program_session.rs` (Severed). A live session is
//! driven by its inputs: `commands.rs`, `control.rs`, `adapter_events.rs`.

use crate::core::command::{TimerId, Token};
use crate::core::failure::Failure;
use crate::core::handshake::Handshake;
use crate::core::state::SessionState;
use crate::error::AdapterExit;

/// Where the program is, as the adapter running it has said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Program {
    /// Not configured yet: the adapter has not said `initialized`.
    Initializing,
    /// The adapter said `initialized`; breakpoints and `configurationDone` are on
    /// their way.
    Configured,
    Running,
    Stopped,
    /// It ended (`exited`, `terminated`), or the session was ended under it.
    Ended,
}

impl Program {
    /// The agent-facing state of a session whose adapter runs this program.
    pub(crate) fn state(self) -> SessionState {
        match self {
            Program::Initializing => SessionState::Initializing,
            Program::Configured => SessionState::Configured,
            Program::Running => SessionState::Running,
            Program::Stopped => SessionState::Stopped,
            Program::Ended => SessionState::Terminated,
        }
    }

    /// The program in the agent-facing `state`, where an adapter runs.
    pub(crate) fn from_state(state: SessionState) -> Option<Program> {
        Some(match state {
            SessionState::Initializing => Program::Initializing,
            SessionState::Configured => Program::Configured,
            SessionState::Running => Program::Running,
            SessionState::Stopped => Program::Stopped,
            SessionState::Terminated => Program::Ended,
            _ => return None,
        })
    }
}

/// A graceful `terminate` under way (`graceful.rs`).
#[derive(Debug)]
pub(crate) struct Graceful {
    /// Fires when the debuggee has had its time.
    pub(crate) timer: TimerId,
    pub(crate) awaits: GracefulWait,
}

/// What a graceful `terminate` waits for before the adapter is let go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GracefulWait {
    /// The adapter's answer to `terminate`, while the debuggee has time.
    Answer,
    /// The debuggee's end (`terminated`), the adapter having answered: then the
    /// agent is answered.
    End(Token),
    /// The adapter's answer, the debuggee's time being up: it goes on at once.
    LateAnswer,
}

/// An agent's restart by relaunch, waiting for the old adapter to end (`relaunch.rs`).
#[derive(Debug)]
pub(crate) struct Relaunch {
    /// The agent who asked.
    pub(crate) token: Token,
    /// The stop epoch when it asked: the answer, once the new run is under way.
    pub(crate) epoch: u64,
}

/// The session's phase.
#[derive(Debug, Default)]
pub(crate) enum Phase {
    /// Created; no adapter has started.
    #[default]
    NotStarted,
    /// An adapter runs and its handshake is under way.
    Starting {
        handshake: Handshake,
        program: Program,
    },
    /// An adapter runs, its handshake done: breakpoint changes go to it at once.
    Live { program: Program },
    /// An adapter runs and is being let go: a `disconnect` is on its way (or it was
    /// told to stop), or first the graceful `terminate` in `graceful`; `relaunch`, an
    /// agent's restart that starts the program again once this adapter has ended.
    Ending {
        program: Program,
        graceful: Option<Graceful>,
        relaunch: Option<Relaunch>,
    },
    /// The program's own connection broke while js-debug's bootstrap connection still
    /// runs: the crash (`exit`) waits to be reported with the server's own end, at
    /// most until `timer` fires (`program_session.rs`). No adapter runs.
    Severed {
        program: Program,
        exit: AdapterExit,
        timer: TimerId,
    },
    /// No adapter runs: the last one crashed (`exit`, how), and the session waits for
    /// the supervisor: for its decision while `restart_due` is `None`, then for the
    /// backoff of the restart it scheduled for its crash number `restart_due`.
    Crashed {
        exit: AdapterExit,
        restart_due: Option<u64>,
    },
    /// The session cannot go on; every request is refused with why.
    Failed(Failure),
    /// No adapter runs: the program ended or the session was ended; a new start may
    /// follow. `held`: how the adapter crashed, where the session was ended while the
    /// supervisor had not yet decided about that crash: the agents' requests the dead
    /// adapter left unanswered get it once the supervisor has (`failed.rs`).
    Ended { held: Option<AdapterExit> },
}

impl Phase {
    /// The agent-facing state.
    pub(crate) fn state(&self) -> SessionState {
        match self {
            Phase::NotStarted => SessionState::NotStarted,
            Phase::Starting { program, .. }
            | Phase::Live { program }
            | Phase::Ending { program, .. }
            | Phase::Severed { program, .. } => program.state(),
            Phase::Crashed { .. } => SessionState::AdapterRestarting,
            Phase::Failed(_) => SessionState::Failed,
            Phase::Ended { .. } => SessionState::Terminated,
        }
    }

    /// Where the program is, while the phase knows (an adapter runs or just broke).
    pub(crate) fn program_mut(&mut self) -> Option<&mut Program> {
        match self {
            Phase::Starting { program, .. }
            | Phase::Live { program }
            | Phase::Ending { program, .. }
            | Phase::Severed { program, .. } => Some(program),
            _ => None,
        }
    }

    /// An adapter runs (serving, or being let go).
    pub(crate) fn is_live(&self) -> bool {
        self.is_serving() || self.is_ending()
    }

    /// An adapter runs and nobody asked it to go.
    pub(crate) fn is_serving(&self) -> bool {
        matches!(self, Phase::Starting { .. } | Phase::Live { .. })
    }

    /// An adapter runs and is being let go.
    pub(crate) fn is_ending(&self) -> bool {
        matches!(self, Phase::Ending { .. })
    }

    /// Breakpoint changes go to the adapter now: it said `initialized`, is not being
    /// let go, and its program has not ended. Between `exited` and `terminated` the
    /// program is gone but the adapter not yet let go: debugpy then refuses a
    /// `setBreakpoints` ("Server disconnected unexpectedly"); the change waits in the
    /// cache for the next run, as after `terminated`.
    pub(crate) fn accepts_breakpoints(&self) -> bool {
        match self {
            Phase::Starting { handshake, program } => {
                handshake.initialized() && *program != Program::Ended
            }
            Phase::Live { program } => *program != Program::Ended,
            _ => false,
        }
    }

    /// The handshake under way, if any.
    pub(crate) fn handshake(&self) -> Option<&Handshake> {
        match self {
            Phase::Starting { handshake, .. } => Some(handshake),
            _ => None,
        }
    }

    /// The handshake under way, if any.
    pub(crate) fn handshake_mut(&mut self) -> Option<&mut Handshake> {
        match self {
            Phase::Starting { handshake, .. } => Some(handshake),
            _ => None,
        }
    }

    /// End the handshake under way, if any: the adapter it started serves on.
    pub(crate) fn take_handshake(&mut self) -> Option<Handshake> {
        let Phase::Starting { program, .. } = self else {
            return None;
        };
        let program = *program;
        match std::mem::replace(self, Phase::Live { program }) {
            Phase::Starting { handshake, .. } => Some(handshake),
            _ => None,
        }
    }

    /// No adapter runs any more and the program ended: [`Phase::Ended`], holding how
    /// the adapter crashed while the supervisor's decision about that is to come.
    pub(crate) fn end(&mut self) {
        let held = match std::mem::take(self) {
            Phase::Crashed { exit, .. } => Some(exit),
            Phase::Ended { held } => held,
            // Failed is final: what the adapter says after (lldb's `terminated` once
            // its target is gone) ends nothing more.
            failed @ Phase::Failed(_) => {
                *self = failed;
                return;
            }
            _ => None,
        };
        *self = Phase::Ended { held };
    }

    /// Let the adapter go (`disconnect`, or told to stop). No adapter, no change. A
    /// handshake under way is ended first (it has an agent to answer).
    pub(crate) fn ending(&mut self) {
        debug_assert!(
            self.handshake().is_none(),
            "a handshake is ended before its adapter is let go"
        );
        if let Phase::Starting { program, .. } | Phase::Live { program } = self {
            *self = Phase::Ending {
                program: *program,
                graceful: None,
                relaunch: None,
            };
        }
    }

    /// The graceful `terminate` under way, if any.
    pub(crate) fn graceful_mut(&mut self) -> Option<&mut Graceful> {
        match self {
            Phase::Ending { graceful, .. } => graceful.as_mut(),
            _ => None,
        }
    }

    /// The graceful `terminate` under way, if any.
    pub(crate) fn graceful(&self) -> Option<&Graceful> {
        match self {
            Phase::Ending { graceful, .. } => graceful.as_ref(),
            _ => None,
        }
    }

    /// The graceful `terminate` under way is over: the adapter is still let go.
    pub(crate) fn graceful_done(&mut self) {
        if let Phase::Ending { graceful, .. } = self {
            *graceful = None;
        }
    }

    /// The relaunch waiting for this adapter's end, if any.
    pub(crate) fn relaunch(&self) -> Option<&Relaunch> {
        match self {
            Phase::Ending { relaunch, .. } => relaunch.as_ref(),
            _ => None,
        }
    }

    /// Start the program again once this adapter has ended: an agent's restart by
    /// relaunch. False (and no change) when no adapter is being let go.
    pub(crate) fn relaunch_after(&mut self, restart: Relaunch) -> bool {
        match self {
            Phase::Ending { relaunch, .. } => {
                *relaunch = Some(restart);
                true
            }
            _ => false,
        }
    }

    /// The relaunch waiting for this adapter's end, taken out.
    pub(crate) fn take_relaunch(&mut self) -> Option<Relaunch> {
        match self {
            Phase::Ending { relaunch, .. } => relaunch.take(),
            _ => None,
        }
    }

    /// How the last adapter crashed, while its restart is awaited.
    pub(crate) fn crash(&self) -> Option<&AdapterExit> {
        match self {
            Phase::Crashed { exit, .. } => Some(exit),
            _ => None,
        }
    }

    /// The supervisor scheduled the restart for its crash number `crash`. False (and
    /// no change) when no crash awaits one.
    pub(crate) fn restart_scheduled(&mut self, crash: u64) -> bool {
        match self {
            Phase::Crashed { restart_due, .. } => {
                *restart_due = Some(crash);
                true
            }
            _ => false,
        }
    }

    /// Whether the restart for the supervisor's crash number `crash` is the one
    /// awaited: a timer of an earlier crash is not.
    pub(crate) fn awaits_restart(&self, crash: u64) -> bool {
        matches!(self, Phase::Crashed { restart_due: Some(due), .. } if *due == crash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::handshake::{Configuration, Starter};
    use crate::core::state::Operation;

    fn starting() -> Phase {
        let handshake = Handshake::new(
            Starter::Agent(1),
            Operation::Launch,
            std::time::Duration::from_secs(1),
            1,
        );
        Phase::Starting {
            handshake,
            program: Program::Initializing,
        }
    }

    #[test]
    fn a_started_adapter_takes_breakpoints_once_initialized() {
        let mut phase = starting();
        assert!(phase.is_live() && phase.is_serving() && !phase.accepts_breakpoints());
        phase.handshake_mut().unwrap().configuration = Configuration::AwaitingDone;
        assert!(phase.accepts_breakpoints());
        assert!(phase.take_handshake().is_some());
        assert!(phase.accepts_breakpoints() && phase.handshake().is_none());
    }

    #[test]
    fn an_adapter_being_let_go_is_live_and_takes_no_breakpoints() {
        let mut phase = Phase::Live {
            program: Program::Stopped,
        };
        phase.ending();
        assert!(phase.is_live() && phase.is_ending() && !phase.is_serving());
        assert!(!phase.accepts_breakpoints());
        assert_eq!(
            phase.state(),
            SessionState::Stopped,
            "the program as it was"
        );
    }

    #[test]
    fn a_crash_awaits_the_restart_scheduled_for_it_only() {
        let mut phase = Phase::Crashed {
            exit: AdapterExit::default(),
            restart_due: None,
        };
        assert!(!phase.is_live() && phase.crash().is_some());
        assert!(!phase.awaits_restart(1), "no restart scheduled yet");
        assert!(phase.restart_scheduled(2));
        assert!(phase.awaits_restart(2) && !phase.awaits_restart(1));
        // A crashed adapter is not ended.
        phase.ending();
        assert!(phase.awaits_restart(2) && !phase.accepts_breakpoints());
        assert_eq!(phase.state(), SessionState::AdapterRestarting);
        // The restart is a start: the crash is over.
        phase = starting();
        assert!(phase.crash().is_none() && !phase.awaits_restart(2));
        assert!(!phase.restart_scheduled(3), "no crash awaits a restart");
    }

    #[test]
    fn a_relaunch_waits_only_on_an_adapter_being_let_go() {
        let relaunch = || Relaunch { token: 1, epoch: 4 };
        let mut phase = Phase::Live {
            program: Program::Running,
        };
        assert!(
            !phase.relaunch_after(relaunch()),
            "a live adapter is not ending"
        );
        phase.ending();
        assert!(phase.relaunch_after(relaunch()));
        let taken = phase.take_relaunch().expect("the relaunch waits");
        assert_eq!(taken.epoch, 4);
        assert!(phase.take_relaunch().is_none(), "taken once");
        assert!(!Phase::Ended { held: None }.relaunch_after(relaunch()));
    }

    #[test]
    fn no_adapter_cannot_be_ending() {
        for mut phase in [Phase::NotStarted, Phase::Ended { held: None }] {
            phase.ending();
            assert!(!phase.is_live() && !phase.is_ending());
            assert!(!phase.accepts_breakpoints());
            assert!(phase.graceful_mut().is_none());
        }
    }

    #[test]
    fn every_state_but_not_started_restarting_and_failed_is_a_program_state() {
        for program in [
            Program::Initializing,
            Program::Configured,
            Program::Running,
            Program::Stopped,
            Program::Ended,
        ] {
            assert_eq!(Program::from_state(program.state()), Some(program));
        }
        assert_eq!(Program::from_state(SessionState::Failed), None);
    }
}
