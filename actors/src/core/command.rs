//! What goes into the session core and what comes out of it.
//!
//! The core is driven by [`Input`]s (an agent command, an adapter response or event,
//! the adapter connection closing, a timer firing) and answers with [`Effect`]s for
//! the actor shell to carry out (send a request, reply to an agent, publish an event,
//! start a timer, start or stop the adapter). It never touches a socket or a clock.

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::core::breakpoints::SourceBreakpointRecord;
use crate::core::output::OutputSlice;
use crate::core::session_event::EventKind;
use crate::core::snapshot::{SessionSnapshot, StopInfo};
use crate::core::state::Operation;
use crate::error::{AdapterExit, SessionError, TransportError};
use crate::registry::ResolvedAdapter;
use crate::wire::types::{
    Breakpoint, FunctionBreakpoint, SetExceptionBreakpointsArguments, SourceBreakpoint,
    SteppingGranularity,
};
use crate::wire::{DapCommand, Event, RawJson, Request, Response};

pub use crate::core::start_plan::StartPlan;

/// Identifies an agent request waiting for its answer (chosen by the actor shell).
pub type Token = u64;
/// Identifies a DAP request the core asked the transport to send (chosen by the core).
pub type Tag = u64;
/// Identifies a timer the core asked for (chosen by the core).
pub type TimerId = u64;

/// A request from an agent.
#[derive(Debug, Clone)]
pub enum Command {
    /// Start the adapter and launch or attach.
    Start(Box<StartPlan>),
    /// Replace every breakpoint of a file.
    SetBreakpoints {
        /// The source file.
        file: PathBuf,
        /// The file's new list.
        breakpoints: Vec<SourceBreakpoint>,
    },
    /// Add (or replace at the same line) one breakpoint, keeping the file's others.
    AddBreakpoint {
        /// The source file.
        file: PathBuf,
        /// The breakpoint.
        breakpoint: SourceBreakpoint,
    },
    /// Add (or replace at its line) a tracepoint of a file, keeping its others: a
    /// breakpoint that records values at each hit instead of stopping.
    AddTracepoint {
        /// The source file.
        file: PathBuf,
        /// The tracepoint.
        tracepoint: crate::core::trace::Tracepoint,
    },
    /// Read tracepoint rows from a cursor.
    Trace {
        /// Cursor from a previous read (0 for the first row).
        since: u64,
        /// At most this many rows.
        max_rows: usize,
    },
    /// Remove the breakpoint at a line, keeping the file's others.
    RemoveBreakpoint {
        /// The source file.
        file: PathBuf,
        /// Its line (as asked for, or as the adapter placed it).
        line: i64,
    },
    /// Replace every function breakpoint.
    SetFunctionBreakpoints(Vec<FunctionBreakpoint>),
    /// Change the call trace's patterns: `remove` these, then `add` those.
    SetCalls {
        /// Patterns to trace from now on.
        add: Vec<String>,
        /// Patterns to trace no more.
        remove: Vec<String>,
    },
    /// Add (or replace) one function breakpoint, keeping the others.
    AddFunctionBreakpoint(FunctionBreakpoint),
    /// Remove the function breakpoint on this function, keeping the others.
    RemoveFunctionBreakpoint(String),
    /// Replace the exception filters.
    SetExceptionBreakpoints(Vec<String>),
    /// Replace the exception settings whole: filters, filters with conditions
    /// (`supportsExceptionFilterOptions`), options for selected exceptions
    /// (`supportsExceptionOptions`). Cached, and sent again to a restarted adapter.
    SetExceptionSettings(SetExceptionBreakpointsArguments),
    /// Resume, step, or pause.
    Control {
        /// Which.
        action: ControlAction,
        /// The thread; the last stopped thread when absent.
        thread_id: Option<i64>,
        /// Step granularity, for steps.
        granularity: Option<SteppingGranularity>,
    },
    /// Wait for the first stop after `after` (a stop epoch), or the end of the debuggee.
    WaitForStop {
        /// The stop epoch the caller has seen; an earlier-made stop does not count.
        after: u64,
        /// How long to wait before answering [`StopOutcome::TimedOut`]; at most
        /// [`crate::limits::MAX_STOP_WAIT`].
        timeout: Duration,
    },
    /// Any DAP request, checked against the state as `operation`; the answer is the body.
    Request {
        /// The operation the caller takes it for; the state is checked as the
        /// command's own ([`Operation::of_command`]).
        operation: Operation,
        /// The DAP command.
        command: String,
        /// Its arguments.
        arguments: Option<Value>,
        /// Its deadline (clamped); the session default when absent.
        timeout: Option<Duration>,
    },
    /// A request that makes the program move outside the control actions (`goto`,
    /// `stepBack`, a single-thread continue, ...). Answered [`Answer::Resumed`] with
    /// the stop epoch current when it was sent: read in the same step as the send, so
    /// no stop can slip in between and be taken for the one it causes.
    Move {
        /// The operation the caller takes it for; the state is checked as the
        /// command's own ([`Operation::of_command`]).
        operation: Operation,
        /// The DAP command.
        command: String,
        /// Its arguments.
        arguments: Value,
    },
    /// Restart the debuggee: the adapter's `restart` request where it advertises one,
    /// else end the debuggee and the adapter and start the stored plan again with
    /// every cached breakpoint. Answered [`Answer::Resumed`] with the stop epoch to
    /// wait from.
    Restart,
    /// `command` with a deadline for the requests it sends the adapter (a request's
    /// own deadline still wins; clamped like any other).
    WithTimeout {
        /// The deadline.
        timeout: Duration,
        /// The command.
        command: Box<Command>,
    },
    /// Read captured output from a cursor.
    Output {
        /// Cursor from a previous read (0 for the start).
        since: u64,
        /// At most this many bytes.
        max_bytes: usize,
    },
    /// Read the session's cached state.
    Snapshot,
    /// End the debuggee and the adapter.
    Terminate,
    /// Detach (or end the debuggee, if asked) and stop the adapter.
    Disconnect {
        /// Whether the debuggee ends too.
        terminate_debuggee: bool,
    },
}

impl Command {
    /// Whether asking this counts as using the session, for the idle reaper: reading
    /// its state does not (a listing of sessions must not keep them all alive).
    pub fn counts_as_use(&self) -> bool {
        !matches!(self, Command::Snapshot)
    }

    /// Whether this only reads what the session holds (its state, output, trace
    /// rows), sending nothing to the adapter.
    pub fn reads_state(&self) -> bool {
        matches!(
            self,
            Command::Snapshot | Command::Output { .. } | Command::Trace { .. }
        )
    }
}

/// The execution controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlAction {
    /// `continue`
    Continue,
    /// `next`
    Next,
    /// `stepIn`
    StepIn,
    /// `stepOut`
    StepOut,
    /// `pause`
    Pause,
}

impl ControlAction {
    /// The DAP command.
    pub fn command(self) -> DapCommand {
        match self {
            ControlAction::Continue => DapCommand::Continue,
            ControlAction::Next => DapCommand::Next,
            ControlAction::StepIn => DapCommand::StepIn,
            ControlAction::StepOut => DapCommand::StepOut,
            ControlAction::Pause => DapCommand::Pause,
        }
    }

    /// The operation it counts as for state checks.
    pub fn operation(self) -> Operation {
        match self {
            ControlAction::Continue => Operation::Continue,
            ControlAction::Next => Operation::Next,
            ControlAction::StepIn => Operation::StepIn,
            ControlAction::StepOut => Operation::StepOut,
            ControlAction::Pause => Operation::Pause,
        }
    }
}

/// How a wait for a stop ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
#[non_exhaustive]
pub enum StopOutcome {
    /// The debuggee stopped.
    Stopped(StopInfo),
    /// The debuggee ended (or the adapter went away).
    Terminated {
        /// Its exit code, where the adapter reported one.
        exit_code: Option<i64>,
    },
    /// Still running when the wait's time ran out. Not an error.
    TimedOut,
}

/// What js-debug's bootstrap connection sent, once the program's own connection is
/// adopted (`bootstrap.rs`).
#[derive(Debug)]
pub enum BootstrapInput {
    /// An event.
    Event(Event),
    /// The answer to a request sent on it before the adoption.
    Response {
        /// The core's tag for it.
        tag: Tag,
        /// The response, or why there is none.
        result: Result<Response, TransportError>,
    },
    /// It asked for another child session.
    StartDebugging {
        /// `launch` or `attach`.
        request: String,
        /// The child's arguments.
        configuration: Map<String, Value>,
        /// The server's address.
        server: Option<(String, u16)>,
    },
    /// It ended.
    Closed(AdapterExit),
}

/// A successful answer to an agent.
#[derive(Debug, Clone)]
pub enum Answer {
    /// The adapter's response body as it came (an empty object where it sent none),
    /// for the asker to parse into what it needs.
    Body(RawJson),
    /// The cached breakpoints of a file after a change.
    SourceBreakpoints(Vec<SourceBreakpointRecord>),
    /// Function breakpoints as the adapter answered them.
    Breakpoints(Vec<Breakpoint>),
    /// The call trace's patterns after a change, and the adapter's verdicts on its
    /// breakpoints (none where the adapter takes no breakpoints yet).
    Calls {
        /// The patterns traced now, as given.
        patterns: Vec<String>,
        /// The call breakpoints as the adapter answered them.
        breakpoints: Vec<Breakpoint>,
    },
    /// Execution resumed (or a pause was asked for); wait for stops after `epoch`.
    Resumed {
        /// The stop epoch when the request was sent.
        epoch: u64,
    },
    /// How a wait for a stop ended.
    Stop(StopOutcome),
    /// Captured output.
    Output(OutputSlice),
    /// Tracepoint rows.
    Trace(crate::core::trace::TraceSlice),
    /// The session's state.
    Snapshot(Box<SessionSnapshot>),
    /// Done; nothing to report.
    Done,
}

/// One input to the core.
#[derive(Debug)]
pub enum Input {
    /// An agent's command.
    Command {
        /// Where the answer goes.
        token: Token,
        /// What is asked.
        command: Command,
    },
    /// The transport's answer to a request the core sent.
    Response {
        /// The core's tag for it.
        tag: Tag,
        /// The response, or why there is none.
        result: Result<Response, TransportError>,
    },
    /// An event from the adapter.
    Event(Event),
    /// The adapter connection ended; the core fails what was pending on it.
    Closed(AdapterExit),
    /// A timer the core asked for fired.
    Timer(TimerId),
    /// The supervisor's answer to [`Effect::ReportCrash`]: a new adapter starts after
    /// `after` (restart `attempt` of the series).
    AdapterRestartScheduled {
        /// The restart's number in its series.
        attempt: u32,
        /// The backoff before it.
        after: Duration,
        /// The supervisor's number for the crash this answers (the one its decision
        /// to restart carried).
        crash: u64,
    },
    /// The backoff is over: start the new adapter. Ignored unless `crash` is the
    /// crash whose restart was last scheduled: a timer left over from an earlier
    /// crash must not cut a later crash's backoff short.
    RestartAdapter {
        /// The restart's number in its series.
        attempt: u32,
        /// The supervisor's number for the crash this restart answers.
        crash: u64,
    },
    /// The session cannot go on (restart budget spent, attached process gone).
    Fail {
        /// Why.
        cause: crate::core::failure::Failure,
    },
    /// The agent behind `token` gave up on its command (the call's future was
    /// dropped): its answer is no longer wanted.
    Withdraw {
        /// Whose command.
        token: Token,
    },
    /// The adapter asked for a child session (the `startDebugging` reverse request,
    /// already answered).
    StartDebugging {
        /// `launch` or `attach`.
        request: String,
        /// The child's launch or attach arguments.
        configuration: Map<String, Value>,
        /// The address the asking connection reached, where it is TCP.
        server: Option<(String, u16)>,
    },
    /// Output of the connection that bootstrapped this session's program, once the
    /// session adopted the program's own connection (see `core/bootstrap.rs`).
    Bootstrap(BootstrapInput),
}

/// One thing for the actor shell to do.
#[derive(Debug)]
pub enum Effect {
    /// Start a fresh adapter (replacing any old one, whose later outputs are ignored).
    StartAdapter(Box<ResolvedAdapter>),
    /// Send a request; its answer comes back as [`Input::Response`] with this tag.
    Send {
        /// The core's tag.
        tag: Tag,
        /// The request (its `seq` is filled in by the transport).
        request: Request,
        /// Its deadline, already clamped.
        timeout: Duration,
    },
    /// Ask the adapter to give up on the request sent with `tag` (DAP `cancel`,
    /// where it advertises `supportsCancelRequest`; otherwise nothing is sent). Its
    /// answer still comes, and is handled as any.
    Cancel {
        /// The core's tag for the request.
        tag: Tag,
    },
    /// Answer an agent.
    Reply {
        /// Whose answer.
        token: Token,
        /// The answer.
        result: Result<Answer, SessionError>,
    },
    /// Publish an event to the session's subscribers.
    Emit(EventKind),
    /// Fire [`Input::Timer`] with this id after a while.
    StartTimer {
        /// The timer's id.
        id: TimerId,
        /// When.
        after: Duration,
    },
    /// The timer [`Effect::StartTimer`] started is no longer waited on (what it was
    /// for ended first): stop it, so that nothing sleeps on for its whole period.
    CancelTimer {
        /// The timer's id.
        id: TimerId,
    },
    /// The call `token`, withdrawn by its agent ([`Input::Withdraw`]), holds nothing
    /// in the session any more (no request of it is pending): its place in the
    /// session's request queue comes back.
    Release {
        /// The withdrawn call.
        token: Token,
    },
    /// End the adapter: close its input, and kill its process group after a grace.
    StopAdapter,
    /// The adapter crashed while the session was live: ask the supervisor whether and
    /// when to restart it (the answer comes back as [`Input::AdapterRestartScheduled`] or
    /// [`Input::Fail`]).
    ReportCrash(AdapterExit),
    /// Start a child session with this plan (its parent is set).
    SpawnChild(Box<StartPlan>),
    /// Connect to this adapter (the program's own session on the server the current
    /// connection reached) and make it the session's connection; the current one
    /// stays open as the bootstrap, whose output comes back as [`Input::Bootstrap`].
    AdoptTarget(Box<ResolvedAdapter>),
    /// End the bootstrap connection (and the adapter process it holds).
    StopBootstrap,
    /// End this session's child sessions as it is ending itself: terminate them, or
    /// detach from their debuggees when `terminate_debuggee` is false.
    EndChildren {
        /// Whether the children's debuggees end too.
        terminate_debuggee: bool,
    },
}
