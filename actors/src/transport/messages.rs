//! What goes into a transport and what comes out of it: its arguments and limits, the
//! messages it handles, and the output it gives its owner.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::core::command::Tag;
use crate::error::{AdapterExit, TransportError};
use crate::limits;
use crate::registry::ResolvedAdapter;
use crate::transport::in_process::InProcessAdapters;
use crate::transport::io::ExitInfo;
use crate::wire::{ContentLengthCodec, Event, Message, Request, Response};

/// What the transport reports to its owner.
#[derive(Debug)]
pub enum TransportOutput {
    /// An adapter event, holding its place in the bound on unhandled events (a
    /// [`FrameCredit`]) until the owner drops it, once the event is handled.
    Event(Event, FrameCredit),
    /// The answer to a request (or why there is none: deadline, adapter gone).
    Response {
        /// The owner's tag for the request.
        tag: Tag,
        /// The response, or the failure.
        result: Result<Response, TransportError>,
    },
    /// The adapter asked for a child session (`startDebugging`); it has been told yes.
    StartDebugging {
        /// `launch` or `attach`.
        request: String,
        /// The child's configuration.
        configuration: serde_json::Map<String, Value>,
        /// The address this connection reached, where it is TCP: an adapter whose
        /// children connect to the same server (js-debug) is reached there again.
        server: Option<(String, u16)>,
        /// The child session's place in its tree's bound, for the child to hold.
        slot: crate::transport::ChildSlot,
    },
    /// The connection ended. Requests still pending get no response of their own:
    /// the owner fails them, knowing whether the end is a crash it will restart.
    Closed(AdapterExit),
}

/// A message for the adapter, with the place it holds until it is written.
pub type Outgoing = (Message, FrameCredit);

/// Where a transport's output goes: called from the actor's handlers, so it must not
/// block (casting to an actor is the usual body).
pub type TransportSink = Arc<dyn Fn(TransportOutput) + Send + Sync>;

/// One place in one of a connection's bounds, given back when this is dropped: on
/// adapter frames read but not yet handled (`max_unhandled_events`; the reader waits
/// for a place before it reads the next frame), on reads of forwarded debuggee output
/// not yet handled (`max_unhandled_output`), or on messages not yet written to the
/// adapter (`max_unwritten_messages`; an answer to a reverse request keeps its
/// request's frame place until written).
#[derive(Debug)]
pub struct FrameCredit {
    /// Held only to be dropped: dropping gives the place back.
    _place: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl FrameCredit {
    /// A credit holding no place.
    pub fn none() -> Self {
        Self { _place: None }
    }

    /// A credit holding `permit`'s place.
    pub(crate) fn held(permit: tokio::sync::OwnedSemaphorePermit) -> Self {
        Self {
            _place: Some(permit),
        }
    }
}

/// Limits a transport enforces.
#[derive(Debug, Clone)]
pub struct TransportConfig {
    /// Largest frame accepted from the adapter
    /// (default [`limits::DEFAULT_MAX_CONTENT_LENGTH`]).
    pub max_frame_bytes: usize,
    /// Largest header block accepted from the adapter
    /// (default [`limits::DEFAULT_MAX_HEADER_LENGTH`]).
    pub max_header_bytes: usize,
    /// Bytes of stderr kept (default [`limits::DEFAULT_STDERR_TAIL_BYTES`]).
    pub stderr_tail_bytes: usize,
    /// How long a TCP adapter may take to listen and accept
    /// (default [`limits::DEFAULT_CONNECT_TIMEOUT`]).
    pub connect_timeout: Duration,
    /// How long a stopping adapter may take to exit before its group is killed
    /// (default [`limits::DEFAULT_SHUTDOWN_GRACE`]).
    pub shutdown_grace: Duration,
    /// How long an adapter whose output ended may take to exit before it is killed
    /// (default [`limits::DEFAULT_EXIT_WAIT`]).
    pub exit_wait: Duration,
    /// How long an exited adapter's output may take to end before the connection is
    /// closed anyway (default [`limits::DEFAULT_OUTPUT_DRAIN_WAIT`]).
    pub output_drain_wait: Duration,
    /// Responses matching no request kept to report in timeouts
    /// (default [`limits::DEFAULT_UNMATCHED_RESPONSES_KEPT`]).
    pub unmatched_responses_kept: usize,
    /// Frames that are JSON but not DAP messages before the connection is ended
    /// (default [`limits::DEFAULT_MAX_MALFORMED_FRAMES`]).
    pub max_malformed_frames: usize,
    /// `runInTerminal` processes running at once
    /// (default [`limits::DEFAULT_MAX_TERMINAL_PROCESSES`]).
    pub max_terminal_processes: usize,
    /// Adapter events read but not yet handled by the owner before reading pauses
    /// (default [`limits::DEFAULT_MAX_UNHANDLED_EVENTS`]).
    pub max_unhandled_events: usize,
    /// Reads of forwarded debuggee output not yet handled by the owner before
    /// reading them pauses (default [`limits::DEFAULT_MAX_UNHANDLED_OUTPUT`]).
    pub max_unhandled_output: usize,
    /// Messages waiting to be written to the adapter before a new request is
    /// refused (default [`limits::DEFAULT_MAX_UNWRITTEN_MESSAGES`]).
    pub max_unwritten_messages: usize,
    /// Adapters served in-process, for
    /// [`TransportKind::InProcess`](crate::registry::TransportKind::InProcess).
    pub in_process: InProcessAdapters,
}

impl Default for TransportConfig {
    fn default() -> Self {
        Self {
            max_frame_bytes: limits::DEFAULT_MAX_CONTENT_LENGTH,
            max_header_bytes: limits::DEFAULT_MAX_HEADER_LENGTH,
            stderr_tail_bytes: limits::DEFAULT_STDERR_TAIL_BYTES,
            connect_timeout: limits::DEFAULT_CONNECT_TIMEOUT,
            shutdown_grace: limits::DEFAULT_SHUTDOWN_GRACE,
            exit_wait: limits::DEFAULT_EXIT_WAIT,
            output_drain_wait: limits::DEFAULT_OUTPUT_DRAIN_WAIT,
            unmatched_responses_kept: limits::DEFAULT_UNMATCHED_RESPONSES_KEPT,
            max_malformed_frames: limits::DEFAULT_MAX_MALFORMED_FRAMES,
            max_terminal_processes: limits::DEFAULT_MAX_TERMINAL_PROCESSES,
            max_unhandled_events: limits::DEFAULT_MAX_UNHANDLED_EVENTS,
            max_unhandled_output: limits::DEFAULT_MAX_UNHANDLED_OUTPUT,
            max_unwritten_messages: limits::DEFAULT_MAX_UNWRITTEN_MESSAGES,
            in_process: InProcessAdapters::default(),
        }
    }
}

impl TransportConfig {
    /// The framing limits, for the reader.
    pub fn frame_limits(&self) -> FrameLimits {
        FrameLimits {
            max_frame_bytes: self.max_frame_bytes,
            max_header_bytes: self.max_header_bytes,
            max_unhandled_events: self.max_unhandled_events,
            max_malformed_frames: self.max_malformed_frames,
        }
    }
}

/// The limits the reader enforces on the adapter's frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameLimits {
    /// Largest `Content-Length`.
    pub max_frame_bytes: usize,
    /// Largest header block.
    pub max_header_bytes: usize,
    /// Events read but not yet handled before reading pauses.
    pub max_unhandled_events: usize,
    /// Frames that are JSON but not DAP before the connection is ended.
    pub max_malformed_frames: usize,
}

impl FrameLimits {
    /// A codec enforcing these limits.
    pub fn codec(self) -> ContentLengthCodec {
        ContentLengthCodec::new()
            .with_max_content_length(self.max_frame_bytes)
            .with_max_header_length(self.max_header_bytes)
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
    /// Where the transport counts what passes (shared with its session's other
    /// transports).
    pub traffic: Arc<crate::transport::traffic::Traffic>,
    /// The span the transport's own (`adapter`) span sits under: its session's, so a
    /// log can be read one session at a time. `Span::none()` for none.
    pub span: tracing::Span,
    /// The places for child sessions of its session's tree (`startDebugging`).
    pub child_slots: crate::transport::ChildSlots,
    /// The session whose processes the transport starts, written into their
    /// [`TREE_ENV`](crate::transport::process::TREE_ENV) tag; `None` outside a session.
    pub tree_owner: Option<String>,
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
    /// Its owner no longer wants the answer to the request sent with `tag`: ask the
    /// adapter to `cancel` it, where it supports that and the request is in flight.
    Cancel {
        /// The owner's tag.
        tag: Tag,
    },
    /// End the adapter: close its input, kill its group after the grace period.
    StopAdapter,
    /// A message read from the adapter (from the reader task), with its place in the
    /// bound on unhandled events (an event's travels with it to the owner; a reverse
    /// request's to the answer, until written).
    Incoming(Message, FrameCredit),
    /// A JSON frame that is not a DAP message (from the reader task), with the
    /// `request_seq` it names, if any, holding its place in the bound on unhandled
    /// frames until handled.
    Malformed {
        /// The request it seems to answer.
        request_seq: Option<i64>,
        /// What was wrong, with an excerpt.
        detail: String,
        /// Its place, given back once handled.
        credit: FrameCredit,
    },
    /// The TCP connection to the adapter is made (from the connecting task), at this
    /// host and port.
    Connected(String, u16),
    /// The stream ended or failed (from an I/O task).
    StreamEnded(String),
    /// The adapter process exited (from the exit watcher).
    ProcessExited(ExitInfo),
    /// The process a `runInTerminal` request started, with this pid, exited.
    TerminalExited(u32),
    /// The earliest deadline of the requests in flight has come.
    Deadlines,
    /// The grace period after a stop or exit is over.
    GraceOver,
    /// The adapter's stderr reached its end (everything it wrote is in the tail).
    StderrClosed,
    /// A forwarded pipe has passed on what it held when asked to flush (see
    /// `output_order.rs`).
    OutputFlushed,
    /// The connection's processes are ended (swept off the handler): report the
    /// end to the owner and stop.
    Swept(AdapterExit),
    /// Testing hook: fail this actor (see [`crate::testing::inject_fault`]).
    #[cfg(any(test, feature = "testing"))]
    #[doc(hidden)]
    InjectFault(crate::transport::injected_fault::InjectedFault),
}
