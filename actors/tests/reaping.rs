//! The idle reaper under paused tokio time: a session no agent has asked anything of
//! for the idle limit is ended and removed, adapter events and snapshots do not count
//! as use, and a request to a reaped session says how long it had been idle (or, for
//! a session that had failed, why it failed).

use std::time::Duration;

use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::{
    EventKind, LaunchSpec, Received, RestartPolicy, RunTicket, Runtime, RuntimeConfig,
    SessionError, SessionHandle, SessionState, StopOutcome,
};

const LIMIT: Duration = Duration::from_secs(10);

async fn runtime(fake: FakeAdapter, limit: Option<Duration>) -> Runtime {
    let (connect, _probe) = fake.connector();
    let config = RuntimeConfig::default()
        .idle_limit(limit)
        .in_process_adapter("fake", connect);
    Runtime::start(config).await.unwrap()
}

fn spec() -> LaunchSpec {
    LaunchSpec::new("Cargo.toml")
        .adapter("fake")
        .breakpoint("src/lib.rs", 3)
}

#[tokio::test(start_paused = true)]
async fn an_idle_session_is_reaped_and_says_so() {
    let runtime = runtime(FakeAdapter::new(), Some(LIMIT)).await;
    let mut events = runtime.subscribe();
    let session = runtime.launch(spec()).await.unwrap();
    let id = session.id();

    // Snapshots are reads, not use: they do not keep the session alive.
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_secs(4)).await;
        let _ = session.snapshot().await;
    }

    assert!(
        runtime.session(id).is_none(),
        "reaped within the limit plus a sweep"
    );
    let err = session.threads().await.unwrap_err();
    match &err {
        SessionError::Reaped { idle_secs, .. } => {
            assert!((10..=15).contains(idle_secs), "idle {idle_secs}s")
        }
        other => panic!("expected Reaped, got {other:?}"),
    }
    assert!(matches!(
        runtime.find(id).unwrap_err(),
        SessionError::Reaped { .. }
    ));
    assert!(matches!(
        runtime.end_session(id).await.unwrap_err(),
        SessionError::Reaped { .. }
    ));

    let mut reaped = false;
    while let Ok(Some(received)) =
        tokio::time::timeout(Duration::from_millis(1), events.recv()).await
    {
        if let Received::Event(event) = received {
            reaped |= event.session_id == id
                && matches!(event.kind, EventKind::SessionReaped { idle_secs } if idle_secs >= 10);
        }
    }
    assert!(reaped, "a reaped event reached the runtime's subscribers");
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_session_in_use_is_kept() {
    let runtime = runtime(FakeAdapter::new().keep_running(), Some(LIMIT)).await;
    let session = runtime.launch(spec()).await.unwrap();
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_secs(6)).await;
        session.threads().await.unwrap();
    }
    assert!(
        runtime.session(session.id()).is_some(),
        "used every 6s of a 10s limit"
    );
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn adapter_events_do_not_count_as_use() {
    // The program streams output for a long while; no agent asks anything.
    let fake = FakeAdapter::new()
        .output_burst(0, 100)
        .pace_burst(1, Duration::from_millis(500));
    let runtime = runtime(fake, Some(LIMIT)).await;
    let session = runtime
        .launch(LaunchSpec::new("Cargo.toml").adapter("fake"))
        .await
        .unwrap();
    let mut events = session.subscribe();
    let mut outputs_after_start = 0;
    loop {
        match tokio::time::timeout(Duration::from_secs(60), events.recv()).await {
            Ok(Some(Received::Event(event))) => match &event.kind {
                EventKind::Output { .. } => outputs_after_start += 1,
                EventKind::SessionReaped { .. } => break,
                _ => {}
            },
            Ok(Some(Received::Lagged { .. })) => {}
            Ok(Some(Received::CutOff { waiting })) => {
                panic!("cut off with {waiting} events unread")
            }
            other => panic!("no reaped event: {other:?}"),
        }
    }
    assert!(
        outputs_after_start >= 15,
        "output kept coming: {outputs_after_start}"
    );
    assert!(runtime.session(session.id()).is_none());
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn without_an_idle_limit_nothing_is_reaped() {
    let runtime = runtime(FakeAdapter::new(), None).await;
    let session = runtime.launch(spec()).await.unwrap();
    tokio::time::sleep(Duration::from_secs(3600)).await;
    match session
        .wait_for_stop(RunTicket { epoch: 0 }, LIMIT)
        .await
        .unwrap()
    {
        StopOutcome::Stopped(stop) => assert_eq!(stop.reason, "breakpoint"),
        other => panic!("{other:?}"),
    }
    runtime.shutdown().await;
}

#[test]
fn the_sweep_runs_at_least_every_30s_and_twice_per_limit() {
    let every = |limit| {
        RuntimeConfig::default()
            .idle_limit(limit)
            .idle_sweep_interval()
    };
    assert_eq!(
        every(Some(Duration::from_secs(600))),
        Some(Duration::from_secs(30))
    );
    assert_eq!(
        every(Some(Duration::from_secs(10))),
        Some(Duration::from_secs(5))
    );
    assert_eq!(every(None), None);
}

#[tokio::test(start_paused = true)]
async fn a_long_wait_is_use_not_idleness() {
    let runtime = runtime(FakeAdapter::new().keep_running(), Some(LIMIT)).await;
    let session = runtime
        .launch(LaunchSpec::new("Cargo.toml").adapter("fake"))
        .await
        .unwrap();
    // An agent waits six idle limits for a stop that never comes.
    let outcome = session
        .wait_for_stop(RunTicket { epoch: 0 }, 6 * LIMIT)
        .await
        .unwrap();
    assert_eq!(outcome, StopOutcome::TimedOut);
    // The wait just ended: the session counts as used now.
    tokio::time::sleep(LIMIT / 2).await;
    assert!(runtime.session(session.id()).is_some());
    runtime.shutdown().await;
}

/// A runtime whose sessions fail at their adapter's first crash (on `continue`).
async fn failing_runtime() -> Runtime {
    let (connect, _probe) = FakeAdapter::new().close_on("continue").connector();
    let config = RuntimeConfig::default()
        .idle_limit(Some(LIMIT))
        .restart_policy(RestartPolicy {
            max_restarts: 0,
            ..RestartPolicy::default()
        })
        .in_process_adapter("fake", connect);
    Runtime::start(config).await.unwrap()
}

/// Launch, stop, and crash the adapter past the (empty) budget.
async fn failed_session(runtime: &Runtime) -> SessionHandle {
    let session = runtime.launch(spec()).await.unwrap();
    session
        .wait_for_stop(RunTicket { epoch: 0 }, LIMIT)
        .await
        .unwrap();
    let err = session.continue_(None).await.unwrap_err();
    assert!(matches!(err, SessionError::SessionFailed { .. }), "{err:?}");
    session
}

fn is_the_failure(err: &SessionError) -> bool {
    matches!(err, SessionError::SessionFailed { reason }
        if reason.contains("restart budget: 0 in 60s"))
}

#[tokio::test(start_paused = true)]
async fn a_failed_session_is_readable_until_reaped_and_then_still_says_it_failed() {
    let runtime = failing_runtime().await;
    let mut events = runtime.subscribe();
    let session = failed_session(&runtime).await;
    let id = session.id();

    // Still listed, so its snapshot says why; every other request says it failed.
    assert!(runtime.session(id).is_some());
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(snapshot.state, SessionState::Failed);
    assert!(snapshot
        .failure
        .as_deref()
        .is_some_and(|f| f.contains("budget")));
    assert!(is_the_failure(&session.threads().await.unwrap_err()));

    tokio::time::sleep(3 * LIMIT).await;
    assert!(runtime.session(id).is_none(), "reaped once idle");
    for err in [
        session.threads().await.unwrap_err(),
        runtime.find(id).unwrap_err(),
        runtime.end_session(id).await.unwrap_err(),
    ] {
        assert!(is_the_failure(&err), "{err:?}");
    }
    let mut reaped = false;
    while let Ok(Some(received)) =
        tokio::time::timeout(Duration::from_millis(1), events.recv()).await
    {
        if let Received::Event(event) = received {
            reaped |=
                event.session_id == id && matches!(event.kind, EventKind::SessionReaped { .. });
        }
    }
    assert!(reaped, "the reaping itself is still announced");
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_failed_session_ended_by_its_host_still_says_it_failed() {
    let runtime = failing_runtime().await;
    let session = failed_session(&runtime).await;
    let id = session.id();
    runtime.end_session(id).await.unwrap();
    assert!(runtime.session(id).is_none());
    assert!(is_the_failure(&runtime.find(id).unwrap_err()));
    assert!(is_the_failure(&session.snapshot().await.unwrap_err()));
    runtime.shutdown().await;
}

/// The kinds of the events of session `id` in `events` until the stream ends.
async fn to_the_end_of(
    events: &mut dapvisor_actors::EventStream<dapvisor_actors::SessionEvent>,
    id: dapvisor_actors::SessionId,
) -> Vec<EventKind> {
    let mut seen = Vec::new();
    loop {
        match tokio::time::timeout(Duration::from_secs(600), events.recv()).await {
            Ok(Some(Received::Event(event))) if event.session_id == id => {
                seen.push(event.kind.clone())
            }
            Ok(Some(_)) => {}
            Ok(None) => return seen,
            Err(_) => panic!("the stream never ended; it gave {seen:?}"),
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_reaped_session_is_announced_after_its_end_and_nothing_follows_its_close() {
    let runtime = runtime(FakeAdapter::new().keep_running(), Some(LIMIT)).await;
    let mut everything = runtime.subscribe();
    let session = runtime
        .launch(LaunchSpec::new("Cargo.toml").adapter("fake"))
        .await
        .unwrap();
    let mut own = session.subscribe();
    let id = session.id();

    // Left idle: reaped. Its own stream ends with the reaping.
    let seen = to_the_end_of(&mut own, id).await;
    let n = seen.len();
    assert!(n >= 3, "{seen:?}");
    assert!(
        matches!(&seen[n - 2], EventKind::SessionReaped { idle_secs } if *idle_secs >= 10),
        "reaped, then closed, last: {seen:?}"
    );
    assert!(
        matches!(&seen[n - 1], EventKind::SessionClosed { reason } if reason.starts_with("reaped")),
        "{seen:?}"
    );
    // The disconnect the reaper started came before it was announced.
    let ended = seen
        .iter()
        .position(|k| {
            matches!(
                k,
                EventKind::StateChanged {
                    to: SessionState::Terminated,
                    ..
                }
            )
        })
        .unwrap_or_else(|| panic!("the session ended: {seen:?}"));
    assert!(ended < n - 2, "{seen:?}");

    runtime.shutdown().await;
    let all = to_the_end_of(&mut everything, id).await;
    assert!(
        matches!(all.last(), Some(EventKind::SessionClosed { .. })),
        "nothing of the session's after its close on the runtime's stream: {all:?}"
    );
    let tail = &all[all.len() - 2..];
    assert_eq!(
        tail,
        &seen[n - 2..],
        "the same announcement on both streams"
    );
}
