//! A session's actors failing after start-up (a handler returning an error, or
//! panicking), under paused tokio time on the scripted in-process adapter. A failed
//! transport is the adapter's end like any other: a crash, restarted within the budget,
//! the session failed past it. A failed session actor cannot be restarted (its state is
//! gone): the session is closed with the failure as its reason, its adapter goes with
//! it, and the runtime carries on.

use std::sync::Arc;
use std::time::Duration;

use dapvisor_actors::testing::{inject_fault, FakeAdapter, FakeAdapterProbe, InjectedFault};
use dapvisor_actors::{
    EventKind, EventStream, LaunchSpec, Received, RestartPolicy, RunTicket, Runtime, RuntimeConfig,
    SessionError, SessionEvent, SessionHandle, SessionState, StopOutcome,
};

const WAIT: Duration = Duration::from_secs(120);

async fn runtime(policy: RestartPolicy) -> (Runtime, FakeAdapterProbe) {
    let (connect, probe) = FakeAdapter::new().hang_on("evaluate").connector();
    let config = RuntimeConfig::default()
        .restart_policy(policy)
        .in_process_adapter("fake", connect);
    (Runtime::start(config).await.unwrap(), probe)
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
        StopOutcome::Stopped(stop) => stop.epoch,
        other => panic!("expected a stop, got {other:?}"),
    }
}

/// The next event of `events` that `pick` accepts.
async fn next_matching(
    events: &mut EventStream<SessionEvent>,
    pick: impl Fn(&EventKind) -> bool,
) -> Arc<SessionEvent> {
    loop {
        match tokio::time::timeout(WAIT, events.recv()).await {
            Ok(Some(Received::Event(event))) if pick(&event.kind) => return event,
            Ok(Some(_)) => {}
            other => panic!("the event never came: {other:?}"),
        }
    }
}

/// Evaluate (which the adapter never answers) while `fault` is injected; the
/// evaluation's answer.
async fn evaluate_during(session: &SessionHandle, fault: InjectedFault) -> SessionError {
    // `join!` polls in order: the evaluation reaches the session (and its transport)
    // before the fault does.
    let (result, injected) = tokio::join!(session.evaluate("x", None, None), async {
        inject_fault(session, fault)
    });
    assert!(injected);
    result.expect_err("the adapter never answers evaluate")
}

#[tokio::test(start_paused = true)]
async fn a_transport_failing_after_start_up_is_a_crash_and_the_session_comes_back() {
    for fault in [InjectedFault::TransportError, InjectedFault::TransportPanic] {
        let (runtime, probe) = runtime(RestartPolicy::default()).await;
        let session = runtime.launch(spec()).await.unwrap();
        let first = stopped(&session, 0).await;
        let mut events = session.subscribe();

        match evaluate_during(&session, fault).await {
            SessionError::AdapterCrashed { exit, attempt, .. } => {
                assert_eq!(attempt, 1);
                assert!(exit.reason.contains("the transport failed"), "{exit:?}");
                assert!(
                    exit.reason.contains("injected into the transport"),
                    "{exit:?}"
                );
            }
            other => panic!("{fault:?}: want AdapterCrashed, got {other:?}"),
        }
        let crash = next_matching(&mut events, |k| {
            matches!(k, EventKind::AdapterCrashed { .. })
        })
        .await;
        assert!(
            matches!(
                &crash.kind,
                EventKind::AdapterCrashed {
                    attempt: Some(1),
                    ..
                }
            ),
            "{crash:?}"
        );
        // The failed transport's connection is closed; a new adapter stops again.
        stopped(&session, first).await;
        assert_eq!(probe.connections(), 2);
        probe.wait_until(|log| log.closed >= 1).await;
        let snapshot = session.snapshot().await.unwrap();
        assert_eq!(
            (snapshot.state, snapshot.restarts),
            (SessionState::Stopped, 1)
        );
        runtime.shutdown().await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_transport_failing_past_the_budget_fails_the_session() {
    let policy = RestartPolicy {
        max_restarts: 1,
        ..RestartPolicy::default()
    };
    let (runtime, _probe) = runtime(policy).await;
    let session = runtime.launch(spec()).await.unwrap();
    let first = stopped(&session, 0).await;
    let err = evaluate_during(&session, InjectedFault::TransportPanic).await;
    assert!(
        matches!(err, SessionError::AdapterCrashed { .. }),
        "{err:?}"
    );
    stopped(&session, first).await;

    let err = evaluate_during(&session, InjectedFault::TransportError).await;
    match &err {
        SessionError::SessionFailed { reason } => {
            assert!(reason.contains("restart budget: 1 in 60s"), "{reason}");
            assert!(reason.contains("the transport failed"), "{reason}");
        }
        other => panic!("want SessionFailed, got {other:?}"),
    }
    assert_eq!(
        session.threads().await.unwrap_err().to_string(),
        err.to_string()
    );
    assert_eq!(
        session.snapshot().await.unwrap().state,
        SessionState::Failed
    );
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_failed_session_actor_is_closed_with_its_reason_and_the_runtime_carries_on() {
    for (fault, words) in [
        (InjectedFault::SessionError, "an error injected"),
        (InjectedFault::SessionPanic, "a panic injected"),
    ] {
        let (runtime, probe) = runtime(RestartPolicy::default()).await;
        let mut runtime_events = runtime.subscribe();
        let session = runtime.launch(spec()).await.unwrap();
        let id = session.id();
        stopped(&session, 0).await;
        let mut own_events = session.subscribe();

        // The request in flight is answered with the failure, not left hanging and
        // not told merely that the session ended.
        let in_flight = evaluate_during(&session, fault).await;

        let failed = next_matching(&mut runtime_events, |k| {
            matches!(k, EventKind::SessionFailed { .. })
        })
        .await;
        assert_eq!(failed.session_id, id);
        let EventKind::SessionFailed { reason } = &failed.kind else {
            unreachable!()
        };
        assert!(reason.starts_with("the session actor failed"), "{reason}");
        assert!(reason.contains(words), "{fault:?}: {reason}");
        let closed = next_matching(&mut runtime_events, |k| {
            matches!(k, EventKind::SessionClosed { .. })
        })
        .await;
        assert_eq!(closed.session_id, id);
        let own = next_matching(&mut own_events, |k| {
            matches!(k, EventKind::SessionFailed { .. })
        })
        .await;
        assert_eq!(own.kind, failed.kind, "its own subscribers hear it too");

        // It and every later request report the failure; the session is gone from
        // the map.
        for err in [
            in_flight,
            session.threads().await.unwrap_err(),
            session.snapshot().await.unwrap_err(),
            runtime.find(id).unwrap_err(),
        ] {
            assert!(
                matches!(&err, SessionError::SessionFailed { reason: r } if r == reason),
                "{err:?}"
            );
        }
        assert!(runtime.sessions().is_empty());
        // Its transport went with it: the adapter's connection is closed.
        probe.wait_until(|log| log.closed == 1).await;

        // The supervisor is unharmed: a new session works.
        let again = runtime.launch(spec()).await.unwrap();
        stopped(&again, 0).await;
        runtime.shutdown().await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_transport_fault_without_an_adapter_does_nothing() {
    let (runtime, probe) = runtime(RestartPolicy::default()).await;
    let session = runtime.new_session().await.unwrap();
    assert!(inject_fault(&session, InjectedFault::TransportPanic));
    assert_eq!(
        session.state().await.unwrap(),
        SessionState::NotStarted,
        "the session is untouched"
    );
    assert_eq!(probe.connections(), 0);
    runtime.shutdown().await;
}
