//! What may wait in a transport is bounded, in both directions, with the test playing
//! the adapter: output a `runInTerminal` command prints waits for its session (the
//! command blocks on its pipe) instead of piling up unhandled, and arrives whole once
//! the session reads on; requests the adapter does not read are refused past the
//! bound, at once, rather than queued without end, and none is lost.

use std::time::Duration;

use dapvisor_actors::testing::is_alive;
use dapvisor_actors::testing::transport::{TransportConfig, TransportOutput};
use dapvisor_actors::wire::{Message, Request};
use dapvisor_actors::SessionError;
use serde_json::json;
use tokio::time::timeout;

use transport_support::*;

mod transport_support;

/// How long a test waits for what must come; only a hang reaches it.
const WAIT: Duration = Duration::from_secs(60);

/// The next output event's text and its place in the bound, skipping anything else.
async fn next_output(
    h: &mut Harness,
) -> Option<(usize, dapvisor_actors::testing::transport::FrameCredit)> {
    loop {
        match h.output.recv().await? {
            TransportOutput::Event(event, credit) if event.event == "output" => {
                let body = event
                    .body
                    .as_ref()
                    .map(|b| b.to_value())
                    .unwrap_or_default();
                let text = body["output"].as_str().unwrap_or_default().len();
                return Some((text, credit));
            }
            _ => {}
        }
    }
}

// Real time: the command is a real process writing into a real pipe.
#[tokio::test]
async fn run_in_terminal_output_waits_for_its_session_and_arrives_whole() {
    const BYTES: usize = 1 << 20; // far past a pipe's 64 KiB and 4 reads of 4 KiB
    const PLACES: usize = 4;
    let config = TransportConfig {
        max_unhandled_output: PLACES,
        ..TransportConfig::default()
    };
    let mut h = Harness::start(config).await;
    let args = json!({
        "kind": "integrated",
        "cwd": "",
        "args": ["head", "-c", BYTES.to_string(), "/dev/zero"],
    });
    let request = Request::new("runInTerminal", Some(args));
    h.adapter.send(Message::Request(request)).await;
    let pid = match h.adapter.recv().await {
        Message::Response(r) => r.body.unwrap().to_value()["processId"].as_u64().unwrap() as u32,
        other => panic!("want the answer to runInTerminal, got {other:?}"),
    };

    // The session (this test) handles nothing: the first reads come, holding every
    // place, and no more while they are held; the command is blocked, not done.
    let mut held = Vec::new();
    let mut bytes = 0;
    while held.len() < PLACES {
        let (text, credit) = timeout(WAIT, next_output(&mut h)).await.unwrap().unwrap();
        bytes += text;
        held.push(credit);
    }
    assert!(
        timeout(Duration::from_millis(500), next_output(&mut h))
            .await
            .is_err(),
        "output kept coming while every place was held"
    );
    assert!(
        is_alive(pid),
        "the command finished: its output was not held back"
    );

    // The session reads on: everything arrives, nothing dropped.
    drop(held);
    while bytes < BYTES {
        let (text, _handled) = timeout(WAIT, next_output(&mut h)).await.unwrap().unwrap();
        bytes += text;
    }
    assert_eq!(bytes, BYTES);
}

#[tokio::test(start_paused = true)]
async fn requests_the_adapter_does_not_read_are_refused_past_the_bound_and_none_lost() {
    const SENT: u64 = 10;
    let config = TransportConfig {
        max_unwritten_messages: 2,
        ..TransportConfig::default()
    };
    let mut h = Harness::start(config).await;
    // The adapter reads nothing yet; the in-memory pipe holds two of these at most.
    let big = "x".repeat(32 * 1024);
    for tag in 1..=SENT {
        h.send(tag, "evaluate", Some(json!({ "expression": big })), WAIT);
    }
    let mut refused = Vec::new();
    while let Ok((tag, result)) = timeout(Duration::from_secs(1), h.answer()).await {
        match result {
            Err(SessionError::LimitExceeded { what, limit: 2 }) => {
                assert!(what.contains("not reading its input"), "{what}");
                refused.push(tag);
            }
            other => panic!("request {tag}: want a refusal, got {other:?}"),
        }
    }
    assert!(
        !refused.is_empty(),
        "nothing was refused: they queued without end"
    );

    // Read now: every request not refused reaches the adapter, and the way is open.
    let mut received = Vec::new();
    while received.len() + refused.len() < SENT as usize {
        received.push(timeout(WAIT, h.adapter.request()).await.unwrap().command);
    }
    assert!(received.iter().all(|c| c == "evaluate"));
    h.send(SENT + 1, "threads", None, WAIT);
    assert_eq!(
        timeout(WAIT, h.adapter.request()).await.unwrap().command,
        "threads"
    );
}
