//! The TransportActor: owns one adapter process (or socket), frames messages, numbers
//! requests, matches responses, enforces deadlines, answers reverse requests.
//!
//! Its handlers never wait on the adapter: bytes move in the tasks of `io.rs`, which
//! report back by message. Results go to a [`TransportSink`], a callback the owner
//! (the session) gives it. The requests in flight are in `requests.rs` (pure), their
//! handling in `state.rs`, reverse requests in `reverse.rs`, the end in `ending.rs`.

use std::process::Stdio;
use std::sync::Arc;

use ractor::{Actor, ActorProcessingErr, ActorRef};
use tokio::sync::{mpsc, Semaphore};
use tracing::Instrument;

use crate::registry::{ResolvedAdapter, TransportKind};
use crate::transport::ending::Ending;
use crate::transport::io_tasks::IoTasks;
use crate::transport::messages::{
    FrameCredit, TransportArgs, TransportMsg, TransportOutput, TransportSink,
};
use crate::transport::output_order::{drain_in_order, OrderedForward, OutputOrder};
use crate::transport::output_tail::OutputTail;
use crate::transport::process::ProcessGroup;
use crate::transport::requests::RequestTable;
use crate::transport::state::TransportState;
use crate::transport::{connect_back, io, listen};
use crate::wire::{Event, Message};

/// The actor; see the module docs.
pub struct TransportActor;

impl Actor for TransportActor {
    type Msg = TransportMsg;
    type State = TransportState;
    type Arguments = TransportArgs;

    async fn pre_start(
        &self,
        myself: ActorRef<Self::Msg>,
        args: TransportArgs,
    ) -> Result<Self::State, ActorProcessingErr> {
        // Everything the transport logs, its I/O tasks' too, is under its session's.
        let span = tracing::debug_span!(parent: &args.span, "adapter", name = %args.adapter.name);
        start(myself, args, span.clone()).instrument(span).await
    }

    async fn handle(
        &self,
        myself: ActorRef<Self::Msg>,
        message: Self::Msg,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        // No handler waits, so the span is entered for the whole of it.
        let span = state.span.clone();
        let _in_span = span.enter();
        handle_message(myself, message, state)
    }

    async fn post_stop(
        &self,
        _myself: ActorRef<Self::Msg>,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        // Ended before its processes were swept (its session stopped it): sweep them
        // now, off this task.
        crate::transport::process::kill_all(state.take_processes(), || {});
        Ok(())
    }
}

/// Start the adapter (or connect to it) and its I/O tasks.
async fn start(
    myself: ActorRef<TransportMsg>,
    args: TransportArgs,
    span: tracing::Span,
) -> Result<TransportState, ActorProcessingErr> {
    let TransportArgs {
        adapter,
        sink,
        config,
        pid_slot,
        traffic,
        span: _,
        child_slots,
        tree_owner,
    } = args;
    let terminal = crate::transport::terminal::Terminal::of(&adapter);
    let stderr_tail = OutputTail::new(config.stderr_tail_bytes);
    let stdout_tail = OutputTail::new(config.stderr_tail_bytes);
    // Every message in the channel holds a place: a request one of the
    // `max_unwritten_messages`, an answer to a reverse request its request's frame
    // place; so it is bounded though the channel is not.
    let (tx, rx) = mpsc::unbounded_channel();
    let output_credits = Arc::new(Semaphore::new(config.max_unhandled_output));
    let unwritten = Arc::new(Semaphore::new(config.max_unwritten_messages));
    let mut group = None;
    let mut stderr_open = false;
    let mut output_order = OutputOrder::default();
    // Every task that holds the stream ends with this transport's state.
    let (io_tasks, io_owner) = IoTasks::new();
    let ends = io::StreamEnds {
        outgoing: rx,
        limits: config.frame_limits(),
        traffic: traffic.clone(),
        actor: myself.clone(),
        tasks: io_tasks.clone(),
    };
    match &adapter.transport {
        TransportKind::TcpConnect { host, port } => {
            let (host, port) = (host.clone(), *port);
            // A debug server attached to directly (`debugpy --listen`, `dlv
            // --headless`) is named by its adapter, so that a wrong port says whose.
            let what = format!("the {} debug server", adapter.name);
            let timeout = config.connect_timeout;
            let connecting =
                async move { io::connect_tcp((host, port), &what, ends, timeout).await };
            io_tasks.spawn(connecting.in_current_span());
        }
        TransportKind::InProcess { name } => {
            let stream = config.in_process.connect(name).ok_or_else(|| {
                format!("no in-process adapter `{name}` is registered with this runtime")
            })?;
            let (r, w) = tokio::io::split(stream);
            io::start_io(r, w, ends);
        }
        kind => {
            // An adapter that dials back is told where: the port is bound first,
            // so it is ours before the adapter starts.
            let dial_back = match kind {
                TransportKind::ConnectBack => Some(
                    connect_back::DialBack::listen(&adapter.args)
                        .await
                        .map_err(|e| format!("could not listen on a loopback port: {e}"))?,
                ),
                _ => None,
            };
            let args = match (&dial_back, kind) {
                (Some(dial_back), _) => dial_back.arguments(&adapter.args),
                (None, TransportKind::TcpListen) => listen::told_port(&adapter.args)
                    .map_err(|e| format!("could not find a free loopback port: {e}"))?,
                (None, _) => adapter.args.clone(),
            };
            // Spawning is quick and synchronous; only a missing binary fails here,
            // which reaches the owner as a spawn error.
            let tag = crate::transport::process::new_tree_tag(tree_owner.as_deref());
            // An adapter reached over a socket has stdin to spare: its debuggee
            // inherits it (dlv's), so it is the program's input.
            let stdin = match kind {
                TransportKind::Stdio => Stdio::piped(),
                _ => terminal.stdin()?,
            };
            let mut child =
                io::spawn_adapter(&adapter.program, &args, adapter.cwd.as_deref(), &tag, stdin)
                    .map_err(|e| format!("could not run {}: {e}", adapter.program.display()))?;
            let pid = child
                .id()
                .ok_or("the adapter ended before it could be watched")?;
            // Watched before anything could reap it; reaped by its group's sweep.
            let me = myself.clone();
            io::watch_exit(pid, move |info| {
                let _ = me.cast(TransportMsg::ProcessExited(info));
            });
            if let Some(slot) = &pid_slot {
                slot.store(pid, std::sync::atomic::Ordering::Relaxed);
            }
            let stdin = child.stdin.take();
            let stdout = child.stdout.take().ok_or("adapter stdout missing")?;
            let forward = debuggee_output_forward(&adapter, &sink, &output_credits);
            let mut ordered = |category| {
                let me = myself.clone();
                let flushed = move || {
                    let _ = me.cast(TransportMsg::OutputFlushed);
                };
                let forward = forward.clone()?;
                Some(OrderedForward::new(
                    forward,
                    category,
                    &mut output_order,
                    flushed,
                ))
            };
            let listens = matches!(kind, TransportKind::TcpListen);
            // rdbg names its port on stderr: the banner is read there instead.
            let quirks = adapter.flavor.quirks();
            let banner_on_stderr = listens && quirks.listen_banner_on_stderr;
            let mut ends = Some(ends);
            if let Some(stderr) = child.stderr.take() {
                let me = myself.clone();
                let at_end = move || {
                    let _ = me.cast(TransportMsg::StderrClosed);
                };
                match (ordered("stderr"), ends.take_if(|_| banner_on_stderr)) {
                    (forward, Some(ends)) => listen::connect_from_banner(
                        stderr,
                        stderr_tail.clone(),
                        forward,
                        ends,
                        (config.connect_timeout, quirks.listen_ready_line),
                        at_end,
                    ),
                    (Some(ordered), None) => {
                        drain_in_order(stderr, Vec::new(), stderr_tail.clone(), ordered, at_end)
                    }
                    (None, None) => io::drain_then(stderr, stderr_tail.clone(), at_end),
                }
                stderr_open = true;
            }
            match ends {
                // The banner was on stderr: stdout is the program's alone.
                None => {
                    drop(stdin);
                    match ordered("stdout") {
                        Some(ordered) => {
                            drain_in_order(stdout, Vec::new(), stdout_tail.clone(), ordered, || {})
                        }
                        None => io::drain_into_tail(stdout, stdout_tail.clone()),
                    }
                }
                Some(ends) if listens => {
                    drop(stdin);
                    listen::connect_from_banner(
                        stdout,
                        stdout_tail.clone(),
                        ordered("stdout"),
                        ends,
                        (config.connect_timeout, quirks.listen_ready_line),
                        || {},
                    );
                }
                Some(ends) => match dial_back {
                    // DAP comes over the socket; stdout is kept for reports, and is the
                    // debuggee's output where the adapter lets it inherit its own (dlv).
                    Some(dial_back) => {
                        drop(stdin);
                        match ordered("stdout") {
                            Some(ordered) => drain_in_order(
                                stdout,
                                Vec::new(),
                                stdout_tail.clone(),
                                ordered,
                                || {},
                            ),
                            None => io::drain_into_tail(stdout, stdout_tail.clone()),
                        }
                        dial_back.accept(ends, config.connect_timeout);
                    }
                    None => {
                        let stdin = stdin.ok_or("adapter stdin missing")?;
                        io::start_io(stdout, stdin, ends)
                    }
                },
            }
            group = Some(Arc::new(
                ProcessGroup::adopt(child, true)
                    .ok_or("the adapter ended before it could be watched")?
                    .tagged(tag)
                    .named_in(pid_slot.clone()),
            ));
        }
    }
    Ok(TransportState {
        requests: RequestTable::new().keep_unmatched(config.unmatched_responses_kept),
        sink,
        config,
        adapter_name: adapter.name.clone(),
        outgoing: Some(tx),
        unwritten,
        output_credits,
        terminal_processes: Vec::new(),
        terminal,
        child_slots,
        tree_owner,
        stopped_once: false,
        output_order,
        ending: Ending {
            is_process: group.is_some(),
            stderr_open,
            ..Ending::default()
        },
        group,
        server: None,
        stderr_tail,
        stdout_tail,
        grace_timer: None,
        deadline_timer: None,
        span,
        traffic,
        _io_tasks: io_owner,
    })
}

fn handle_message(
    myself: ActorRef<TransportMsg>,
    message: TransportMsg,
    state: &mut TransportState,
) -> Result<(), ActorProcessingErr> {
    match message {
        TransportMsg::Send {
            tag,
            request,
            timeout,
        } => state.send_request(&myself, tag, request, timeout),
        TransportMsg::Cancel { tag } => state.cancel_request(tag),
        TransportMsg::Incoming(message, credit) => {
            state.requests.observe(&message);
            state.note_processes_at(&message);
            match message {
                // Responses are bounded by the requests in flight; only events,
                // which an adapter may send without end, hold their place until
                // the session has handled them.
                Message::Response(response) => state.on_response(response),
                Message::Event(event) => {
                    state.traffic.event_received();
                    tracing::trace!(event = %event.event, "event");
                    state.pass_on(TransportOutput::Event(event, credit));
                }
                Message::Request(request) => state.on_reverse_request(&myself, request, credit),
            }
        }
        TransportMsg::Malformed {
            request_seq,
            detail,
            credit,
        } => {
            state.on_malformed(request_seq, detail);
            drop(credit);
        }
        TransportMsg::Deadlines => state.on_deadlines(&myself),
        TransportMsg::StopAdapter => {
            // Closing the adapter's input asks it to exit.
            state.outgoing = None;
            let next = state.ending.stop_asked(&state.config);
            state.carry_out(&myself, next);
        }
        TransportMsg::Connected(host, port) => state.server = Some((host, port)),
        TransportMsg::StreamEnded(reason) => {
            let next = state.ending.stream_ended(reason, &state.config);
            state.carry_out(&myself, next);
        }
        TransportMsg::ProcessExited(info) => {
            let next = state.ending.process_exited(info, &state.config);
            state.carry_out(&myself, next);
        }
        TransportMsg::TerminalExited(pid) => state.terminal_exited(pid),
        TransportMsg::OutputFlushed => {
            for output in state.output_order.flushed() {
                (state.sink)(output);
            }
        }
        TransportMsg::StderrClosed => {
            let next = state.ending.stderr_closed();
            state.carry_out(&myself, next);
        }
        TransportMsg::GraceOver => {
            let next = state.ending.grace_over();
            state.carry_out(&myself, next);
        }
        TransportMsg::Swept(exit) => state.swept(&myself, exit),
        #[cfg(any(test, feature = "testing"))]
        TransportMsg::InjectFault(fault) => return fault.fail("transport"),
    }
    Ok(())
}

/// dlv 1.20 lets its debuggee inherit its stdout and stderr rather than sending the
/// debuggee's output as events; what comes on them (after its banner, where it prints
/// one) is the debuggee's, forwarded as `output` events, each holding a place in
/// `credits` until handled.
fn debuggee_output_forward(
    adapter: &ResolvedAdapter,
    sink: &TransportSink,
    credits: &Arc<Semaphore>,
) -> Option<io::OutputForward> {
    if !adapter.flavor.quirks().debuggee_output_on_adapter_pipes {
        return None;
    }
    let sink = sink.clone();
    let send = move |category: &'static str, text: String, credit: FrameCredit| {
        let body = serde_json::json!({ "category": category, "output": text });
        sink(TransportOutput::Event(
            Event::new("output", Some(body)),
            credit,
        ));
    };
    Some(io::OutputForward {
        send: Arc::new(send),
        credits: credits.clone(),
    })
}
