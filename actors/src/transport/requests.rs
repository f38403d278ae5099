//! The requests in flight on one adapter connection: numbering what we send, matching
//! answers by `request_seq`, and deadlines. A request whose deadline passes is failed
//! with its seq and, where the adapter advertised `supportsCancelRequest` (in its
//! `initialize` answer or a later `capabilities` event), the adapter is sent
//! `cancel {requestId: seq}` so it can stop working on it; so is a request whose owner
//! gave up on it ([`RequestTable::cancel`]). The cancel is not tracked:
//! its answer is dropped, and the cancelled request's late one is dropped like any late
//! answer.
//!
//! A response that matches no request in flight (a wrong `request_seq`, or an answer
//! after its deadline) is dropped too, but remembered: the most recent few are kept
//! (bounded, `unmatched_responses_kept`) and named in the timeout of any request that
//! was waiting when they came, so an agent learns that the adapter did answer,
//! unexpectedly, instead of seeing a bare timeout.
//!
//! Pure: no I/O, and no clock of its own: the actor says what time it is. Each request
//! carries its deadline; the table says which is next, so that the actor keeps one
//! timer per connection (for the earliest deadline) rather than one per request.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::time::Duration;

use tokio::time::Instant;

use serde_json::json;

use crate::core::command::Tag;
use crate::error::{ProtocolError, TransportError, UnmatchedResponse};
use crate::limits;
use crate::wire::DapCommand;
use crate::wire::{Message, Request, Response};

/// A request sent and not yet answered.
#[derive(Debug)]
pub struct InFlight {
    /// The owner's tag.
    pub tag: Tag,
    /// The DAP command.
    pub command: String,
    /// How long it may take.
    pub timeout: Duration,
    /// When that is over.
    pub deadline: Instant,
    /// How many unmatched responses had come before it was sent.
    unmatched_before: u64,
    /// `request{command, seq}`: what is logged of it, from sending to its answer or
    /// deadline, is logged in this span (under the session's and the adapter's), so a
    /// log can be followed one request at a time.
    pub span: tracing::Span,
}

/// A request whose deadline passed.
#[derive(Debug)]
pub struct Expired {
    /// The request, out of the table.
    pub request: InFlight,
    /// The error that fails it.
    pub error: TransportError,
    /// The `cancel` to send the adapter, numbered, where it supports one.
    pub cancel: Option<Request>,
}

/// The requests in flight, and the numbering of everything we send.
#[derive(Debug)]
pub struct RequestTable {
    next_seq: i64,
    pending: HashMap<i64, InFlight>,
    /// The deadlines of the requests in `pending`, earliest first.
    deadlines: BTreeSet<(Instant, i64)>,
    supports_cancel: bool,
    /// The most recent unmatched responses, each with its number (counted from 0).
    unmatched: VecDeque<(u64, UnmatchedResponse)>,
    /// Unmatched responses seen so far.
    unmatched_seen: u64,
    unmatched_kept: usize,
}

impl Default for RequestTable {
    fn default() -> Self {
        Self::new()
    }
}

impl RequestTable {
    /// An empty table; the first message sent gets `seq` 1. It keeps
    /// [`limits::DEFAULT_UNMATCHED_RESPONSES_KEPT`] unmatched responses.
    pub fn new() -> Self {
        Self {
            next_seq: 1,
            pending: HashMap::new(),
            deadlines: BTreeSet::new(),
            supports_cancel: false,
            unmatched: VecDeque::new(),
            unmatched_seen: 0,
            unmatched_kept: limits::DEFAULT_UNMATCHED_RESPONSES_KEPT,
        }
    }

    /// Keep the `n` most recent unmatched responses.
    pub fn keep_unmatched(mut self, n: usize) -> Self {
        self.unmatched_kept = n;
        self
    }

    /// Learn from what the adapter sent whether it supports `cancel`: its answer to
    /// `initialize` says so (absent means no), and a `capabilities` event may change it.
    pub fn observe(&mut self, message: &Message) {
        /// The one capability the transport needs.
        #[derive(serde::Deserialize, Default)]
        struct Cancel {
            #[serde(rename = "supportsCancelRequest")]
            supported: Option<bool>,
        }
        #[derive(serde::Deserialize, Default)]
        struct CapabilitiesEvent {
            #[serde(default)]
            capabilities: Cancel,
        }
        let flag = match message {
            Message::Response(r) if r.command == DapCommand::Initialize.name() && r.success => {
                self.supports_cancel = false;
                r.parse_body::<Cancel>().ok().and_then(|c| c.supported)
            }
            Message::Event(e) if e.event == "capabilities" => e
                .parse_body::<CapabilitiesEvent>()
                .ok()
                .and_then(|e| e.capabilities.supported),
            _ => None,
        };
        if let Some(flag) = flag {
            self.supports_cancel = flag;
        }
    }

    /// Whether the adapter said it supports `cancel`.
    #[cfg(test)]
    pub fn supports_cancel(&self) -> bool {
        self.supports_cancel
    }

    /// The `seq` of the next message we send (a request, or our response to a reverse
    /// request: both count in one sequence).
    pub fn next_seq(&mut self) -> i64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Number `request`, sent at `now`, and keep it until it is answered or
    /// `timeout` has passed. Returns the seq.
    pub fn send(
        &mut self,
        request: &mut Request,
        tag: Tag,
        timeout: Duration,
        now: Instant,
    ) -> i64 {
        let seq = self.next_seq();
        request.seq = seq;
        let deadline = now + timeout;
        let entry = InFlight {
            tag,
            command: request.command.clone(),
            timeout,
            deadline,
            unmatched_before: self.unmatched_seen,
            span: tracing::debug_span!("request", command = %request.command, seq),
        };
        self.pending.insert(seq, entry);
        self.deadlines.insert((deadline, seq));
        seq
    }

    /// The span of request `seq`, while it is in flight.
    pub fn span(&self, seq: i64) -> Option<&tracing::Span> {
        self.pending.get(&seq).map(|request| &request.span)
    }

    /// The earliest deadline of the requests in flight.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.deadlines.first().map(|(deadline, _)| *deadline)
    }

    /// Take request `seq` out of the table.
    fn take(&mut self, seq: i64) -> Option<InFlight> {
        let request = self.pending.remove(&seq)?;
        self.deadlines.remove(&(request.deadline, seq));
        Some(request)
    }

    /// The request `response` answers, taken out of the table; `None` when it names
    /// no request in flight (late, answered twice, or a wrong `request_seq`), in
    /// which case it is remembered for the timeouts of the requests now waiting. The
    /// answer to a `cancel` we sent is expected, and not remembered.
    pub fn answer(&mut self, response: &Response) -> Option<InFlight> {
        if let Some(request) = self.take(response.request_seq) {
            return Some(request);
        }
        if response.command != DapCommand::Cancel.name() {
            self.remember_unmatched(response);
        }
        None
    }

    fn remember_unmatched(&mut self, response: &Response) {
        let seq = response.request_seq;
        let unmatched = UnmatchedResponse {
            request_seq: seq,
            command: response.command.clone(),
            success: response.success,
            never_sent: seq < 1 || seq >= self.next_seq,
        };
        self.unmatched.push_back((self.unmatched_seen, unmatched));
        self.unmatched_seen += 1;
        while self.unmatched.len() > self.unmatched_kept {
            self.unmatched.pop_front();
        }
    }

    /// Every request whose deadline is `now` or earlier, taken out, each with the
    /// error that fails it and the `cancel` to send, if any; earliest first.
    pub fn expire_due(&mut self, now: Instant) -> Vec<Expired> {
        let due: Vec<i64> = self
            .deadlines
            .iter()
            .take_while(|(deadline, _)| *deadline <= now)
            .map(|(_, seq)| *seq)
            .collect();
        due.into_iter().filter_map(|seq| self.expire(seq)).collect()
    }

    /// The `cancel` to send for the request its owner tagged `tag`, numbered, if the
    /// adapter supports `cancel` and the request is in flight (it stays in flight).
    pub fn cancel(&mut self, tag: Tag) -> Option<Request> {
        if !self.supports_cancel {
            return None;
        }
        let seq = self
            .pending
            .iter()
            .find(|(_, request)| request.tag == tag && request.command != DapCommand::Cancel.name())
            .map(|(seq, _)| *seq)?;
        let mut cancel = Request::new(DapCommand::Cancel.name(), Some(json!({ "requestId": seq })));
        cancel.seq = self.next_seq();
        Some(cancel)
    }

    /// Request `seq`'s deadline passed: take it out, with the error that fails it and
    /// the `cancel` to send, if any. `None` when it is not in flight.
    fn expire(&mut self, seq: i64) -> Option<Expired> {
        let request = self.take(seq)?;
        let cancel =
            (self.supports_cancel && request.command != DapCommand::Cancel.name()).then(|| {
                let mut cancel =
                    Request::new(DapCommand::Cancel.name(), Some(json!({ "requestId": seq })));
                cancel.seq = self.next_seq();
                cancel
            });
        let unmatched = self
            .unmatched
            .iter()
            .filter(|(n, _)| *n >= request.unmatched_before)
            .map(|(_, response)| response.clone())
            .collect();
        let error = TransportError::Timeout {
            command: request.command.clone(),
            after: request.timeout,
            seq,
            cancel_sent: cancel.is_some(),
            unmatched,
            unmatched_count: (self.unmatched_seen - request.unmatched_before) as usize,
        };
        Some(Expired {
            request,
            error,
            cancel,
        })
    }

    /// The adapter answered request `seq` with something that is not DAP: take it out
    /// (if it is in flight) with the error that fails it.
    pub fn malformed(&mut self, seq: i64, detail: &str) -> Option<(InFlight, TransportError)> {
        let request = self.take(seq)?;
        let error = TransportError::NotDap(ProtocolError::NotDap {
            command: request.command.clone(),
            detail: detail.to_string(),
        });
        Some((request, error))
    }

    /// Every request still in flight, taken out (the connection ended).
    pub fn drain(&mut self) -> impl Iterator<Item = InFlight> + '_ {
        self.deadlines.clear();
        self.pending.drain().map(|(_, request)| request)
    }

    /// How many requests are in flight.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Whether no request is in flight.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

#[cfg(test)]
#[path = "requests_tests.rs"]
mod tests;
