//! Issue 27 ("the runtime never grows without bound"), through the session actor on
//! the scripted in-process adapter under paused tokio time: no timer outlives what it
//! waited for; a call given up on keeps its queue place while its request is with the
//! adapter; child sessions are bounded per session tree; a busy session is still
//! ended in order.

use std::time::Duration;

use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::{limits, LaunchSpec, RunTicket, RuntimeConfig, SessionError, StopOutcome};
use serde_json::json;
use tokio::time::timeout;

use session_support::*;
use task_count::settled_tasks;

mod session_support;
mod task_count;

/// Item 8: a wait answered by a stop left a task sleeping up to an hour, and the
/// handshake's timer one up to 30 minutes; both outlived the session.
#[tokio::test(start_paused = true)]
async fn no_timer_outlives_what_it_waited_for() {
    let before = settled_tasks().await;
    let config = RuntimeConfig::default().idle_limit(None);
    let (runtime, _) = runtime(FakeAdapter::new().keep_running(), config).await;
    let session = runtime
        .launch(LaunchSpec::new(program()).adapter(FAKE))
        .await
        .unwrap();
    let launched = settled_tasks().await;
    for _ in 0..3 {
        let epoch = session.snapshot().await.unwrap().stop_epoch;
        let wait = session.wait_for_stop(RunTicket { epoch }, limits::MAX_STOP_WAIT);
        let (stop, paused) = tokio::join!(wait, session.pause(Some(1)));
        paused.unwrap();
        assert!(matches!(stop, Ok(StopOutcome::Stopped(_))), "{stop:?}");
        session.continue_(None).await.unwrap();
    }
    assert_eq!(
        settled_tasks().await,
        launched,
        "a wait's timer still sleeps"
    );
    runtime.shutdown().await;
    assert_eq!(settled_tasks().await, before, "a task outlived the runtime");
}

/// Item 3: a dropped call gave its queue place back at once while its request stayed
/// with the adapter (until its answer or deadline), so retries piled up unbounded.
#[tokio::test(start_paused = true)]
async fn a_dropped_request_keeps_its_place_until_the_adapter_answers() {
    let fake = FakeAdapter::new().late_answer("evaluate", Duration::from_secs(20));
    let config = RuntimeConfig::default().max_queued_requests(2);
    let (runtime, _) = runtime(fake, config).await;
    let session = stopped(&runtime, FAKE).await;
    for _ in 0..2 {
        let slow = session.evaluate("x", None, None);
        assert!(timeout(Duration::from_secs(1), slow).await.is_err());
    }
    settled_tasks().await;
    let busy = session.threads().await;
    assert!(
        matches!(busy, Err(SessionError::Busy { limit: 2, .. })),
        "{busy:?}"
    );
    // The adapter answers both: the places come back.
    tokio::time::sleep(Duration::from_secs(30)).await;
    session.threads().await.unwrap();
    runtime.shutdown().await;
}

/// Item 10: a session whose queue was full refused the snapshot and the ending
/// request, and was stopped anyway: its adapter killed without `disconnect`, which
/// for an attached program leaves its breakpoints in. Ending has places of its own.
#[tokio::test(start_paused = true)]
async fn a_busy_session_is_still_ended_in_order() {
    let fake = FakeAdapter::new().hang_on("evaluate");
    let config = RuntimeConfig::default().max_queued_requests(2);
    let (runtime, probe) = runtime(fake, config).await;
    let session = stopped(&runtime, FAKE).await;
    let hung = hung_evaluations(&session, &probe, 2).await;
    assert!(matches!(
        session.threads().await,
        Err(SessionError::Busy { .. })
    ));

    runtime.end_session(session.id()).await.unwrap();
    let commands = probe.commands();
    assert!(
        commands
            .iter()
            .any(|c| c == "terminate" || c == "disconnect"),
        "the adapter was let go without being told: {commands:?}"
    );
    for call in hung {
        assert!(call.await.unwrap().is_err());
    }
    runtime.shutdown().await;
}

/// Item 4: every `startDebugging` made a child session, with no bound per parent;
/// this fake asks for a child on every connection, so children ask for children.
#[tokio::test(start_paused = true)]
async fn child_sessions_are_bounded_per_session_tree() {
    let fake = FakeAdapter::new().keep_running().reverse_request(
        "startDebugging",
        json!({ "request": "launch", "configuration": { "program": "child.py" } }),
    );
    let config = RuntimeConfig::default().max_child_sessions(3);
    let (runtime, probe) = runtime(fake, config).await;
    runtime
        .launch(LaunchSpec::new(program()).adapter(FAKE))
        .await
        .unwrap();
    for n in 1..=3 {
        let answer = probe.wait_for_reverse_response(n).await;
        assert!(answer.success, "child {n}: {answer:?}");
    }
    let refused = probe.wait_for_reverse_response(4).await;
    assert!(!refused.success);
    let message = refused.message.unwrap_or_default();
    assert!(message.contains("max_child_sessions"), "{message}");
    settled_tasks().await;
    assert_eq!(
        runtime.sessions().len(),
        4,
        "the root and its 3 descendants"
    );
    runtime.shutdown().await;
}
