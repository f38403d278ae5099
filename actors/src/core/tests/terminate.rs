//! Pure tests of ending a debuggee gracefully: `terminate` first where the adapter
//! advertises it, the debuggee given until its `terminated` event (bounded), then
//! `disconnect`; a refused or unanswered `terminate` goes straight on.

use serde_json::{json, Value};

use super::{plan, Effects, Harness};
use crate::core::command::{Answer, Command, Input};
use crate::core::state::SessionState;
use crate::error::{AdapterExit, TransportError};
use crate::limits;

/// Running under an adapter with `terminate`.
fn running_with_terminate() -> Harness {
    let mut h = Harness::new();
    h.launch_with(
        plan(),
        json!({ "supportsConfigurationDoneRequest": true, "supportsTerminateRequest": true }),
    );
    h
}

fn disconnect_args(out: &Effects) -> Value {
    out.args("disconnect")
}

#[test]
fn terminate_asks_first_and_disconnects_once_the_debuggee_ended() {
    let mut h = running_with_terminate();
    let (token, out) = h.command(Command::Terminate);
    assert_eq!(out.commands(), ["terminate"]);
    let (_, _, deadline) = out.sent("terminate");
    assert_eq!(deadline, limits::DEFAULT_TERMINATE_GRACE);
    assert_eq!(out.timers()[0].1, limits::DEFAULT_TERMINATE_GRACE);

    let answered = h.ok(out.tag("terminate"), json!({}));
    assert!(answered.sends().is_empty(), "the debuggee gets its time");
    assert_eq!(answered.replies(), 0);
    let ended = h.event("terminated", json!({}));
    assert_eq!(
        disconnect_args(&ended),
        json!({ "restart": false, "terminateDebuggee": true })
    );
    let done = h.ok(ended.tag("disconnect"), json!({}));
    assert!(matches!(done.reply(token), Ok(Answer::Done)));
    assert!(done.stops_adapter());
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn a_debuggee_that_ended_before_the_answer_is_disconnected_at_the_answer() {
    let mut h = running_with_terminate();
    let (_, out) = h.command(Command::Terminate);
    let ended = h.event("terminated", json!({}));
    assert!(ended.sends().is_empty(), "no second ending: {ended:?}");
    let answered = h.ok(out.tag("terminate"), json!({}));
    assert_eq!(answered.commands(), ["disconnect"]);
}

#[test]
fn a_debuggee_that_does_not_end_in_time_is_disconnected() {
    let mut h = running_with_terminate();
    let (_, out) = h.command(Command::Terminate);
    let (timer, _) = out.timers()[0];
    h.ok(out.tag("terminate"), json!({}));
    let late = h.timer(timer);
    assert_eq!(late.commands(), ["disconnect"]);
}

#[test]
fn a_refused_or_unanswered_terminate_goes_straight_to_disconnect() {
    let mut h = running_with_terminate();
    let (_, out) = h.command(Command::Terminate);
    let refused = h.refuse(out.tag("terminate"), "cannot terminate");
    assert_eq!(refused.commands(), ["disconnect"]);

    let mut h = running_with_terminate();
    let (token, out) = h.command(Command::Terminate);
    let (timer, _) = out.timers()[0];
    assert!(h.timer(timer).sends().is_empty());
    let timed_out = h.respond(
        out.tag("terminate"),
        Err(TransportError::timeout(
            "terminate",
            limits::DEFAULT_TERMINATE_GRACE,
        )),
    );
    assert_eq!(timed_out.commands(), ["disconnect"]);
    let done = h.ok(timed_out.tag("disconnect"), json!({}));
    assert!(done.reply(token).is_ok());
}

#[test]
fn an_adapter_that_closes_after_terminate_has_done_what_was_asked() {
    let mut h = running_with_terminate();
    let (token, _) = h.command(Command::Terminate);
    let closed = Effects(h.core.handle(Input::Closed(AdapterExit {
        reason: "end of stream".into(),
        ..AdapterExit::default()
    })));
    assert!(matches!(closed.reply(token), Ok(Answer::Done)));
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn disconnect_and_adapters_without_terminate_go_straight_to_disconnect() {
    let mut h = running_with_terminate();
    let (_, out) = h.command(Command::Disconnect {
        terminate_debuggee: true,
    });
    assert_eq!(out.commands(), ["disconnect"]);

    let mut h = Harness::running();
    let (_, out) = h.command(Command::Terminate);
    assert_eq!(out.commands(), ["disconnect"]);
}

#[test]
fn the_terminate_grace_and_the_disconnect_deadline_come_from_the_config() {
    let mut h = Harness::with_config(crate::core::session::CoreConfig {
        terminate_grace: std::time::Duration::from_secs(12),
        disconnect_timeout: std::time::Duration::from_secs(9),
        ..Default::default()
    });
    h.launch_with(
        plan(),
        json!({ "supportsConfigurationDoneRequest": true, "supportsTerminateRequest": true }),
    );
    let (_, out) = h.command(Command::Terminate);
    assert_eq!(out.sent("terminate").2.as_secs(), 12);
    let (timer, after) = out.timers()[0];
    assert_eq!(after.as_secs(), 12);
    h.ok(out.tag("terminate"), json!({}));
    let out = h.timer(timer);
    assert_eq!(out.sent("disconnect").2.as_secs(), 9);
}
