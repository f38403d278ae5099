//! The TransportActor: owns one adapter process (or socket), frames messages, numbers
//! requests, matches responses, enforces deadlines, answers reverse requests.
//!
//! Its handlers never wait on the adapter: bytes move in the tasks of `io.rs`, which
//! report back by message. Results go to a [`TransportSink`], a callback the owner
//! (the session) gives it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use ractor::{Actor, ActorProcessingErr, ActorRef};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use crate::core::command::Tag;
use crate::error::{AdapterExit, SessionError};
use crate::limits;
use crate::registry::{AdapterFlavor, ResolvedAdapter, TransportKind};
use crate::transport::in_process::InProcessAdapters;
use crate::transport::io::{self, ExitInfo};
use crate::transport::process::ProcessGroup;
use crate::transport::reverse;
use crate::transport::stderr_tail::StderrTail;
use crate::wire::{Event, Message, Request, Response};

/// What the transport reports to its owner.
#[derive(Debug)]
pub enum TransportOutput {
    /// An adapter event.
    Event(Event),
    /// The answer to a request (or why there is none: deadline, adapter gone).
    Response {
        /// The owner's tag for the request.
        tag: Tag,
        /// The response, or the failure.
        result: Result<Response, SessionError>,
    },
    /// The adapter asked for a child session (`startDebugging`); it has been told yes.
    StartDebugging {
        /// `launch` or `attach`.
        request: String,
        /// The child's configuration.
        configuration: serde_json::Map<String, Value>,
    },
    /// The connection ended. Requests still pending get no response of their own:
    /// the owner fails them, knowing whether the end is a crash it will restart.
    Closed(AdapterExit),
}

/// Where a transport's output goes: called from the actor's handlers, so it must not
/// block (casting to an actor is the usual body).
pub type TransportSink = Arc<dyn Fn(TransportOutput) + Send + Sync>;

/// Limits a transport enforces.
#[derive(Debug, Clone)]
pub struct TransportConfig {
    /// Largest frame accepted from the adapter
    /// (default [`limits::DEFAULT_MAX_CONTENT_LENGTH`]).
    pub max_frame_bytes: usize,
    /// Bytes of stderr kept (default [`limits::DEFAULT_STDERR_TAIL_BYTES`]).
    pub stderr_tail_bytes: usize,
    /// How long a TCP adapter may take to listen and accept
    /// (default [`limits::DEFAULT_CONNECT_TIMEOUT`]).
    pub connect_timeout: Duration,
    /// How long a stopping adapter may take to exit before its group is killed
    /// (default [`limits::DEFAULT_SHUTDOWN_GRACE`]).
    pub shutdown_grace: Duration,
    /// Adapters served in-process, for [`TransportKind::InProcess`].
    pub in_process: InProcessAdapters,
}

impl Default for TransportConfig {
    fn default() -> Self {
        Self {
            max_frame_bytes: limits::DEFAULT_MAX_CONTENT_LENGTH,
            stderr_tail_bytes: limits::DEFAULT_STDERR_TAIL_BYTES,
            connect_timeout: limits::DEFAULT_CONNECT_TIMEOUT,
            shutdown_grace: limits::DEFAULT_SHUTDOWN_GRACE,
            in_process: InProcessAdapters::default(),
        }
    }
}

/// What a transport is started with.
pub struct TransportArgs {
    /// The adapter to run or connect to.
    pub adapter: ResolvedAdapter,
    /// Where output goes.
    pub sink: TransportSink,
    /// Limits.
    pub config: TransportConfig,
    /// Filled with the adapter's pid once it is spawned (left alone for TCP connects).
    pub pid_slot: Option<Arc<std::sync::atomic::AtomicU32>>,
}

/// Messages a transport handles.
#[derive(Debug)]
pub enum TransportMsg {
    /// Send a request; the answer goes to the sink with `tag`.
    Send {
        /// The owner's tag.
        tag: Tag,
        /// The request; its `seq` is assigned here.
        request: Request,
        /// The deadline.
        timeout: Duration,
    },
    /// End the adapter: close its input, kill its group after the grace period.
    Shutdown,
    /// A message read from the adapter (from the reader task).
    Incoming(Message),
    /// A JSON frame that is not a DAP message (from the reader task), with the
    /// `request_seq` it names, if any.
    Malformed {
        /// The request it seems to answer.
        request_seq: Option<i64>,
        /// What was wrong, with an excerpt.
        detail: String,
    },
    /// The stream ended or failed (from an I/O task).
    StreamEnded(String),
    /// The adapter process exited (from the exit watcher).
    ProcessExited(ExitInfo),
    /// A request's deadline passed.
    Deadline(i64),
    /// The grace period after a shutdown or exit is over.
    GraceOver,
    /// The adapter's stderr reached its end (everything it wrote is in the tail).
    StderrClosed,
    /// Testing hook: fail this actor (see [`crate::testing::inject_fault`]).
    #[doc(hidden)]
    InjectFault(crate::testing::InjectedFault),
}

/// The actor; see the module docs.
pub struct TransportActor;

struct PendingRequest {
    tag: Tag,
    command: String,
    timeout: Duration,
    deadline: AbortHandle,
}

/// The transport's state.
pub struct TransportState {
    sink: TransportSink,
    config: TransportConfig,
    adapter_name: String,
    outgoing: Option<mpsc::UnboundedSender<Message>>,
    next_seq: i64,
    pending: HashMap<i64, PendingRequest>,
    group: Option<Arc<ProcessGroup>>,
    /// Groups of `runInTerminal` processes started where there is no adapter group.
    own_groups: Vec<ProcessGroup>,
    tail: StderrTail,
    exit: Option<ExitInfo>,
    stream_end: Option<String>,
    shutdown_requested: bool,
    grace_timer: Option<AbortHandle>,
    closed: bool,
    /// The adapter's stderr may still hold words for the exit report.
    stderr_open: bool,
}

impl TransportState {
    /// The adapter's pid, when it is a process of ours.
    pub fn pid(&self) -> Option<u32> {
        self.group.as_ref().map(|g| g.pid())
    }
}

impl Actor for TransportActor {
    type Msg = TransportMsg;
    type State = TransportState;
    type Arguments = TransportArgs;

    async fn pre_start(
        &self,
        myself: ActorRef<Self::Msg>,
        args: TransportArgs,
    ) -> Result<Self::State, ActorProcessingErr> {
        let TransportArgs {
            adapter,
            sink,
            config,
            pid_slot,
        } = args;
        let tail = StderrTail::new(config.stderr_tail_bytes);
        let (tx, rx) = mpsc::unbounded_channel();
        let mut group = None;
        let mut stderr_open = false;
        match &adapter.transport {
            TransportKind::TcpConnect { host, port } => {
                let (host, port) = (host.clone(), *port);
                let (limit, timeout, me) = (
                    config.max_frame_bytes,
                    config.connect_timeout,
                    myself.clone(),
                );
                tokio::spawn(io::connect_tcp(host, port, rx, limit, timeout, me));
            }
            TransportKind::InProcess { name } => {
                let stream = config.in_process.connect(name).ok_or_else(|| {
                    format!("no in-process adapter `{name}` is registered with this runtime")
                })?;
                let (r, w) = tokio::io::split(stream);
                io::start_io(r, w, rx, config.max_frame_bytes, myself.clone());
            }
            kind => {
                // Spawning is quick and synchronous; only a missing binary fails here,
                // which reaches the owner as a spawn error.
                let mut child =
                    io::spawn_adapter(&adapter.program, &adapter.args, adapter.cwd.as_deref())
                        .map_err(|e| format!("could not run {}: {e}", adapter.program.display()))?;
                let pid = child
                    .id()
                    .ok_or("the adapter ended before it could be watched")?;
                group = Some(Arc::new(ProcessGroup::new(pid)));
                if let Some(slot) = &pid_slot {
                    slot.store(pid, std::sync::atomic::Ordering::Relaxed);
                }
                let stdin = child.stdin.take().ok_or("adapter stdin missing")?;
                let stdout = child.stdout.take().ok_or("adapter stdout missing")?;
                let forward = debuggee_output_forward(&adapter, &sink);
                if let Some(stderr) = child.stderr.take() {
                    let forward = forward.clone().map(|f| (f, "stderr"));
                    let me = myself.clone();
                    let at_end = move || {
                        let _ = me.cast(TransportMsg::StderrClosed);
                    };
                    io::drain_then(stderr, tail.clone(), forward, at_end);
                    stderr_open = true;
                }
                if matches!(kind, TransportKind::TcpListen) {
                    drop(stdin);
                    io::connect_from_banner(
                        stdout,
                        tail.clone(),
                        forward,
                        rx,
                        config.max_frame_bytes,
                        config.connect_timeout,
                        myself.clone(),
                    );
                } else {
                    io::start_io(stdout, stdin, rx, config.max_frame_bytes, myself.clone());
                }
                io::watch_exit(child, myself.clone());
            }
        }
        Ok(TransportState {
            sink,
            config,
            adapter_name: adapter.name.clone(),
            outgoing: Some(tx),
            next_seq: 1,
            pending: HashMap::new(),
            group,
            own_groups: Vec::new(),
            tail,
            exit: None,
            stream_end: None,
            shutdown_requested: false,
            grace_timer: None,
            closed: false,
            stderr_open,
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<Self::Msg>,
        message: Self::Msg,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            TransportMsg::Send {
                tag,
                request,
                timeout,
            } => state.send_request(&myself, tag, request, timeout),
            TransportMsg::Incoming(Message::Response(response)) => state.on_response(response),
            TransportMsg::Incoming(Message::Event(event)) => {
                (state.sink)(TransportOutput::Event(event))
            }
            TransportMsg::Incoming(Message::Request(request)) => state.on_reverse_request(request),
            TransportMsg::Malformed {
                request_seq,
                detail,
            } => state.on_malformed(request_seq, detail),
            TransportMsg::Deadline(seq) => state.on_deadline(seq),
            TransportMsg::Shutdown => {
                if !state.shutdown_requested {
                    state.shutdown_requested = true;
                    // Closing the adapter's input asks it to exit; the grace timer
                    // makes sure it does.
                    state.outgoing = None;
                    if state.group.is_none() {
                        state.finish(&myself, "the connection was closed as asked".into());
                    } else {
                        state.start_grace(&myself, state.config.shutdown_grace);
                    }
                }
            }
            TransportMsg::StreamEnded(reason) => {
                if state.stream_end.is_none() {
                    state.stream_end = Some(reason);
                }
                if !state.finish_if_all_known(&myself) {
                    // Give the process a moment to exit (and its stderr to drain) so
                    // that its status and last words can be reported.
                    state.start_grace(&myself, Duration::from_millis(500));
                }
            }
            TransportMsg::ProcessExited(info) => {
                state.exit = Some(info);
                if !state.finish_if_all_known(&myself) {
                    // Buffered output may still be on its way; the end of the stream
                    // normally follows within milliseconds.
                    state.start_grace(&myself, Duration::from_secs(1));
                }
            }
            TransportMsg::InjectFault(fault) => return fault.fail("transport"),
            TransportMsg::StderrClosed => {
                state.stderr_open = false;
                state.finish_if_all_known(&myself);
            }
            TransportMsg::GraceOver => {
                let reason = state
                    .stream_end
                    .clone()
                    .unwrap_or_else(|| "the adapter was ended".into());
                state.finish(&myself, reason);
            }
        }
        Ok(())
    }

    async fn post_stop(
        &self,
        _myself: ActorRef<Self::Msg>,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        if let Some(group) = &state.group {
            group.kill();
        }
        state.own_groups.iter().for_each(ProcessGroup::kill);
        Ok(())
    }
}

/// dlv 1.20 lets its debuggee inherit its stdout and stderr rather than sending the
/// debuggee's output as events; what it prints after its banner is the debuggee's.
fn debuggee_output_forward(
    adapter: &ResolvedAdapter,
    sink: &TransportSink,
) -> Option<io::OutputForward> {
    if adapter.flavor != AdapterFlavor::Delve {
        return None;
    }
    let sink = sink.clone();
    Some(Arc::new(move |category: &'static str, text: String| {
        let body = serde_json::json!({ "category": category, "output": text });
        sink(TransportOutput::Event(Event::new("output", Some(body))));
    }))
}

impl TransportState {
    fn send_request(
        &mut self,
        myself: &ActorRef<TransportMsg>,
        tag: Tag,
        mut request: Request,
        timeout: Duration,
    ) {
        let Some(outgoing) = self.outgoing.as_ref().filter(|_| !self.closed) else {
            (self.sink)(TransportOutput::Response {
                tag,
                result: Err(SessionError::AdapterExited {
                    exit: self.exit_report("the adapter connection is closing".into()),
                }),
            });
            return;
        };
        let seq = self.next_seq;
        self.next_seq += 1;
        request.seq = seq;
        let command = request.command.clone();
        if outgoing.send(Message::Request(request)).is_err() {
            // The writer is gone; the stream-ended message is on its way and will
            // fail this request with the others.
        }
        let deadline = myself
            .send_after(timeout, move || TransportMsg::Deadline(seq))
            .abort_handle();
        self.pending.insert(
            seq,
            PendingRequest {
                tag,
                command,
                timeout,
                deadline,
            },
        );
    }

    fn on_response(&mut self, response: Response) {
        match self.pending.remove(&response.request_seq) {
            Some(pending) => {
                pending.deadline.abort();
                (self.sink)(TransportOutput::Response {
                    tag: pending.tag,
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

    fn on_deadline(&mut self, seq: i64) {
        if let Some(pending) = self.pending.remove(&seq) {
            (self.sink)(TransportOutput::Response {
                tag: pending.tag,
                result: Err(SessionError::Timeout {
                    command: pending.command,
                    after: pending.timeout,
                }),
            });
        }
    }

    /// A frame that is JSON but not a DAP message: fail the request it answers, if
    /// it names one still pending; otherwise it is only logged (by the reader).
    fn on_malformed(&mut self, request_seq: Option<i64>, detail: String) {
        let Some(pending) = request_seq.and_then(|seq| self.pending.remove(&seq)) else {
            return;
        };
        pending.deadline.abort();
        (self.sink)(TransportOutput::Response {
            tag: pending.tag,
            result: Err(SessionError::Protocol(format!(
                "the adapter answered `{}` with a message that is not DAP: {detail}",
                pending.command
            ))),
        });
    }

    fn on_reverse_request(&mut self, request: Request) {
        let result = match request.command.as_str() {
            "runInTerminal" => {
                let sink = self.sink.clone();
                let pgid = self.group.as_ref().map(|g| g.pid());
                reverse::run_in_terminal(&request, pgid, move |ev| sink(TransportOutput::Event(ev)))
                    .map(|(pid, body)| {
                        if pgid.is_none() {
                            self.own_groups.push(ProcessGroup::new(pid));
                        }
                        body
                    })
            }
            "startDebugging" => match reverse::start_debugging(&request) {
                Ok((kind, configuration)) => {
                    (self.sink)(TransportOutput::StartDebugging {
                        request: kind,
                        configuration,
                    });
                    Ok(json!({}))
                }
                Err(message) => Err(message),
            },
            other => Err(format!(
                "dapvisor does not handle the reverse request `{other}`"
            )),
        };
        self.respond(&request, result);
    }

    fn respond(&mut self, request: &Request, result: Result<Value, String>) {
        let seq = self.next_seq;
        self.next_seq += 1;
        let (success, message, body) = match result {
            Ok(body) => (true, None, Some(body)),
            Err(message) => (false, Some(message), None),
        };
        let response = Response {
            seq,
            request_seq: request.seq,
            success,
            command: request.command.clone(),
            message,
            body,
        };
        if let Some(out) = &self.outgoing {
            let _ = out.send(Message::Response(response));
        }
    }

    /// Finish once the stream has ended and, for a process, its exit status and its
    /// whole stderr are known. Returns whether it finished.
    fn finish_if_all_known(&mut self, myself: &ActorRef<TransportMsg>) -> bool {
        let Some(reason) = self.stream_end.clone() else {
            return false;
        };
        let process_done = self.group.is_none() || (self.exit.is_some() && !self.stderr_open);
        if process_done {
            self.finish(myself, reason);
        }
        process_done
    }

    fn start_grace(&mut self, myself: &ActorRef<TransportMsg>, after: Duration) {
        if self.grace_timer.is_none() {
            self.grace_timer = Some(
                myself
                    .send_after(after, || TransportMsg::GraceOver)
                    .abort_handle(),
            );
        }
    }

    fn exit_report(&self, reason: String) -> AdapterExit {
        AdapterExit {
            code: self.exit.and_then(|e| e.code),
            signal: self.exit.and_then(|e| e.signal),
            reason,
            stderr_tail: self.tail.text(),
            requested: self.shutdown_requested,
        }
    }

    /// End for good: sweep the process group, fail every pending request, tell the
    /// owner, stop.
    fn finish(&mut self, myself: &ActorRef<TransportMsg>, reason: String) {
        if self.closed {
            return;
        }
        self.closed = true;
        self.outgoing = None;
        if let Some(group) = &self.group {
            group.kill();
        }
        self.own_groups.iter().for_each(ProcessGroup::kill);
        if let Some(timer) = self.grace_timer.take() {
            timer.abort();
        }
        let exit = self.exit_report(reason);
        // The session fails what was pending in one go when it hears of the close: it
        // alone knows whether this is a crash that will be restarted.
        for (_, pending) in self.pending.drain() {
            pending.deadline.abort();
        }
        (self.sink)(TransportOutput::Closed(exit));
        myself.stop(None);
    }
}
