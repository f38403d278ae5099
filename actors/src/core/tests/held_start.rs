//! Pure tests of a Java launch's `configurationDone` held back until the program is
//! seen held at its start (`core/held_start.rs`): JdiDapServer loses a resume sent
//! before the JVM suspends itself for its start event.

use serde_json::json;

use super::{attach_plan, full_caps, plan, Effects, Harness};
use crate::core::command::{Command, Token};
use crate::core::start_plan::StartPlan;
use crate::core::state::SessionState;
use crate::error::SessionError;
use crate::limits::HELD_CHECK_INTERVAL;
use crate::registry::AdapterFlavor;

fn java(mut plan: StartPlan) -> StartPlan {
    plan.adapter.flavor = AdapterFlavor::Jdi;
    plan
}

/// What JdiDapServer says it supports, as far as the handshake reads it.
fn java_caps() -> serde_json::Value {
    let mut caps = full_caps();
    caps["exceptionBreakpointFilters"] = json!([
        { "filter": "caught", "label": "Caught Exceptions" },
        { "filter": "uncaught", "label": "Uncaught Exceptions", "default": true }
    ]);
    caps
}

/// JdiDapServer's answer for a thread that is not suspended.
fn running_stack() -> serde_json::Value {
    json!({ "stackFrames": [], "totalFrames": 0,
            "message": "Thread 1 is not suspended; no frames available" })
}

/// A suspended thread at the VM's start, before any Java frame.
fn held_stack() -> serde_json::Value {
    json!({ "stackFrames": [], "totalFrames": 0 })
}

fn main_thread() -> serde_json::Value {
    json!({ "threads": [{ "id": 1, "name": "main" }, { "id": 2, "name": "Reference Handler" }] })
}

/// A Java launch in JdiDapServer's order: `initialized` right after `initialize`,
/// then `launch` answered once the VM is attached. Returns the effects of that answer.
fn launched(h: &mut Harness) -> (Token, Effects) {
    let (token, out) = h.command(Command::Start(Box::new(java(plan()))));
    let launch = h.ok(out.tag("initialize"), java_caps());
    let config = h.event("initialized", json!({}));
    assert!(
        !config.commands().contains(&"configurationDone"),
        "configurationDone before the program is held: {config:?}"
    );
    for (tag, request, _) in config.sends() {
        assert_eq!(request.command, "setExceptionBreakpoints", "{config:?}");
        h.ok(tag, json!({}));
    }
    (token, h.ok(launch.tag("launch"), json!({})))
}

#[test]
fn a_java_launch_configures_once_a_stack_trace_shows_the_program_held() {
    let mut h = Harness::new();
    let (token, out) = launched(&mut h);
    assert_eq!(out.commands(), vec!["threads"]);
    let out = h.ok(out.tag("threads"), main_thread());
    assert_eq!(out.commands(), vec!["stackTrace"]);
    assert_eq!(
        out.args("stackTrace"),
        json!({ "threadId": 1, "startFrame": 0, "levels": 1 })
    );
    // Not suspended yet: asked again after the interval, nothing sent meanwhile.
    let out = h.ok(out.tag("stackTrace"), running_stack());
    assert!(out.sends().is_empty(), "{out:?}");
    let (retry, after) = out.timers()[0];
    assert_eq!(after, HELD_CHECK_INTERVAL);
    assert_eq!(out.replies(), 0, "answered before configuration: {out:?}");

    let out = h.timer(retry);
    assert_eq!(out.commands(), vec!["threads"]);
    let out = h.ok(out.tag("threads"), main_thread());
    let out = h.ok(out.tag("stackTrace"), held_stack());
    assert_eq!(out.commands(), vec!["configurationDone"]);
    let out = h.ok(out.tag("configurationDone"), json!({}));
    assert!(out.reply(token).is_ok(), "{out:?}");
    assert_eq!(h.state(), SessionState::Running);
}

#[test]
fn a_program_held_at_the_first_look_is_configured_at_once() {
    let mut h = Harness::new();
    let (_, out) = launched(&mut h);
    let out = h.ok(out.tag("threads"), main_thread());
    let out = h.ok(out.tag("stackTrace"), held_stack());
    assert_eq!(out.commands(), vec!["configurationDone"]);
    assert!(out.timers().is_empty(), "{out:?}");
}

#[test]
fn a_check_the_adapter_refuses_holds_nothing_back() {
    let mut h = Harness::new();
    let (_, out) = launched(&mut h);
    let out = h.refuse(out.tag("threads"), "no VM");
    assert_eq!(out.commands(), vec!["configurationDone"]);

    let mut h = Harness::new();
    let (_, out) = launched(&mut h);
    let out = h.ok(out.tag("threads"), main_thread());
    let out = h.refuse(out.tag("stackTrace"), "no frames");
    assert_eq!(out.commands(), vec!["configurationDone"]);
}

#[test]
fn no_thread_yet_is_asked_again() {
    let mut h = Harness::new();
    let (_, out) = launched(&mut h);
    let out = h.ok(out.tag("threads"), json!({ "threads": [] }));
    assert!(out.sends().is_empty(), "{out:?}");
    let out = h.timer(out.timers()[0].0);
    assert_eq!(out.commands(), vec!["threads"]);
}

#[test]
fn a_launch_answered_before_initialized_checks_on_initialized() {
    let mut h = Harness::new();
    let (_, out) = h.command(Command::Start(Box::new(java(plan()))));
    let launch = h.ok(out.tag("initialize"), java_caps());
    let out = h.ok(launch.tag("launch"), json!({}));
    assert!(out.sends().is_empty(), "{out:?}");
    let out = h.event("initialized", json!({}));
    assert_eq!(out.commands(), vec!["setExceptionBreakpoints", "threads"]);
}

#[test]
fn an_attach_configures_without_a_check() {
    let mut h = Harness::new();
    let (_, out) = h.command(Command::Start(Box::new(java(attach_plan()))));
    h.ok(out.tag("initialize"), java_caps());
    let out = h.event("initialized", json!({}));
    assert!(out.commands().contains(&"configurationDone"), "{out:?}");
    assert!(!out.commands().contains(&"threads"), "{out:?}");
}

#[test]
fn a_handshake_that_passes_its_deadline_while_checking_says_so() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(java(plan()))));
    let (deadline, _) = out.timers()[0];
    let launch = h.ok(out.tag("initialize"), java_caps());
    h.event("initialized", json!({}));
    let out = h.ok(launch.tag("launch"), json!({}));
    let out = h.ok(out.tag("threads"), main_thread());
    h.ok(out.tag("stackTrace"), running_stack());
    let out = h.timer(deadline);
    match out.error(token) {
        SessionError::StartFailed { message, .. } => assert!(
            message.contains("the program to be held at its start"),
            "{message}"
        ),
        other => panic!("want StartFailed, got {other:?}"),
    }
}
