//! A DAP client acting as a person's editor on an exposed session (`debug.expose`):
//! it connects to the endpoint, sends requests and keeps every event it is sent, as
//! VS Code or nvim-dap would. Every wait is bounded by `ANSWER_WAIT` (past it,
//! something hung).
#![allow(dead_code)]

use std::net::SocketAddr;

use dapvisor::wire::{DapCodec, Event, Message, Request, Response};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_util::codec::Framed;

use crate::common::ANSWER_WAIT;

/// One editor's connection.
pub struct Editor {
    framed: Framed<TcpStream, DapCodec>,
    seq: i64,
    /// Every event received so far, in order.
    pub events: Vec<Event>,
    /// Whether the endpoint has closed the connection.
    pub closed: bool,
}

impl Editor {
    /// Connect to the endpoint at `address` (as `debug_expose` answered it).
    pub async fn connect(address: &str) -> Self {
        let address: SocketAddr = address.parse().expect("an address");
        let stream = TcpStream::connect(address)
            .await
            .expect("the endpoint listens");
        Self {
            framed: Framed::new(stream, DapCodec::new()),
            seq: 0,
            events: Vec::new(),
            closed: false,
        }
    }

    /// Send `command`; don't wait for its answer. Returns its seq.
    pub async fn send(&mut self, command: &str, arguments: Option<Value>) -> i64 {
        self.seq += 1;
        let request = Request {
            seq: self.seq,
            ..Request::new(command, arguments)
        };
        self.framed
            .send(Message::Request(request))
            .await
            .expect("the editor's request is sent");
        self.seq
    }

    /// Send raw bytes, as a broken or hostile editor would.
    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        tokio::io::AsyncWriteExt::write_all(self.framed.get_mut(), bytes)
            .await
            .expect("the bytes are sent");
    }

    /// The next message, or `None` once the endpoint closed the connection.
    async fn next(&mut self) -> Option<Message> {
        let next = tokio::time::timeout(ANSWER_WAIT, self.framed.next())
            .await
            .expect("the endpoint says something");
        match next {
            Some(Ok(message)) => Some(message),
            _ => {
                self.closed = true;
                None
            }
        }
    }

    /// Send `command` and wait for its answer, keeping the events that come meanwhile.
    pub async fn request(&mut self, command: &str, arguments: Value) -> Response {
        let seq = self.send(command, Some(arguments)).await;
        self.answer(seq).await
    }

    /// The answer to request `seq`.
    pub async fn answer(&mut self, seq: i64) -> Response {
        loop {
            match self.next().await {
                Some(Message::Response(r)) if r.request_seq == seq => return r,
                Some(Message::Event(e)) => self.events.push(e),
                Some(_) => {}
                None => panic!("the endpoint closed before answering request {seq}"),
            }
        }
    }

    /// The first event named `name` not yet taken (waiting for it if need be); it and
    /// the events before it are taken.
    pub async fn event(&mut self, name: &str) -> Event {
        loop {
            if let Some(at) = self.events.iter().position(|e| e.event == name) {
                return self.events.drain(..=at).next_back().unwrap();
            }
            match self.next().await {
                Some(Message::Event(e)) => self.events.push(e),
                Some(_) => {}
                None => panic!(
                    "the endpoint closed before sending `{name}`: {:?}",
                    self.events
                ),
            }
        }
    }

    /// Read until the endpoint closes the connection; the events meanwhile are kept.
    pub async fn until_closed(&mut self) {
        while let Some(message) = self.next().await {
            if let Message::Event(e) = message {
                self.events.push(e);
            }
        }
    }

    /// `initialize` then `attach` with `token`: the attach's answer.
    pub async fn join(&mut self, token: &str) -> Response {
        let init = self
            .request(
                "initialize",
                json!({"adapterID": "dapvisor-test", "clientID": "test"}),
            )
            .await;
        assert!(init.success, "{init:?}");
        self.request("attach", json!({"token": token})).await
    }
}

/// The message of a failed answer.
pub fn refused(answer: &Response) -> String {
    assert!(!answer.success, "it should be refused: {answer:?}");
    answer.message.clone().unwrap_or_default()
}
