//! The state checks of [`SessionCore`](crate::core::session::SessionCore): every
//! operation refused in every state that does not allow it, with an error naming what
//! is allowed; every allowed one let through; `output`, `snapshot` and `wait_for_stop`
//! in every state.

use std::time::Duration;

use serde_json::json;

use super::*;
use crate::core::command::{Answer, Command, ControlAction, Effect};
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;

/// The states a session passes through when no adapter crashes.
const STATES: [SessionState; 6] = [
    SessionState::NotStarted,
    SessionState::Initializing,
    SessionState::Configured,
    SessionState::Running,
    SessionState::Stopped,
    SessionState::Terminated,
];

/// A command that counts as `op`.
pub(super) fn command_for(op: Operation) -> Command {
    use Operation as O;
    match op {
        O::Launch => Command::Start(Box::new(plan())),
        O::Attach => Command::Start(Box::new(attach_plan())),
        O::SetBreakpoints => Command::AddBreakpoint {
            file: PROGRAM.into(),
            breakpoint: bp(5),
        },
        O::SetExceptionBreakpoints => Command::SetExceptionBreakpoints(vec!["raised".into()]),
        O::Continue => control(ControlAction::Continue),
        O::Next => control(ControlAction::Next),
        O::StepIn => control(ControlAction::StepIn),
        O::StepOut => control(ControlAction::StepOut),
        O::Pause => control(ControlAction::Pause),
        O::Threads => request(op, "threads", json!({})),
        O::StackTrace => request(op, "stackTrace", json!({ "threadId": 1 })),
        O::Scopes => request(op, "scopes", json!({ "frameId": 1 })),
        O::Variables => request(op, "variables", json!({ "variablesReference": 7 })),
        O::Evaluate => request(op, "evaluate", json!({ "expression": "x" })),
        // An adapter's own command, which the runtime knows nothing of.
        O::CustomRequest => request(op, "_adapterOwnThing", json!({})),
        O::Terminate => Command::Terminate,
        O::Disconnect => Command::Disconnect {
            terminate_debuggee: false,
        },
        O::Inspect => request(op, "locations", json!({ "locationReference": 3 })),
        O::Modify => request(op, "setVariable", json!({ "name": "x", "value": "1" })),
        O::Navigate => request(op, "goto", json!({ "threadId": 1, "targetId": 2 })),
        O::Query => request(op, "source", json!({ "sourceReference": 4 })),
        O::Restart => Command::Restart,
    }
}

#[test]
fn every_operation_a_state_disallows_is_refused_naming_what_it_allows() {
    for state in STATES {
        for op in Operation::ALL.into_iter().filter(|op| !state.allows(*op)) {
            let mut h = Harness::in_state(state);
            let (token, out) = h.command(command_for(op));
            match out.error(token) {
                SessionError::InvalidState {
                    operation,
                    state: refused_in,
                    allowed,
                } => {
                    assert_eq!((*operation, *refused_in), (op, state));
                    assert_eq!(allowed, &state.allowed_operations());
                }
                other => panic!("{op} in {state}: want InvalidState, got {other:?}"),
            }
            assert!(out.sends().is_empty(), "{op} in {state} sent {out:?}");
            assert!(out.transitions().is_empty(), "{op} in {state} moved");
            assert!(!out.starts_adapter() && !out.stops_adapter());
            assert_eq!(h.state(), state);
        }
    }
}

#[test]
fn a_refusal_message_names_the_operation_the_state_and_each_allowed_operation() {
    let mut h = Harness::in_state(SessionState::Running);
    let (token, out) = h.command(control(ControlAction::Next));
    let message = out.error(token).to_string();
    assert!(
        message.starts_with("`next` is not allowed while the session is running; allowed now: "),
        "{message}"
    );
    for op in SessionState::Running.allowed_operations() {
        assert!(message.contains(op.name()), "{message} lacks {op}");
    }
    let err = out.error(token);
    assert!(matches!(err, SessionError::InvalidState { .. }), "{err}");
}

#[test]
fn every_operation_a_state_allows_passes_the_state_check() {
    for state in STATES {
        for op in Operation::ALL.into_iter().filter(|op| state.allows(*op)) {
            let mut h = Harness::in_state(state);
            let (_, out) = h.command(command_for(op));
            let refused = out.0.iter().any(|e| {
                matches!(
                    e,
                    Effect::Reply {
                        result: Err(SessionError::InvalidState { .. }),
                        ..
                    }
                )
            });
            assert!(!refused, "{op} refused in {state}: {out:?}");
        }
    }
}

#[test]
fn output_snapshot_and_wait_for_stop_work_in_every_state() {
    for state in STATES {
        let mut h = Harness::in_state(state);
        let (token, out) = h.command(Command::Output {
            since: 0,
            max_bytes: 100,
        });
        assert!(matches!(out.reply(token), Ok(Answer::Output(_))), "{state}");
        let (token, out) = h.command(Command::Snapshot);
        match out.reply(token) {
            Ok(Answer::Snapshot(s)) => {
                assert_eq!(s.state, state);
                assert_eq!(s.allowed, state.allowed_operations());
            }
            other => panic!("snapshot in {state}: {other:?}"),
        }
        let (token, out) = h.command(Command::WaitForStop {
            after: 0,
            timeout: Duration::from_secs(1),
        });
        // Answered at once (stopped, ended) or parked with a timer; never refused.
        assert!(
            out.replies() == 1 || out.timers().len() == 1,
            "wait in {state}: {out:?}"
        );
        if out.replies() == 1 {
            assert!(out.reply(token).is_ok(), "wait in {state}: {out:?}");
        }
    }
}
