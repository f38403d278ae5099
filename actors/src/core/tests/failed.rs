//! Failure in the core (`adapter_restart.rs`): past the budget, or with a live adapter, and
//! every request in `AdapterRestarting` (only breakpoints and ending are let through) and in
//! `Failed` (nothing is, but the snapshot and output).

use std::time::Duration;

use serde_json::json;

use super::adapter_restart::{killed, restart_handshake};
use super::states::command_for;
use super::{Harness, PROGRAM};
use crate::core::command::{Answer, Command, Input};
use crate::core::failure::Failure;
use crate::core::session_event::EventKind;
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;

// ---- failure ----

#[test]
fn past_the_budget_the_session_fails_with_the_reason() {
    let mut h = Harness::crashed();
    // A breakpoint change is answered from the cache at once, even now.
    let (request, cached) = h.command(Command::SetBreakpoints {
        file: PROGRAM.into(),
        breakpoints: vec![],
    });
    assert!(cached.reply(request).is_ok());
    let (waiter, _) = h.command(Command::WaitForStop {
        after: 1,
        timeout: Duration::from_secs(60),
    });
    let reason = "the adapter crashed 6 times within 60s".to_string();
    let out = h.input(Input::Fail {
        cause: Failure::RestartBudgetSpent(reason.clone()),
    });
    assert_eq!(
        out.events(),
        vec![
            &EventKind::AdapterCrashed {
                exit: killed(),
                attempt: None,
                restart_in_ms: None
            },
            &EventKind::StateChanged {
                from: SessionState::AdapterRestarting,
                to: SessionState::Failed
            },
            &EventKind::SessionFailed {
                reason: reason.clone()
            },
        ]
    );
    assert!(!out.stops_adapter(), "the crashed adapter is already gone");
    assert!(matches!(
        out.error(waiter),
        SessionError::SessionFailed { reason: r } if *r == reason
    ));
    assert_eq!(out.replies(), 1, "{out:?}");
    assert_eq!(h.core.snapshot().failure, Some(reason));
}

#[test]
fn a_failure_with_a_live_adapter_stops_it_and_fails_what_is_pending() {
    let mut h = Harness::stopped();
    let (request, _) = h.command(command_for(Operation::StackTrace));
    let out = h.input(Input::Fail {
        cause: Failure::TargetGone("the attached process 42 is gone".into()),
    });
    assert!(out.stops_adapter());
    assert!(matches!(
        out.error(request),
        SessionError::SessionFailed { reason } if reason.contains("process 42")
    ));
    assert_eq!(h.state(), SessionState::Failed);
}

#[test]
fn failing_twice_or_after_the_end_changes_nothing() {
    let mut h = Harness::failed();
    let out = h.input(Input::Fail {
        cause: Failure::RestartBudgetSpent("again".into()),
    });
    assert!(out.0.is_empty(), "{out:?}");
    assert!(h.core.snapshot().failure.unwrap().contains("6 times"));

    let mut h = Harness::in_state(SessionState::Terminated);
    let out = h.input(Input::Fail {
        cause: Failure::RestartBudgetSpent("late".into()),
    });
    assert!(out.0.is_empty(), "{out:?}");
    assert_eq!(h.state(), SessionState::Terminated);
}

// ---- requests while restarting and after failure ----

#[test]
fn restarting_refuses_all_but_breakpoints_and_ending_naming_what_it_allows() {
    let allowed = SessionState::AdapterRestarting.allowed_operations();
    assert_eq!(
        allowed,
        vec![
            Operation::SetBreakpoints,
            Operation::SetExceptionBreakpoints,
            Operation::Terminate,
            Operation::Disconnect
        ]
    );
    for op in Operation::ALL
        .into_iter()
        .filter(|op| !allowed.contains(op))
    {
        let mut h = Harness::restarting();
        let (token, out) = h.command(command_for(op));
        match out.error(token) {
            SessionError::InvalidState {
                operation,
                state,
                allowed: listed,
            } => {
                assert_eq!((*operation, *state), (op, SessionState::AdapterRestarting));
                assert_eq!(listed, &allowed);
            }
            other => panic!("{op}: want InvalidState, got {other:?}"),
        }
        assert!(out.sends().is_empty() && !out.starts_adapter(), "{op}");
        assert_eq!(h.state(), SessionState::AdapterRestarting);
    }
}

#[test]
fn breakpoints_edited_while_restarting_are_cached_for_the_new_adapter() {
    let mut h = Harness::restarting();
    let (token, out) = h.command(command_for(Operation::SetBreakpoints));
    assert!(out.sends().is_empty());
    assert!(matches!(out.reply(token), Ok(Answer::SourceBreakpoints(r)) if r.len() == 1));
    let (token, out) = h.command(command_for(Operation::SetExceptionBreakpoints));
    assert!(out.sends().is_empty());
    assert!(matches!(out.reply(token), Ok(Answer::Done)));

    let out = restart_handshake(&mut h, 1, 1);
    assert_eq!(
        out.args("setBreakpoints")["breakpoints"],
        json!([{ "line": 5 }])
    );
    assert_eq!(
        out.args("setExceptionBreakpoints"),
        json!({ "filters": ["raised"] })
    );
}

#[test]
fn disconnect_while_restarting_ends_the_session_at_once() {
    let mut h = Harness::restarting();
    let (token, out) = h.command(command_for(Operation::Disconnect));
    assert!(matches!(out.reply(token), Ok(Answer::Done)));
    assert!(out.sends().is_empty() && !out.stops_adapter());
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn a_failed_session_refuses_every_operation_with_its_reason() {
    assert!(SessionState::Failed.allowed_operations().is_empty());
    for op in Operation::ALL {
        let mut h = Harness::failed();
        let (token, out) = h.command(command_for(op));
        match out.error(token) {
            SessionError::SessionFailed { reason } => {
                assert_eq!(reason, "the adapter crashed 6 times within 60s", "{op}")
            }
            other => panic!("{op}: want SessionFailed, got {other:?}"),
        }
        assert!(out.sends().is_empty() && out.events().is_empty(), "{op}");
    }
    let mut h = Harness::failed();
    let (token, out) = h.command(Command::WaitForStop {
        after: 0,
        timeout: Duration::from_secs(1),
    });
    assert!(matches!(
        out.error(token),
        SessionError::SessionFailed { .. }
    ));
}

#[test]
fn a_failed_session_still_shows_its_snapshot_and_output() {
    let mut h = Harness::failed();
    let (token, out) = h.command(Command::Snapshot);
    match out.reply(token) {
        Ok(Answer::Snapshot(s)) => {
            assert_eq!((s.state, s.allowed.len()), (SessionState::Failed, 0));
            assert!(s.failure.as_deref().unwrap().contains("6 times"));
        }
        other => panic!("{other:?}"),
    }
    let (token, out) = h.command(Command::Output {
        since: 0,
        max_bytes: 64,
    });
    assert!(matches!(out.reply(token), Ok(Answer::Output(_))));
}
