//! A session on a core dump refuses, in the core itself and before anything is sent,
//! every move and write of the program (`post_mortem.rs`): the agent's own controls,
//! the same commands sent by name, a goto, a restart and breakpoints, while reads of
//! the stop go to the adapter as at any stop.

use serde_json::json;

use super::{control, full_caps, plan, request, Harness};
use crate::core::command::{Command, ControlAction};
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;

/// Opened on a core dump (lldb-dap's way: an `attach`) and stopped where it died.
fn core_stopped() -> Harness {
    let mut h = Harness::new();
    let mut opened = plan();
    opened.operation = Operation::Attach;
    opened.core_file = Some("/dumps/core.17".into());
    h.launch_with(opened, full_caps());
    h.stop("entry");
    assert_eq!(h.state(), SessionState::Stopped);
    h
}

fn post_mortem(err: &SessionError) -> Option<Operation> {
    match err {
        SessionError::PostMortem { operation } => Some(*operation),
        _ => None,
    }
}

#[test]
fn every_move_is_refused_before_it_is_sent() {
    let mut h = core_stopped();
    for action in [
        ControlAction::Continue,
        ControlAction::Next,
        ControlAction::StepIn,
        ControlAction::StepOut,
        ControlAction::Pause,
    ] {
        let (token, out) = h.command(control(action));
        assert_eq!(post_mortem(out.error(token)), Some(action.operation()));
        assert!(out.sends().is_empty(), "{action:?}: {out:?}");
    }
    for (command, arguments) in [
        ("continue", json!({ "threadId": 1 })),
        ("goto", json!({ "threadId": 1, "targetId": 1 })),
        ("stepBack", json!({ "threadId": 1 })),
        (
            "setVariable",
            json!({ "variablesReference": 1, "name": "x", "value": "1" }),
        ),
        (
            "writeMemory",
            json!({ "memoryReference": "0x10", "data": "AA==" }),
        ),
    ] {
        let (token, out) = h.command(request(Operation::CustomRequest, command, arguments));
        assert!(
            post_mortem(out.error(token)).is_some(),
            "{command}: {:?}",
            out.error(token)
        );
        assert!(out.sends().is_empty(), "{command}: {out:?}");
    }
    let (token, out) = h.command(Command::SetBreakpoints {
        file: "/a.c".into(),
        breakpoints: Vec::new(),
    });
    assert_eq!(
        post_mortem(out.error(token)),
        Some(Operation::SetBreakpoints)
    );
    let (token, out) = h.command(Command::Restart);
    assert_eq!(post_mortem(out.error(token)), Some(Operation::Restart));
    assert_eq!(h.state(), SessionState::Stopped, "still where it died");
}

#[test]
fn reads_go_to_the_adapter_and_the_snapshot_says_it_is_a_core() {
    let mut h = core_stopped();
    let (_, out) = h.command(request(Operation::Threads, "threads", json!({})));
    assert_eq!(out.commands(), vec!["threads"]);
    let snapshot = h.core.snapshot();
    assert_eq!(snapshot.core_file.as_deref(), Some("/dumps/core.17"));
    assert!(snapshot.allowed.contains(&Operation::StackTrace));
    assert!(snapshot.allowed.contains(&Operation::Terminate));
    for moving in [Operation::Continue, Operation::Next, Operation::Restart] {
        assert!(!snapshot.allowed.contains(&moving), "{moving}");
    }
}
