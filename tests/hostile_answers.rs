//! Answers the hostile adapter (`tests/support/hostile_adapter.py`) gets wrong while a
//! session is live, and survives: none at all or one with a wrong `request_seq` (the
//! request times out at its deadline, naming the stray answer), one without a body (a
//! protocol error naming the command), one without `seq` (accepted), and a flood of
//! output (the session stays responsive, the ring is trimmed, a subscriber that read
//! nothing is told what it missed). A healthy session in the same runtime carries on.

mod common;
mod hostile_support;

use common::*;
use dapvisor::{EventKind, Received, RunTicket, SessionError};
use hostile_support::*;

/// A fault that leaves `evaluate` unanswered: it times out at its own short deadline,
/// the healthy session works meanwhile, and the hostile session still answers after.
/// Returns the timeout.
async fn unanswered_evaluate_times_out(fault: &str) -> SessionError {
    let runtime = runtime(&[fault]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    let (result, ()) = tokio::join!(timed_evaluate(&session, Some(SHORT)), carries_on(&healthy));
    let (result, took) = result;
    let err = result.expect_err("evaluate is never answered");
    match &err {
        SessionError::Timeout { command, after, .. } => {
            assert_eq!((command.as_str(), *after), ("evaluate", SHORT));
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    // Not before its deadline. (How soon after is load's business: a timed test
    // would not say more.)
    assert!(took >= SHORT, "took {took:?}");
    let threads = bounded("threads", session.threads()).await.unwrap();
    assert_eq!(threads[0].name, "main", "the session must still answer");
    shut_down(runtime).await;
    err
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_never_answered_times_out_at_its_deadline() {
    let err = unanswered_evaluate_times_out("hang-on=evaluate").await;
    assert!(!err.to_string().contains("meanwhile"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_with_a_wrong_request_seq_is_named_in_the_timeout() {
    let err = unanswered_evaluate_times_out("wrong-seq-on=evaluate").await;
    let SessionError::Timeout { seq, unmatched, .. } = &err else {
        panic!("{err:?}");
    };
    // The hostile adapter answers with request_seq off by 1000.
    assert_eq!(unmatched.len(), 1, "{err}");
    assert_eq!(unmatched[0].request_seq, seq + 1000, "{err}");
    assert!(unmatched[0].never_sent, "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&format!("a `evaluate` success for request {}", seq + 1000)),
        "{text}"
    );
    assert!(err.hint().contains("misbehaving"), "{}", err.hint());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_without_a_body_is_a_protocol_error_naming_the_command() {
    let runtime = runtime(&["no-body-on=evaluate"]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    let result = bounded("evaluate", session.evaluate("qty", Some(1), None)).await;
    match result {
        Err(SessionError::Protocol(err)) => {
            let text = err.to_string();
            assert!(text.contains("`evaluate`"), "{text}");
        }
        other => panic!("expected a protocol error, got {other:?}"),
    }
    carries_on(&healthy).await;
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_without_seq_is_accepted() {
    let runtime = runtime(&["no-seq-on=evaluate"]).await;
    let session = launch_stopped(&runtime, "hostile").await;
    carries_on(&session).await;
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_output_flood_keeps_the_session_responsive_and_truncates_the_ring() {
    const LINES: usize = 20_000;
    let runtime = runtime(&[&format!("flood={LINES}")]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let mut events = runtime.subscribe();
    let session = bounded("launch", runtime.launch(spec("hostile")))
        .await
        .unwrap();
    bounded("snapshot during the flood", session.snapshot())
        .await
        .unwrap();
    bounded("the stop", expect_stop(&session, RunTicket { epoch: 0 })).await;

    let snapshot = bounded("snapshot", session.snapshot()).await.unwrap();
    assert!(snapshot.output_truncated, "{snapshot:?}");
    let output = bounded("output", session.output(0, 1 << 20)).await.unwrap();
    assert!(output.missed_bytes > 0, "{output:?}");
    let text = output.text();
    assert!(
        text.ends_with(&format!("flood line {}\n", LINES - 1)),
        "newest output kept"
    );
    assert!(!text.contains("flood line 0\n"), "oldest output trimmed");

    // The subscriber that read nothing was told how much output it missed, and still
    // got the stop.
    let (mut missed, mut stopped) = (0, false);
    while let Ok(received) = events.try_recv() {
        match received {
            Received::Lagged { missed: n } => missed += n,
            Received::CutOff { waiting } => panic!("cut off with {waiting} events unread"),
            Received::Event(e) if e.session_id == session.id() => {
                stopped |= matches!(e.kind, EventKind::Stopped(_));
            }
            Received::Event(_) => {}
        }
    }
    assert!(missed > 0 && stopped, "missed {missed}, stopped {stopped}");
    carries_on(&healthy).await;
    carries_on(&session).await;
    shut_down(runtime).await;
}
