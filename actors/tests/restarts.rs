//! Supervision under paused tokio time, on the scripted in-process adapter: a crashed
//! adapter is restarted with the same plan and breakpoints under the same session id,
//! within a budget and with backoff; past the budget the session fails with a reason;
//! idle sessions are reaped, and a request to one says so.

use std::time::Duration;

use dapvisor_actors::testing::{FakeAdapter, FakeAdapterProbe};
use dapvisor_actors::wire::types::{FunctionBreakpoint, SourceBreakpoint};
use dapvisor_actors::{
    EventKind, EventStream, LaunchSpec, Received, RestartPolicy, RunTicket, Runtime, RuntimeConfig,
    SessionError, SessionEvent, SessionHandle, SessionState, StopOutcome,
};
use serde_json::json;

const WAIT: Duration = Duration::from_secs(120);

async fn runtime_with(fake: FakeAdapter, config: RuntimeConfig) -> (Runtime, FakeAdapterProbe) {
    let (connect, probe) = fake.connector();
    let runtime = Runtime::start(config.in_process_adapter("fake", connect))
        .await
        .unwrap();
    (runtime, probe)
}

fn spec() -> LaunchSpec {
    LaunchSpec::new("Cargo.toml")
        .adapter("fake")
        .breakpoint("src/lib.rs", 3)
}

async fn stopped(session: &SessionHandle, after: u64) -> u64 {
    match session
        .wait_for_stop(RunTicket { epoch: after }, WAIT)
        .await
        .unwrap()
    {
        StopOutcome::Stopped(stop) => {
            assert_eq!(stop.reason, "breakpoint");
            stop.epoch
        }
        other => panic!("expected a stop, got {other:?}"),
    }
}

/// The lifecycle events of `events` up to and including the first that `last` accepts.
async fn events_until(
    events: &mut EventStream<SessionEvent>,
    last: impl Fn(&EventKind) -> bool,
) -> Vec<EventKind> {
    let mut seen = Vec::new();
    loop {
        match tokio::time::timeout(WAIT, events.recv()).await {
            Ok(Some(Received::Event(event))) => {
                let done = last(&event.kind);
                seen.push(event.kind.clone());
                if done {
                    return seen;
                }
            }
            Ok(Some(Received::Lagged { .. })) => {}
            Ok(Some(Received::CutOff { waiting })) => {
                panic!("cut off with {waiting} events unread")
            }
            other => panic!("events ended early ({other:?}); saw {seen:?}"),
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_crashed_adapter_comes_back_and_stops_at_the_breakpoint_again() {
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let session = runtime.launch(spec()).await.unwrap();
    let first = stopped(&session, 0).await;
    let mut events = session.subscribe();

    // The adapter dies under a pending request: it fails at once, saying so.
    let err = session.evaluate("x", None, None).await.unwrap_err();
    match &err {
        SessionError::AdapterCrashed { attempt, .. } => assert_eq!(*attempt, 1),
        other => panic!("expected AdapterCrashed, got {other:?}"),
    }
    assert_eq!((err.code(), err.kind()), (500, "adapter_crashed"));

    // The same handle sees the new adapter stop at the same breakpoint.
    let second = stopped(&session, first).await;
    assert!(second > first);
    assert_eq!(probe.connections(), 2);
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(snapshot.state, SessionState::Stopped);
    assert_eq!(snapshot.restarts, 1);
    let lines: Vec<i64> = snapshot
        .breakpoints
        .files()
        .flat_map(|f| {
            snapshot
                .breakpoints
                .file(f)
                .iter()
                .map(|r| r.requested.line)
        })
        .collect();
    assert_eq!(lines, vec![3]);
    let set_breakpoints = probe
        .commands()
        .iter()
        .filter(|c| *c == "setBreakpoints")
        .count();
    assert_eq!(
        set_breakpoints, 2,
        "the breakpoint is replayed on the new adapter"
    );

    let seen = events_until(&mut events, |k| matches!(k, EventKind::Stopped(_))).await;
    let crash = seen
        .iter()
        .find_map(|k| match k {
            EventKind::AdapterCrashed {
                attempt,
                restart_in_ms,
                ..
            } => Some((*attempt, *restart_in_ms)),
            _ => None,
        })
        .expect("a crash event");
    assert_eq!(crash.0, Some(1));
    let delay = crash.1.unwrap();
    assert!((200..=300).contains(&delay), "first backoff {delay}ms");
    assert!(
        seen.contains(&EventKind::AdapterRestarted { attempt: 1 }),
        "{seen:?}"
    );
    runtime.shutdown().await;
}

/// The requests of `command` the adapter received on `connection`, by arguments.
fn received(probe: &FakeAdapterProbe, connection: usize, command: &str) -> Vec<serde_json::Value> {
    probe
        .requests()
        .into_iter()
        .filter(|r| r.connection == connection && r.command == command)
        .map(|r| r.arguments.unwrap_or_default())
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_restart_replays_function_breakpoints_and_exception_filters_too() {
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let mut launch = spec();
    launch.function_breakpoints = vec!["main".into()];
    launch.exception_filters = vec!["raised".into()];
    let session = runtime.launch(launch).await.unwrap();
    let first = stopped(&session, 0).await;
    // Changed while the first adapter runs...
    let helper = FunctionBreakpoint {
        name: "helper".into(),
        condition: Some("x > 1".into()),
        ..FunctionBreakpoint::default()
    };
    session.add_function_breakpoint(helper).await.unwrap();
    session
        .set_exception_breakpoints(vec!["raised".into(), "uncaught".into()])
        .await
        .unwrap();
    session.evaluate("x", None, None).await.unwrap_err();
    // ...and while it is being replaced.
    assert_eq!(
        session.state().await.unwrap(),
        SessionState::AdapterRestarting
    );
    session
        .add_function_breakpoint(FunctionBreakpoint {
            name: "late".into(),
            ..FunctionBreakpoint::default()
        })
        .await
        .unwrap();
    stopped(&session, first).await;

    let functions = json!({ "breakpoints": [
        { "name": "main" },
        { "name": "helper", "condition": "x > 1" },
        { "name": "late" },
    ]});
    assert_eq!(
        received(&probe, 2, "setFunctionBreakpoints"),
        vec![functions]
    );
    assert_eq!(
        received(&probe, 2, "setExceptionBreakpoints"),
        vec![json!({ "filters": ["raised", "uncaught"] })]
    );
    // Replayed during configuration: before configurationDone, after initialize.
    let order: Vec<String> = probe
        .requests()
        .into_iter()
        .filter(|r| r.connection == 2)
        .map(|r| r.command)
        .collect();
    let at = |c: &str| order.iter().position(|o| o == c).unwrap();
    assert!(at("initialize") < at("setFunctionBreakpoints"), "{order:?}");
    assert!(
        at("setExceptionBreakpoints") < at("configurationDone"),
        "{order:?}"
    );
    assert!(
        at("setFunctionBreakpoints") < at("configurationDone"),
        "{order:?}"
    );
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_request_in_restarting_state_says_to_wait_for_the_restart() {
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default().restart_policy(RestartPolicy {
            initial_backoff: Duration::from_secs(10),
            jitter: 0.0,
            ..RestartPolicy::default()
        }),
    )
    .await;
    let session = runtime.launch(spec()).await.unwrap();
    let first = stopped(&session, 0).await;
    let _ = session.evaluate("x", None, None).await.unwrap_err();

    assert_eq!(
        session.state().await.unwrap(),
        SessionState::AdapterRestarting
    );
    let err = session.stack_trace(None, None).await.unwrap_err();
    assert!(
        matches!(
            err,
            SessionError::InvalidState {
                state: SessionState::AdapterRestarting,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.hint().contains("adapter_restarted"), "{}", err.hint());
    // Breakpoints may still be edited, from the cache; they go to the new adapter.
    let bad = SourceBreakpoint::default();
    let err = session.add_breakpoint("src/lib.rs", bad).await.unwrap_err();
    assert!(matches!(err, SessionError::InvalidArgument(_)), "{err:?}");
    let seven = SourceBreakpoint {
        line: 7,
        ..SourceBreakpoint::default()
    };
    let records = session.add_breakpoint("src/lib.rs", seven).await.unwrap();
    assert_eq!(records.len(), 2);
    stopped(&session, first).await;
    let last_set = probe
        .requests()
        .into_iter()
        .rfind(|r| r.command == "setBreakpoints")
        .unwrap();
    assert_eq!(last_set.connection, 2);
    let lines: Vec<i64> = last_set.arguments.unwrap()["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["line"].as_i64().unwrap())
        .collect();
    assert_eq!(lines, vec![3, 7]);
    stopped(&session, first).await;
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn past_the_budget_the_session_fails_with_its_reason() {
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("continue"),
        RuntimeConfig::default(),
    )
    .await;
    let session = runtime.launch(spec()).await.unwrap();
    let mut runtime_events = runtime.subscribe();
    let mut epoch = stopped(&session, 0).await;
    for attempt in 1..=5 {
        let err = session.continue_(None).await.unwrap_err();
        assert!(
            matches!(err, SessionError::AdapterCrashed { attempt: a, .. } if a == attempt),
            "crash {attempt}: {err:?}"
        );
        epoch = stopped(&session, epoch).await;
    }
    let err = session.continue_(None).await.unwrap_err();
    assert!(matches!(err, SessionError::SessionFailed { .. }), "{err:?}");
    assert!(err.to_string().contains("6 times within 60s"), "{err}");
    assert_eq!(probe.connections(), 6);

    // Every later request reports the same reason.
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(snapshot.state, SessionState::Failed);
    assert_eq!(snapshot.restarts, 5);
    for err in [
        session.threads().await.unwrap_err(),
        session.continue_(None).await.unwrap_err(),
        session
            .wait_for_stop(RunTicket { epoch }, WAIT)
            .await
            .unwrap_err(),
    ] {
        assert!(
            matches!(&err, SessionError::SessionFailed { reason } if reason.contains("6 times")),
            "{err:?}"
        );
    }

    // The host hears of it on the runtime's stream.
    let seen = events_until(&mut runtime_events, |k| {
        matches!(k, EventKind::SessionFailed { .. })
    })
    .await;
    assert!(seen
        .iter()
        .any(|k| matches!(k, EventKind::AdapterCrashed { attempt: None, .. })));
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn backoff_doubles_between_consecutive_crashes() {
    let policy = RestartPolicy {
        jitter: 0.0,
        ..RestartPolicy::default()
    };
    let (runtime, _probe) = runtime_with(
        FakeAdapter::new().close_on("continue"),
        RuntimeConfig::default().restart_policy(policy),
    )
    .await;
    let session = runtime.launch(spec()).await.unwrap();
    let mut events = session.subscribe();
    let mut epoch = stopped(&session, 0).await;
    let mut delays = Vec::new();
    for _ in 0..3 {
        let crashed_at = tokio::time::Instant::now();
        session.continue_(None).await.unwrap_err();
        epoch = stopped(&session, epoch).await;
        let seen = events_until(&mut events, |k| matches!(k, EventKind::Stopped(_))).await;
        delays.extend(seen.iter().filter_map(|k| match k {
            EventKind::AdapterCrashed { restart_in_ms, .. } => *restart_in_ms,
            _ => None,
        }));
        // Virtual time moved by the backoff, not more.
        let took = crashed_at.elapsed();
        let expected = Duration::from_millis(*delays.last().unwrap());
        assert!(
            took >= expected && took < expected + Duration::from_millis(50),
            "{took:?}"
        );
    }
    assert_eq!(delays, vec![250, 500, 1000]);
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn ending_a_session_while_it_restarts_cancels_the_restart() {
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let session = runtime.launch(spec()).await.unwrap();
    stopped(&session, 0).await;
    session.evaluate("x", None, None).await.unwrap_err();
    session.terminate().await.unwrap();
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert_eq!(
        probe.connections(),
        1,
        "no adapter was started after the terminate"
    );
    assert_eq!(session.state().await.unwrap(), SessionState::Terminated);
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_normal_end_is_not_a_crash() {
    let (runtime, probe) =
        runtime_with(FakeAdapter::new().exit_code(7), RuntimeConfig::default()).await;
    let session = runtime.launch(spec()).await.unwrap();
    let epoch = stopped(&session, 0).await;
    let ticket = session.continue_(None).await.unwrap();
    assert!(ticket.epoch >= epoch);
    match session.wait_for_stop(ticket, WAIT).await.unwrap() {
        StopOutcome::Terminated { exit_code } => assert_eq!(exit_code, Some(7)),
        other => panic!("{other:?}"),
    }
    tokio::time::sleep(Duration::from_secs(5)).await;
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(
        (snapshot.state, snapshot.restarts),
        (SessionState::Terminated, 0)
    );
    assert_eq!(probe.connections(), 1);
    runtime.shutdown().await;
}

fn attach_to(pid: u32) -> dapvisor_actors::AttachSpec {
    let mut spec = dapvisor_actors::AttachSpec::default();
    spec.pid = Some(pid);
    spec.adapter = Some("fake".into());
    spec.breakpoints = vec![dapvisor_actors::InitialBreakpoint::new("src/lib.rs", 3)];
    spec
}

#[tokio::test(start_paused = true)]
async fn an_attach_whose_target_lives_re_attaches() {
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    // The test's own process: alive for as long as the test runs.
    let session = runtime.attach(attach_to(std::process::id())).await.unwrap();
    let first = stopped(&session, 0).await;
    session.evaluate("x", None, None).await.unwrap_err();
    stopped(&session, first).await;
    let attaches = probe.commands().iter().filter(|c| *c == "attach").count();
    assert_eq!(attaches, 2, "attached again after the crash");
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn an_attach_whose_target_is_gone_fails_naming_it() {
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let pid = gone.id();
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let session = runtime.attach(attach_to(pid)).await.unwrap();
    stopped(&session, 0).await;
    gone.wait().unwrap();
    session.evaluate("x", None, None).await.unwrap_err();
    let err = session
        .wait_for_stop(RunTicket { epoch: 1 }, WAIT)
        .await
        .unwrap_err();
    match err {
        SessionError::SessionFailed { reason } => {
            assert!(
                reason.contains(&format!("process {pid} is gone")),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(probe.connections(), 1, "nothing to re-attach to");
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn an_attach_whose_debug_server_is_gone_fails_naming_it() {
    // A port bound but not listening: connecting is refused, and while this socket
    // holds it no other process can start listening there.
    let closed = tokio::net::TcpSocket::new_v4().unwrap();
    closed.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = closed.local_addr().unwrap().port();
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let mut spec = attach_to(0);
    spec.pid = None;
    spec.port = Some(port);
    let session = runtime.attach(spec).await.unwrap();
    stopped(&session, 0).await;
    session.evaluate("x", None, None).await.unwrap_err();
    let err = session
        .wait_for_stop(RunTicket { epoch: 1 }, WAIT)
        .await
        .expect_err("the session should have failed");
    match err {
        SessionError::SessionFailed { reason } => assert!(
            reason.contains(&format!("the debug server at 127.0.0.1:{port} is gone")),
            "{reason}"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(probe.connections(), 1, "nothing to re-attach to");
    drop(closed);
    runtime.shutdown().await;
}

#[tokio::test]
async fn a_runtime_with_a_bad_restart_policy_is_refused_saying_why() {
    let policy = RestartPolicy {
        jitter: f64::NAN,
        ..RestartPolicy::default()
    };
    let err = Runtime::start(RuntimeConfig::default().restart_policy(policy))
        .await
        .err()
        .expect("a NaN jitter is refused");
    match &err {
        SessionError::Config(config) => {
            assert_eq!(config.field(), "restart_policy.jitter");
            let text = config.to_string();
            assert!(text.contains("jitter is NaN"), "{text}");
            assert!(text.contains("from 0 to 1"), "{text}");
        }
        other => panic!("want a configuration refusal, got {other:?}"),
    }
    assert_eq!((err.code(), err.kind()), (400, "invalid_argument"));
}

#[tokio::test(start_paused = true)]
async fn the_widest_jitter_still_restarts_within_its_band() {
    let policy = RestartPolicy {
        jitter: 1.0,
        ..RestartPolicy::default()
    };
    let (runtime, _probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default().restart_policy(policy),
    )
    .await;
    let session = runtime.launch(spec()).await.unwrap();
    let first = stopped(&session, 0).await;
    match session.evaluate("x", None, None).await.unwrap_err() {
        SessionError::AdapterCrashed { retry_in, .. } => {
            assert!(retry_in <= Duration::from_millis(500), "{retry_in:?}")
        }
        other => panic!("{other:?}"),
    }
    stopped(&session, first).await;
    runtime.shutdown().await;
}
