//! The launch handshake of the session core: `initialize` awaited, `launch`/`attach`
//! sent but not awaited, configuration on `initialized` (every file's full list,
//! function breakpoints, exception filters, `configurationDone` with `{}`), and the
//! start answered only once launch succeeded and configuration is done, in debugpy's
//! order and in lldb-dap's and dlv's; a debuggee that ends during the handshake.
//! (Failed starts and the startup timer: `startup_failures.rs`.)

use serde_json::json;

use super::{attach_plan, full_caps, lines, plan, with_breakpoints, Harness, PROGRAM};
use crate::core::command::{Answer, Command, Effect};
use crate::core::session::{function_breakpoint, CoreConfig};
use crate::core::session_event::EventKind;
use crate::core::state::SessionState;
use crate::error::SessionError;

#[test]
fn start_starts_the_adapter_then_sends_initialize_alone() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    assert_eq!(out.commands(), vec!["initialize"]);
    let started = out
        .0
        .iter()
        .position(|e| matches!(e, Effect::StartAdapter(_)));
    let sent = out.0.iter().position(|e| matches!(e, Effect::Send { .. }));
    assert!(
        started < sent,
        "the adapter must exist before the send: {out:?}"
    );
    let args = out.args("initialize");
    assert_eq!(args["clientID"], "dapvisor");
    assert_eq!(args["adapterID"], "fake");
    assert_eq!(args["linesStartAt1"], true);
    assert_eq!(
        out.transitions(),
        vec![(SessionState::NotStarted, SessionState::Initializing)]
    );
    assert_eq!(out.replies(), 0, "start {token} answered too early");
}

#[test]
fn the_initialize_answer_sends_launch_with_the_plans_arguments() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let out = h.ok(out.tag("initialize"), full_caps());
    assert_eq!(out.commands(), vec!["launch"]);
    assert_eq!(out.args("launch"), json!({ "program": PROGRAM }));
    assert_eq!(out.replies(), 0, "start {token} answered before launch");
    assert_eq!(h.state(), SessionState::Initializing);
}

#[test]
fn an_attach_plan_sends_attach() {
    let mut h = Harness::new();
    let (_, out) = h.command(Command::Start(Box::new(attach_plan())));
    let out = h.ok(out.tag("initialize"), full_caps());
    assert_eq!(out.commands(), vec!["attach"]);
    assert_eq!(out.args("attach"), json!({ "processId": 42 }));
}

#[test]
fn initialized_sends_each_files_full_list_then_functions_exceptions_and_configuration_done() {
    let mut h = Harness::new();
    let mut plan = with_breakpoints(
        plan(),
        &[("/src/a.py", 3), ("/src/b.py", 7), ("/src/a.py", 9)],
    );
    plan.function_breakpoints = vec![function_breakpoint("main")];
    plan.exception_filters = vec!["raised".into()];
    let (_, out) = h.command(Command::Start(Box::new(plan)));
    h.ok(out.tag("initialize"), full_caps());
    let out = h.event("initialized", json!({}));
    assert_eq!(
        out.commands(),
        vec![
            "setBreakpoints",
            "setBreakpoints",
            "setFunctionBreakpoints",
            "setExceptionBreakpoints",
            "configurationDone"
        ]
    );
    let sends = out.sends();
    let files: Vec<_> = sends[..2]
        .iter()
        .map(|(_, r, _)| {
            let args = r.arguments.clone().unwrap();
            (
                args["source"]["path"].as_str().unwrap().to_string(),
                lines(&args),
            )
        })
        .collect();
    assert_eq!(
        files,
        vec![
            ("/src/a.py".to_string(), vec![3, 9]),
            ("/src/b.py".to_string(), vec![7])
        ]
    );
    assert_eq!(
        out.args("setFunctionBreakpoints")["breakpoints"][0]["name"],
        "main"
    );
    assert_eq!(
        out.args("setExceptionBreakpoints")["filters"],
        json!(["raised"])
    );
    assert_eq!(out.args("configurationDone"), json!({}));
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Initializing, SessionState::Configured)]
    );
}

#[test]
fn debugpy_order_answers_the_start_when_launch_answers_after_configuration_done() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    // debugpy sends `initialized` while `launch` is still unanswered.
    let config = h.event("initialized", json!({}));
    let out = h.ok(config.tag("configurationDone"), json!({}));
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Configured, SessionState::Running)]
    );
    assert_eq!(out.replies(), 0, "answered before launch succeeded");
    let out = h.ok(launch, json!({}));
    match out.reply(token) {
        Ok(Answer::Snapshot(s)) => assert_eq!(s.state, SessionState::Running),
        other => panic!("want a snapshot, got {other:?}"),
    }
}

#[test]
fn lldb_order_answers_the_start_when_configuration_is_done_after_launch_answered() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    let out = h.ok(launch, json!({}));
    assert_eq!(out.replies(), 0, "answered before configuration");
    assert_eq!(h.state(), SessionState::Initializing);
    let config = h.event("initialized", json!({}));
    let out = h.ok(config.tag("configurationDone"), json!({}));
    match out.reply(token) {
        Ok(Answer::Snapshot(s)) => assert_eq!(s.state, SessionState::Running),
        other => panic!("want a snapshot, got {other:?}"),
    }
}

#[test]
fn configuration_done_is_not_sent_to_an_adapter_without_it() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), json!({})).tag("launch");
    h.ok(launch, json!({}));
    let out = h.event("initialized", json!({}));
    assert!(!out.commands().contains(&"configurationDone"), "{out:?}");
    assert!(out.reply(token).is_ok());
    assert_eq!(h.state(), SessionState::Running);
}

#[test]
fn function_breakpoints_are_not_sent_to_an_adapter_without_them() {
    let mut h = Harness::new();
    let mut plan = plan();
    plan.function_breakpoints = vec![function_breakpoint("main")];
    let (_, out) = h.command(Command::Start(Box::new(plan)));
    h.ok(
        out.tag("initialize"),
        json!({ "supportsConfigurationDoneRequest": true }),
    );
    let out = h.event("initialized", json!({}));
    assert_eq!(out.commands(), vec!["configurationDone"]);
}

#[test]
fn exception_breakpoints_are_sent_when_the_adapter_offers_filters() {
    let mut h = Harness::new();
    let (_, out) = h.command(Command::Start(Box::new(plan())));
    let mut caps = full_caps();
    caps["exceptionBreakpointFilters"] = json!([{ "filter": "raised", "label": "Raised" }]);
    h.ok(out.tag("initialize"), caps);
    let out = h.event("initialized", json!({}));
    assert_eq!(
        out.commands(),
        vec!["setExceptionBreakpoints", "configurationDone"]
    );
    assert_eq!(out.args("setExceptionBreakpoints")["filters"], json!([]));
}

#[test]
fn nothing_but_configuration_done_is_sent_when_nothing_is_cached() {
    let mut h = Harness::new();
    let (_, out) = h.command(Command::Start(Box::new(plan())));
    h.ok(out.tag("initialize"), full_caps());
    let out = h.event("initialized", json!({}));
    assert_eq!(out.commands(), vec!["configurationDone"]);
}

#[test]
fn a_refused_breakpoint_during_configuration_does_not_fail_the_start() {
    let mut h = Harness::new();
    let plan = with_breakpoints(plan(), &[("/src/a.py", 3)]);
    let (token, out) = h.command(Command::Start(Box::new(plan)));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    h.ok(launch, json!({}));
    let config = h.event("initialized", json!({}));
    let out = h.refuse(config.tag("setBreakpoints"), "no such file");
    assert_eq!(out.replies(), 0);
    let out = h.ok(config.tag("configurationDone"), json!({}));
    assert!(out.reply(token).is_ok(), "{out:?}");
}

#[test]
fn the_startup_timer_is_harmless_after_a_successful_start() {
    let mut h = Harness::new();
    let out = h.launch_with(plan(), full_caps());
    let (timer, _) = out.timers()[0];
    let out = h.timer(timer);
    assert!(out.0.is_empty(), "{out:?}");
    assert_eq!(h.state(), SessionState::Running);
}

#[test]
fn a_debuggee_that_ends_during_the_handshake_answers_the_start_and_releases_the_adapter() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    h.event("initialized", json!({}));
    h.event("exited", json!({ "exitCode": 2 }));
    let out = h.ok(launch, json!({}));
    match out.reply(token) {
        Ok(Answer::Snapshot(s)) => {
            assert_eq!((s.state, s.exit_code), (SessionState::Terminated, Some(2)))
        }
        other => panic!("want a snapshot, got {other:?}"),
    }
    assert_eq!(out.args("disconnect"), json!({ "restart": false }));
}

#[test]
fn a_terminated_session_starts_again_with_a_fresh_adapter_and_its_breakpoints() {
    let mut h = Harness::in_state(SessionState::Terminated);
    h.command(Command::AddBreakpoint {
        file: "/src/a.py".into(),
        breakpoint: super::bp(4),
    });
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    assert!(out.starts_adapter());
    assert_eq!(out.commands(), vec!["initialize"]);
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Terminated, SessionState::Initializing)]
    );
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    h.ok(launch, json!({}));
    let config = h.event("initialized", json!({}));
    assert_eq!(lines(&config.args("setBreakpoints")), vec![4]);
    let out = h.ok(config.tag("configurationDone"), json!({}));
    match out.reply(token) {
        // What the old run said (its exit code) no longer holds.
        Ok(Answer::Snapshot(s)) => assert_eq!(s.exit_code, None),
        other => panic!("want a snapshot, got {other:?}"),
    }
}

#[test]
fn a_start_publishes_the_state_changes_of_the_whole_handshake() {
    let mut h = Harness::new();
    let out = h.launch_with(plan(), full_caps());
    assert_eq!(
        out.transitions(),
        vec![
            (SessionState::NotStarted, SessionState::Initializing),
            (SessionState::Initializing, SessionState::Configured),
            (SessionState::Configured, SessionState::Running)
        ]
    );
    assert!(out
        .events()
        .iter()
        .all(|e| matches!(e, EventKind::StateChanged { .. })));
}

#[test]
fn a_stop_during_the_handshake_is_kept_and_answered_with_the_start() {
    // debugpy with stopOnEntry: `stopped` comes before configurationDone is answered.
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    let config = h.event("initialized", json!({}));
    h.event("stopped", json!({ "reason": "entry", "threadId": 1 }));
    h.ok(config.tag("configurationDone"), json!({}));
    let out = h.ok(launch, json!({}));
    match out.reply(token) {
        Ok(Answer::Snapshot(s)) => {
            assert_eq!(s.state, SessionState::Stopped);
            assert_eq!(
                s.last_stop.as_ref().map(|l| l.reason.as_str()),
                Some("entry")
            );
        }
        other => panic!("want a snapshot, got {other:?}"),
    }
}

#[test]
fn a_start_refused_over_the_breakpoint_limit_caches_none_of_its_breakpoints() {
    let mut h = Harness::with_config(CoreConfig {
        max_breakpoints: 2,
        ..CoreConfig::default()
    });
    let plan = with_breakpoints(
        plan(),
        &[("/src/a.py", 1), ("/src/a.py", 2), ("/src/a.py", 3)],
    );
    let (token, out) = h.command(Command::Start(Box::new(plan)));
    assert!(matches!(
        out.error(token),
        SessionError::LimitExceeded { limit: 2, .. }
    ));
    assert!(!out.starts_adapter());
    assert_eq!(h.core.snapshot().breakpoints.count(), 0);
}

#[test]
fn a_plans_notes_open_the_sessions_output_once_as_important_lines() {
    let mut h = Harness::new();
    let note = "dapvisor: no Rust toolchain found; Rust values show raw\n";
    let mut noted = plan();
    noted.notes = vec![note.to_string()];
    let out = h.launch_with(noted, full_caps());
    let said: Vec<_> = out
        .events()
        .into_iter()
        .filter(|e| matches!(e, EventKind::Output { category, output } if category == "important" && output == note))
        .collect();
    assert_eq!(said.len(), 1, "{out:?}");
    let (token, read) = h.command(Command::Output {
        since: 0,
        max_bytes: 4096,
    });
    match read.reply(token) {
        Ok(Answer::Output(slice)) => assert_eq!(slice.text(), note),
        other => panic!("want output, got {other:?}"),
    }
}
