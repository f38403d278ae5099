//! The transport actor on its own, under paused tokio time, with the test playing the
//! adapter on the other end of an in-memory stream: what goes on the wire (seq
//! numbers, `cancel`), what comes back to the owner (answers, timeouts that say what
//! happened), and the limits it is given.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use dapvisor_actors::core::command::Tag;
use dapvisor_actors::registry::{AdapterDef, AdapterRegistry};
use dapvisor_actors::transport::{
    InProcessAdapters, TransportActor, TransportArgs, TransportConfig, TransportMsg,
    TransportOutput,
};
use dapvisor_actors::wire::{DapCodec, Message, Request, Response};
use dapvisor_actors::{AdapterExit, SessionError};
use futures::StreamExt;
use ractor::{Actor, ActorRef};
use serde_json::Value;
use tokio::io::{AsyncWriteExt, DuplexStream};
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

/// The test's end of the connection: it plays the adapter.
struct Adapter {
    framed: Framed<DuplexStream, DapCodec>,
}

impl Adapter {
    /// The next message the transport sent.
    async fn recv(&mut self) -> Message {
        match self.framed.next().await {
            Some(Ok(message)) => message,
            other => panic!("want a message from the transport, got {other:?}"),
        }
    }

    /// The next request the transport sent.
    async fn request(&mut self) -> Request {
        match self.recv().await {
            Message::Request(request) => request,
            other => panic!("want a request, got {other:?}"),
        }
    }

    /// Bytes as they are, bypassing the framing.
    async fn raw(&mut self, bytes: &[u8]) {
        self.framed.get_mut().write_all(bytes).await.unwrap();
    }
}

/// A transport connected to the test's [`Adapter`], and what it tells its owner.
struct Harness {
    transport: ActorRef<TransportMsg>,
    output: mpsc::UnboundedReceiver<TransportOutput>,
    adapter: Adapter,
}

impl Harness {
    async fn start(config: TransportConfig) -> Self {
        let (client, server) = tokio::io::duplex(64 * 1024);
        let client = Arc::new(Mutex::new(Some(client)));
        let mut in_process = InProcessAdapters::default();
        in_process.insert(
            "scripted",
            Arc::new(move || client.lock().unwrap().take().expect("one connection")),
        );
        let adapter = AdapterRegistry::builtin()
            .resolve(&AdapterDef::in_process("scripted"))
            .unwrap();
        let (tx, output) = mpsc::unbounded_channel();
        let args = TransportArgs {
            adapter,
            sink: Arc::new(move |out| {
                let _ = tx.send(out);
            }),
            config: TransportConfig {
                in_process,
                ..config
            },
            pid_slot: None,
        };
        let (transport, _) = Actor::spawn(None, TransportActor, args).await.unwrap();
        Self {
            transport,
            output,
            adapter: Adapter {
                framed: Framed::new(server, DapCodec::new()),
            },
        }
    }

    /// Ask the transport to send `command` with `tag`, deadline `timeout`.
    fn send(&self, tag: Tag, command: &str, arguments: Option<Value>, timeout: Duration) {
        let request = Request::new(command, arguments);
        self.transport
            .cast(TransportMsg::Send {
                tag,
                request,
                timeout,
            })
            .unwrap();
    }

    /// The next thing the transport told its owner, events aside.
    async fn output(&mut self) -> TransportOutput {
        loop {
            match self.output.recv().await.expect("the transport's output") {
                TransportOutput::Event(_) => continue,
                other => return other,
            }
        }
    }

    /// The next answer the owner got: its tag and result.
    async fn answer(&mut self) -> (Tag, Result<Response, SessionError>) {
        match self.output().await {
            TransportOutput::Response { tag, result } => (tag, result),
            other => panic!("want an answer, got {other:?}"),
        }
    }

    /// How the connection ended, once it has.
    async fn closed(&mut self) -> AdapterExit {
        match self.output().await {
            TransportOutput::Closed(exit) => exit,
            other => panic!("want the end, got {other:?}"),
        }
    }
}

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
