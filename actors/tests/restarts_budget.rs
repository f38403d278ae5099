//! The restart budget under paused tokio time, on the scripted in-process adapter:
//! backoff doubles between consecutive crashes, jitter stays within its band, past the
//! budget the session fails with its reason, and a bad restart policy is refused.

mod session_support;

use std::time::Duration;

use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::{
    EventKind, RestartPolicy, RunTicket, Runtime, RuntimeConfig, SessionError, SessionState,
};
use session_support::restarts::{events_until, spec, stopped, WAIT};
use session_support::runtime as runtime_with;

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
