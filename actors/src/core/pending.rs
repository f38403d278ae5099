//! What the core is waiting for: each DAP request in flight with what it is for
//! ([`Pending`], and for an agent's, how its answer is made: [`Purpose`]), and agents
//! waiting for a stop ([`StopWaiter`]). Plain data; the parts of the core that send
//! and answer them are elsewhere (`responses.rs` matches an answer to its request).

use std::path::PathBuf;

use crate::core::command::{ControlAction, TimerId, Token};
use crate::core::handshake::StartupStep;
use crate::core::state::SessionState;
use crate::wire::types::SourceBreakpoint;

/// What a pending DAP request is for.
#[derive(Debug)]
pub(crate) enum Pending {
    /// A step of the launch handshake.
    Startup(StartupStep),
    /// An agent's request.
    Agent {
        token: Token,
        command: String,
        purpose: Purpose,
    },
    /// The `disconnect` that ends the adapter; `token` is the agent who asked, if any.
    Ending { token: Option<Token> },
    /// A request reading a tracepoint at a stop (where the adapter has no log points),
    /// with what the reading has so far.
    TraceStop(TraceStop),
    /// A request reading a call trace's stop, or moving on from it (`call_stops.rs`).
    CallStop(crate::core::call_stops::CallStop),
    /// A read of a stop's top frame, to tell which breakpoint it hit of those sharing
    /// an id it names: the stop's `hitBreakpointIds` (`stop_hits.rs`).
    StopHits(Vec<i64>),
}

/// How to turn a successful response into an agent's answer.
#[derive(Debug)]
pub(crate) enum Purpose {
    Body,
    Threads,
    /// The file, and its breakpoints as sent: the answer's verdicts are paired with
    /// them.
    SourceBreakpoints(PathBuf, Vec<SourceBreakpoint>),
    /// The names sent, in order: the answer's verdicts are paired with them.
    FunctionBreakpoints(Vec<String>),
    /// The same list, sent for a change of the call trace: answered with the call
    /// breakpoints' verdicts.
    CallBreakpoints(Vec<String>),
    Control {
        action: ControlAction,
        epoch: u64,
        /// The state before the request, which a refusal puts back.
        was: SessionState,
    },
    /// A request that moves the program outside the control actions (`goto`,
    /// `stepBack`, a step into a chosen call, ...): answered with its body, and the
    /// session runs from the moment it is sent, as after a `continue`.
    Moving {
        epoch: u64,
        /// Answer [`Answer::Resumed`] with `epoch` instead of the body.
        ticket: bool,
        /// The state before the request, which a refusal puts back.
        was: SessionState,
    },
    /// A read of a thread's stack from its top, at stop `epoch`: its first frame is
    /// remembered as the thread's top frame while the stop lasts.
    StackTop {
        thread_id: i64,
        epoch: u64,
    },
    /// The adapter's `restart`: answered with the stop epoch before it.
    Restart {
        epoch: u64,
    },
    /// The `terminate` that asks the debuggee to end gracefully: whatever its
    /// answer, the adapter is let go next (`disconnect`), and the agent answered then.
    Terminating,
}

/// An agent waiting for a stop.
#[derive(Debug)]
pub(crate) struct StopWaiter {
    pub(crate) token: Token,
    pub(crate) after: u64,
    pub(crate) timer: TimerId,
}

/// A stop at a tracepoint being read, and which of its requests is on its way.
#[derive(Debug)]
pub(crate) struct TraceStop {
    pub(crate) step: TraceStep,
    /// The tracepoint's template (its identity in the trace log).
    pub(crate) template: String,
    pub(crate) thread: i64,
    pub(crate) frame: Option<i64>,
    pub(crate) collect: Vec<String>,
    pub(crate) values: Vec<String>,
}

/// Which request of a [`TraceStop`] an answer is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TraceStep {
    Frame,
    Value,
    Resume,
}
