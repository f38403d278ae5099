//! [`FakeAdapterProbe`]: what a [`FakeAdapter`](super::FakeAdapter) received and sent,
//! over all its connections, and a way to wait until something has happened.

use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;
use tokio::sync::Notify;

use crate::wire::{Message, Request, Response};

/// A request the fake adapter received.
#[derive(Debug, Clone, PartialEq)]
pub struct ReceivedRequest {
    /// Which connection it came on (counted from 1).
    pub connection: usize,
    /// The client's seq.
    pub seq: i64,
    /// The command.
    pub command: String,
    /// The arguments, as sent.
    pub arguments: Option<Value>,
}

/// A response the fake adapter received (the client's answer to a reverse request).
#[derive(Debug, Clone, PartialEq)]
pub struct ReceivedResponse {
    /// Which connection it came on (counted from 1).
    pub connection: usize,
    /// The response, as sent.
    pub response: Response,
}

/// A message the fake adapter sent, with the seq it was given. `output` events are
/// only counted ([`ProbeLog::outputs_sent`]), not kept.
#[derive(Debug, Clone, PartialEq)]
pub struct SentMessage {
    /// Which connection it went on (counted from 1).
    pub connection: usize,
    /// The message.
    pub message: Message,
}

/// Everything a probe has seen so far.
#[derive(Debug, Clone, Default)]
pub struct ProbeLog {
    /// Connections made.
    pub connections: usize,
    /// Connections that have ended.
    pub closed: usize,
    /// Requests received, in order.
    pub requests: Vec<ReceivedRequest>,
    /// Responses received (to reverse requests), in order.
    pub responses: Vec<ReceivedResponse>,
    /// Messages sent, in order, but for `output` events.
    pub sent: Vec<SentMessage>,
    /// `output` events sent.
    pub outputs_sent: usize,
}

#[derive(Default)]
struct ProbeInner {
    log: Mutex<ProbeLog>,
    changed: Notify,
}

/// Lets a test see what a [`FakeAdapter`](super::FakeAdapter) received: requests in
/// order (command, arguments, seq), responses to its reverse requests, what it sent,
/// how many connections were made. Cheap to clone; all clones share the log.
#[derive(Clone, Default)]
pub struct FakeAdapterProbe {
    inner: Arc<ProbeInner>,
}

impl std::fmt::Debug for FakeAdapterProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let log = self.lock();
        f.debug_struct("FakeAdapterProbe")
            .field("connections", &log.connections)
            .field("requests", &log.requests.len())
            .finish()
    }
}

impl FakeAdapterProbe {
    fn lock(&self) -> MutexGuard<'_, ProbeLog> {
        self.inner
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn update(&self, change: impl FnOnce(&mut ProbeLog)) {
        change(&mut self.lock());
        self.inner.changed.notify_waiters();
    }

    /// A copy of everything seen so far.
    pub fn log(&self) -> ProbeLog {
        self.lock().clone()
    }

    /// Requests received so far, in order, over all connections.
    pub fn requests(&self) -> Vec<ReceivedRequest> {
        self.lock().requests.clone()
    }

    /// The commands of the requests received so far, in order.
    pub fn commands(&self) -> Vec<String> {
        self.lock()
            .requests
            .iter()
            .map(|r| r.command.clone())
            .collect()
    }

    /// The client's responses to reverse requests so far, in order.
    pub fn reverse_responses(&self) -> Vec<Response> {
        self.lock()
            .responses
            .iter()
            .map(|r| r.response.clone())
            .collect()
    }

    /// The reverse requests sent so far, with the seqs they were given.
    pub fn reverse_requests(&self) -> Vec<Request> {
        self.lock()
            .sent
            .iter()
            .filter_map(|s| match &s.message {
                Message::Request(r) => Some(r.clone()),
                _ => None,
            })
            .collect()
    }

    /// How many connections were made.
    pub fn connections(&self) -> usize {
        self.lock().connections
    }

    /// Wait until `done` holds for the log. Never times out by itself: wrap it in
    /// `tokio::time::timeout` where the condition may never hold.
    pub async fn wait_until(&self, mut done: impl FnMut(&ProbeLog) -> bool) {
        loop {
            let notified = self.inner.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if done(&self.lock()) {
                return;
            }
            notified.await;
        }
    }

    /// Wait for the first request of `command`, and return it.
    pub async fn wait_for_request(&self, command: &str) -> ReceivedRequest {
        let mut found = None;
        self.wait_until(|log| {
            found = log.requests.iter().find(|r| r.command == command).cloned();
            found.is_some()
        })
        .await;
        found.expect("wait_until returned only once found")
    }

    /// Wait for the `n`th (from 1) response to a reverse request, and return it.
    pub async fn wait_for_reverse_response(&self, n: usize) -> Response {
        let mut found = None;
        self.wait_until(|log| {
            found = log.responses.get(n.saturating_sub(1)).cloned();
            found.is_some()
        })
        .await;
        found.expect("wait_until returned only once found").response
    }

    pub(crate) fn record_connection(&self) -> usize {
        let mut number = 0;
        self.update(|log| {
            log.connections += 1;
            number = log.connections;
        });
        number
    }

    pub(crate) fn record_closed(&self) {
        self.update(|log| log.closed += 1);
    }

    pub(crate) fn record_request(&self, connection: usize, request: &Request) {
        self.update(|log| {
            log.requests.push(ReceivedRequest {
                connection,
                seq: request.seq,
                command: request.command.clone(),
                arguments: request.arguments.clone(),
            })
        });
    }

    pub(crate) fn record_response(&self, connection: usize, response: Response) {
        self.update(|log| {
            log.responses.push(ReceivedResponse {
                connection,
                response,
            })
        });
    }

    pub(crate) fn record_sent(&self, connection: usize, message: &Message) {
        let is_output = matches!(message, Message::Event(e) if e.event == "output");
        self.update(|log| {
            if is_output {
                log.outputs_sent += 1;
            } else {
                log.sent.push(SentMessage {
                    connection,
                    message: message.clone(),
                });
            }
        });
    }
}
