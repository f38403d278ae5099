//! Supervision of a crashed adapter under paused tokio time, on the scripted in-process
//! adapter: the adapter is restarted with the same plan and breakpoints (function and
//! exception breakpoints too) under the same session id; a request while it restarts
//! says to wait; ending the session cancels the restart; a normal end is no crash.
//! The restart budget and backoff: `restarts_budget.rs`; attached sessions:
//! `restarts_attach.rs`.

mod session_support;

use std::time::Duration;

use dapvisor_actors::testing::{FakeAdapter, FakeAdapterProbe};
use dapvisor_actors::wire::types::{FunctionBreakpoint, SourceBreakpoint};
use dapvisor_actors::{
    EventKind, RestartPolicy, RuntimeConfig, SessionError, SessionState, StopOutcome,
};
use serde_json::json;
use session_support::restarts::{events_until, spec, stopped, WAIT};
use session_support::runtime as runtime_with;

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
