//! Crashes and restarts in the core (`restart.rs`): which adapter ends are crashes,
//! what a crash holds back until the supervisor decides, the scheduled restart, the
//! restart's handshake and its replay, and a restart that does not come up. The
//! harness states reached here (crashed, restarting, failed) serve
//! `session_tests_failed.rs` too.

use std::time::Duration;

use serde_json::json;

use super::session_tests::{
    command_for, full_caps, plan, with_breakpoints, Effects, Harness, PROGRAM,
};
use crate::core::command::{Answer, Command, Effect, Input};
use crate::core::session::CoreConfig;
use crate::core::state::{Operation, SessionState};
use crate::error::{AdapterExit, SessionError};
use crate::events::EventKind;
use crate::session::SessionId;
use crate::wire::types::{FunctionBreakpoint, SetExceptionBreakpointsArguments};

/// The adapter ending on its own (not asked to): killed by SIGKILL.
pub(super) fn killed() -> AdapterExit {
    AdapterExit {
        signal: Some(9),
        reason: "the adapter closed its output".into(),
        stderr_tail: "last words\n".into(),
        ..AdapterExit::default()
    }
}

impl Harness {
    pub(super) fn input(&mut self, input: Input) -> Effects {
        Effects(self.core.handle(input))
    }

    pub(super) fn closed(&mut self, exit: AdapterExit) -> Effects {
        self.input(Input::Closed(exit))
    }

    /// Stopped, then the adapter killed: the crash is reported, no decision yet.
    pub(super) fn crashed() -> Self {
        let mut h = Self::stopped();
        h.closed(killed());
        assert_eq!(h.state(), SessionState::Restarting);
        h
    }

    /// [`Self::crashed`] and told that restart 1 comes after 250 ms.
    pub(super) fn restarting() -> Self {
        let mut h = Self::crashed();
        h.input(Input::RestartScheduled {
            attempt: 1,
            after: Duration::from_millis(250),
            crash: 1,
        });
        h
    }

    /// [`Self::restarting`], then the budget spent.
    pub(super) fn failed() -> Self {
        let mut h = Self::restarting();
        h.input(Input::Fail {
            reason: "the adapter crashed 6 times within 60s".into(),
        });
        assert_eq!(h.state(), SessionState::Failed);
        h
    }
}

impl Effects {
    fn reported_crash(&self) -> Option<&AdapterExit> {
        self.0.iter().find_map(|e| match e {
            Effect::ReportCrash(exit) => Some(exit),
            _ => None,
        })
    }
}

/// The handshake of restart `attempt` (for the supervisor's crash `crash`) against an adapter with [`full_caps`], every
/// request answered; returns every effect from the restart on.
pub(super) fn restart_handshake(h: &mut Harness, attempt: u32, crash: u64) -> Effects {
    restart_handshake_with(h, attempt, crash, full_caps())
}

/// [`restart_handshake`] against an adapter with `caps`.
pub(super) fn restart_handshake_with(
    h: &mut Harness,
    attempt: u32,
    crash: u64,
    caps: serde_json::Value,
) -> Effects {
    let mut all = h.input(Input::Restart { attempt, crash });
    let launch = h.ok(all.tag("initialize"), caps);
    let answered = h.ok(launch.tag("launch"), json!({}));
    let configuration = h.event("initialized", json!({}));
    let tags: Vec<_> = configuration.sends().iter().map(|(t, _, _)| *t).collect();
    all.0.extend(launch.0.into_iter().chain(answered.0));
    all.0.extend(configuration.0);
    for tag in tags {
        all.0.extend(h.ok(tag, json!({})).0);
    }
    all
}

// ---- which ends are crashes ----

#[test]
fn an_adapter_dying_while_running_or_stopped_is_a_crash() {
    for mut h in [Harness::running(), Harness::stopped()] {
        let from = h.state();
        let out = h.closed(killed());
        assert_eq!(out.reported_crash(), Some(&killed()), "from {from}");
        assert_eq!(
            out.transitions(),
            vec![(from, SessionState::Restarting)],
            "from {from}"
        );
        // Nothing is said to agents until the supervisor decides.
        assert!(!out
            .events()
            .iter()
            .any(|k| matches!(k, EventKind::AdapterExited(_))));
    }
}

#[test]
fn an_end_the_runtime_asked_for_is_not_a_crash() {
    let mut h = Harness::stopped();
    let exit = AdapterExit {
        requested: true,
        ..killed()
    };
    let out = h.closed(exit.clone());
    assert!(out.reported_crash().is_none());
    assert_eq!(h.state(), SessionState::Terminated);
    assert!(out.events().contains(&&EventKind::AdapterExited(exit)));
}

#[test]
fn an_end_while_a_terminate_is_under_way_is_not_a_crash() {
    let mut h = Harness::stopped();
    h.command(Command::Terminate);
    let out = h.closed(killed());
    assert!(out.reported_crash().is_none());
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn an_end_after_the_terminated_event_is_not_a_crash() {
    let mut h = Harness::running();
    h.event("terminated", json!({}));
    let out = h.closed(killed());
    assert!(out.reported_crash().is_none());
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn an_end_during_the_agents_own_start_fails_the_start_instead() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    h.ok(out.tag("initialize"), full_caps());
    let out = h.closed(killed());
    assert!(out.reported_crash().is_none());
    assert!(
        matches!(out.error(token), SessionError::StartFailed { message, .. }
            if message.contains("the adapter is gone")),
        "{out:?}"
    );
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn a_child_sessions_adapter_ending_is_not_a_crash() {
    let mut h = Harness::with_config(CoreConfig {
        parent: Some(SessionId(1)),
        ..CoreConfig::default()
    });
    h.launch_with(plan(), full_caps());
    h.stop("breakpoint");
    let out = h.closed(killed());
    assert!(out.reported_crash().is_none());
    assert_eq!(h.state(), SessionState::Terminated);
}

// ---- the crash, held until the supervisor decides ----

#[test]
fn a_crash_holds_pending_requests_and_waiters_until_the_decision() {
    let mut h = Harness::stopped();
    let (request, _) = h.command(command_for(Operation::Evaluate));
    let (waiter, _) = h.command(Command::WaitForStop {
        after: 1,
        timeout: Duration::from_secs(60),
    });
    let out = h.closed(killed());
    assert_eq!(out.replies(), 0, "{out:?}");
    let snapshot = h.core.snapshot();
    assert!(!snapshot.adapter_live);
    assert_eq!(
        snapshot.failure.as_deref(),
        Some(
            "the adapter crashed: the adapter closed its output (killed by signal 9); \
             adapter stderr ends with: last words"
        )
    );

    let out = h.input(Input::RestartScheduled {
        attempt: 2,
        after: Duration::from_millis(500),
        crash: 1,
    });
    for token in [request, waiter] {
        match out.error(token) {
            SessionError::AdapterCrashed {
                exit,
                attempt,
                retry_in,
            } => {
                assert_eq!((exit, *attempt), (&killed(), 2));
                assert_eq!(*retry_in, Duration::from_millis(500));
            }
            other => panic!("want AdapterCrashed, got {other:?}"),
        }
    }
    assert_eq!(
        out.events(),
        vec![&EventKind::AdapterCrashed {
            exit: killed(),
            attempt: Some(2),
            restart_in_ms: Some(500),
        }]
    );
    assert!(!out.starts_adapter(), "the restart waits for its backoff");
}

#[test]
fn a_request_refused_by_a_closing_transport_is_answered_as_the_crash_is() {
    // The adapter was killed, and the transport refused the request before the
    // session heard of it: the agent learns of the crash and the restart as the
    // requests in flight do, not that the adapter is gone for good.
    let mut h = Harness::stopped();
    let (request, out) = h.command(command_for(Operation::Evaluate));
    let (tag, _, _) = out.sent("evaluate");
    let closing = SessionError::AdapterExited { exit: killed() };
    let out = h.respond(tag, Err(closing));
    assert_eq!(out.replies(), 0, "{out:?}");
    h.closed(killed());
    let out = h.input(Input::RestartScheduled {
        attempt: 1,
        after: Duration::from_millis(250),
        crash: 1,
    });
    assert!(
        matches!(
            out.error(request),
            SessionError::AdapterCrashed { attempt: 1, .. }
        ),
        "{out:?}"
    );
}

#[test]
fn a_late_close_of_the_crashed_adapter_changes_nothing() {
    for mut h in [Harness::restarting(), Harness::failed()] {
        let state = h.state();
        let out = h.closed(killed());
        assert!(out.0.is_empty(), "in {state}: {out:?}");
        assert_eq!(h.state(), state);
    }
}

#[test]
fn a_schedule_or_restart_after_the_session_was_ended_is_ignored() {
    let mut h = Harness::crashed();
    let (token, out) = h.command(Command::Terminate);
    assert!(matches!(out.reply(token), Ok(Answer::Done)));
    assert!(out.sends().is_empty(), "no adapter to disconnect");
    assert_eq!(h.state(), SessionState::Terminated);
    let out = h.input(Input::RestartScheduled {
        attempt: 1,
        after: Duration::from_millis(250),
        crash: 1,
    });
    assert!(out.0.is_empty(), "{out:?}");
    let out = h.input(Input::Restart {
        attempt: 1,
        crash: 1,
    });
    assert!(out.0.is_empty(), "{out:?}");
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn requests_held_by_a_crash_are_answered_when_the_session_was_ended_meanwhile() {
    for decision in [
        Input::RestartScheduled {
            attempt: 1,
            after: Duration::from_millis(250),
            crash: 1,
        },
        Input::Fail {
            reason: "budget spent".into(),
        },
    ] {
        let mut h = Harness::stopped();
        let (request, _) = h.command(command_for(Operation::Evaluate));
        h.closed(killed());
        h.command(Command::Terminate);
        let out = h.input(decision);
        assert!(
            matches!(out.error(request), SessionError::AdapterExited { exit } if *exit == killed()),
            "{out:?}"
        );
        assert_eq!(h.state(), SessionState::Terminated);
    }
}

// ---- the restart ----

#[test]
fn a_restart_starts_a_fresh_adapter_with_the_same_plan() {
    let mut h = Harness::restarting();
    let out = h.input(Input::Restart {
        attempt: 1,
        crash: 1,
    });
    assert!(out.starts_adapter());
    assert_eq!(out.commands(), vec!["initialize"]);
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Restarting, SessionState::Initializing)]
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
    h.input(Input::RestartScheduled {
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
    let out = h.input(Input::Restart {
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
        vec![(SessionState::Initializing, SessionState::Restarting)]
    );
}

#[test]
fn a_restart_whose_handshake_times_out_is_another_crash() {
    let mut h = Harness::restarting();
    let out = h.input(Input::Restart {
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
    assert_eq!(h.state(), SessionState::Restarting);
}

#[test]
fn an_adapter_dying_during_a_restarts_handshake_is_another_crash() {
    let mut h = Harness::restarting();
    h.input(Input::Restart {
        attempt: 1,
        crash: 1,
    });
    let out = h.closed(killed());
    assert_eq!(out.reported_crash(), Some(&killed()));
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Initializing, SessionState::Restarting)]
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
        let out = h.input(Input::Restart {
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
                .any(|(_, to)| *to == SessionState::Restarting),
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
    h.input(Input::RestartScheduled {
        attempt: 1,
        after: Duration::from_secs(5),
        crash: 2,
    });
    let stale = h.input(Input::Restart {
        attempt: 1,
        crash: 1,
    });
    assert!(
        stale.0.is_empty(),
        "crash 2's backoff was cut short: {stale:?}"
    );
    assert_eq!(h.state(), SessionState::Restarting);
    let due = h.input(Input::Restart {
        attempt: 1,
        crash: 2,
    });
    assert!(due.starts_adapter(), "{due:?}");
    // Once begun, the same restart is not begun twice.
    let again = h.input(Input::Restart {
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
    h.input(Input::RestartScheduled {
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
    h.input(Input::RestartScheduled {
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
