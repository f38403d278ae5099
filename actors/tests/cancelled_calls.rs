//! Calls an agent gives up on (their future dropped, as `tokio::time::timeout` or a
//! `select!` does), under paused tokio time on the scripted in-process adapter: the
//! session forgets them at once. A dropped wait gives its place in the request queue
//! back and no longer keeps the session from being reaped; a dropped request the
//! adapter is still working on is cancelled where the adapter takes DAP's `cancel`; a
//! dropped launch leaves no session behind. And no wait outlasts the longest one.

use std::time::Duration;

use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::{
    limits, EventKind, LaunchSpec, Received, RunTicket, RuntimeConfig, SessionError, StopOutcome,
};
use serde_json::json;
use tokio::time::{timeout, Instant};

use session_support::*;

mod session_support;

const GIVE_UP: Duration = Duration::from_secs(1);

/// A launch that never stops (the fake keeps running).
fn running() -> LaunchSpec {
    LaunchSpec::new(program()).adapter(FAKE)
}

#[tokio::test(start_paused = true)]
async fn a_dropped_wait_gives_its_place_in_the_queue_back() {
    let config = RuntimeConfig::default().max_queued_requests(2);
    let (runtime, _) = runtime(FakeAdapter::new().keep_running(), config).await;
    let session = runtime.launch(running()).await.unwrap();
    for _ in 0..2 {
        let wait = session.wait_for_stop(RunTicket { epoch: 0 }, Duration::from_secs(600));
        assert!(timeout(GIVE_UP, wait).await.is_err(), "no stop comes");
    }
    // Both places are free again: two waits at once are taken, a third is busy.
    let wait = || session.wait_for_stop(RunTicket { epoch: 0 }, Duration::from_secs(5));
    let (first, second, third) = tokio::join!(wait(), wait(), wait());
    assert_eq!(first.unwrap(), StopOutcome::TimedOut);
    assert_eq!(second.unwrap(), StopOutcome::TimedOut);
    assert!(
        matches!(third, Err(SessionError::Busy { limit: 2, .. })),
        "{third:?}"
    );
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_session_whose_wait_was_dropped_is_reaped_when_idle() {
    let limit = Duration::from_secs(10);
    let config = RuntimeConfig::default().idle_limit(Some(limit));
    let (runtime, _) = runtime(FakeAdapter::new().keep_running(), config).await;
    let mut events = runtime.subscribe();
    let session = runtime.launch(running()).await.unwrap();
    let wait = session.wait_for_stop(RunTicket { epoch: 0 }, Duration::from_secs(3000));
    assert!(timeout(GIVE_UP, wait).await.is_err());

    // Reaped within the limit and a sweep of being given up on, not after 3000 s.
    let began = Instant::now();
    loop {
        match timeout(Duration::from_secs(60), events.recv()).await {
            Ok(Some(Received::Event(event)))
                if matches!(event.kind, EventKind::SessionReaped { .. }) =>
            {
                break
            }
            Ok(Some(_)) => {}
            other => panic!("never reaped: {other:?}"),
        }
    }
    assert!(
        began.elapsed() <= limit + limit / 2,
        "{:?}",
        began.elapsed()
    );
    assert!(runtime.session(session.id()).is_none());
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn no_wait_outlasts_the_longest_wait() {
    let (runtime, _) = runtime(
        FakeAdapter::new().keep_running(),
        RuntimeConfig::default().idle_limit(None),
    )
    .await;
    let session = runtime.launch(running()).await.unwrap();
    let began = Instant::now();
    let outcome = session
        .wait_for_stop(RunTicket { epoch: 0 }, Duration::MAX)
        .await
        .unwrap();
    assert_eq!(outcome, StopOutcome::TimedOut);
    assert_eq!(began.elapsed(), limits::MAX_STOP_WAIT);
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_dropped_request_is_cancelled_where_the_adapter_takes_cancel() {
    let fake = FakeAdapter::new()
        .capability("supportsCancelRequest", json!(true))
        .hang_on("evaluate");
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    let session = stopped(&runtime, FAKE).await;
    assert!(timeout(GIVE_UP, session.evaluate("x", None, None))
        .await
        .is_err());
    let evaluate = probe.wait_for_request("evaluate").await;
    // At once, not at the request's 30 s deadline.
    let cancel = timeout(Duration::from_millis(10), probe.wait_for_request("cancel"))
        .await
        .expect("the adapter is asked to cancel at once");
    assert_eq!(cancel.arguments.unwrap()["requestId"], evaluate.seq);
    // The session carries on.
    assert!(session.threads().await.is_ok());
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_dropped_request_is_not_cancelled_where_the_adapter_cannot() {
    let fake = FakeAdapter::new().hang_on("evaluate");
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    let session = stopped(&runtime, FAKE).await;
    assert!(timeout(GIVE_UP, session.evaluate("x", None, None))
        .await
        .is_err());
    assert!(session.threads().await.is_ok());
    assert!(!probe.commands().iter().any(|c| c == "cancel"));
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_dropped_launch_leaves_no_session() {
    let fake = FakeAdapter::new().hang_on("launch");
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    let mut events = runtime.subscribe();
    assert!(timeout(GIVE_UP, runtime.launch(running())).await.is_err());

    // Ended and removed, well before the launch's own deadline.
    let closed = loop {
        match timeout(Duration::from_secs(30), events.recv()).await {
            Ok(Some(Received::Event(event)))
                if matches!(event.kind, EventKind::SessionClosed { .. }) =>
            {
                break event
            }
            Ok(Some(_)) => {}
            other => panic!("the abandoned session was never closed: {other:?}"),
        }
    };
    assert!(runtime.sessions().is_empty());
    // Removed, and remembered as ended (not "never known"), as any ended session is.
    let found = runtime.find(closed.session_id);
    assert!(
        matches!(found, Err(SessionError::SessionEnded(_))),
        "{found:?}"
    );
    probe.wait_until(|log| log.closed == 1).await;
    runtime.shutdown().await;
}
