//! The transport on its own, with the test playing the adapter on the other end of an
//! in-memory stream: what the transport-level tests share.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use dapvisor_actors::registry::{AdapterDef, AdapterRegistry};
use dapvisor_actors::testing::transport::Tag;
use dapvisor_actors::testing::transport::{
    InProcessAdapters, TransportActor, TransportArgs, TransportConfig, TransportMsg,
    TransportOutput,
};
use dapvisor_actors::wire::{DapCodec, Event, Message, Request, Response};
use dapvisor_actors::{AdapterExit, TransportError};
use futures::{SinkExt, StreamExt};
use ractor::{Actor, ActorRef};
use serde_json::Value;
use tokio::io::{AsyncWriteExt, DuplexStream};
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

/// The test's end of the connection: it plays the adapter.
pub struct Adapter {
    pub framed: Framed<DuplexStream, DapCodec>,
    pub next_seq: i64,
}

impl Adapter {
    /// The next message the transport sent.
    pub async fn recv(&mut self) -> Message {
        match self.framed.next().await {
            Some(Ok(message)) => message,
            other => panic!("want a message from the transport, got {other:?}"),
        }
    }

    /// The next request the transport sent.
    pub async fn request(&mut self) -> Request {
        match self.recv().await {
            Message::Request(request) => request,
            other => panic!("want a request, got {other:?}"),
        }
    }

    pub async fn send(&mut self, mut message: Message) {
        let seq = self.next_seq;
        self.next_seq += 1;
        match &mut message {
            Message::Request(r) => r.seq = seq,
            Message::Response(r) => r.seq = seq,
            Message::Event(e) => e.seq = seq,
        }
        self.framed.send(message).await.unwrap();
    }

    /// Answer `request` with success and `body`.
    pub async fn answer(&mut self, request: &Request, body: Value) {
        self.answer_seq(request.seq, &request.command, body).await;
    }

    /// Send a successful response naming `request_seq` (right or wrong).
    pub async fn answer_seq(&mut self, request_seq: i64, command: &str, body: Value) {
        let response = Response::new(request_seq, command, Ok(Some(body)));
        self.send(Message::Response(response)).await;
    }

    pub async fn event(&mut self, name: &str, body: Value) {
        self.send(Message::Event(Event::new(name, Some(body))))
            .await;
    }

    /// Bytes as they are, bypassing the framing.
    pub async fn raw(&mut self, bytes: &[u8]) {
        self.framed.get_mut().write_all(bytes).await.unwrap();
    }
}

/// A transport for the adapter `def`, and what it tells its owner.
pub async fn spawn_transport(
    def: &AdapterDef,
    config: TransportConfig,
) -> (
    ActorRef<TransportMsg>,
    mpsc::UnboundedReceiver<TransportOutput>,
) {
    let adapter = AdapterRegistry::builtin().resolve(def).unwrap();
    let (tx, output) = mpsc::unbounded_channel();
    let args = TransportArgs {
        adapter,
        sink: Arc::new(move |out| {
            let _ = tx.send(out);
        }),
        config,
        pid_slot: None,
        traffic: Default::default(),
        span: tracing::Span::none(),
        child_slots: Default::default(),
        tree_owner: None,
    };
    let (transport, _) = Actor::spawn(None, TransportActor, args).await.unwrap();
    (transport, output)
}

/// A transport connected to the test's [`Adapter`], and what it tells its owner.
pub struct Harness {
    pub transport: ActorRef<TransportMsg>,
    /// What the owner was told (an event's credit is held until it is dropped).
    pub output: mpsc::UnboundedReceiver<TransportOutput>,
    pub adapter: Adapter,
}

impl Harness {
    pub async fn start(config: TransportConfig) -> Self {
        let (client, server) = tokio::io::duplex(64 * 1024);
        let client = Arc::new(Mutex::new(Some(client)));
        let mut in_process = InProcessAdapters::default();
        in_process.insert(
            "scripted",
            Arc::new(move || client.lock().unwrap().take().expect("one connection")),
        );
        let (transport, output) = spawn_transport(
            &AdapterDef::in_process("scripted"),
            TransportConfig {
                in_process,
                ..config
            },
        )
        .await;
        Self {
            transport,
            output,
            adapter: Adapter {
                framed: Framed::new(server, DapCodec::new()),
                next_seq: 1,
            },
        }
    }

    /// Ask the transport to send `command` with `tag`, deadline `timeout`.
    pub fn send(&self, tag: Tag, command: &str, arguments: Option<Value>, timeout: Duration) {
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
    pub async fn output(&mut self) -> TransportOutput {
        loop {
            match self.output.recv().await.expect("the transport's output") {
                TransportOutput::Event(..) => continue,
                other => return other,
            }
        }
    }

    /// The next answer the owner got: its tag and result.
    pub async fn answer(&mut self) -> (Tag, Result<Response, TransportError>) {
        match self.output().await {
            TransportOutput::Response { tag, result } => (tag, result),
            other => panic!("want an answer, got {other:?}"),
        }
    }

    /// How the connection ended, once it has.
    pub async fn closed(&mut self) -> AdapterExit {
        match self.output().await {
            TransportOutput::Closed(exit) => exit,
            other => panic!("want the end, got {other:?}"),
        }
    }
}
