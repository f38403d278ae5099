//! The adapter restart after a crash, in the core (`adapter_restart.rs`): a fresh
//! adapter with the same plan, its handshake and the replay of breakpoints and
//! exception options, and a restart that does not come up (another crash).
use std::time::Duration;

use serde_json::json;

use super::adapter_restart::{killed, restart_handshake, restart_handshake_with};
use super::{full_caps, plan, with_breakpoints, Harness, PROGRAM};
use crate::core::command::{Answer, Command, Input};
use crate::core::session_event::EventKind;
use crate::core::state::SessionState;
use crate::error::{AdapterExit, SessionError};
use crate::wire::types::{FunctionBreakpoint, SetExceptionBreakpointsArguments};

// ---- the restart ----

#[test]
fn a_restart_starts_a_fresh_adapter_with_the_same_plan() {
    let mut h = Harness::restarting();
    let out = h.input(Input::RestartAdapter {
        attempt: 1,
        crash: 1,
    });
    assert!(out.starts_adapter());
    assert_eq!(out.commands(), vec!["initialize"]);
    assert_eq!(
        out.transitions(),
        vec![(SessionState::AdapterRestarting, SessionState::Initializing)]
    );
    assert_eq!(h.core.snapshot().restarts, 1);
    let out = h.ok(out.tag("initialize"), full_caps());
    assert_eq!(out.args("launch")["program"], PROGRAM);
}

#[test]
fn a_restart_replays_every_breakpoint_and_announces_itself_once_configured() {
    let mut with_all = with_breakpoints(plan(), &[(PROGRAM, 5), ("/src/util.py", 9)]);
    with_all.function_breakpoints = vec![FunctionBreakpoint {
        name: "main".into(),
        ..Default::default()
    }];
    with_all.exception_filters = vec!["raised".into()];
    let mut h = Harness::new();
    h.launch_with(with_all, full_caps());
    h.stop("breakpoint");
    h.closed(killed());
    h.input(Input::AdapterRestartScheduled {
        attempt: 1,
        after: Duration::from_millis(250),
        crash: 1,
    });

    let out = restart_handshake(&mut h, 1, 1);
    let files: Vec<_> = out
        .sends()
        .iter()
        .filter(|(_, r, _)| r.command == "setBreakpoints")
        .map(|(_, r, _)| {
            let args = r.arguments.clone().unwrap_or_default();
            (args["source"]["path"].clone(), args["breakpoints"].clone())
        })
        .collect();
    assert_eq!(
        files,
        vec![
            (json!(PROGRAM), json!([{ "line": 5 }])),
            (json!("/src/util.py"), json!([{ "line": 9 }])),
        ]
    );
    assert_eq!(
        out.args("setFunctionBreakpoints"),
        json!({ "breakpoints": [{ "name": "main" }] })
    );
    assert_eq!(
        out.args("setExceptionBreakpoints"),
        json!({ "filters": ["raised"] })
    );
    assert_eq!(
        out.events()
            .iter()
            .filter(|k| matches!(k, EventKind::AdapterRestarted { .. }))
            .collect::<Vec<_>>(),
        vec![&&EventKind::AdapterRestarted { attempt: 1 }]
    );
    // Nobody asked for this start, so nobody is answered.
    assert_eq!(out.replies(), 0, "{out:?}");
    assert_eq!(h.state(), SessionState::Running);
}

#[test]
fn a_restart_that_does_not_come_up_is_another_crash() {
    let mut h = Harness::restarting();
    let out = h.input(Input::RestartAdapter {
        attempt: 1,
        crash: 1,
    });
    let out = h.refuse(out.tag("initialize"), "cannot start");
    assert!(out.stops_adapter());
    let exit = out.reported_crash().expect("reported as a crash");
    assert_eq!(
        exit.reason,
        "the restarted adapter did not come up: `initialize` failed: cannot start"
    );
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Initializing, SessionState::AdapterRestarting)]
    );
}

#[test]
fn a_restart_whose_handshake_times_out_is_another_crash() {
    let mut h = Harness::restarting();
    let out = h.input(Input::RestartAdapter {
        attempt: 1,
        crash: 1,
    });
    let (timer, _) = out.timers()[0];
    let out = h.timer(timer);
    assert!(out.stops_adapter());
    let exit = out.reported_crash().expect("reported as a crash");
    assert!(
        exit.reason.contains("did not finish starting within 120s"),
        "{exit:?}"
    );
    assert_eq!(h.state(), SessionState::AdapterRestarting);

    // The adapter given up on closes late; the next restart scheduled still comes.
    assert!(h.closed(killed()).0.is_empty());
    h.input(Input::AdapterRestartScheduled {
        attempt: 2,
        after: Duration::from_millis(500),
        crash: 2,
    });
    let out = h.input(Input::RestartAdapter {
        attempt: 2,
        crash: 2,
    });
    assert!(out.starts_adapter(), "{out:?}");
    assert_eq!(h.state(), SessionState::Initializing);
}

#[test]
fn an_adapter_dying_during_a_restarts_handshake_is_another_crash() {
    let mut h = Harness::restarting();
    h.input(Input::RestartAdapter {
        attempt: 1,
        crash: 1,
    });
    let out = h.closed(killed());
    assert_eq!(out.reported_crash(), Some(&killed()));
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Initializing, SessionState::AdapterRestarting)]
    );
}

#[test]
fn ending_the_session_during_a_restarts_handshake_is_a_normal_end() {
    for op in [
        Command::Terminate,
        Command::Disconnect {
            terminate_debuggee: true,
        },
    ] {
        let mut h = Harness::restarting();
        let crashed_with = h.core.snapshot().failure;
        let out = h.input(Input::RestartAdapter {
            attempt: 1,
            crash: 1,
        });
        let initialize = out.tag("initialize");
        // Before `initialized`: the agent ends the session.
        let (token, out) = h.command(op.clone());
        assert!(out.reported_crash().is_none(), "{op:?}: {out:?}");
        assert!(
            !out.transitions()
                .iter()
                .any(|(_, to)| *to == SessionState::AdapterRestarting),
            "{op:?}: {out:?}"
        );
        // The adapter is let go the normal way; a late `initialize` answer is ignored.
        let disconnect = out.tag("disconnect");
        let late = h.ok(initialize, full_caps());
        assert!(late.sends().is_empty(), "{op:?}: {late:?}");
        let out = h.ok(disconnect, json!({}));
        assert!(
            matches!(out.reply(token), Ok(Answer::Done)),
            "{op:?}: {out:?}"
        );
        assert!(out.stops_adapter());
        let out = h.closed(AdapterExit {
            requested: true,
            ..killed()
        });
        assert!(out.reported_crash().is_none(), "{op:?}: {out:?}");
        assert_eq!(h.state(), SessionState::Terminated, "{op:?}");
        // No new failure: the snapshot still names the crash that led to the restart.
        let snapshot = h.core.snapshot();
        assert_eq!(snapshot.failure, crashed_with, "{op:?}");
        assert!(!snapshot
            .failure
            .as_deref()
            .unwrap_or_default()
            .contains("did not come up"));
    }
}

#[test]
fn a_restart_timer_left_from_an_earlier_crash_is_ignored() {
    // Crash 1's restart is scheduled; the agent ends the session and starts it again
    // (a relaunch); it crashes again (crash 2). Crash 1's timer then fires.
    let mut h = Harness::restarting();
    h.command(Command::Terminate);
    assert_eq!(h.state(), SessionState::Terminated);
    h.launch_with(plan(), full_caps());
    h.closed(killed());
    h.input(Input::AdapterRestartScheduled {
        attempt: 1,
        after: Duration::from_secs(5),
        crash: 2,
    });
    let stale = h.input(Input::RestartAdapter {
        attempt: 1,
        crash: 1,
    });
    assert!(
        stale.0.is_empty(),
        "crash 2's backoff was cut short: {stale:?}"
    );
    assert_eq!(h.state(), SessionState::AdapterRestarting);
    let due = h.input(Input::RestartAdapter {
        attempt: 1,
        crash: 2,
    });
    assert!(due.starts_adapter(), "{due:?}");
    // Once begun, the same restart is not begun twice.
    let again = h.input(Input::RestartAdapter {
        attempt: 1,
        crash: 2,
    });
    assert!(!again.starts_adapter(), "{again:?}");
}

/// Capabilities with both kinds of exception options.
fn exception_caps() -> serde_json::Value {
    let mut caps = full_caps();
    caps["supportsExceptionOptions"] = json!(true);
    caps["supportsExceptionFilterOptions"] = json!(true);
    caps["exceptionBreakpointFilters"] = json!([{ "filter": "raised", "label": "Raised" }]);
    caps
}

fn exception_settings() -> SetExceptionBreakpointsArguments {
    serde_json::from_value(json!({
        "filters": [],
        "filterOptions": [{ "filterId": "raised", "condition": "x > 1" }],
        "exceptionOptions": [{ "breakMode": "always",
                               "path": [{ "names": ["ValueError"] }] }],
    }))
    .unwrap()
}

#[test]
fn exception_options_are_replayed_to_a_restarted_adapter_that_takes_them() {
    let mut h = Harness::new();
    h.launch_with(plan(), exception_caps());
    h.stop("breakpoint");
    let (token, out) = h.command(Command::SetExceptionSettings(exception_settings()));
    let sent = out.args("setExceptionBreakpoints");
    let answered = h.ok(
        out.tag("setExceptionBreakpoints"),
        json!({ "breakpoints": [] }),
    );
    assert!(answered.reply(token).is_ok());

    h.closed(killed());
    h.input(Input::AdapterRestartScheduled {
        attempt: 1,
        after: Duration::from_millis(250),
        crash: 1,
    });
    let out = restart_handshake_with(&mut h, 1, 1, exception_caps());
    assert_eq!(
        out.args("setExceptionBreakpoints"),
        sent,
        "as last set, options too"
    );

    // An adapter that no longer takes options gets the plain filters only.
    h.closed(killed());
    h.input(Input::AdapterRestartScheduled {
        attempt: 2,
        after: Duration::from_millis(500),
        crash: 2,
    });
    let mut plain = exception_caps();
    plain["supportsExceptionOptions"] = json!(false);
    plain["supportsExceptionFilterOptions"] = json!(false);
    let out = restart_handshake_with(&mut h, 2, 2, plain);
    assert_eq!(
        out.args("setExceptionBreakpoints"),
        json!({ "filters": [] })
    );
}

#[test]
fn exception_options_an_adapter_lacks_are_refused_and_nothing_is_cached() {
    let mut h = Harness::new();
    h.launch_with(plan(), full_caps());
    h.stop("breakpoint");
    let (token, out) = h.command(Command::SetExceptionSettings(exception_settings()));
    assert!(out.sends().is_empty(), "nothing reaches the adapter");
    match out.reply(token) {
        Err(SessionError::Unsupported { capability, .. }) => {
            assert!(
                capability.contains("supportsExceptionFilterOptions"),
                "{capability}"
            )
        }
        other => panic!("want a refusal naming the capability, got {other:?}"),
    }
    assert!(!h.core.snapshot().breakpoints.has_exception_settings());
}
