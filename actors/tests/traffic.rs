//! A session's traffic counts (`SessionHandle::traffic`, the snapshot's `traffic`) on
//! the scripted in-process adapter, against what the adapter itself saw: every request
//! it received counted once, every event it sent, and a request's bytes exactly its
//! frame as the codec writes it.

use bytes::BytesMut;
use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::wire::{DapCodec, Message};
use dapvisor_actors::RuntimeConfig;
use tokio_util::codec::Encoder;

use session_support::*;

mod session_support;

#[tokio::test(start_paused = true)]
async fn requests_events_and_bytes_are_counted_as_the_adapter_saw_them() {
    let (runtime, probe) = runtime(FakeAdapter::new(), RuntimeConfig::default()).await;
    let session = stopped(&runtime, FAKE).await;
    let log = probe.log();
    let events = log
        .sent
        .iter()
        .filter(|m| matches!(m.message, Message::Event(_)))
        .count()
        + log.outputs_sent;
    let counts = session.traffic();
    assert_eq!(counts.requests_sent, log.requests.len() as u64);
    assert_eq!(counts.events_received, events as u64);
    assert_eq!(session.snapshot().await.unwrap().traffic, session.traffic());

    // One more request: its frame, byte for byte.
    let before = session.traffic();
    session.threads().await.unwrap();
    let after = session.traffic();
    let sent = probe.requests().pop().unwrap();
    assert_eq!(sent.command, "threads");
    let mut request = dapvisor_actors::wire::Request::new("threads", sent.arguments);
    request.seq = sent.seq;
    let mut frame = BytesMut::new();
    DapCodec::new()
        .encode(Message::Request(request), &mut frame)
        .unwrap();
    assert_eq!(after.requests_sent, before.requests_sent + 1);
    assert_eq!(after.bytes_sent - before.bytes_sent, frame.len() as u64);
    assert!(after.bytes_received > before.bytes_received, "its answer");
    runtime.shutdown().await;
}
