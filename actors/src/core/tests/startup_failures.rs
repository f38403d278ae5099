//! Starts that fail, in the session core: a `launch` refused before or after
//! configuration (in the adapter's words, with the output so far), a failed
//! `initialize`, the startup timer naming what it still waited for, and a debugpy
//! attach by pid whose injection failed or timed out, saying what to check.

use serde_json::json;

use super::{attach_plan, full_caps, plan, Harness};
use crate::core::command::Command;
use crate::core::session::CoreConfig;
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;
use std::time::Duration;

fn start_failure(err: &SessionError) -> (Operation, &str, &str) {
    match err {
        SessionError::StartFailed {
            operation,
            message,
            output,
        } => (*operation, message.as_str(), output.as_str()),
        other => panic!("want StartFailed, got {other:?}"),
    }
}

#[test]
fn a_launch_error_before_initialized_fails_the_start_in_the_adapters_words() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    let out = h.refuse(launch, "could not find the program /src/app.py");
    let (operation, message, _) = start_failure(out.error(token));
    assert_eq!(operation, Operation::Launch);
    assert_eq!(
        message,
        "`launch` failed: could not find the program /src/app.py"
    );
    assert!(out.stops_adapter());
    assert_eq!(h.state(), SessionState::Terminated);
    // The adapter's `initialized` that may still come starts no configuration.
    let out = h.event("initialized", json!({}));
    assert!(out.sends().is_empty(), "{out:?}");
}

#[test]
fn a_launch_error_after_configuration_done_is_reported_as_the_launch_error() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    let config = h.event("initialized", json!({}));
    h.ok(config.tag("configurationDone"), json!({}));
    let out = h.refuse(launch, "Program does not exist");
    let (operation, message, _) = start_failure(out.error(token));
    assert_eq!(operation, Operation::Launch);
    assert!(
        message.contains("`launch` failed: Program does not exist"),
        "{message}"
    );
    assert!(out.stops_adapter());
    assert_eq!(out.replies(), 1);
}

#[test]
fn a_launch_error_in_the_error_body_is_reported_with_its_text() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    let body = json!({ "error": { "id": 3000, "format": "build failed: exit status 1" } });
    let out = h.respond(launch, Ok(super::response(false, None, Some(body))));
    let (_, message, _) = start_failure(out.error(token));
    assert_eq!(message, "`launch` failed: build failed: exit status 1");
}

#[test]
fn an_initialize_error_fails_the_start() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let out = h.refuse(out.tag("initialize"), "unsupported client");
    let (_, message, _) = start_failure(out.error(token));
    assert_eq!(message, "`initialize` failed: unsupported client");
    assert!(
        out.sends().is_empty(),
        "launch sent after a failed initialize"
    );
}

#[test]
fn a_failed_start_carries_the_output_so_far() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    h.event(
        "output",
        json!({ "category": "stderr", "output": "main.go:3: undefined: x\n" }),
    );
    let out = h.refuse(launch, "build failed");
    let (_, _, output) = start_failure(out.error(token));
    assert_eq!(output, "main.go:3: undefined: x\n");
}

#[test]
fn the_startup_timer_fails_a_start_still_waiting_for_initialized() {
    let config = CoreConfig {
        launch_timeout: Some(Duration::from_secs(12)),
        ..CoreConfig::default()
    };
    let mut h = Harness::with_config(config);
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    assert_eq!(out.timers().len(), 1);
    let (timer, after) = out.timers()[0];
    assert_eq!(after, Duration::from_secs(12));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    h.ok(launch, json!({}));
    let out = h.timer(timer);
    let (_, message, _) = start_failure(out.error(token));
    assert!(message.contains("within 12s"), "{message}");
    assert!(message.contains("the `initialized` event"), "{message}");
    assert!(out.stops_adapter());
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn the_startup_timer_names_configuration_done_when_that_is_what_is_missing() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    let (timer, _) = out.timers()[0];
    h.ok(out.tag("initialize"), full_caps());
    h.event("initialized", json!({}));
    let out = h.timer(timer);
    let (_, message, _) = start_failure(out.error(token));
    assert!(message.contains("`configurationDone`"), "{message}");
}

/// An attach by pid under a debugpy-flavoured adapter.
fn debugpy_attach_plan() -> crate::core::command::StartPlan {
    let mut plan = attach_plan();
    plan.adapter.flavor = crate::registry::AdapterFlavor::Debugpy;
    plan
}

#[test]
fn a_failed_debugpy_injection_fails_the_attach_at_once_saying_what_to_check() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(debugpy_attach_plan())));
    h.ok(out.tag("initialize"), full_caps());
    let line = "Code injection into PID=42 failed:\n";
    let out = h.event("output", json!({ "category": "stderr", "output": line }));
    let (operation, message, output) = start_failure(out.error(token));
    assert_eq!(operation, Operation::Attach);
    assert!(
        message.contains("could not attach to process 42"),
        "{message}"
    );
    assert!(
        message.contains("gdb") && message.contains("ptrace_scope"),
        "{message}"
    );
    assert!(output.contains("Code injection"), "{output}");
    assert!(out.stops_adapter());

    // The same line from a launched program means nothing.
    let mut h = Harness::running();
    let out = h.event("output", json!({ "category": "stdout", "output": line }));
    assert_eq!(out.replies(), 0);
    assert_eq!(h.state(), SessionState::Running);
}

#[test]
fn a_debugpy_attach_that_times_out_says_what_to_check() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(debugpy_attach_plan())));
    let (timer, _) = out.timers()[0];
    h.ok(out.tag("initialize"), full_caps());
    let out = h.timer(timer);
    let (_, message, _) = start_failure(out.error(token));
    assert!(
        message.contains("could not attach to process 42"),
        "{message}"
    );
    assert!(message.contains("the `initialized` event"), "{message}");

    // Other adapters' attaches keep the plain reason.
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(attach_plan())));
    let (timer, _) = out.timers()[0];
    let out = h.timer(timer);
    let (_, message, _) = start_failure(out.error(token));
    assert!(!message.contains("gdb"), "{message}");
}
