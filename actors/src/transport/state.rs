//! The transport's state, and its handling of requests in flight: sending them,
//! matching answers, deadlines, answers that are not DAP.

use std::sync::Arc;
use std::time::Duration;

use ractor::ActorRef;
use tokio::sync::{mpsc, Semaphore};
use tokio::task::AbortHandle;
use tokio::time::Instant;

use crate::core::command::Tag;
use crate::error::TransportError;
use crate::transport::ending::Ending;
use crate::transport::messages::{
    FrameCredit, Outgoing, TransportConfig, TransportMsg, TransportOutput, TransportSink,
};
use crate::transport::output_tail::OutputTail;
use crate::transport::process::{self, ProcessGroup};
use crate::transport::requests::RequestTable;
use crate::wire::DapCommand;
use crate::wire::{Message, Request, Response};

/// The transport's state.
pub struct TransportState {
    /// This transport's span (`adapter{name}`, under its session's).
    pub(super) span: tracing::Span,
    /// What passed, counted for the session.
    pub(super) traffic: Arc<crate::transport::traffic::Traffic>,
    pub(super) sink: TransportSink,
    pub(super) config: TransportConfig,
    pub(super) adapter_name: String,
    /// Messages for the adapter's writer, each with the place it holds until written.
    pub(super) outgoing: Option<mpsc::UnboundedSender<Outgoing>>,
    /// The places for requests not yet written (`max_unwritten_messages`).
    pub(super) unwritten: Arc<Semaphore>,
    /// The places for forwarded debuggee output not yet handled
    /// (`max_unhandled_output`).
    pub(super) output_credits: Arc<Semaphore>,
    /// Requests in flight, with their deadlines.
    pub(super) requests: RequestTable,
    /// The adapter's process and its group, when it is a process of ours.
    pub(super) group: Option<Arc<ProcessGroup>>,
    /// The session whose processes these are, for their tree tags.
    pub(super) tree_owner: Option<String>,
    /// The processes `runInTerminal` started that still run.
    pub(super) terminal_processes: Vec<Arc<ProcessGroup>>,
    /// How `runInTerminal` commands are run (their stdin, their end).
    pub(super) terminal: crate::transport::terminal::Terminal,
    /// The places for child sessions of its session's tree.
    pub(super) child_slots: crate::transport::ChildSlots,
    /// Whether the program has stopped yet (the first stop is a moment to note the
    /// processes under the adapter).
    pub(super) stopped_once: bool,
    /// The end of the adapter's stderr.
    pub(super) stderr_tail: OutputTail,
    /// The end of its stdout, where that is not DAP (an adapter reached over TCP).
    pub(super) stdout_tail: OutputTail,
    /// What is known of the end so far.
    pub(super) ending: Ending,
    /// Events held until forwarded debuggee output has caught up with them.
    pub(super) output_order: crate::transport::output_order::OutputOrder,
    /// The adapter's address, once a TCP connection to it is made.
    pub(super) server: Option<(String, u16)>,
    pub(super) grace_timer: Option<AbortHandle>,
    /// The one timer for the requests' deadlines, and when it fires: set for the
    /// earliest deadline in flight, or earlier. A request answered in time leaves it
    /// alone, so the common request costs no timer of its own.
    pub(super) deadline_timer: Option<(Instant, AbortHandle)>,
    /// The tasks that hold the stream: held only to end them when this state is
    /// dropped (`io_tasks.rs`).
    pub(super) _io_tasks: crate::transport::io_tasks::IoTasksOwner,
}

impl TransportState {
    #[cfg(test)]
    /// The adapter's pid, when it is a process of ours.
    pub fn pid(&self) -> Option<u32> {
        self.group.as_ref().map(|g| g.pid())
    }

    /// Note the processes under the adapter (and the `runInTerminal` ones) if
    /// `message` marks a moment the debuggee is likely to run: the adapter reports a
    /// process, answers a launch, attach, restart or configurationDone, or the
    /// program first stops. A few scans of `/proc` per adapter (on the blocking pool,
    /// never in this handler), so that a debuggee that left the process group is
    /// still ended after the adapter exited.
    pub(super) fn note_processes_at(&mut self, message: &Message) {
        let moment = match message {
            Message::Event(event) => match event.event.as_str() {
                "process" => true,
                "stopped" => !std::mem::replace(&mut self.stopped_once, true),
                _ => false,
            },
            Message::Response(response) => matches!(
                DapCommand::from_name(&response.command),
                Some(
                    DapCommand::Launch
                        | DapCommand::Attach
                        | DapCommand::Restart
                        | DapCommand::ConfigurationDone
                )
            ),
            Message::Request(_) => false,
        };
        if !moment {
            return;
        }
        let mut groups: Vec<_> = self.terminal_processes.clone();
        if self.ending.exit.is_none() {
            groups.extend(self.group.clone());
        }
        // A scan of `/proc`: off this handler, on the blocking pool.
        process::note_all(groups);
    }

    /// Pass on what the adapter said, in order with the debuggee output forwarded
    /// beside it (see `output_order.rs`).
    pub(super) fn pass_on(&mut self, output: TransportOutput) {
        for output in self.output_order.admit(output) {
            (self.sink)(output);
        }
    }

    pub(super) fn send_request(
        &mut self,
        myself: &ActorRef<TransportMsg>,
        tag: Tag,
        mut request: Request,
        timeout: Duration,
    ) {
        if self.ending.finished && !self.ending.stop_requested {
            // The adapter ended (its output, its process) and the report of why is
            // on its way: it fails this request with the others pending (the owner
            // fails them all on `Closed`). An answer of its own here would reach the
            // owner first, with a reason of its own, and which one an agent saw would
            // depend on the order the adapter's exit, its output's end and this
            // request happened to come in.
            tracing::debug!(command = %request.command, "request after the adapter ended; failed with its end");
            return;
        }
        let Some(outgoing) = self.outgoing.clone() else {
            (self.sink)(TransportOutput::Response {
                tag,
                result: Err(TransportError::AdapterGone {
                    exit: self.exit_report("the adapter connection is closing".into()),
                }),
            });
            return;
        };
        let Ok(place) = self.unwritten.clone().try_acquire_owned() else {
            // The adapter is not reading its input: refused at once, not queued
            // without end.
            (self.sink)(TransportOutput::Response {
                tag,
                result: Err(self.not_reading()),
            });
            return;
        };
        let seq = self
            .requests
            .send(&mut request, tag, timeout, Instant::now());
        self.traffic.request_sent();
        if let Some(span) = self.requests.span(seq) {
            span.in_scope(|| tracing::debug!("request sent"));
        }
        self.arm_deadline_timer(myself);
        if outgoing
            .send((Message::Request(request), FrameCredit::held(place)))
            .is_err()
        {
            // The writer is gone; the stream-ended message is on its way and will
            // fail this request with the others.
        }
    }

    /// Why a request cannot be queued for the adapter: too many wait to be written.
    fn not_reading(&self) -> TransportError {
        TransportError::NotReading {
            adapter: self.adapter_name.clone(),
            limit: self.config.max_unwritten_messages,
        }
    }

    /// Send `cancel` to the adapter if a place to write it is free; whether it went.
    fn send_cancel(&self, cancel: Request) -> bool {
        let (Some(out), Ok(place)) = (&self.outgoing, self.unwritten.clone().try_acquire_owned())
        else {
            return false;
        };
        out.send((Message::Request(cancel), FrameCredit::held(place)))
            .is_ok()
    }

    /// Make sure the deadline timer fires no later than the earliest deadline in
    /// flight. Requests usually share one timeout, so a new one's deadline comes
    /// after the armed one and nothing is done.
    fn arm_deadline_timer(&mut self, myself: &ActorRef<TransportMsg>) {
        let Some(next) = self.requests.next_deadline() else {
            return;
        };
        if self
            .deadline_timer
            .as_ref()
            .is_some_and(|(at, _)| *at <= next)
        {
            return;
        }
        if let Some((_, earlier)) = self.deadline_timer.take() {
            earlier.abort();
        }
        let after = next.saturating_duration_since(Instant::now());
        let timer = myself.send_after(after, || TransportMsg::Deadlines);
        self.deadline_timer = Some((next, timer.abort_handle()));
    }

    pub(super) fn on_response(&mut self, response: Response) {
        match self.requests.answer(&response) {
            Some(request) => {
                let sent = request.deadline - request.timeout;
                request.span.in_scope(|| {
                    tracing::debug!(
                        success = response.success,
                        ms = sent.elapsed().as_secs_f64() * 1000.0,
                        "response"
                    )
                });
                self.pass_on(TransportOutput::Response {
                    tag: request.tag,
                    result: Ok(response),
                });
            }
            None => tracing::warn!(
                adapter = %self.adapter_name,
                request_seq = response.request_seq,
                command = %response.command,
                "response to no pending request (late, after its deadline, or a wrong request_seq); dropped"
            ),
        }
    }

    /// The owner gave up on the request sent with `tag`: where the adapter takes
    /// `cancel` and the request is still in flight, ask it to stop. The request stays
    /// in flight: its answer (or its deadline) still comes, and goes to the owner.
    pub(super) fn cancel_request(&mut self, tag: Tag) {
        if let Some(cancel) = self.requests.cancel(tag) {
            self.send_cancel(cancel);
        }
    }

    /// The deadline timer fired: fail every request whose deadline has passed, and
    /// ask the adapter to cancel each where it can; then arm the timer for the next.
    pub(super) fn on_deadlines(&mut self, myself: &ActorRef<TransportMsg>) {
        self.deadline_timer = None;
        for mut expired in self.requests.expire_due(Instant::now()) {
            let sent = expired.cancel.take().is_some_and(|c| self.send_cancel(c));
            if let TransportError::Timeout { cancel_sent, .. } = &mut expired.error {
                *cancel_sent = sent;
            }
            expired.request.span.in_scope(|| {
                tracing::debug!(
                    after_ms = expired.request.timeout.as_millis() as u64,
                    cancel_sent = sent,
                    "deadline passed; failed"
                )
            });
            (self.sink)(TransportOutput::Response {
                tag: expired.request.tag,
                result: Err(expired.error),
            });
        }
        self.arm_deadline_timer(myself);
    }

    /// A frame that is JSON but not a DAP message: fail the request it answers, if
    /// it names one still pending; otherwise it is only logged (by the reader).
    pub(super) fn on_malformed(&mut self, request_seq: Option<i64>, detail: String) {
        let Some((request, error)) =
            request_seq.and_then(|seq| self.requests.malformed(seq, &detail))
        else {
            return;
        };
        request
            .span
            .in_scope(|| tracing::debug!(%detail, "answered by a malformed frame; failed"));
        self.pass_on(TransportOutput::Response {
            tag: request.tag,
            result: Err(error),
        });
    }
}
