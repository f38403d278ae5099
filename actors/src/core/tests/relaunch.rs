//! Pure tests of an agent's restart: the adapter's `restart` request where it has
//! one, else a relaunch of the stored plan on a fresh adapter with the breakpoints as
//! they are now, answered with the stop epoch to wait from.

use serde_json::{json, Value};

use super::{attach_plan, lines, plan, with_breakpoints, Effects, Harness, PROGRAM};
use crate::core::command::{Answer, Command, Token};
use crate::core::state::SessionState;
use crate::error::{AdapterExit, SessionError};
use crate::wire::types::SourceBreakpoint;

/// An adapter without a `restart` request.
fn no_restart_caps() -> Value {
    json!({ "supportsConfigurationDoneRequest": true })
}

/// The resumed epoch answered to `token`.
fn resumed(out: &Effects, token: Token) -> u64 {
    match out.reply(token) {
        Ok(Answer::Resumed { epoch }) => *epoch,
        other => panic!("want a resumed answer, got {other:?}"),
    }
}

/// Stopped at a breakpoint (epoch 1) under an adapter without `restart`, started
/// with a breakpoint at line 3, then line 7 added and line 3 removed.
fn stopped_with_changed_breakpoints() -> Harness {
    let mut h = Harness::new();
    h.launch_with(with_breakpoints(plan(), &[(PROGRAM, 3)]), no_restart_caps());
    h.stop("breakpoint");
    let seven = SourceBreakpoint {
        line: 7,
        ..SourceBreakpoint::default()
    };
    h.command(Command::AddBreakpoint {
        file: PROGRAM.into(),
        breakpoint: seven,
    });
    h.command(Command::RemoveBreakpoint {
        file: PROGRAM.into(),
        line: 3,
    });
    h
}

#[test]
fn the_restart_request_is_used_where_the_adapter_has_one() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(Command::Restart);
    assert_eq!(out.commands(), ["restart"]);
    // The launch configuration goes along (DAP's `arguments`).
    assert_eq!(out.args("restart")["arguments"]["program"], PROGRAM);
    assert_eq!(out.replies(), 0);
    let answered = h.ok(out.tag("restart"), json!({}));
    assert_eq!(resumed(&answered, token), 1);
    assert!(!answered.starts_adapter(), "the same adapter restarts it");
}

#[test]
fn without_a_restart_request_the_plan_runs_again_with_the_breakpoints_as_they_are() {
    let mut h = stopped_with_changed_breakpoints();
    let (token, out) = h.command(Command::Restart);
    assert_eq!(
        out.args("disconnect"),
        json!({ "restart": false, "terminateDebuggee": true })
    );
    assert_eq!(out.replies(), 0, "answered once the new run is under way");

    let ended = h.ok(out.tag("disconnect"), json!({}));
    assert!(ended.stops_adapter() && ended.starts_adapter());
    assert_eq!(h.state(), SessionState::Initializing);
    let launch = h.ok(ended.tag("initialize"), no_restart_caps());
    assert_eq!(launch.args("launch")["program"], PROGRAM, "the stored plan");
    h.ok(launch.tag("launch"), json!({}));
    let configuration = h.event("initialized", json!({}));
    assert_eq!(lines(&configuration.args("setBreakpoints")), [7]);
    let done = h.ok(
        configuration.tag("setBreakpoints"),
        json!({ "breakpoints": [] }),
    );
    assert_eq!(done.replies(), 0);
    let done = h.ok(configuration.tag("configurationDone"), json!({}));
    assert_eq!(resumed(&done, token), 1);
    assert_eq!(h.state(), SessionState::Running);

    // The new run's first stop is after the ticket.
    h.stop("breakpoint");
    assert_eq!(h.core.snapshot().stop_epoch, 2);
    assert_eq!(
        h.core.snapshot().restarts,
        0,
        "not counted as a crash restart"
    );
}

#[test]
fn an_adapter_that_closes_instead_of_answering_disconnect_is_relaunched_too() {
    let mut h = stopped_with_changed_breakpoints();
    let (_, out) = h.command(Command::Restart);
    let closed = Effects(
        h.core
            .handle(crate::core::command::Input::Closed(AdapterExit {
                reason: "end of stream".into(),
                requested: true,
                ..AdapterExit::default()
            })),
    );
    assert!(closed.starts_adapter());
    assert_eq!(closed.commands(), ["initialize"]);
    // The disconnect's late answer finds nothing pending.
    let late = h.ok(out.tag("disconnect"), json!({}));
    assert!(late.0.is_empty(), "{late:?}");
}

#[test]
fn ending_the_session_abandons_a_relaunch_under_way() {
    let mut h = stopped_with_changed_breakpoints();
    let (restart, out) = h.command(Command::Restart);
    let (terminate, ended) = h.command(Command::Terminate);
    assert!(matches!(
        ended.error(restart),
        SessionError::InvalidArgument(why) if why.contains("abandoned")
    ));
    assert!(ended.reply(terminate).is_ok());
    let answered = h.ok(out.tag("disconnect"), json!({}));
    assert!(!answered.starts_adapter());
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn a_relaunch_that_fails_to_start_answers_the_restart_with_the_reason() {
    let mut h = stopped_with_changed_breakpoints();
    let (token, out) = h.command(Command::Restart);
    let ended = h.ok(out.tag("disconnect"), json!({}));
    let launch = h.ok(ended.tag("initialize"), no_restart_caps());
    let failed = h.refuse(launch.tag("launch"), "program not found");
    assert!(matches!(
        failed.error(token),
        SessionError::StartFailed { message, .. } if message.contains("program not found")
    ));
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn a_second_restart_while_one_is_under_way_is_refused() {
    let mut h = stopped_with_changed_breakpoints();
    h.command(Command::Restart);
    let (token, out) = h.command(Command::Restart);
    let err = out.error(token);
    assert!(matches!(err, SessionError::InvalidArgument(_)), "{err}");
    assert!(out.sends().is_empty());
}

#[test]
fn an_attached_process_without_a_restart_request_is_refused() {
    let mut h = Harness::new();
    h.launch_with(attach_plan(), no_restart_caps());
    h.stop("breakpoint");
    let (token, out) = h.command(Command::Restart);
    let err = out.error(token);
    assert!(matches!(err, SessionError::Unsupported { .. }), "{err}");
    assert!(err.to_string().contains("supportsRestartRequest"), "{err}");
    assert!(out.sends().is_empty());
    assert_eq!(h.state(), SessionState::Stopped);
}

#[test]
fn restart_needs_a_running_or_stopped_debuggee() {
    let mut h = Harness::in_state(SessionState::Terminated);
    let (token, out) = h.command(Command::Restart);
    assert!(matches!(
        out.error(token),
        SessionError::InvalidState { .. }
    ));
}

#[test]
fn a_relaunch_waits_for_the_start_to_be_answered() {
    // debugpy answers `launch` only after `configurationDone`: the program runs, and
    // its start is still unanswered. A relaunch then is refused, saying to wait; the
    // start is answered as usual, and a restart after it relaunches.
    let mut h = Harness::new();
    let (start, out) = h.command(Command::Start(Box::new(plan())));
    let launch = h.ok(out.tag("initialize"), no_restart_caps()).tag("launch");
    let config = h.event("initialized", json!({}));
    h.ok(config.tag("configurationDone"), json!({}));
    assert_eq!(h.state(), SessionState::Running);
    let (token, out) = h.command(Command::Restart);
    assert!(
        matches!(out.error(token), SessionError::InvalidArgument(m) if m.contains("still starting")),
        "{out:?}"
    );
    assert!(out.sends().is_empty(), "{out:?}");
    let out = h.ok(launch, json!({}));
    assert!(
        matches!(out.reply(start), Ok(Answer::Snapshot(_))),
        "{out:?}"
    );
    let (_, out) = h.command(Command::Restart);
    assert_eq!(out.commands(), vec!["disconnect"], "{out:?}");
}
