//! What a session says after a move the adapter refused or never answered (issue 27,
//! items 1 and 2): a refusal puts back the state the request left; an unanswered move
//! may have moved the program, so the session runs until the adapter says it stopped;
//! a command sent by name is checked as the operation it carries out.

use std::time::Duration;

use serde_json::json;

use super::{control, Harness};
use crate::core::command::{Command, ControlAction};
use crate::core::state::SessionState;
use crate::error::{SessionError, TransportError};

// Issue 27, item 1: an unanswered move may have moved the program.
#[test]
fn a_step_that_times_out_stays_running_until_the_adapter_says_it_stopped() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(control(ControlAction::Next));
    let timeout = TransportError::timeout("next", Duration::from_secs(30));
    let out = h.respond(out.tag("next"), Err(timeout));
    assert_eq!(h.state(), SessionState::Running);
    assert!(matches!(out.error(token), SessionError::Timeout { .. }));
    // A pause is allowed, and the stop it brings settles the state.
    let (_, out) = h.command(control(ControlAction::Pause));
    out.tag("pause");
    h.stop("pause");
    assert_eq!(h.state(), SessionState::Stopped);
}

/// `continue` sent by name, as the caller says it counts (issue 27, item 2).
fn raw_continue(counts_as: crate::core::state::Operation) -> Command {
    Command::Request {
        operation: counts_as,
        command: "continue".into(),
        arguments: Some(json!({ "threadId": 1 })),
        timeout: None,
    }
}

// Issue 27, items 1 and 2: a continue by name is checked as a continue, whatever the
// caller calls it, and a refused one puts back the state it left.
#[test]
fn a_continue_by_name_is_checked_as_a_continue_and_a_refusal_puts_back_its_state() {
    use crate::core::state::Operation;
    let mut h = Harness::stopped();
    let (_, out) = h.command(control(ControlAction::Continue));
    h.ok(out.tag("continue"), json!({}));
    assert_eq!(h.state(), SessionState::Running);
    for counts_as in [
        Operation::CustomRequest,
        Operation::Query,
        Operation::SetBreakpoints,
    ] {
        let (token, out) = h.command(raw_continue(counts_as));
        assert!(
            matches!(
                out.error(token),
                SessionError::InvalidState {
                    operation: Operation::Continue,
                    ..
                }
            ),
            "{counts_as:?}"
        );
    }
    assert_eq!(h.state(), SessionState::Running);
    h.stop("pause");
    let (token, out) = h.command(raw_continue(Operation::CustomRequest));
    let out = h.refuse(out.tag("continue"), "the thread is gone");
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Running, SessionState::Stopped)]
    );
    assert!(matches!(out.error(token), SessionError::Adapter { .. }));
}
