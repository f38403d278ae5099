//! The session actor through the public API, on the scripted in-process adapter
//! (`testing::FakeAdapter`) under paused tokio time: request deadlines (default, per
//! request, clamped) and late answers; the session and queued-request limits; sessions
//! and runtimes kept apart; ending and shutdown answering every pending call. Reverse
//! requests are in `reverse_requests.rs`, event fan-out in `subscribers.rs`.

use std::time::Duration;

use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::wire::Message;
use dapvisor_actors::{
    EventKind, LaunchSpec, Received, RunTicket, Runtime, RuntimeConfig, SessionError, SessionState,
    StopOutcome,
};
use tokio::time::Instant;

use session_support::*;

mod session_support;

// ---- deadlines ----

#[tokio::test(start_paused = true)]
async fn a_request_the_adapter_never_answers_fails_at_the_default_deadline() {
    let (runtime, _) = runtime(
        FakeAdapter::new().hang_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let session = stopped(&runtime, FAKE).await;
    let began = Instant::now();
    let err = session.evaluate("x", None, None).await.unwrap_err();
    assert_took(began.elapsed(), Duration::from_secs(30));
    assert_eq!(
        timeout_of(err),
        ("evaluate".to_string(), Duration::from_secs(30))
    );
}

#[tokio::test(start_paused = true)]
async fn a_per_request_deadline_is_used_and_clamped_to_5_to_300_seconds() {
    let (runtime, _) = runtime(
        FakeAdapter::new().hang_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let session = stopped(&runtime, FAKE).await;
    for (asked, applied) in [(7, 7), (1, 5), (1000, 300)] {
        let began = Instant::now();
        let err = evaluate_with_deadline(&session, Some(Duration::from_secs(asked)))
            .await
            .unwrap_err();
        assert_took(began.elapsed(), Duration::from_secs(applied));
        assert_eq!(
            timeout_of(err).1,
            Duration::from_secs(applied),
            "asked {asked}s"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn the_runtimes_default_deadline_is_its_setting_clamped() {
    let config = RuntimeConfig::default().request_timeout(Duration::from_secs(2));
    let (runtime, _) = runtime(FakeAdapter::new().hang_on("evaluate"), config).await;
    let session = stopped(&runtime, FAKE).await;
    let began = Instant::now();
    let err = evaluate_with_deadline(&session, None).await.unwrap_err();
    assert_took(began.elapsed(), Duration::from_secs(5));
    assert_eq!(timeout_of(err).1, Duration::from_secs(5));
}

/// A launch whose `launch` takes a minute to answer (a build, say), and how long it
/// took to be answered.
async fn slow_launch(
    config: RuntimeConfig,
    spec: impl FnOnce(LaunchSpec) -> LaunchSpec,
) -> (Result<SessionState, SessionError>, Duration) {
    let fake = FakeAdapter::new().late_answer("launch", Duration::from_secs(60));
    let (runtime, _) = runtime(fake, config).await;
    let began = Instant::now();
    let launched = runtime
        .launch(spec(stopping_under(FAKE)))
        .await
        .map(|_| SessionState::Running);
    let took = began.elapsed();
    runtime.shutdown().await;
    (launched, took)
}

#[tokio::test(start_paused = true)]
async fn a_launch_has_its_own_deadline_past_the_request_deadline() {
    // The request deadline (30 s) does not cut a launch short: it has 120 s.
    let (launched, took) = slow_launch(RuntimeConfig::default(), |s| s).await;
    assert!(launched.is_ok(), "{launched:?}");
    assert!(took >= Duration::from_secs(60), "{took:?}");

    // Per launch, and per runtime.
    let (launched, took) = slow_launch(RuntimeConfig::default(), |s| {
        s.launch_timeout(Duration::from_secs(20))
    })
    .await;
    let err = launched.unwrap_err();
    assert!(err.to_string().contains("within 20s"), "{err}");
    assert_eq!(took, Duration::from_secs(20));
    let config = RuntimeConfig::default().launch_timeout(Duration::from_secs(40));
    let (launched, took) = slow_launch(config, |s| s).await;
    assert!(launched.unwrap_err().to_string().contains("within 40s"));
    assert_eq!(took, Duration::from_secs(40));
}

#[tokio::test(start_paused = true)]
async fn a_view_with_a_deadline_gives_its_start_that_long() {
    let fake = FakeAdapter::new().late_answer("launch", Duration::from_secs(60));
    let config = RuntimeConfig::default().launch_timeout(Duration::from_secs(10));
    let (runtime, _) = runtime(fake, config).await;
    let plan = runtime.plan_launch(stopping_under(FAKE)).await.unwrap();
    let session = runtime.new_session().await.unwrap();
    let started = session
        .with_timeout(Duration::from_secs(90))
        .start(plan)
        .await;
    assert!(started.is_ok(), "{started:?}");
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn other_requests_work_while_one_waits_for_its_deadline() {
    let (runtime, probe) = runtime(
        FakeAdapter::new().hang_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let session = stopped(&runtime, FAKE).await;
    let began = Instant::now();
    let hung = tokio::spawn({
        let session = session.clone();
        async move { session.evaluate("x", None, None).await }
    });
    probe.wait_for_request("evaluate").await;
    let threads = session.threads().await.unwrap();
    assert_eq!(threads[0].name, "main");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(frames[0].line, 3);
    assert!(began.elapsed() < Duration::from_secs(1));
    assert!(matches!(
        hung.await.unwrap(),
        Err(SessionError::Timeout { .. })
    ));
}

#[tokio::test(start_paused = true)]
async fn an_answer_that_comes_late_but_in_time_is_delivered() {
    let fake = FakeAdapter::new().late_answer("evaluate", Duration::from_secs(10));
    let (runtime, _) = runtime(fake, RuntimeConfig::default()).await;
    let session = stopped(&runtime, FAKE).await;
    let began = Instant::now();
    let value = session.evaluate("abc", None, None).await.unwrap();
    assert_took(began.elapsed(), Duration::from_secs(10));
    assert_eq!(value.result, "cba");
}

#[tokio::test(start_paused = true)]
async fn an_answer_after_the_deadline_is_dropped_without_harm() {
    let fake = FakeAdapter::new().late_answer("evaluate", Duration::from_secs(40));
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    let session = stopped(&runtime, FAKE).await;
    let err = session.evaluate("x", None, None).await.unwrap_err();
    assert_eq!(timeout_of(err).0, "evaluate");
    probe
        .wait_until(|log| {
            log.sent
                .iter()
                .any(|s| matches!(&s.message, Message::Response(r) if r.command == "evaluate"))
        })
        .await;
    // The late answer reached the session's transport before this request's answer.
    assert_eq!(session.threads().await.unwrap().len(), 1);
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(snapshot.state, SessionState::Stopped);
    assert_eq!(snapshot.pending_requests, 0);
}

#[tokio::test(start_paused = true)]
async fn a_wait_for_stop_that_runs_out_of_time_is_still_running_not_an_error() {
    let (runtime, _) = runtime(FakeAdapter::new().keep_running(), RuntimeConfig::default()).await;
    let session = runtime
        .launch(LaunchSpec::new(program()).adapter(FAKE))
        .await
        .unwrap();
    let began = Instant::now();
    let outcome = session
        .wait_for_stop(RunTicket { epoch: 0 }, Duration::from_secs(10))
        .await;
    assert_took(began.elapsed(), Duration::from_secs(10));
    assert!(matches!(outcome, Ok(StopOutcome::TimedOut)), "{outcome:?}");
    assert_eq!(session.state().await.unwrap(), SessionState::Running);
}

// ---- limits ----

#[tokio::test(start_paused = true)]
async fn the_session_limit_refuses_one_more_and_a_removed_session_frees_its_slot() {
    let config = RuntimeConfig::default().max_sessions(2);
    let (runtime, _) = runtime(FakeAdapter::new(), config).await;
    let first = runtime.new_session().await.unwrap();
    runtime.new_session().await.unwrap();
    let err = runtime.new_session().await.unwrap_err();
    assert!(
        matches!(err, SessionError::LimitExceeded { limit: 2, .. }),
        "{err:?}"
    );
    let err = runtime.launch(stopping_under(FAKE)).await.unwrap_err();
    assert!(
        matches!(err, SessionError::LimitExceeded { limit: 2, .. }),
        "{err:?}"
    );
    runtime.end_session(first.id()).await.unwrap();
    let third = runtime.new_session().await.unwrap();
    assert_eq!(runtime.sessions().len(), 2);
    assert!(runtime.session(third.id()).is_some());
}

#[tokio::test(start_paused = true)]
async fn a_session_with_too_many_requests_waiting_refuses_more_as_busy() {
    let config = RuntimeConfig::default().max_queued_requests(2);
    let (runtime, probe) = runtime(FakeAdapter::new().hang_on("evaluate"), config).await;
    let session = stopped(&runtime, FAKE).await;
    let hung = hung_evaluations(&session, &probe, 2).await;
    let err = session.threads().await.unwrap_err();
    assert!(
        matches!(
            err,
            SessionError::Busy {
                queued: 2,
                limit: 2
            }
        ),
        "{err:?}"
    );
    // Reading its state and ending it have places of their own (issue 27, item 10).
    assert_eq!(
        session.snapshot().await.unwrap().state,
        SessionState::Stopped
    );
    for call in hung {
        assert!(matches!(
            call.await.unwrap(),
            Err(SessionError::Timeout { .. })
        ));
    }
    assert_eq!(session.threads().await.unwrap().len(), 1);
}

// ---- isolation ----

#[tokio::test(start_paused = true)]
async fn two_sessions_in_one_runtime_see_only_their_own_events_and_values() {
    let (connect_a, _) = FakeAdapter::new()
        .evaluate_result("who", "a")
        .exit_code(3)
        .connector();
    let (connect_b, _) = FakeAdapter::new()
        .evaluate_result("who", "b")
        .exit_code(4)
        .connector();
    let config = RuntimeConfig::default()
        .in_process_adapter("fake-a", connect_a)
        .in_process_adapter("fake-b", connect_b);
    let runtime = Runtime::start(config).await.unwrap();
    let a = stopped(&runtime, "fake-a").await;
    let b = stopped(&runtime, "fake-b").await;
    assert_ne!(a.id(), b.id());
    let mut all = runtime.subscribe();
    let mut a_events = a.subscribe();
    let mut b_events = b.subscribe();

    assert_eq!(a.evaluate("who", None, None).await.unwrap().result, "a");
    assert_eq!(b.evaluate("who", None, None).await.unwrap().result, "b");
    a.continue_(None).await.unwrap();
    assert_eq!(ended(&a).await, Some(3));
    assert_eq!(b.state().await.unwrap(), SessionState::Stopped);
    assert!(drain(&mut b_events).is_empty(), "b heard of a's end");
    b.continue_(None).await.unwrap();
    assert_eq!(ended(&b).await, Some(4));

    for (events, session, code) in [(&mut a_events, &a, 3), (&mut b_events, &b, 4)] {
        let items = drain(events);
        assert!(items
            .iter()
            .all(|i| matches!(i, Received::Event(e) if e.session_id == session.id())));
        assert!(kinds(&items).contains(&EventKind::Exited { exit_code: code }));
    }
    let exits: Vec<_> = drain(&mut all)
        .into_iter()
        .filter_map(|i| match i {
            Received::Event(e) => match e.kind {
                EventKind::Exited { exit_code } => Some((e.session_id, exit_code)),
                _ => None,
            },
            Received::Lagged { .. } | Received::CutOff { .. } => None,
        })
        .collect();
    assert_eq!(exits, vec![(a.id(), 3), (b.id(), 4)]);
}

#[tokio::test(start_paused = true)]
async fn two_runtimes_in_one_process_do_not_collide() {
    let (one, _) = runtime(
        FakeAdapter::new().evaluate_result("who", "one"),
        RuntimeConfig::default(),
    )
    .await;
    let (two, _) = runtime(
        FakeAdapter::new().evaluate_result("who", "two"),
        RuntimeConfig::default(),
    )
    .await;
    let mut one_events = one.subscribe();
    let s1 = stopped(&one, FAKE).await;
    let s2 = stopped(&two, FAKE).await;
    assert_eq!(one.sessions().len(), 1);
    assert_eq!(two.sessions().len(), 1);
    assert_eq!(s1.evaluate("who", None, None).await.unwrap().result, "one");
    assert_eq!(s2.evaluate("who", None, None).await.unwrap().result, "two");
    drain(&mut one_events);
    s2.continue_(None).await.unwrap();
    ended(&s2).await;
    assert!(
        drain(&mut one_events).is_empty(),
        "runtime one heard of two's session"
    );

    one.shutdown().await;
    let gone = s1.snapshot().await;
    assert!(
        matches!(gone, Err(SessionError::SessionEnded(_))),
        "{gone:?}"
    );
    let s3 = stopped(&two, FAKE).await;
    assert_eq!(s3.evaluate("who", None, None).await.unwrap().result, "two");
}

// ---- ending ----

#[tokio::test(start_paused = true)]
async fn terminating_a_start_that_hangs_answers_both_calls() {
    let (runtime, probe) = runtime(
        FakeAdapter::new().hang_on("initialize"),
        RuntimeConfig::default(),
    )
    .await;
    let launch = tokio::spawn({
        let runtime = runtime.clone();
        async move { runtime.launch(stopping_under(FAKE)).await.map(|_| ()) }
    });
    probe.wait_for_request("initialize").await;
    let session = runtime.sessions().pop().unwrap();
    let began = Instant::now();
    session.terminate().await.unwrap();
    match launch.await.unwrap() {
        Err(SessionError::StartFailed { message, .. }) => {
            assert!(message.contains("terminate"), "{message}")
        }
        other => panic!("want StartFailed, got {other:?}"),
    }
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
}

#[tokio::test(start_paused = true)]
async fn terminate_ends_the_session_when_the_adapter_never_answers_disconnect() {
    let (runtime, _) = runtime(
        FakeAdapter::new().hang_on("disconnect"),
        RuntimeConfig::default(),
    )
    .await;
    let session = stopped(&runtime, FAKE).await;
    let began = Instant::now();
    session.terminate().await.unwrap();
    assert_took(began.elapsed(), Duration::from_secs(5));
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(snapshot.state, SessionState::Terminated);
}

// ---- shutdown ----

#[tokio::test(start_paused = true)]
async fn shutdown_answers_every_pending_call_with_an_error() {
    let (connect, probe) = FakeAdapter::new().hang_on("evaluate").connector();
    let (stuck_connect, stuck) = FakeAdapter::new().hang_on("initialize").connector();
    let config = RuntimeConfig::default()
        .in_process_adapter(FAKE, connect)
        .in_process_adapter("stuck", stuck_connect);
    let runtime = Runtime::start(config).await.unwrap();
    let session = stopped(&runtime, FAKE).await;

    let evaluate = tokio::spawn({
        let session = session.clone();
        async move { session.evaluate("x", None, None).await.map(|_| ()) }
    });
    let wait = tokio::spawn({
        let session = session.clone();
        let ticket = RunTicket { epoch: 1 };
        async move {
            session
                .wait_for_stop(ticket, Duration::from_secs(3600))
                .await
        }
    });
    let launch = tokio::spawn({
        let runtime = runtime.clone();
        async move { runtime.launch(stopping_under("stuck")).await.map(|_| ()) }
    });
    probe.wait_for_request("evaluate").await;
    stuck.wait_for_request("initialize").await;

    let began = Instant::now();
    runtime.shutdown().await;
    let evaluate = evaluate.await.unwrap();
    let wait = wait.await.unwrap();
    let launch = launch.await.unwrap();
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "answered by deadlines, not shutdown"
    );
    // Shutdown ends a live session as terminate does (a disconnect first): what was
    // pending is answered as the adapter's end, the stop waiter with the end.
    assert!(
        matches!(
            evaluate,
            Err(SessionError::AdapterExited { .. } | SessionError::SessionEnded(_))
        ),
        "{evaluate:?}"
    );
    assert!(
        matches!(
            wait,
            Ok(StopOutcome::Terminated { .. }) | Err(SessionError::SessionEnded(_))
        ),
        "{wait:?}"
    );
    assert!(
        matches!(launch, Err(SessionError::StartFailed { .. })),
        "{launch:?}"
    );
    assert!(matches!(
        runtime.new_session().await,
        Err(SessionError::RuntimeStopped)
    ));
    let gone = session.snapshot().await;
    assert!(
        matches!(gone, Err(SessionError::SessionEnded(_))),
        "{gone:?}"
    );
}
