//! The rest of a session's life in the core: the debuggee's end (`exited`,
//! `terminated`), output into the ring, ending a session (terminate, disconnect),
//! agent requests and their deadlines, other adapter events, stray responses, and
//! which commands count as use.

use std::time::Duration;

use serde_json::json;

use super::{full_caps, lldb_plan, plan, request, Harness};
use crate::core::command::{Answer, Command, Effect};
use crate::core::session_event::EventKind;
use crate::core::state::{Operation, SessionState};
use crate::error::{SessionError, TransportError};
use crate::limits;

fn output(category: &str, text: &str) -> serde_json::Value {
    json!({ "category": category, "output": text })
}

fn ring_text(h: &mut Harness) -> String {
    let (token, out) = h.command(Command::Output {
        since: 0,
        max_bytes: 4096,
    });
    match out.reply(token) {
        Ok(Answer::Output(slice)) => slice.text(),
        other => panic!("want output, got {other:?}"),
    }
}

// ---- the debuggee's end ----

#[test]
fn an_exited_event_records_the_code_and_ends_the_session() {
    let mut h = Harness::running();
    let out = h.event("exited", json!({ "exitCode": 3 }));
    assert_eq!(
        out.events(),
        vec![
            &EventKind::Exited { exit_code: 3 },
            &EventKind::StateChanged {
                from: SessionState::Running,
                to: SessionState::Terminated
            }
        ]
    );
    assert_eq!(h.core.snapshot().exit_code, Some(3));
}

#[test]
fn a_terminated_event_ends_the_session_and_lets_the_adapter_go() {
    let mut h = Harness::stopped();
    let out = h.event("terminated", json!({}));
    assert!(out
        .events()
        .contains(&&EventKind::Terminated { restart: None }));
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Stopped, SessionState::Terminated)]
    );
    let (_, args, timeout) = out.sent("disconnect");
    assert_eq!(args, json!({ "restart": false }));
    assert_eq!(timeout, limits::DEFAULT_DISCONNECT_TIMEOUT);
    let out = h.ok(out.tag("disconnect"), json!({}));
    assert!(out.stops_adapter());
}

#[test]
fn a_second_terminated_event_is_not_published_again() {
    let mut h = Harness::running();
    h.event("terminated", json!({}));
    let out = h.event("terminated", json!({}));
    assert!(out.0.is_empty(), "{out:?}");
}

// ---- output ----

#[test]
fn output_goes_into_the_ring_and_is_published() {
    let mut h = Harness::running();
    let out = h.event("output", output("stdout", "hello\n"));
    assert_eq!(
        out.events(),
        vec![&EventKind::Output {
            category: "stdout".into(),
            output: "hello\n".into()
        }]
    );
    h.event("output", json!({ "output": "no category\n" }));
    assert_eq!(ring_text(&mut h), "hello\nno category\n");
    assert_eq!(h.core.snapshot().output_end, 18);
}

#[test]
fn output_without_a_category_is_console_output() {
    let mut h = Harness::running();
    let out = h.event("output", json!({ "output": "x" }));
    assert!(matches!(
        out.events()[..],
        [EventKind::Output { ref category, .. }] if category == "console"
    ));
}

#[test]
fn telemetry_output_is_not_debuggee_output() {
    let mut h = Harness::running();
    let out = h.event("output", output("telemetry", "ptvsd"));
    assert!(matches!(
        out.events()[..],
        [EventKind::Adapter { ref event, .. }] if event == "output"
    ));
    assert_eq!(ring_text(&mut h), "");
    assert_eq!(h.core.snapshot().output_end, 0);
}

// ---- ending a session ----

#[test]
fn terminate_sends_disconnect_ending_the_debuggee_then_stops_the_adapter() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(Command::Terminate);
    let (tag, args, timeout) = out.sent("disconnect");
    assert_eq!(args, json!({ "restart": false, "terminateDebuggee": true }));
    assert_eq!(timeout, limits::DEFAULT_DISCONNECT_TIMEOUT);
    assert_eq!(out.replies(), 0);
    let out = h.ok(tag, json!({}));
    assert!(matches!(out.reply(token), Ok(Answer::Done)));
    assert!(out.stops_adapter());
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Stopped, SessionState::Terminated)]
    );
}

#[test]
fn disconnect_can_leave_the_debuggee_running() {
    let mut h = Harness::running();
    let (_, out) = h.command(Command::Disconnect {
        terminate_debuggee: false,
    });
    assert_eq!(
        out.args("disconnect"),
        json!({ "restart": false, "terminateDebuggee": false })
    );
}

#[test]
fn a_failed_disconnect_still_ends_the_session() {
    let mut h = Harness::running();
    let (token, out) = h.command(Command::Terminate);
    let timeout = TransportError::timeout("disconnect", limits::DEFAULT_DISCONNECT_TIMEOUT);
    let out = h.respond(out.tag("disconnect"), Err(timeout));
    assert!(matches!(out.reply(token), Ok(Answer::Done)));
    assert!(out.stops_adapter());
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn ending_wakes_the_stop_waiters() {
    let mut h = Harness::running();
    let (waiter, _) = h.command(Command::WaitForStop {
        after: 0,
        timeout: Duration::from_secs(60),
    });
    let (_, out) = h.command(Command::Terminate);
    let out = h.ok(out.tag("disconnect"), json!({}));
    assert!(out.reply(waiter).is_ok());
}

#[test]
fn terminate_during_the_handshake_fails_the_start_and_ends_the_session() {
    let mut h = Harness::new();
    let (start, out) = h.command(Command::Start(Box::new(plan())));
    h.ok(out.tag("initialize"), full_caps());
    let (token, out) = h.command(Command::Terminate);
    match out.error(start) {
        SessionError::StartFailed { message, .. } => {
            assert!(message.contains("terminate"), "{message}")
        }
        other => panic!("want StartFailed, got {other:?}"),
    }
    assert!(out.stops_adapter());
    let out = h.ok(out.tag("disconnect"), json!({}));
    assert!(matches!(out.reply(token), Ok(Answer::Done)));
    assert_eq!(h.state(), SessionState::Terminated);
}

// ---- agent requests ----

#[test]
fn a_request_is_answered_with_the_adapters_body() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(request(
        Operation::StackTrace,
        "stackTrace",
        json!({ "threadId": 1 }),
    ));
    assert_eq!(out.args("stackTrace"), json!({ "threadId": 1 }));
    let body = json!({ "stackFrames": [{ "id": 1, "name": "main", "line": 4, "column": 1 }] });
    let out = h.ok(out.tag("stackTrace"), body.clone());
    assert!(matches!(out.reply(token), Ok(Answer::Body(b)) if *b == body));
}

#[test]
fn a_threads_answer_is_remembered() {
    let mut h = Harness::running();
    let (_, out) = h.command(request(Operation::Threads, "threads", json!({})));
    h.ok(
        out.tag("threads"),
        json!({ "threads": [{ "id": 3, "name": "worker" }, { "id": 1, "name": "main" }] }),
    );
    let ids: Vec<_> = h.core.snapshot().threads.iter().map(|t| t.id).collect();
    assert_eq!(ids, vec![1, 3]);
}

#[test]
fn request_deadlines_default_to_the_config_and_are_clamped() {
    let mut h = Harness::stopped();
    for (asked, sent) in [
        (None, limits::DEFAULT_REQUEST_TIMEOUT),
        (Some(Duration::from_secs(1)), limits::MIN_REQUEST_TIMEOUT),
        (Some(Duration::from_secs(42)), Duration::from_secs(42)),
        (Some(Duration::from_secs(3600)), limits::MAX_REQUEST_TIMEOUT),
    ] {
        let (_, out) = h.command(Command::Request {
            operation: Operation::Evaluate,
            command: "evaluate".into(),
            arguments: Some(json!({ "expression": "x" })),
            timeout: asked,
        });
        assert_eq!(out.sent("evaluate").2, sent, "asked {asked:?}");
    }
}

#[test]
fn evaluate_defaults_to_the_repl_context_and_to_watch_on_lldb() {
    let mut h = Harness::stopped();
    let (_, out) = h.command(request(
        Operation::Evaluate,
        "evaluate",
        json!({ "expression": "x" }),
    ));
    assert_eq!(out.args("evaluate")["context"], "repl");

    let mut h = Harness::new();
    h.launch_with(lldb_plan(), full_caps());
    h.stop("breakpoint");
    let (_, out) = h.command(request(
        Operation::Evaluate,
        "evaluate",
        json!({ "expression": "x" }),
    ));
    assert_eq!(out.args("evaluate")["context"], "watch");
    let (_, out) = h.command(request(
        Operation::Evaluate,
        "evaluate",
        json!({ "expression": "x", "context": "repl" }),
    ));
    assert_eq!(out.args("evaluate")["context"], "repl");
}

#[test]
fn a_refused_request_is_the_adapters_error() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(request(
        Operation::Evaluate,
        "evaluate",
        json!({ "expression": "?" }),
    ));
    let out = h.refuse(out.tag("evaluate"), "invalid syntax");
    assert!(matches!(
        out.error(token),
        SessionError::Adapter { command, message, .. }
            if command == "evaluate" && message == "invalid syntax"
    ));
    assert_eq!(h.state(), SessionState::Stopped);
}

// ---- stray responses ----

#[test]
fn a_response_for_an_unknown_tag_is_ignored() {
    let mut h = Harness::stopped();
    let before = h.core.snapshot();
    let out = h.ok(9999, json!({}));
    assert!(out.0.is_empty(), "{out:?}");
    let after = h.core.snapshot();
    assert_eq!(
        (after.state, after.pending_requests),
        (before.state, before.pending_requests)
    );
}

#[test]
fn a_second_response_for_an_answered_request_is_ignored() {
    let mut h = Harness::stopped();
    let (_, out) = h.command(request(Operation::Threads, "threads", json!({})));
    let tag = out.tag("threads");
    let timeout = TransportError::timeout("threads", limits::DEFAULT_REQUEST_TIMEOUT);
    assert_eq!(h.respond(tag, Err(timeout)).replies(), 1);
    assert!(h.ok(tag, json!({ "threads": [] })).0.is_empty());
}

// ---- other adapter events ----

#[test]
fn thread_events_keep_the_thread_list() {
    let mut h = Harness::running();
    h.event("thread", json!({ "reason": "started", "threadId": 2 }));
    let out = h.event("thread", json!({ "reason": "started", "threadId": 5 }));
    assert_eq!(
        out.events(),
        vec![&EventKind::Thread {
            reason: "started".into(),
            thread_id: 5
        }]
    );
    h.event("thread", json!({ "reason": "exited", "threadId": 2 }));
    let ids: Vec<_> = h.core.snapshot().threads.iter().map(|t| t.id).collect();
    assert_eq!(ids, vec![5]);
}

#[test]
fn a_capabilities_event_adds_to_the_capabilities() {
    let mut h = Harness::new();
    h.launch_with(plan(), json!({ "supportsConfigurationDoneRequest": true }));
    let out = h.event(
        "capabilities",
        json!({ "capabilities": { "supportsFunctionBreakpoints": true } }),
    );
    assert!(matches!(
        out.events()[..],
        [EventKind::Adapter { ref event, .. }] if event == "capabilities"
    ));
    let caps = h.core.snapshot().capabilities;
    assert_eq!(caps.supports_function_breakpoints, Some(true));
    assert_eq!(caps.supports_configuration_done_request, Some(true));
}

#[test]
fn unknown_events_are_passed_on_as_they_came() {
    let mut h = Harness::running();
    let out = h.event("debugpySockets", json!({ "sockets": [] }));
    assert_eq!(
        out.events(),
        vec![&EventKind::Adapter {
            event: "debugpySockets".into(),
            body: Some(json!({ "sockets": [] }))
        }]
    );
    assert!(out.0.iter().all(|e| matches!(e, Effect::Emit(_))));
}

// ---- what counts as use ----

// The session's record of its last use is kept by its actor (`SessionShared`), which
// marks every command that counts; `actors/tests/reaping.rs` ages sessions under
// paused time. Which commands count is the core's rule:
#[test]
fn every_command_counts_as_use_but_reading_the_state() {
    assert!(!Command::Snapshot.counts_as_use());
    for command in [
        Command::Output {
            since: 0,
            max_bytes: 1,
        },
        Command::Terminate,
        Command::Restart,
    ] {
        assert!(command.counts_as_use(), "{command:?}");
    }
}

#[test]
fn a_program_printing_an_exit_line_has_not_exited() {
    // Reading the status from console output is for dlv, which sends no `exited`.
    let mut h = Harness::running();
    let out = h.event(
        "output",
        output("stdout", "Process 7 has exited with status 3\n"),
    );
    assert!(
        !out.events().contains(&&EventKind::Exited { exit_code: 3 }),
        "{out:?}"
    );
    assert_eq!(h.core.snapshot().exit_code, None);
}

#[test]
fn a_request_the_adapter_has_no_capability_for_is_refused_naming_it() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(request(
        Operation::Inspect,
        "disassemble",
        json!({ "memoryReference": "0x10", "instructionCount": 4 }),
    ));
    match out.error(token) {
        SessionError::Unsupported { capability, .. } => {
            assert!(
                capability.contains("supportsDisassembleRequest"),
                "{capability}"
            )
        }
        other => panic!("want Unsupported, got {other:?}"),
    }
    assert!(
        out.sends().is_empty(),
        "nothing reaches the adapter: {out:?}"
    );
}
