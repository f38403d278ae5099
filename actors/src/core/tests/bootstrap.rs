//! Pure tests of a program with a session of its own (js-debug, `bootstrap.rs`): the
//! session adopts the connection js-debug asks for and runs the handshake again on
//! it; the start is answered after that; the exit code comes from the bootstrap, and
//! waiters wait for it; ending, crashing or restarting ends the bootstrap too; later
//! requests are children on the same server.

use serde_json::{json, Value};

use super::{plan, with_breakpoints, Effects, Harness, PROGRAM};
use crate::core::command::BootstrapInput;
use crate::core::command::{Answer, Command, Effect, Input, StopOutcome, TimerId, Token};
use crate::core::session_event::EventKind;
use crate::core::state::SessionState;
use crate::error::AdapterExit;
use crate::registry::{AdapterFlavor, TransportKind};
use crate::wire::Event;

const SERVER: (&str, u16) = ("127.0.0.1", 4711);

/// js-debug's own capabilities, as far as the core reads them.
fn js_caps() -> Value {
    json!({
        "supportsConfigurationDoneRequest": true,
        "supportsConditionalBreakpoints": true,
        "supportsRestartRequest": true,
        "supportsTerminateRequest": false,
    })
}

fn js_plan() -> crate::core::command::StartPlan {
    let mut plan = with_breakpoints(plan(), &[(PROGRAM, 5)]);
    plan.adapter.flavor = AdapterFlavor::JsDebug;
    plan.adapter.def.flavor = AdapterFlavor::JsDebug;
    plan
}

fn start_debugging(h: &mut Harness, request: &str, target: &str) -> Effects {
    let configuration = json!({ "type": "pwa-node", "name": "app.js [42]",
                                "__pendingTargetId": target });
    let Value::Object(configuration) = configuration else {
        unreachable!()
    };
    Effects(h.core.handle(Input::StartDebugging {
        request: request.into(),
        configuration,
        server: Some((SERVER.0.into(), SERVER.1)),
    }))
}

fn from_bootstrap(h: &mut Harness, name: &str, body: Value) -> Effects {
    let event = Event::new(name, Some(body));
    Effects(
        h.core
            .handle(Input::Bootstrap(BootstrapInput::Event(event))),
    )
}

/// The bootstrap's handshake, in js-debug's order: `initialized` first, `launch`
/// answered once configured. Returns the agent's token; nothing answered it yet.
fn bootstrapped(h: &mut Harness) -> Token {
    bootstrapped_with(h, js_plan())
}

/// [`bootstrapped`] with `plan`.
fn bootstrapped_with(h: &mut Harness, plan: crate::core::command::StartPlan) -> Token {
    let (token, started) = h.command(Command::Start(Box::new(plan)));
    let launch = h.ok(started.tag("initialize"), js_caps());
    let config = h.event("initialized", json!({}));
    assert_eq!(config.commands(), ["setBreakpoints", "configurationDone"]);
    for (tag, _, _) in config.sends() {
        h.ok(tag, json!({}));
    }
    let answered = h.ok(launch.tag("launch"), json!({}));
    assert_eq!(
        answered.replies(),
        0,
        "the program's session is still to come"
    );
    token
}

/// Adopted, configured and running; returns the adoption's effects and the start's.
fn adopted(h: &mut Harness) -> (Effects, Effects) {
    adopted_with(h, js_plan())
}

/// [`adopted`] with `plan`.
fn adopted_with(h: &mut Harness, plan: crate::core::command::StartPlan) -> (Effects, Effects) {
    let token = bootstrapped_with(h, plan);
    let adoption = start_debugging(h, "launch", "t1");
    let launch = h.ok(adoption.tag("initialize"), js_caps());
    let mut all = Effects(Vec::new());
    let config = h.event("initialized", json!({}));
    for (tag, _, _) in config.sends() {
        all.0.extend(h.ok(tag, json!({})).0);
    }
    all.0.extend(h.ok(launch.tag("launch"), json!({})).0);
    assert!(
        matches!(all.reply(token), Ok(Answer::Snapshot(_))),
        "{all:?}"
    );
    all.0.splice(0..0, launch.0.into_iter().chain(config.0));
    (adoption, all)
}

fn waiting(h: &mut Harness) -> Token {
    let (token, out) = h.command(Command::WaitForStop {
        after: 0,
        timeout: std::time::Duration::from_secs(30),
    });
    assert_eq!(out.replies(), 0, "{out:?}");
    token
}

fn stops_bootstrap(out: &Effects) -> bool {
    out.0.iter().any(|e| matches!(e, Effect::StopBootstrap))
}

fn report_timer(out: &Effects) -> TimerId {
    let timers = out.timers();
    assert_eq!(timers.len(), 1, "{out:?}");
    timers[0].0
}

#[test]
fn the_programs_own_session_is_adopted_and_the_start_answered_after_its_handshake() {
    let mut h = Harness::new();
    bootstrapped(&mut h);
    let adoption = start_debugging(&mut h, "launch", "t1");
    let adapter = adoption
        .0
        .iter()
        .find_map(|e| match e {
            Effect::AdoptTarget(adapter) => Some(adapter),
            _ => None,
        })
        .expect("the program's connection is adopted");
    assert_eq!(
        adapter.transport,
        TransportKind::TcpConnect {
            host: SERVER.0.into(),
            port: SERVER.1
        },
        "a new connection to the same server, not a new adapter"
    );
    assert!(!adoption.starts_adapter());
    assert_eq!(adoption.commands(), ["initialize"]);
    assert_eq!(h.state(), SessionState::Initializing);

    // The program's launch carries js-debug's configuration, target id and all.
    let launch = h.ok(adoption.tag("initialize"), js_caps());
    let args = launch.args("launch");
    assert_eq!(args["__pendingTargetId"], "t1");
    assert_eq!(args["type"], "pwa-node");
    assert!(args.get("program").is_none(), "{args}");
    // The breakpoints go to the program's connection too.
    let config = h.event("initialized", json!({}));
    assert_eq!(config.commands(), ["setBreakpoints", "configurationDone"]);
    assert_eq!(h.state(), SessionState::Configured);
}

#[test]
fn the_exit_code_comes_from_the_bootstrap_and_waiters_wait_for_it() {
    let mut h = Harness::new();
    adopted(&mut h);
    let waiter = waiting(&mut h);

    // The program's connection ends first: terminated, but not yet answered, and
    // not yet let go.
    let ended = h.event("terminated", json!({}));
    assert_eq!(h.state(), SessionState::Terminated);
    assert_eq!(ended.replies(), 0, "{ended:?}");
    assert!(ended.commands().is_empty(), "{ended:?}");
    report_timer(&ended);

    // The launcher's line is its report; its end after adds nothing.
    let report = from_bootstrap(
        &mut h,
        "output",
        json!({ "category": "stderr", "output": "Process exited with code 5\r\n" }),
    );
    assert!(report
        .events()
        .contains(&&EventKind::Exited { exit_code: 5 }));
    assert!(matches!(
        report.reply(waiter),
        Ok(Answer::Stop(StopOutcome::Terminated { exit_code: Some(5) }))
    ));
    let after = from_bootstrap(&mut h, "terminated", json!({}));
    assert_eq!(
        (after.replies(), after.commands().len()),
        (0, 0),
        "{after:?}"
    );
    // Now the program's connection is let go, and the bootstrap with it.
    let disconnected = h.ok(report.tag("disconnect"), json!({}));
    assert!(disconnected.stops_adapter() && stops_bootstrap(&disconnected));
    let output = h.core.snapshot().output_end;
    assert!(output > 0, "the launcher's line is output");
}

#[test]
fn a_launcher_that_says_nothing_means_exit_code_0_and_its_silence_is_bounded() {
    let mut h = Harness::new();
    adopted(&mut h);
    h.event("terminated", json!({}));
    let report = from_bootstrap(&mut h, "terminated", json!({}));
    assert!(report
        .events()
        .contains(&&EventKind::Exited { exit_code: 0 }));

    // A launcher that never reports: the wait ends after the disconnect deadline,
    // with no exit code rather than a made-up one.
    let mut h = Harness::new();
    adopted(&mut h);
    let waiter = waiting(&mut h);
    let ended = h.event("terminated", json!({}));
    let timer = report_timer(&ended);
    assert_eq!(ended.timers()[0].1, h.core.config.disconnect_timeout);
    let out = h.timer(timer);
    assert!(matches!(
        out.reply(waiter),
        Ok(Answer::Stop(StopOutcome::Terminated { exit_code: None }))
    ));
    assert!(out.commands().contains(&"disconnect"), "{out:?}");
}

#[test]
fn a_launcher_capturing_the_programs_output_says_nothing_of_its_exit_code() {
    // With `outputCapture: std` js-debug's launcher reports no exit code, failing or
    // not: its silence is not a 0.
    let mut plan = js_plan();
    plan.arguments.insert("outputCapture".into(), json!("std"));
    let mut h = Harness::new();
    adopted_with(&mut h, plan);
    let waiter = waiting(&mut h);
    h.event("terminated", json!({}));
    let out = from_bootstrap(&mut h, "terminated", json!({}));
    assert!(
        matches!(
            out.reply(waiter),
            Ok(Answer::Stop(StopOutcome::Terminated { exit_code: None }))
        ),
        "{out:?}"
    );
    assert!(!out
        .events()
        .iter()
        .any(|e| matches!(e, EventKind::Exited { .. })));
}

#[test]
fn an_exit_line_before_the_programs_end_waits_for_that_end() {
    // dapvisor says the line for a program it started, as soon as the program exits:
    // the program's connection may still have events to give (a tracepoint's last
    // rows), and ends on its own after them.
    let mut h = Harness::new();
    adopted(&mut h);
    let waiter = waiting(&mut h);
    let line = from_bootstrap(
        &mut h,
        "output",
        json!({ "category": "stderr", "output": "Process exited with code 4\r\n" }),
    );
    assert!(line.events().contains(&&EventKind::Exited { exit_code: 4 }));
    assert_eq!((line.replies(), h.state()), (0, SessionState::Running));
    h.event(
        "output",
        json!({ "category": "stdout", "output": "last words\n" }),
    );
    let ended = h.event("terminated", json!({}));
    assert!(matches!(
        ended.reply(waiter),
        Ok(Answer::Stop(StopOutcome::Terminated { exit_code: Some(4) }))
    ));
    assert!(ended.commands().contains(&"disconnect"), "{ended:?}");
}

#[test]
fn the_launcher_seeing_the_end_first_ends_the_program_session() {
    let mut h = Harness::new();
    adopted(&mut h);
    let waiter = waiting(&mut h);
    from_bootstrap(
        &mut h,
        "output",
        json!({ "category": "stderr", "output": "Process exited with code 3\r\n" }),
    );
    let report = from_bootstrap(&mut h, "terminated", json!({}));
    assert_eq!(h.state(), SessionState::Terminated);
    assert!(matches!(
        report.reply(waiter),
        Ok(Answer::Stop(StopOutcome::Terminated { exit_code: Some(3) }))
    ));
    assert!(report.commands().contains(&"disconnect"));
}

#[test]
fn ending_the_session_lets_the_program_go_then_ends_the_bootstrap() {
    let mut h = Harness::new();
    adopted(&mut h);
    h.stop("breakpoint");
    let (token, out) = h.command(Command::Terminate);
    // js-debug has no `terminate`: the program's connection is disconnected.
    assert!(out.commands().contains(&"disconnect"), "{out:?}");
    assert!(
        !stops_bootstrap(&out),
        "not before the program's connection is let go"
    );
    let done = h.ok(out.tag("disconnect"), json!({}));
    assert!(done.stops_adapter() && stops_bootstrap(&done), "{done:?}");
    assert!(matches!(done.reply(token), Ok(Answer::Done)));
}

fn reported_crash(out: &Effects) -> Option<&AdapterExit> {
    out.0.iter().find_map(|e| match e {
        Effect::ReportCrash(exit) => Some(exit),
        _ => None,
    })
}

fn killed_server() -> AdapterExit {
    AdapterExit {
        signal: Some(9),
        reason: "the adapter closed its output".into(),
        ..AdapterExit::default()
    }
}

#[test]
fn a_crash_is_reported_with_the_servers_end_and_ends_the_bootstrap() {
    // The program's connection breaks first: the crash waits for the server's end,
    // which says how it ended.
    let mut h = Harness::new();
    adopted(&mut h);
    h.stop("breakpoint");
    let broke = Effects(h.core.handle(Input::Closed(AdapterExit {
        reason: "the adapter closed its output".into(),
        ..AdapterExit::default()
    })));
    assert!(reported_crash(&broke).is_none(), "{broke:?}");
    let closed = Effects(
        h.core
            .handle(Input::Bootstrap(BootstrapInput::Closed(killed_server()))),
    );
    assert_eq!(reported_crash(&closed).and_then(|e| e.signal), Some(9));
    assert_eq!(h.state(), SessionState::AdapterRestarting);

    // A server that does not end within the deadline: the crash as it was seen, and
    // the bootstrap ended.
    let mut h = Harness::new();
    adopted(&mut h);
    h.stop("breakpoint");
    let broke = Effects(h.core.handle(Input::Closed(AdapterExit::default())));
    let timer = report_timer(&broke);
    let late = h.timer(timer);
    assert!(
        reported_crash(&late).is_some() && stops_bootstrap(&late),
        "{late:?}"
    );

    // The server's end first: that is the crash; the program's connection then
    // closing is no second one.
    let mut h = Harness::new();
    adopted(&mut h);
    h.stop("breakpoint");
    let closed = Effects(
        h.core
            .handle(Input::Bootstrap(BootstrapInput::Closed(killed_server()))),
    );
    assert_eq!(reported_crash(&closed).and_then(|e| e.signal), Some(9));
    let after = Effects(h.core.handle(Input::Closed(AdapterExit::default())));
    assert!(reported_crash(&after).is_none(), "{after:?}");
}

#[test]
fn a_restart_relaunches_rather_than_use_js_debugs_own() {
    // js-debug's own `restart` would ask for a new session: relaunched instead.
    let mut h = Harness::new();
    adopted(&mut h);
    h.stop("breakpoint");
    let (_, out) = h.command(Command::Restart);
    assert_eq!(out.commands(), ["disconnect"], "{out:?}");
    let done = h.ok(out.tag("disconnect"), json!({}));
    assert!(stops_bootstrap(&done));
    assert!(done.starts_adapter(), "the plan again, on a new server");
}

#[test]
fn later_requests_are_children_on_the_same_server() {
    let mut h = Harness::new();
    adopted(&mut h);
    for out in [
        start_debugging(&mut h, "launch", "t1-worker"),
        Effects(
            h.core
                .handle(Input::Bootstrap(BootstrapInput::StartDebugging {
                    request: "launch".into(),
                    configuration: serde_json::Map::new(),
                    server: Some((SERVER.0.into(), SERVER.1)),
                })),
        ),
    ] {
        let plan = out
            .0
            .iter()
            .find_map(|e| match e {
                Effect::SpawnChild(plan) => Some(plan),
                _ => None,
            })
            .unwrap_or_else(|| panic!("a child session: {out:?}"));
        assert_eq!(
            plan.adapter.transport,
            TransportKind::TcpConnect {
                host: SERVER.0.into(),
                port: SERVER.1
            }
        );
        assert_eq!(plan.breakpoints.len(), 1, "with the parent's breakpoints");
    }
}

#[test]
fn a_start_whose_program_session_never_comes_fails_saying_so() {
    let mut h = Harness::new();
    let (token, started) = h.command(Command::Start(Box::new(js_plan())));
    let timer = started.timers()[0].0;
    let launch = h.ok(started.tag("initialize"), js_caps());
    let config = h.event("initialized", json!({}));
    for (tag, _, _) in config.sends() {
        h.ok(tag, json!({}));
    }
    h.ok(launch.tag("launch"), json!({}));
    let out = h.timer(timer);
    let err = out.error(token).to_string();
    assert!(err.contains("startDebugging"), "{err}");
    assert!(out.stops_adapter());
}

#[test]
fn a_program_that_ends_before_it_is_adopted_ends_the_start() {
    let mut h = Harness::new();
    let token = bootstrapped(&mut h);
    let out = h.event("terminated", json!({}));
    assert!(out.reply(token).is_ok(), "{out:?}");
    assert_eq!(h.state(), SessionState::Terminated);
    // Not a bootstrap session's end: no launcher report is awaited.
    assert!(out.commands().contains(&"disconnect"));
}
