//! The transport actor on its own, under paused tokio time, with the test playing the
//! adapter on the other end of an in-memory stream: what goes on the wire (seq
//! numbers, `cancel`), what comes back to the owner (answers, timeouts that say what
//! happened), and the limits it is given (the bounds on what may wait unread or
//! unwritten are in `transport_bounds.rs`). Last, the numbering seen by the scripted
//! adapter (`testing::FakeAdapter`) through a whole runtime, across a restart.

use std::time::Duration;

use dapvisor_actors::testing::transport::{TransportConfig, TransportMsg, TransportOutput};
use dapvisor_actors::testing::{FakeAdapter, FakeAdapterProbe};
use dapvisor_actors::wire::Response;
use dapvisor_actors::{
    LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionError, StopOutcome, TransportError,
};
use serde_json::{json, Value};

use transport_support::*;

mod transport_support;

const DEADLINE: Duration = Duration::from_secs(5);

#[tokio::test(start_paused = true)]
async fn a_header_block_over_the_configured_limit_ends_the_connection_naming_it() {
    let config = TransportConfig {
        max_header_bytes: 64,
        ..TransportConfig::default()
    };
    let mut h = Harness::start(config).await;
    h.send(1, "initialize", None, DEADLINE);
    h.adapter.request().await;
    let padding = "x".repeat(100);
    let header = format!("Content-Length: 2\r\nX-Padding: {padding}\r\n\r\n{{}}");
    h.adapter.raw(header.as_bytes()).await;
    let exit = h.closed().await;
    assert!(
        exit.reason
            .contains("no end of DAP header found within 64 bytes"),
        "{exit:?}"
    );
}

/// Issue 27, item 14: a request that came after the adapter's end (its output, its
/// exit) was answered "the adapter connection is closing" before the end's report
/// came, so a start failed with that instead of why the adapter ended, depending on
/// the order the three arrived in. It now waits for the end's report, which fails it
/// with the others.
#[tokio::test(start_paused = true)]
async fn a_request_after_the_adapter_ended_gets_the_ends_own_reason() {
    let mut h = Harness::start(TransportConfig::default()).await;
    // The end, then a request, in this order in the transport's mailbox.
    let reason = "the adapter closed its output";
    h.transport
        .cast(TransportMsg::StreamEnded(reason.into()))
        .unwrap();
    h.send(1, "initialize", None, DEADLINE);
    match h.output().await {
        TransportOutput::Closed(exit) => assert_eq!(exit.reason, reason),
        other => panic!("want the end first, got {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_header_block_within_the_configured_limit_is_read() {
    let config = TransportConfig {
        max_header_bytes: 256,
        ..TransportConfig::default()
    };
    let mut h = Harness::start(config).await;
    h.send(1, "initialize", None, DEADLINE);
    let request = h.adapter.request().await;
    let padding = "x".repeat(100);
    let body = format!(
        r#"{{"seq":1,"type":"response","request_seq":{},"success":true,"command":"initialize"}}"#,
        request.seq
    );
    let frame = format!(
        "Content-Length: {}\r\nX-Padding: {padding}\r\n\r\n{body}",
        body.len()
    );
    h.adapter.raw(frame.as_bytes()).await;
    let (tag, result) = h.answer().await;
    assert_eq!(tag, 1);
    assert_eq!(result.unwrap().command, "initialize");
}

#[tokio::test(start_paused = true)]
async fn reading_pauses_while_the_owner_has_not_handled_the_bound_of_events() {
    let config = TransportConfig {
        max_unhandled_events: 8,
        ..TransportConfig::default()
    };
    let mut h = Harness::start(config).await;
    // The adapter floods: 20 events, all written before the owner handles any.
    for n in 0..20 {
        h.adapter
            .event("output", json!({ "output": format!("{n}\n") }))
            .await;
    }
    // The owner gets the first 8 and holds on to them, unhandled ...
    let mut held = Vec::new();
    for n in 0..8 {
        match h.output.recv().await.unwrap() {
            TransportOutput::Event(event, credit) => {
                assert_eq!(event.body_or_empty()["output"], format!("{n}\n"));
                held.push(credit);
            }
            other => panic!("want event {n}, got {other:?}"),
        }
    }
    // ... so the transport reads no further, however long the owner takes.
    let more = tokio::time::timeout(Duration::from_secs(60), h.output.recv()).await;
    assert!(more.is_err(), "a 9th event came before a place was free");
    // Handling one frees one place; handling all lets the rest through, in order.
    held.pop();
    let ninth = h.output.recv().await.unwrap();
    assert!(matches!(&ninth, TransportOutput::Event(e, _) if e.body_or_empty()["output"] == "8\n"));
    drop(held);
    for n in 9..20 {
        match h.output.recv().await.unwrap() {
            TransportOutput::Event(event, _) => {
                assert_eq!(event.body_or_empty()["output"], format!("{n}\n"))
            }
            other => panic!("want event {n}, got {other:?}"),
        }
    }
}

/// The timeout's command, seq, deadline and whether a cancel was sent.
fn timeout_of(result: Result<Response, TransportError>) -> (String, i64, Duration, bool) {
    match result {
        Err(TransportError::Timeout {
            command,
            after,
            seq,
            cancel_sent,
            ..
        }) => (command, seq, after, cancel_sent),
        other => panic!("want a timeout, got {other:?}"),
    }
}

/// Start a transport and answer its `initialize` with `capabilities`.
async fn initialized(capabilities: Value) -> Harness {
    let mut h = Harness::start(TransportConfig::default()).await;
    h.send(1, "initialize", None, DEADLINE);
    let initialize = h.adapter.request().await;
    h.adapter.answer(&initialize, capabilities).await;
    assert!(h.answer().await.1.is_ok());
    h
}

#[tokio::test(start_paused = true)]
async fn a_request_past_its_deadline_is_cancelled_where_the_adapter_supports_it() {
    let mut h = initialized(json!({ "supportsCancelRequest": true })).await;
    h.send(
        2,
        "evaluate",
        Some(json!({ "expression": "loop()" })),
        DEADLINE,
    );
    let evaluate = h.adapter.request().await;
    let began = tokio::time::Instant::now();
    let (tag, result) = h.answer().await;
    // The deadline given, give or take the timer wheel's millisecond.
    let took = began.elapsed();
    assert!(
        took >= DEADLINE && took <= DEADLINE + Duration::from_millis(10),
        "{took:?}"
    );
    assert_eq!(tag, 2);
    assert_eq!(
        timeout_of(result),
        ("evaluate".into(), evaluate.seq, DEADLINE, true)
    );
    let cancel = h.adapter.request().await;
    assert_eq!(cancel.command, "cancel");
    assert_eq!(cancel.arguments, Some(json!({ "requestId": evaluate.seq })));
    assert_eq!(cancel.seq, evaluate.seq + 1);

    // The adapter answers both, late; neither reaches the owner, and the
    // connection carries on.
    h.adapter.answer(&cancel, json!({})).await;
    h.adapter
        .answer(&evaluate, json!({ "result": "late" }))
        .await;
    h.send(3, "threads", None, DEADLINE);
    let threads = h.adapter.request().await;
    h.adapter.answer(&threads, json!({ "threads": [] })).await;
    let (tag, result) = h.answer().await;
    assert_eq!((tag, result.unwrap().command.as_str()), (3, "threads"));
}

#[tokio::test(start_paused = true)]
async fn no_cancel_is_sent_to_an_adapter_that_does_not_support_it() {
    let mut h = initialized(json!({ "supportsConfigurationDoneRequest": true })).await;
    h.send(2, "evaluate", None, DEADLINE);
    let evaluate = h.adapter.request().await;
    let (_, result) = h.answer().await;
    assert_eq!(
        timeout_of(result),
        ("evaluate".into(), evaluate.seq, DEADLINE, false)
    );
    h.send(3, "threads", None, DEADLINE);
    let next = h.adapter.request().await;
    assert_eq!(next.command, "threads", "nothing was sent in between");
    assert_eq!(next.seq, evaluate.seq + 1);
}

#[tokio::test(start_paused = true)]
async fn a_capabilities_event_can_turn_cancel_on() {
    let mut h = initialized(json!({})).await;
    let body = json!({ "capabilities": { "supportsCancelRequest": true } });
    h.adapter.event("capabilities", body).await;
    h.send(2, "stackTrace", None, DEADLINE);
    let stack = h.adapter.request().await;
    let (_, result) = h.answer().await;
    assert!(timeout_of(result).3, "cancel sent");
    let cancel = h.adapter.request().await;
    assert_eq!(cancel.arguments, Some(json!({ "requestId": stack.seq })));
}

#[tokio::test(start_paused = true)]
async fn an_answer_under_a_wrong_request_seq_is_named_in_the_timeout() {
    let config = TransportConfig {
        unmatched_responses_kept: 1,
        ..TransportConfig::default()
    };
    let mut h = Harness::start(config).await;
    h.send(1, "evaluate", None, DEADLINE);
    let evaluate = h.adapter.request().await;
    let wrong = evaluate.seq + 1000;
    h.adapter.answer_seq(wrong - 1, "evaluate", json!({})).await;
    h.adapter
        .answer_seq(wrong, "evaluate", json!({ "result": "3" }))
        .await;
    let (tag, result) = h.answer().await;
    assert_eq!(tag, 1, "the wrong answers reached no one; the deadline did");
    let err = result.unwrap_err();
    match &err {
        TransportError::Timeout {
            unmatched,
            unmatched_count,
            ..
        } => {
            assert_eq!(*unmatched_count, 2);
            assert_eq!(unmatched.len(), 1, "one kept, as configured");
            assert_eq!(unmatched[0].request_seq, wrong);
            assert!(unmatched[0].never_sent);
        }
        other => panic!("want a timeout, got {other:?}"),
    }
    let text = err.to_string();
    assert!(
        text.contains(&format!("for request {wrong}, which was never sent")),
        "{text}"
    );
}

/// The seqs of the requests the fake adapter received on `connection`, in order.
fn seqs_on(probe: &FakeAdapterProbe, connection: usize) -> Vec<i64> {
    probe
        .requests()
        .iter()
        .filter(|r| r.connection == connection)
        .map(|r| r.seq)
        .collect()
}

#[tokio::test(start_paused = true)]
async fn requests_are_numbered_from_1_without_gaps_on_each_connection() {
    let (connect, probe) = FakeAdapter::new().close_on("evaluate").connector();
    let config = RuntimeConfig::default().in_process_adapter("fake", connect);
    let runtime = Runtime::start(config).await.unwrap();
    let manifest = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let spec = LaunchSpec::new(&manifest)
        .adapter("fake")
        .breakpoint(&manifest, 3);
    let session = runtime.launch(spec).await.unwrap();
    let stop = session
        .wait_for_stop(RunTicket { epoch: 0 }, Duration::from_secs(5))
        .await;
    assert!(matches!(stop, Ok(StopOutcome::Stopped(_))), "{stop:?}");
    session.threads().await.unwrap();
    session.stack_trace(None, None).await.unwrap();
    let first = seqs_on(&probe, 1);
    assert!(first.len() >= 5, "initialize .. stackTrace: {first:?}");
    assert_eq!(first, (1..=first.len() as i64).collect::<Vec<_>>());
    assert_eq!(probe.requests()[0].command, "initialize");

    // The adapter dies on evaluate; the new adapter's connection starts at 1 again.
    let err = session.evaluate("x", None, None).await.unwrap_err();
    assert!(
        matches!(err, SessionError::AdapterCrashed { .. }),
        "{err:?}"
    );
    probe
        .wait_until(|log| {
            log.requests
                .iter()
                .any(|r| r.connection == 2 && r.command == "configurationDone")
        })
        .await;
    let second = seqs_on(&probe, 2);
    assert_eq!(second, (1..=second.len() as i64).collect::<Vec<_>>());
    let with_evaluate = seqs_on(&probe, 1);
    assert_eq!(
        with_evaluate.len(),
        first.len() + 1,
        "evaluate went on connection 1"
    );
    assert_eq!(
        with_evaluate,
        (1..=with_evaluate.len() as i64).collect::<Vec<_>>()
    );
    runtime.shutdown().await;
}
