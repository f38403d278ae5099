//! The rest of the DAP requests as typed methods of [`SessionHandle`]: breakpoints
//! beyond source and function ones, and execution beyond continue and the three steps.
//! Inspection is in `requests_inspect.rs`, memory and raw requests in
//! `requests_memory.rs`.
//!
//! Each method is one DAP request checked against the session's state as the
//! [`Operation`] it counts as. A request the adapter did not advertise is refused by
//! the session core with [`SessionError::Unsupported`] naming the capability; an
//! argument that needs a capability of its own (`singleThread`, `granularity`,
//! `filterOptions`, ...) is refused here the same way, before it reaches the adapter.
//!
//! Requests that make the program move (`goto`, `stepBack`, a step into a chosen
//! target, ...) answer with a [`RunTicket`] taken before the request left, so the
//! stop they cause is never missed by [`SessionHandle::wait_for_stop`].

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use crate::core::capability::has_capability;
use crate::core::command::StartPlan;
use crate::core::snapshot::SessionSnapshot;
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;
use crate::session::{RunTicket, SessionHandle, StepKind};
use crate::wire::types::{
    Breakpoint, BreakpointLocation, BreakpointLocationsResponseBody, BreakpointsResponseBody,
    DataBreakpoint, DataBreakpointInfoArguments, DataBreakpointInfoResponseBody, GotoTarget,
    GotoTargetsResponseBody, InstructionBreakpoint, SetExceptionBreakpointsArguments, Source,
    StepInTarget, StepInTargetsResponseBody, SteppingGranularity,
};

/// The field the DAP specification requires in the answer to `command`, for the
/// commands of these files whose answer is nothing without it.
fn required_field(command: &str) -> Option<&'static str> {
    Some(match command {
        "breakpointLocations"
        | "setInstructionBreakpoints"
        | "setDataBreakpoints"
        | "setExceptionBreakpoints" => "breakpoints",
        "dataBreakpointInfo" => "dataId",
        "stepInTargets" | "gotoTargets" | "completions" => "targets",
        "setVariable" | "setExpression" => "value",
        "exceptionInfo" => "exceptionId",
        "source" => "content",
        "loadedSources" => "sources",
        "modules" => "modules",
        "disassemble" => "instructions",
        "readMemory" => "address",
        "locations" => "source",
        "variables" => "variables",
        _ => return None,
    })
}

/// The answer to `command` as a `T`, refused when it lacks the one field it exists for.
pub(super) fn parse<T: DeserializeOwned>(command: &str, body: Value) -> Result<T, SessionError> {
    if let Some(field) = required_field(command) {
        if body.get(field).is_none() {
            return Err(SessionError::Protocol(format!(
                "the adapter answered `{command}` without `{field}`; its answer cannot be \
                 used (body: {body})"
            )));
        }
    }
    serde_json::from_value(body).map_err(|e| {
        SessionError::Protocol(format!(
            "the adapter's `{command}` answer is malformed: {e}"
        ))
    })
}

impl SessionHandle {
    // ---- shared by the request files ----

    /// Send `command` with `arguments` as `operation` and read the answer as a `T`.
    pub(super) async fn call<T: DeserializeOwned>(
        &self,
        operation: Operation,
        command: &str,
        arguments: impl Serialize,
    ) -> Result<T, SessionError> {
        let arguments = serde_json::to_value(arguments)
            .map_err(|e| SessionError::InvalidArgument(format!("`{command}` arguments: {e}")))?;
        let body = self
            .request(operation, command, Some(arguments), None)
            .await?;
        parse(command, body)
    }

    /// The snapshot, once the state is known to allow `operation` (the error the core
    /// would give otherwise), so that capabilities are checked only where they count.
    pub(super) async fn ready_for(
        &self,
        operation: Operation,
    ) -> Result<SessionSnapshot, SessionError> {
        let snapshot = self.snapshot().await?;
        if snapshot.state == SessionState::Failed {
            return Err(SessionError::SessionFailed {
                reason: snapshot
                    .failure
                    .clone()
                    .unwrap_or_else(|| "the adapter kept crashing".into()),
            });
        }
        if !snapshot.state.allows(operation) {
            return Err(SessionError::InvalidState {
                operation,
                state: snapshot.state,
                allowed: snapshot.state.allowed_operations(),
            });
        }
        Ok(snapshot)
    }

    /// Refuse `what` unless the adapter advertised `flag`.
    pub(super) fn require(
        snapshot: &SessionSnapshot,
        flag: &str,
        what: &str,
    ) -> Result<(), SessionError> {
        if has_capability(&snapshot.capabilities, flag) {
            return Ok(());
        }
        Err(SessionError::Unsupported {
            adapter: snapshot.adapter.clone().unwrap_or_else(|| "(none)".into()),
            capability: format!("{what} ({flag})"),
        })
    }

    /// The thread asked for, else the last stopped one, else the first known.
    pub(super) fn thread_or_stopped(
        snapshot: &SessionSnapshot,
        thread_id: Option<i64>,
    ) -> Result<i64, SessionError> {
        thread_id
            .or_else(|| snapshot.last_stop.as_ref().and_then(|s| s.thread_id))
            .or_else(|| snapshot.threads.first().map(|t| t.id))
            .ok_or_else(|| {
                SessionError::InvalidArgument(
                    "no thread has stopped yet; pass a thread_id from threads()".into(),
                )
            })
    }

    /// Send a request that makes the program move, and answer the ticket to wait for
    /// the stop it causes.
    async fn moving(
        &self,
        snapshot: &SessionSnapshot,
        operation: Operation,
        command: &str,
        arguments: Value,
    ) -> Result<RunTicket, SessionError> {
        let ticket = RunTicket {
            epoch: snapshot.stop_epoch,
        };
        self.request(operation, command, Some(arguments), None)
            .await?;
        Ok(ticket)
    }

    /// The snapshot of a session whose adapter takes requests now: for breakpoints
    /// the runtime does not cache (instruction and data breakpoints, exception
    /// options), which go straight to the adapter.
    async fn adapter_running(&self, what: &str) -> Result<SessionSnapshot, SessionError> {
        let snapshot = self.ready_for(Operation::SetBreakpoints).await?;
        if !matches!(
            snapshot.state,
            SessionState::Running | SessionState::Stopped
        ) {
            return Err(SessionError::InvalidArgument(format!(
                "{what} go straight to the adapter, and the session is {}: set them once \
                 the program runs or has stopped",
                snapshot.state
            )));
        }
        Ok(snapshot)
    }

    // ---- breakpoints ----

    /// Where breakpoints can go in `file` from `line` to `end_line` (the same line when
    /// `None`), per the adapter (`breakpointLocations`).
    pub async fn breakpoint_locations(
        &self,
        file: impl AsRef<Path>,
        line: i64,
        end_line: Option<i64>,
    ) -> Result<Vec<BreakpointLocation>, SessionError> {
        let args = json!({
            "source": source_of(file.as_ref()),
            "line": line,
            "endLine": end_line,
        });
        let body: BreakpointLocationsResponseBody = self
            .call(Operation::Query, "breakpointLocations", strip_nulls(args))
            .await?;
        Ok(body.breakpoints)
    }

    /// Replace every instruction breakpoint (an empty list removes them all). They go
    /// straight to the adapter, so the program must run or be stopped.
    pub async fn set_instruction_breakpoints(
        &self,
        breakpoints: Vec<InstructionBreakpoint>,
    ) -> Result<Vec<Breakpoint>, SessionError> {
        self.adapter_running("instruction breakpoints").await?;
        let body: BreakpointsResponseBody = self
            .call(
                Operation::SetBreakpoints,
                "setInstructionBreakpoints",
                json!({ "breakpoints": breakpoints }),
            )
            .await?;
        Ok(body.breakpoints)
    }

    /// Whether a data breakpoint can watch `args.name` (a child of
    /// `args.variables_reference`, or an expression in `args.frame_id`), and the
    /// `data_id` to set it with.
    pub async fn data_breakpoint_info(
        &self,
        args: DataBreakpointInfoArguments,
    ) -> Result<DataBreakpointInfoResponseBody, SessionError> {
        if args.bytes.is_some() || args.as_address.is_some() {
            let snapshot = self.ready_for(Operation::Inspect).await?;
            Self::require(
                &snapshot,
                "supportsDataBreakpointBytes",
                "`dataBreakpointInfo` with bytes or asAddress",
            )?;
        }
        self.call(Operation::Inspect, "dataBreakpointInfo", args)
            .await
    }

    /// Replace every data breakpoint (an empty list removes them all). They go
    /// straight to the adapter, so the program must run or be stopped.
    pub async fn set_data_breakpoints(
        &self,
        breakpoints: Vec<DataBreakpoint>,
    ) -> Result<Vec<Breakpoint>, SessionError> {
        self.adapter_running("data breakpoints").await?;
        let body: BreakpointsResponseBody = self
            .call(
                Operation::SetBreakpoints,
                "setDataBreakpoints",
                json!({ "breakpoints": breakpoints }),
            )
            .await?;
        Ok(body.breakpoints)
    }

    /// Exception filters with conditions (`filter_options`) or break modes for
    /// chosen exceptions (`exception_options`). The plain `filters` are cached like
    /// [`Self::set_exception_breakpoints`]'s (and sent again to a restarted adapter);
    /// the options go straight to the adapter, so the program must run or be stopped.
    /// Returns the adapter's breakpoints for them, where it answers with any.
    pub async fn set_exception_breakpoints_with(
        &self,
        args: SetExceptionBreakpointsArguments,
    ) -> Result<Vec<Breakpoint>, SessionError> {
        let has_filter_options = args.filter_options.as_ref().is_some_and(|o| !o.is_empty());
        let has_exception_options = args
            .exception_options
            .as_ref()
            .is_some_and(|o| !o.is_empty());
        if !has_filter_options && !has_exception_options {
            self.set_exception_breakpoints(args.filters).await?;
            return Ok(Vec::new());
        }
        let snapshot = self.adapter_running("exception options").await?;
        if has_filter_options {
            Self::require(
                &snapshot,
                "supportsExceptionFilterOptions",
                "`setExceptionBreakpoints` with filterOptions",
            )?;
        }
        if has_exception_options {
            Self::require(
                &snapshot,
                "supportsExceptionOptions",
                "`setExceptionBreakpoints` with exceptionOptions",
            )?;
        }
        self.set_exception_breakpoints(args.filters.clone()).await?;
        let body = self
            .request(
                Operation::SetExceptionBreakpoints,
                "setExceptionBreakpoints",
                Some(serde_json::to_value(&args).unwrap_or_default()),
                None,
            )
            .await?;
        // The spec allows no body here (old adapters answer none).
        Ok(serde_json::from_value::<BreakpointsResponseBody>(body)
            .map(|b| b.breakpoints)
            .unwrap_or_default())
    }

    // ---- execution ----

    /// Step with every option: `granularity` (needs `supportsSteppingGranularity`)
    /// and `single_thread`, leaving the other threads stopped (needs
    /// `supportsSingleThreadExecutionRequests`).
    pub async fn step_with(
        &self,
        kind: StepKind,
        thread_id: Option<i64>,
        granularity: Option<SteppingGranularity>,
        single_thread: bool,
    ) -> Result<RunTicket, SessionError> {
        let (operation, command) = match kind {
            StepKind::Over => (Operation::Next, "next"),
            StepKind::In => (Operation::StepIn, "stepIn"),
            StepKind::Out => (Operation::StepOut, "stepOut"),
        };
        let snapshot = self.ready_for(operation).await?;
        if granularity.is_some_and(|g| g != SteppingGranularity::Statement) {
            Self::require(
                &snapshot,
                "supportsSteppingGranularity",
                &format!("`{command}` with a granularity"),
            )?;
        }
        if !single_thread {
            return match granularity {
                Some(g) => self.step(kind, thread_id, g).await,
                None => match kind {
                    StepKind::Over => self.next(thread_id).await,
                    StepKind::In => self.step_in(thread_id).await,
                    StepKind::Out => self.step_out(thread_id).await,
                },
            };
        }
        Self::require(
            &snapshot,
            "supportsSingleThreadExecutionRequests",
            &format!("`{command}` with singleThread"),
        )?;
        let thread = Self::thread_or_stopped(&snapshot, thread_id)?;
        let args = strip_nulls(json!({
            "threadId": thread,
            "singleThread": true,
            "granularity": granularity,
        }));
        self.moving(&snapshot, operation, command, args).await
    }

    /// Resume only `thread_id` (the last stopped thread by default), leaving the
    /// others stopped (needs `supportsSingleThreadExecutionRequests`).
    pub async fn continue_single_thread(
        &self,
        thread_id: Option<i64>,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Continue).await?;
        Self::require(
            &snapshot,
            "supportsSingleThreadExecutionRequests",
            "`continue` with singleThread",
        )?;
        let thread = Self::thread_or_stopped(&snapshot, thread_id)?;
        let args = json!({ "threadId": thread, "singleThread": true });
        self.moving(&snapshot, Operation::Continue, "continue", args)
            .await
    }

    /// The calls `stepIn` could enter from `frame_id` (`stepInTargets`).
    pub async fn step_in_targets(&self, frame_id: i64) -> Result<Vec<StepInTarget>, SessionError> {
        let body: StepInTargetsResponseBody = self
            .call(
                Operation::Inspect,
                "stepInTargets",
                json!({ "frameId": frame_id }),
            )
            .await?;
        Ok(body.targets)
    }

    /// Step into one chosen call (a `target_id` from [`Self::step_in_targets`]).
    pub async fn step_in_target(
        &self,
        thread_id: Option<i64>,
        target_id: i64,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::StepIn).await?;
        let thread = Self::thread_or_stopped(&snapshot, thread_id)?;
        let args = json!({ "threadId": thread, "targetId": target_id });
        self.moving(&snapshot, Operation::StepIn, "stepIn", args)
            .await
    }

    /// Step backwards (`stepBack`, needs `supportsStepBack`).
    pub async fn step_back(
        &self,
        thread_id: Option<i64>,
        granularity: Option<SteppingGranularity>,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Navigate).await?;
        let thread = Self::thread_or_stopped(&snapshot, thread_id)?;
        let args = strip_nulls(json!({ "threadId": thread, "granularity": granularity }));
        self.moving(&snapshot, Operation::Navigate, "stepBack", args)
            .await
    }

    /// Run backwards to the previous stop (`reverseContinue`, needs `supportsStepBack`).
    pub async fn reverse_continue(
        &self,
        thread_id: Option<i64>,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Navigate).await?;
        let thread = Self::thread_or_stopped(&snapshot, thread_id)?;
        let args = json!({ "threadId": thread });
        self.moving(&snapshot, Operation::Navigate, "reverseContinue", args)
            .await
    }

    /// Where execution could jump to at `file:line` (`gotoTargets`).
    pub async fn goto_targets(
        &self,
        file: impl AsRef<Path>,
        line: i64,
        column: Option<i64>,
    ) -> Result<Vec<GotoTarget>, SessionError> {
        let args = strip_nulls(json!({
            "source": source_of(file.as_ref()),
            "line": line,
            "column": column,
        }));
        let body: GotoTargetsResponseBody =
            self.call(Operation::Inspect, "gotoTargets", args).await?;
        Ok(body.targets)
    }

    /// Jump to a target from [`Self::goto_targets`] without running the code between
    /// (`goto`); the adapter reports the move as a stop.
    pub async fn goto(
        &self,
        thread_id: Option<i64>,
        target_id: i64,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Navigate).await?;
        let thread = Self::thread_or_stopped(&snapshot, thread_id)?;
        let args = json!({ "threadId": thread, "targetId": target_id });
        self.moving(&snapshot, Operation::Navigate, "goto", args)
            .await
    }

    /// Run `frame_id` again from its start (`restartFrame`).
    pub async fn restart_frame(&self, frame_id: i64) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Navigate).await?;
        let args = json!({ "frameId": frame_id });
        self.moving(&snapshot, Operation::Navigate, "restartFrame", args)
            .await
    }

    /// Restart the debuggee with the adapter's `restart` request, keeping the session,
    /// its breakpoints and its adapter; wait for its first stop with the ticket.
    /// Adapters without `supportsRestartRequest` are refused naming it: restart those
    /// with [`Self::relaunch`].
    pub async fn restart(&self) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Restart).await?;
        self.moving(&snapshot, Operation::Restart, "restart", json!({}))
            .await
    }

    /// Restart by ending the debuggee and the adapter and starting `plan` again (the
    /// one the session was started with, from [`crate::Runtime::plan_launch`]): the
    /// way to restart where the adapter has no `restart` request. The session keeps its
    /// id and every cached breakpoint; answers like [`Self::start`].
    pub async fn relaunch(&self, plan: StartPlan) -> Result<SessionSnapshot, SessionError> {
        let snapshot = self.ready_for(Operation::Restart).await?;
        if snapshot.state.is_live() {
            self.terminate().await?;
        }
        self.start(plan).await
    }

    /// End some threads (`terminateThreads`).
    pub async fn terminate_threads(&self, thread_ids: Vec<i64>) -> Result<(), SessionError> {
        self.request(
            Operation::Query,
            "terminateThreads",
            Some(json!({ "threadIds": thread_ids })),
            None,
        )
        .await?;
        Ok(())
    }
}

/// A source named by its path, as requests take it.
pub(super) fn source_of(file: &Path) -> Source {
    let path = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    Source {
        path: Some(path.display().to_string()),
        ..Source::default()
    }
}

/// `value` without its `null` members: absent optional arguments are left out, as
/// adapters expect, instead of sent as `null`.
pub(super) fn strip_nulls(mut value: Value) -> Value {
    if let Value::Object(map) = &mut value {
        map.retain(|_, v| !v.is_null());
    }
    value
}
