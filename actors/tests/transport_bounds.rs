//! What may wait in a transport is bounded, in both directions, with the test playing
//! the adapter: output a `runInTerminal` command prints waits for its session (the
//! command blocks on its pipe) instead of piling up unhandled, and arrives whole once
//! the session reads on; requests the adapter does not read are refused past the
//! bound, at once, rather than queued without end, and none is lost; the tasks that
//! hold an adapter's stream end with its transport, whether the adapter closes or not.

use std::time::Duration;

use dapvisor_actors::registry::{AdapterDef, TransportKind};
use dapvisor_actors::testing::is_alive;
use dapvisor_actors::testing::transport::{TransportConfig, TransportMsg, TransportOutput};
use dapvisor_actors::wire::{Message, Request};
use dapvisor_actors::TransportError;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::time::timeout;

use task_count::settled_tasks;
use transport_support::*;

mod task_count;
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
            Err(err @ TransportError::NotReading { limit: 2, .. }) => {
                let text = err.to_string();
                assert!(text.contains("not reading its input"), "{text}");
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

/// Issue 27, item 9: on stop only the write half closed; the reader of an in-process
/// adapter that keeps its end open kept the stream, its buffer and an event place.
#[tokio::test(start_paused = true)]
async fn an_in_process_adapters_reader_ends_with_its_transport_though_the_adapter_stays() {
    let before = settled_tasks().await;
    let mut h = Harness::start(TransportConfig::default()).await;
    // Half a frame waits in the reader's buffer.
    h.adapter.raw(b"Content-Length: 100\r\n\r\n{\"seq\"").await;
    assert!(settled_tasks().await > before);
    h.transport.cast(TransportMsg::StopAdapter).unwrap();
    h.closed().await;
    assert_eq!(
        settled_tasks().await,
        before,
        "a task of the transport outlived it"
    );
    // The adapter's end is still open (the test holds it); ours is gone.
    let err = h
        .adapter
        .framed
        .get_mut()
        .write_all(b"more")
        .await
        .unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe);
}

/// Item 9, over TCP: a debug server that keeps the connection open.
#[tokio::test(start_paused = true)]
async fn a_tcp_adapters_reader_ends_with_its_transport_though_the_server_stays() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let before = settled_tasks().await;
    let mut def = AdapterDef::in_process("server");
    def.transport = TransportKind::TcpConnect {
        host: "127.0.0.1".into(),
        port,
    };
    let (transport, mut output) = spawn_transport(&def, TransportConfig::default()).await;
    let (server, _) = listener.accept().await.unwrap();
    assert!(settled_tasks().await > before);
    transport.cast(TransportMsg::StopAdapter).unwrap();
    loop {
        match output.recv().await.expect("the transport's output") {
            TransportOutput::Closed(_) => break,
            _ => continue,
        }
    }
    assert_eq!(
        settled_tasks().await,
        before,
        "a task of the transport outlived it"
    );
    drop(server);
}

/// Item 5: each frame that is JSON but not DAP gave its place back at once and sent a
/// warning to the log, without end; past the bound the connection ends, saying so.
#[tokio::test(start_paused = true)]
async fn frames_that_are_not_dap_end_the_connection_past_their_bound() {
    let config = TransportConfig {
        max_malformed_frames: 3,
        ..TransportConfig::default()
    };
    let mut h = Harness::start(config).await;
    for _ in 0..4 {
        h.adapter.raw(b"Content-Length: 2\r\n\r\n{}").await;
    }
    let exit = timeout(WAIT, h.closed())
        .await
        .expect("the connection ends");
    assert!(
        exit.reason.starts_with(
            "the adapter sent 4 frames that are JSON but not DAP messages, more than \
             max_malformed_frames (3) allows"
        ),
        "{}",
        exit.reason
    );
}

/// Ask the transport's owner side to run `args` as a `runInTerminal` command: its pid,
/// or the error it was answered with.
async fn run_in_terminal(h: &mut Harness, args: &[&str]) -> Result<u32, String> {
    let arguments = json!({ "kind": "integrated", "cwd": "", "args": args });
    let request = Request::new("runInTerminal", Some(arguments));
    h.adapter.send(Message::Request(request)).await;
    match timeout(WAIT, h.adapter.recv()).await.unwrap() {
        Message::Response(r) if r.success => {
            Ok(r.body.unwrap().to_value()["processId"].as_u64().unwrap() as u32)
        }
        Message::Response(r) => Err(r.message.unwrap_or_default()),
        other => panic!("want the answer to runInTerminal, got {other:?}"),
    }
}

/// Item 4: a `runInTerminal` process stayed unreaped until the session ended, and any
/// number of them could run.
#[tokio::test]
async fn run_in_terminal_processes_are_reaped_when_they_end_and_bounded() {
    let config = TransportConfig {
        max_terminal_processes: 1,
        ..TransportConfig::default()
    };
    let mut h = Harness::start(config).await;
    let quick = run_in_terminal(&mut h, &["sh", "-c", "exit 0"])
        .await
        .unwrap();
    // Reaped as it ends, while the connection lives on: its pid leaves /proc. Nothing
    // tells of a reaping, so this looks every 10 ms, for at most WAIT.
    let proc = std::path::PathBuf::from(format!("/proc/{quick}"));
    let reaped = async {
        while proc.exists() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    assert!(
        timeout(WAIT, reaped).await.is_ok(),
        "{quick} was never reaped"
    );

    // Its place is free again; past the bound, a request is refused.
    let long = run_in_terminal(&mut h, &["sleep", "600"]).await.unwrap();
    let refused = run_in_terminal(&mut h, &["sleep", "600"])
        .await
        .unwrap_err();
    assert!(refused.contains("max_terminal_processes"), "{refused}");
    assert!(is_alive(long));
    h.transport.cast(TransportMsg::StopAdapter).unwrap();
    h.closed().await;
}
