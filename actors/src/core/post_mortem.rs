//! A session on a core dump (post-mortem): the memory of a process that has ended.
//! It is stopped where the process died and stays so. What reads it (threads,
//! stacks, scopes, variables, evaluations, memory, disassembly, sources) is taken as
//! in any stop; what would move or change the program is refused here, before the
//! adapter is asked, with an error saying that a dump cannot run (the adapters'
//! own answers differ: lldb's `elf-core does not support resuming processes`, and
//! dlv answers `continue` with success and stops again at once).

use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;

/// Whether a session on a core dump takes `op`: everything a stopped session takes,
/// but what moves or changes the program.
pub(crate) fn allows(op: Operation) -> bool {
    use Operation as O;
    !matches!(
        op,
        O::Continue
            | O::Next
            | O::StepIn
            | O::StepOut
            | O::Pause
            | O::Navigate
            | O::Restart
            | O::Modify
            | O::SetBreakpoints
            | O::SetExceptionBreakpoints
    )
}

/// Refuse `op` on a core dump's session when it would move or change the program.
pub(crate) fn check(op: Operation) -> Result<(), SessionError> {
    if allows(op) {
        Ok(())
    } else {
        Err(SessionError::PostMortem { operation: op })
    }
}

/// Whether a session in `state` takes `op`, as [`crate::core::state::check`] says,
/// and for a core dump's (`core`) also [`check`], first: a move is refused because
/// a dump cannot run, whatever the state would say of it.
pub(crate) fn check_session(
    state: SessionState,
    failure: Option<&str>,
    core: bool,
    op: Operation,
) -> Result<(), SessionError> {
    if !core {
        return crate::core::state::check(state, failure, op);
    }
    crate::core::state::check_not_failed(state, failure)?;
    check(op)?;
    crate::core::state::check(state, failure, op).map_err(|err| match err {
        SessionError::InvalidState {
            operation, state, ..
        } => SessionError::InvalidState {
            operation,
            state,
            allowed: allowed_operations(state),
        },
        other => other,
    })
}

/// What a session in `state` allows: for a core dump's (`core`), less what a dump
/// cannot do.
pub(crate) fn allowed_for(state: SessionState, core: bool) -> Vec<Operation> {
    match core {
        true => allowed_operations(state),
        false => state.allowed_operations(),
    }
}

impl crate::core::session::SessionCore {
    /// The core dump the session opened, if it is a post-mortem one.
    pub(super) fn core_file(&self) -> Option<&std::path::Path> {
        self.plan.as_ref().and_then(|p| p.core_file.as_deref())
    }
}

/// What a core dump's session in `state` allows: the state's own, less what a dump
/// cannot do.
pub(crate) fn allowed_operations(state: SessionState) -> Vec<Operation> {
    state
        .allowed_operations()
        .into_iter()
        .filter(|op| allows(*op))
        .collect()
}

/// The signals whose default action dumps core (signal(7)): the ones a core dump's
/// process can have died of.
const DUMPING_SIGNALS: &[&str] = &[
    "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL", "SIGIOT", "SIGQUIT", "SIGSEGV", "SIGSYS", "SIGTRAP",
    "SIGXCPU", "SIGXFSZ",
];

/// The signal that ended the process, as an adapter's stop names it at the start of
/// its description (lldb: `SIGSEGV: address not mapped to object (fault
/// address=0x0)`); `None` where it names none (dlv: `runtime error`).
pub fn signal_in(description: &str) -> Option<String> {
    let word: String = description
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    DUMPING_SIGNALS.contains(&word.as_str()).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_and_changing_the_program_is_refused_and_reading_it_is_not() {
        use Operation as O;
        for op in [
            O::Continue,
            O::Next,
            O::StepIn,
            O::StepOut,
            O::Pause,
            O::Navigate,
            O::Restart,
            O::Modify,
            O::SetBreakpoints,
        ] {
            let err = check(op).expect_err("refused");
            assert!(
                matches!(err, SessionError::PostMortem { .. }),
                "{op}: {err}"
            );
            assert!(err.to_string().contains("core dump"), "{err}");
            assert!(err.hint().contains("read"), "{}", err.hint());
        }
        assert!(check(O::Continue)
            .unwrap_err()
            .to_string()
            .ends_with("a dump cannot run"));
        for op in [
            O::Threads,
            O::StackTrace,
            O::Scopes,
            O::Variables,
            O::Evaluate,
            O::Inspect,
            O::Query,
            O::Terminate,
            O::Disconnect,
            O::CustomRequest,
        ] {
            assert!(check(op).is_ok(), "{op}");
        }
    }

    #[test]
    fn a_dump_refuses_a_move_before_its_state_is_asked() {
        use SessionState as S;
        let paused = check_session(S::Stopped, None, true, Operation::Pause).unwrap_err();
        assert!(
            matches!(paused, SessionError::PostMortem { .. }),
            "{paused}"
        );
        let live = check_session(S::Stopped, None, false, Operation::Pause).unwrap_err();
        assert!(matches!(live, SessionError::InvalidState { .. }), "{live}");
        assert!(check_session(S::Stopped, None, true, Operation::Threads).is_ok());
        let early = check_session(S::Initializing, None, true, Operation::Threads).unwrap_err();
        match early {
            SessionError::InvalidState { allowed, .. } => {
                assert!(!allowed.contains(&Operation::SetBreakpoints), "{allowed:?}")
            }
            other => panic!("{other}"),
        }
        let failed = check_session(S::Failed, Some("gone"), true, Operation::Continue);
        assert!(matches!(
            failed.unwrap_err(),
            SessionError::SessionFailed { .. }
        ));
    }

    #[test]
    fn a_stopped_dump_allows_the_reads_and_the_ending_only() {
        let allowed = allowed_operations(SessionState::Stopped);
        assert!(allowed.contains(&Operation::StackTrace));
        assert!(allowed.contains(&Operation::Terminate));
        assert!(!allowed.contains(&Operation::Continue));
        assert!(!allowed.contains(&Operation::Next));
        assert!(!allowed.contains(&Operation::Restart));
    }

    #[test]
    fn the_signal_is_read_from_the_start_of_a_stop_description() {
        assert_eq!(
            signal_in("SIGSEGV: address not mapped to object (fault address=0x0)").as_deref(),
            Some("SIGSEGV")
        );
        assert_eq!(signal_in("SIGABRT").as_deref(), Some("SIGABRT"));
        assert_eq!(signal_in("runtime error"), None);
        assert_eq!(signal_in("SIG"), None);
        assert_eq!(signal_in("SIGNAL handler"), None);
        assert_eq!(signal_in("Signal 11"), None);
        assert_eq!(signal_in(""), None);
    }
}
