//! Event fan-out through the session actor, on the scripted in-process adapter under
//! paused tokio time: a slow subscriber gets every lifecycle event and a `Lagged` count
//! that accounts for exactly the dropped output, and the backlog setting bounds each
//! runtime subscriber.

use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::{EventKind, LaunchSpec, Received, RuntimeConfig, SessionState};

use session_support::*;

mod session_support;

// ---- event fan-out ----

#[tokio::test(start_paused = true)]
async fn a_slow_subscriber_gets_every_lifecycle_event_and_an_exact_count_of_missed_output() {
    const OUTPUTS: usize = 5000;
    const PAIRS: usize = 5;
    let (runtime, probe) = runtime(
        FakeAdapter::new().output_burst(PAIRS, OUTPUTS),
        RuntimeConfig::default(),
    )
    .await;
    let session = runtime.new_session().await.unwrap();
    let mut slow = session.subscribe();
    let plan = runtime
        .plan_launch(LaunchSpec::new(program()).adapter(FAKE))
        .await
        .unwrap();
    session.start(plan).await.unwrap();
    assert_eq!(ended(&session).await, Some(0));
    assert_eq!(probe.log().outputs_sent, OUTPUTS);

    // Walk the stream: `accounted` counts outputs received or reported missed, so
    // each stop must come after exactly the outputs the adapter sent before it.
    let items = drain(&mut slow);
    let (mut accounted, mut received, mut missed) = (0u64, 0u64, 0u64);
    let mut stops = Vec::new();
    for item in &items {
        match item {
            Received::Lagged { missed: n } => {
                accounted += n;
                missed += n;
            }
            Received::CutOff { waiting } => panic!("cut off with {waiting} waiting"),
            Received::Event(event) => match &event.kind {
                EventKind::Output { output, .. } => {
                    assert_eq!(output, &format!("out {accounted}\n"));
                    accounted += 1;
                    received += 1;
                }
                EventKind::Stopped(stop) => {
                    assert_eq!(accounted, stop.epoch * (OUTPUTS / PAIRS) as u64);
                    stops.push(stop.epoch);
                }
                _ => {}
            },
        }
    }
    assert_eq!(accounted, OUTPUTS as u64);
    assert_eq!(received, 1024, "the default backlog");
    assert_eq!(missed, OUTPUTS as u64 - 1024);
    assert_eq!(stops, vec![1, 2, 3, 4, 5]);

    let lifecycle = kinds(&items);
    let count = |f: fn(&EventKind) -> bool| lifecycle.iter().filter(|k| f(k)).count();
    assert_eq!(count(|k| matches!(k, EventKind::Continued { .. })), PAIRS);
    assert_eq!(
        count(|k| matches!(k, EventKind::Exited { exit_code: 0 })),
        1
    );
    assert_eq!(count(|k| matches!(k, EventKind::Terminated { .. })), 1);
    let states: Vec<_> = lifecycle
        .iter()
        .filter_map(|k| match k {
            EventKind::StateChanged { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    let mut expected = vec![
        SessionState::Initializing,
        SessionState::Configured,
        SessionState::Running,
    ];
    for _ in 0..PAIRS {
        expected.extend([SessionState::Stopped, SessionState::Running]);
    }
    expected.push(SessionState::Terminated);
    assert_eq!(states, expected);
}

#[tokio::test(start_paused = true)]
async fn the_output_backlog_setting_bounds_each_runtime_subscriber() {
    let config = RuntimeConfig::default().subscriber_output_backlog(10);
    let (runtime, _) = runtime(FakeAdapter::new().output_burst(0, 100), config).await;
    let mut events = runtime.subscribe();
    let session = runtime
        .launch(LaunchSpec::new(program()).adapter(FAKE))
        .await
        .unwrap();
    ended(&session).await;
    let items = drain(&mut events);
    let outputs = kinds(&items)
        .into_iter()
        .filter(|k| matches!(k, EventKind::Output { .. }))
        .count();
    let lags: Vec<u64> = items
        .iter()
        .filter_map(|item| match item {
            Received::Lagged { missed } => Some(*missed),
            Received::Event(_) | Received::CutOff { .. } => None,
        })
        .collect();
    assert_eq!((outputs, lags), (10, vec![90]));
}

// ---- the end of a stream ----

/// Everything `events` yields until it ends; a panic if it does not end within a
/// minute (of paused time: only a stream that never ends reaches it).
async fn until_the_end(
    events: &mut dapvisor_actors::EventStream<dapvisor_actors::SessionEvent>,
) -> Vec<EventKind> {
    let mut seen = Vec::new();
    loop {
        match tokio::time::timeout(std::time::Duration::from_secs(60), events.recv()).await {
            Ok(Some(Received::Event(event))) => seen.push(event.kind.clone()),
            Ok(Some(_)) => {}
            Ok(None) => return seen,
            Err(_) => panic!("the stream never ended; it gave {seen:?}"),
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_sessions_stream_ends_with_its_close_once_the_session_is_ended() {
    let (runtime, _) = runtime(FakeAdapter::new(), RuntimeConfig::default()).await;
    let session = stopped(&runtime, FAKE).await;
    let mut events = session.subscribe();
    runtime.end_session(session.id()).await.unwrap();
    let seen = until_the_end(&mut events).await;
    assert!(
        matches!(seen.last(), Some(EventKind::SessionClosed { reason }) if reason == "ended"),
        "{seen:?}"
    );
    // A late subscriber gets an ended stream, not one that waits for ever.
    assert!(until_the_end(&mut session.subscribe()).await.is_empty());
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn every_stream_ends_when_the_runtime_shuts_down() {
    let (runtime, _) = runtime(FakeAdapter::new(), RuntimeConfig::default()).await;
    let mut everything = runtime.subscribe();
    let session = stopped(&runtime, FAKE).await;
    let mut own = session.subscribe();
    runtime.shutdown().await;
    let seen = until_the_end(&mut own).await;
    assert!(
        matches!(seen.last(), Some(EventKind::SessionClosed { .. })),
        "{seen:?}"
    );
    let all = until_the_end(&mut everything).await;
    assert!(
        matches!(all.last(), Some(EventKind::SessionClosed { .. })),
        "{all:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn the_runtimes_stream_ends_when_its_supervisor_is_killed() {
    let (runtime, _) = runtime(FakeAdapter::new(), RuntimeConfig::default()).await;
    let mut everything = runtime.subscribe();
    let session = stopped(&runtime, FAKE).await;
    let mut own = session.subscribe();
    runtime.supervisor().kill();
    until_the_end(&mut everything).await;
    until_the_end(&mut own).await;
}
