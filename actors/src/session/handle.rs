//! [`SessionHandle`]: how agents talk to a session, with typed methods.
//!
//! Every method is one message to the session's actor and one answer back. Calls that
//! need no adapter I/O (snapshot, output, cached breakpoints) are answered at once;
//! the others when the adapter answers or the request's deadline passes. No call can
//! hang: every request has a deadline.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use ractor::rpc::CallResult;
use ractor::ActorRef;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::core::breakpoints::SourceBreakpointRecord;
use crate::core::command::{Answer, Command, ControlAction, StartPlan, StopOutcome};
use crate::core::output::OutputSlice;
use crate::core::snapshot::SessionSnapshot;
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;
use crate::events::{EventHub, EventStream, SessionEvent};
use crate::session::actor::{SessionMsg, SessionShared};
use crate::session::SessionId;
use crate::wire::types::{
    Breakpoint, EvaluateResponseBody, FunctionBreakpoint, Scope, ScopesResponseBody,
    SourceBreakpoint, StackFrame, StackTraceResponseBody, SteppingGranularity, Thread,
    ThreadsResponseBody, Variable, VariablesResponseBody,
};

/// The field the DAP specification requires in a command's answer, for the
/// commands whose typed answer is nothing without it.
fn required_field(command: &str) -> Option<&'static str> {
    Some(match command {
        "threads" => "threads",
        "stackTrace" => "stackFrames",
        "scopes" => "scopes",
        "variables" => "variables",
        "evaluate" => "result",
        _ => return None,
    })
}

/// Proof that execution resumed, to wait for the next stop with
/// [`SessionHandle::wait_for_stop`]. A stop that arrives between the resume and the
/// wait is not missed: the ticket remembers which stops came before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunTicket {
    /// The number of stops the session had seen when execution resumed.
    pub epoch: u64,
}

/// A cheap, cloneable handle to one session.
#[derive(Clone)]
pub struct SessionHandle {
    id: SessionId,
    actor: ActorRef<SessionMsg>,
    hub: EventHub<SessionEvent>,
    shared: Arc<SessionShared>,
    max_queued: usize,
}

impl std::fmt::Debug for SessionHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionHandle")
            .field("id", &self.id)
            .finish()
    }
}

impl SessionHandle {
    pub(crate) fn new(
        id: SessionId,
        actor: ActorRef<SessionMsg>,
        hub: EventHub<SessionEvent>,
        shared: Arc<SessionShared>,
        max_queued: usize,
    ) -> Self {
        Self {
            id,
            actor,
            hub,
            shared,
            max_queued,
        }
    }

    /// The session's id.
    pub fn id(&self) -> SessionId {
        self.id
    }

    /// What the session shares with its supervisor.
    pub(crate) fn shared(&self) -> &Arc<SessionShared> {
        &self.shared
    }

    /// The session's event hub.
    pub(crate) fn hub(&self) -> &EventHub<SessionEvent> {
        &self.hub
    }

    /// The session actor, for hosts that monitor it.
    pub fn actor(&self) -> &ActorRef<SessionMsg> {
        &self.actor
    }

    /// The current adapter's process id, while one runs.
    pub fn adapter_pid(&self) -> Option<u32> {
        match self.shared.adapter_pid.load(Ordering::Relaxed) {
            0 => None,
            pid => Some(pid),
        }
    }

    /// This session's events, from now on. Lifecycle events are never dropped; if
    /// output piles up unread, the stream says how much was missed.
    pub fn subscribe(&self) -> EventStream<SessionEvent> {
        self.hub.subscribe()
    }

    async fn ask(&self, command: Command) -> Result<Answer, SessionError> {
        let queued = self.shared.queued.fetch_add(1, Ordering::Relaxed);
        if queued >= self.max_queued {
            self.shared.queued.fetch_sub(1, Ordering::Relaxed);
            return Err(SessionError::Busy {
                queued,
                limit: self.max_queued,
            });
        }
        let result = self
            .actor
            .call(|reply| SessionMsg::Agent { command, reply }, None)
            .await;
        match result {
            Ok(CallResult::Success(answer)) => answer,
            Ok(_) | Err(_) => {
                // The actor is gone; whatever it held was not answered.
                self.shared.queued.fetch_sub(1, Ordering::Relaxed);
                Err(self.ended_error())
            }
        }
    }

    /// Why the session is gone: reaped or failed where that was recorded, else ended.
    pub(crate) fn ended_error(&self) -> SessionError {
        self.shared
            .ended()
            .unwrap_or_else(|| SessionError::SessionEnded(self.id.to_string()))
    }

    /// Start the adapter and launch or attach as `plan` says; answers once the
    /// debuggee runs (or stopped at entry, or already ended).
    pub async fn start(&self, plan: StartPlan) -> Result<SessionSnapshot, SessionError> {
        match self.ask(Command::Start(Box::new(plan))).await? {
            Answer::Snapshot(s) => Ok(*s),
            other => Err(unexpected(other)),
        }
    }

    /// The session's cached state, with no adapter round trip.
    pub async fn snapshot(&self) -> Result<SessionSnapshot, SessionError> {
        match self.ask(Command::Snapshot).await? {
            Answer::Snapshot(s) => Ok(*s),
            other => Err(unexpected(other)),
        }
    }

    /// The session's state.
    pub async fn state(&self) -> Result<SessionState, SessionError> {
        Ok(self.snapshot().await?.state)
    }

    /// Replace every breakpoint of `file` (an empty list clears it). Returns the
    /// file's breakpoints with the adapter's verdict on each.
    pub async fn set_breakpoints(
        &self,
        file: impl AsRef<Path>,
        breakpoints: Vec<SourceBreakpoint>,
    ) -> Result<Vec<SourceBreakpointRecord>, SessionError> {
        let file = absolute(file.as_ref());
        source_records(
            self.ask(Command::SetBreakpoints { file, breakpoints })
                .await?,
        )
    }

    /// Add one breakpoint at `file:line`, keeping the file's others.
    pub async fn add_breakpoint(
        &self,
        file: impl AsRef<Path>,
        breakpoint: SourceBreakpoint,
    ) -> Result<Vec<SourceBreakpointRecord>, SessionError> {
        let file = absolute(file.as_ref());
        source_records(
            self.ask(Command::AddBreakpoint { file, breakpoint })
                .await?,
        )
    }

    /// Remove the breakpoint at `file:line`, keeping the file's others.
    pub async fn remove_breakpoint(
        &self,
        file: impl AsRef<Path>,
        line: i64,
    ) -> Result<Vec<SourceBreakpointRecord>, SessionError> {
        let file = absolute(file.as_ref());
        source_records(self.ask(Command::RemoveBreakpoint { file, line }).await?)
    }

    /// Replace every function breakpoint.
    pub async fn set_function_breakpoints(
        &self,
        breakpoints: Vec<FunctionBreakpoint>,
    ) -> Result<Vec<Breakpoint>, SessionError> {
        match self
            .ask(Command::SetFunctionBreakpoints(breakpoints))
            .await?
        {
            Answer::Breakpoints(list) => Ok(list),
            other => Err(unexpected(other)),
        }
    }

    /// Add one function breakpoint (or replace the one on the same function), keeping
    /// the others; returns the adapter's verdict on the whole list.
    pub async fn add_function_breakpoint(
        &self,
        breakpoint: FunctionBreakpoint,
    ) -> Result<Vec<Breakpoint>, SessionError> {
        match self.ask(Command::AddFunctionBreakpoint(breakpoint)).await? {
            Answer::Breakpoints(list) => Ok(list),
            other => Err(unexpected(other)),
        }
    }

    /// Remove the function breakpoint on `name`, keeping the others.
    pub async fn remove_function_breakpoint(
        &self,
        name: &str,
    ) -> Result<Vec<Breakpoint>, SessionError> {
        match self
            .ask(Command::RemoveFunctionBreakpoint(name.to_string()))
            .await?
        {
            Answer::Breakpoints(list) => Ok(list),
            other => Err(unexpected(other)),
        }
    }

    /// Replace the exception filters (ids from the adapter's capabilities, such as
    /// `raised` and `uncaught` for debugpy).
    pub async fn set_exception_breakpoints(
        &self,
        filters: Vec<String>,
    ) -> Result<(), SessionError> {
        self.ask(Command::SetExceptionBreakpoints(filters)).await?;
        Ok(())
    }

    async fn control(
        &self,
        action: ControlAction,
        thread_id: Option<i64>,
        granularity: Option<SteppingGranularity>,
    ) -> Result<RunTicket, SessionError> {
        match self
            .ask(Command::Control {
                action,
                thread_id,
                granularity,
            })
            .await?
        {
            Answer::Resumed { epoch } => Ok(RunTicket { epoch }),
            other => Err(unexpected(other)),
        }
    }

    /// Resume; the thread defaults to the last stopped thread.
    pub async fn continue_(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::Continue, thread_id, None).await
    }

    /// Step over one line.
    pub async fn next(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::Next, thread_id, None).await
    }

    /// Step into the call on this line.
    pub async fn step_in(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::StepIn, thread_id, None).await
    }

    /// Step out of the current function.
    pub async fn step_out(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::StepOut, thread_id, None).await
    }

    /// Step with a granularity (`statement`, `line`, `instruction`).
    pub async fn step(
        &self,
        kind: StepKind,
        thread_id: Option<i64>,
        granularity: SteppingGranularity,
    ) -> Result<RunTicket, SessionError> {
        let action = match kind {
            StepKind::Over => ControlAction::Next,
            StepKind::In => ControlAction::StepIn,
            StepKind::Out => ControlAction::StepOut,
        };
        self.control(action, thread_id, Some(granularity)).await
    }

    /// Interrupt the running debuggee; wait for the stop with the ticket.
    pub async fn pause(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::Pause, thread_id, None).await
    }

    /// Wait for the first stop after `ticket`, or the debuggee's end, or `timeout`
    /// ([`StopOutcome::TimedOut`], not an error). [`RunTicket`]`{ epoch: 0 }` waits
    /// for the first stop of the session (such as one right after launch).
    pub async fn wait_for_stop(
        &self,
        ticket: RunTicket,
        timeout: Duration,
    ) -> Result<StopOutcome, SessionError> {
        match self
            .ask(Command::WaitForStop {
                after: ticket.epoch,
                timeout,
            })
            .await?
        {
            Answer::Stop(outcome) => Ok(outcome),
            other => Err(unexpected(other)),
        }
    }

    /// Send a DAP request checked against the state as `operation`, and return the
    /// response body.
    pub async fn request(
        &self,
        operation: Operation,
        command: &str,
        arguments: Option<Value>,
        timeout: Option<Duration>,
    ) -> Result<Value, SessionError> {
        match self
            .ask(Command::Request {
                operation,
                command: command.to_string(),
                arguments,
                timeout,
            })
            .await?
        {
            Answer::Body(body) => Ok(body),
            other => Err(unexpected(other)),
        }
    }

    async fn typed<T: DeserializeOwned>(
        &self,
        operation: Operation,
        command: &str,
        arguments: Value,
    ) -> Result<T, SessionError> {
        let body = self
            .request(operation, command, Some(arguments), None)
            .await?;
        // The wire types forgive missing fields; an answer without the one thing it
        // exists for must not pass as an empty stack or a blank value.
        if let Some(field) = required_field(command) {
            if body.get(field).is_none() {
                return Err(SessionError::Protocol(format!(
                    "the adapter answered `{command}` without `{field}`; its answer \
                     cannot be used (body: {body})"
                )));
            }
        }
        serde_json::from_value(body).map_err(|e| {
            SessionError::Protocol(format!(
                "the adapter's `{command}` answer is malformed: {e}"
            ))
        })
    }

    /// The debuggee's threads.
    pub async fn threads(&self) -> Result<Vec<Thread>, SessionError> {
        let body: ThreadsResponseBody =
            self.typed(Operation::Threads, "threads", json!({})).await?;
        Ok(body.threads)
    }

    /// A thread's call stack, innermost frame first; `levels` of 0 or `None` asks for
    /// all. The thread defaults to the last stopped thread.
    pub async fn stack_trace(
        &self,
        thread_id: Option<i64>,
        levels: Option<i64>,
    ) -> Result<Vec<StackFrame>, SessionError> {
        let thread_id = match thread_id {
            Some(t) => t,
            None => self.stopped_thread().await?,
        };
        let mut args = json!({ "threadId": thread_id, "startFrame": 0 });
        if let Some(levels) = levels {
            args["levels"] = json!(levels);
        }
        let body: StackTraceResponseBody = self
            .typed(Operation::StackTrace, "stackTrace", args)
            .await?;
        Ok(body.stack_frames)
    }

    /// The scopes of a frame (from [`Self::stack_trace`]).
    pub async fn scopes(&self, frame_id: i64) -> Result<Vec<Scope>, SessionError> {
        let body: ScopesResponseBody = self
            .typed(Operation::Scopes, "scopes", json!({ "frameId": frame_id }))
            .await?;
        Ok(body.scopes)
    }

    /// The variables under a reference (a scope's or a structured value's).
    pub async fn variables(&self, variables_reference: i64) -> Result<Vec<Variable>, SessionError> {
        let body: VariablesResponseBody = self
            .typed(
                Operation::Variables,
                "variables",
                json!({ "variablesReference": variables_reference }),
            )
            .await?;
        Ok(body.variables)
    }

    /// Evaluate `expression` in a frame (or globally when `frame_id` is `None`).
    /// `context` (`repl`, `watch`, `hover`, `clipboard`) defaults to the one that
    /// answers with the plain value: `repl`, or `watch` for lldb-dap.
    pub async fn evaluate(
        &self,
        expression: &str,
        frame_id: Option<i64>,
        context: Option<&str>,
    ) -> Result<EvaluateResponseBody, SessionError> {
        let mut args = json!({ "expression": expression });
        if let Some(context) = context {
            args["context"] = json!(context);
        }
        if let Some(frame) = frame_id {
            args["frameId"] = json!(frame);
        }
        self.typed(Operation::Evaluate, "evaluate", args).await
    }

    /// Captured output from cursor `since` (0 for the start), at most `max_bytes`.
    pub async fn output(&self, since: u64, max_bytes: usize) -> Result<OutputSlice, SessionError> {
        match self.ask(Command::Output { since, max_bytes }).await? {
            Answer::Output(slice) => Ok(slice),
            other => Err(unexpected(other)),
        }
    }

    /// End the debuggee and the adapter. The session stays, and can launch again.
    pub async fn terminate(&self) -> Result<(), SessionError> {
        self.ask(Command::Terminate).await?;
        Ok(())
    }

    /// Detach from the debuggee (ending it if `terminate_debuggee`) and stop the adapter.
    pub async fn disconnect(&self, terminate_debuggee: bool) -> Result<(), SessionError> {
        self.ask(Command::Disconnect { terminate_debuggee }).await?;
        Ok(())
    }

    async fn stopped_thread(&self) -> Result<i64, SessionError> {
        let snapshot = self.snapshot().await?;
        snapshot
            .last_stop
            .and_then(|s| s.thread_id)
            .or_else(|| snapshot.threads.first().map(|t| t.id))
            .ok_or_else(|| {
                SessionError::InvalidArgument(
                    "no thread has stopped yet; pass a thread_id from threads()".into(),
                )
            })
    }
}

/// Which way to step, for [`SessionHandle::step`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// Over.
    Over,
    /// In.
    In,
    /// Out.
    Out,
}

fn source_records(answer: Answer) -> Result<Vec<SourceBreakpointRecord>, SessionError> {
    match answer {
        Answer::SourceBreakpoints(list) => Ok(list),
        other => Err(unexpected(other)),
    }
}

fn unexpected(answer: Answer) -> SessionError {
    SessionError::Protocol(format!("unexpected answer from the session: {answer:?}"))
}

/// Breakpoint files are keyed by absolute path, as adapters report them.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
