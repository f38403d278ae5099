//! The rest of the DAP requests as typed methods of [`SessionHandle`], and what they
//! share: here breakpoints beyond source and function ones; execution beyond continue
//! and the three steps in `requests_execution.rs`, inspection in `requests_inspect.rs`,
//! disassembly in `requests_disassemble.rs`, memory and raw requests in
//! `requests_memory.rs`.
//!
//! Each method is one DAP request checked against the session's state as the
//! [`Operation`] it counts as. A request the adapter did not advertise is refused by
//! the session core with [`SessionError::Unsupported`] naming the capability, and so
//! is an argument that needs a capability of its own (`singleThread`, `granularity`,
//! `filterOptions`, a breakpoint `condition`, ...), before anything reaches the
//! adapter (see [`crate::core::capability`]).
//!
//! Requests that make the program move (`goto`, `stepBack`, a step into a chosen
//! target, ...) answer with a [`RunTicket`] taken before the request left, so the
//! stop they cause is never missed by [`SessionHandle::wait_for_stop`].

use std::path::Path;

use std::collections::HashMap;

use serde::de::IgnoredAny;

use crate::core::command::{Answer, Command};
use crate::core::snapshot::SessionSnapshot;
use crate::core::state::{Operation, SessionState};
use crate::error::{ProtocolError, SessionError};
use crate::session::handle::unexpected;
use crate::session::{RunTicket, SessionHandle};
use crate::wire::typed_requests::{
    BreakpointLocations, DataBreakpointInfo, SetDataBreakpoints, SetInstructionBreakpoints,
    TypedRequest,
};
use crate::wire::types::{
    Breakpoint, BreakpointLocation, BreakpointLocationsArguments, BreakpointsResponseBody,
    DataBreakpoint, DataBreakpointInfoArguments, DataBreakpointInfoResponseBody,
    InstructionBreakpoint, SetDataBreakpointsArguments, SetExceptionBreakpointsArguments,
    SetInstructionBreakpointsArguments, Source,
};
use crate::wire::RawJson;

/// The answer to `R` as its body type, refused when it lacks the one field its
/// description says it exists for: the wire types forgive missing fields, and an
/// answer without that field must not pass as an empty stack or a blank value.
pub(super) fn read_answer<R: TypedRequest>(body: &RawJson) -> Result<R::Body, SessionError> {
    let command = R::COMMAND;
    if let Some(field) = command.spec().answer_field {
        let fields: Result<HashMap<String, IgnoredAny>, _> = body.parse();
        if !fields.is_ok_and(|f| f.contains_key(field)) {
            return Err(SessionError::Protocol(ProtocolError::MissingField {
                command: command.name().to_string(),
                field,
                body: body.to_string(),
            }));
        }
    }
    body.parse().map_err(|e| {
        SessionError::Protocol(ProtocolError::Malformed {
            command: command.name().to_string(),
            detail: e.to_string(),
        })
    })
}

impl SessionHandle {
    // ---- shared by the request files ----

    /// Send `R` with `arguments`, checked as the operation its command carries out;
    /// the answer as the adapter sent it.
    pub(super) async fn send_typed<R: TypedRequest>(
        &self,
        arguments: R::Arguments,
    ) -> Result<RawJson, SessionError> {
        let command = R::COMMAND;
        let arguments = serde_json::to_value(arguments)
            .map_err(|e| SessionError::InvalidArgument(format!("`{command}` arguments: {e}")))?;
        self.request_by_command(command, Some(arguments)).await
    }

    /// Send `R` with `arguments` and read its answer.
    pub(super) async fn call<R: TypedRequest>(
        &self,
        arguments: R::Arguments,
    ) -> Result<R::Body, SessionError> {
        let body = self.send_typed::<R>(arguments).await?;
        read_answer::<R>(&body)
    }

    /// The snapshot, once the state is known to allow `operation` (the error the core
    /// would give otherwise), so that capabilities are checked only where they count.
    pub(super) async fn ready_for(
        &self,
        operation: Operation,
    ) -> Result<SessionSnapshot, SessionError> {
        let snapshot = self.snapshot().await?;
        crate::core::post_mortem::check_session(
            snapshot.state,
            snapshot.failure.as_deref(),
            snapshot.core_file.is_some(),
            operation,
        )?;
        Ok(snapshot)
    }

    /// The thread asked for, else the last stopped one, else the first known.
    pub(super) fn thread_or_stopped(
        snapshot: &SessionSnapshot,
        thread_id: Option<i64>,
    ) -> Result<i64, SessionError> {
        thread_id
            .or_else(|| snapshot.default_thread())
            .ok_or_else(|| {
                SessionError::InvalidArgument(
                    "no thread has stopped yet; pass a thread_id from threads()".into(),
                )
            })
    }

    /// Send a request that makes the program move, and answer the ticket to wait for
    /// the stop it causes. The ticket's epoch is read by the session as it sends the
    /// request (as for `continue`), not from an earlier snapshot: a stop that came in
    /// between would otherwise be taken for the one this request causes.
    pub(super) async fn moving<R: TypedRequest>(
        &self,
        arguments: R::Arguments,
    ) -> Result<RunTicket, SessionError> {
        let command = R::COMMAND;
        let arguments = serde_json::to_value(arguments)
            .map_err(|e| SessionError::InvalidArgument(format!("`{command}` arguments: {e}")))?;
        match self
            .ask(Command::Move {
                operation: Operation::of(command),
                command: command.name().to_string(),
                arguments,
            })
            .await?
        {
            Answer::Resumed { epoch } => Ok(RunTicket { epoch }),
            other => Err(unexpected(other)),
        }
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
        let body = self
            .call::<BreakpointLocations>(BreakpointLocationsArguments {
                source: source_of(file.as_ref()),
                line,
                end_line,
                ..Default::default()
            })
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
        let body = self
            .call::<SetInstructionBreakpoints>(SetInstructionBreakpointsArguments { breakpoints })
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
        self.call::<DataBreakpointInfo>(args).await
    }

    /// Replace every data breakpoint (an empty list removes them all). They go
    /// straight to the adapter, so the program must run or be stopped.
    pub async fn set_data_breakpoints(
        &self,
        breakpoints: Vec<DataBreakpoint>,
    ) -> Result<Vec<Breakpoint>, SessionError> {
        self.adapter_running("data breakpoints").await?;
        let body = self
            .call::<SetDataBreakpoints>(SetDataBreakpointsArguments { breakpoints })
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
        // Options are checked against what the adapter advertised: it must have said.
        self.adapter_running("exception options").await?;
        // The core refuses options the adapter did not advertise before anything is
        // sent, and caches them with the filters for a restarted adapter.
        match self.ask(Command::SetExceptionSettings(args)).await? {
            // The spec allows no body here (old adapters answer none).
            Answer::Body(body) => Ok(body
                .parse::<BreakpointsResponseBody>()
                .map(|b| b.breakpoints)
                .unwrap_or_default()),
            Answer::Done => Ok(Vec::new()),
            other => Err(unexpected(other)),
        }
    }
}

/// A source named by its path, as requests take it.
pub(super) fn source_of(file: &Path) -> Source {
    // A marked remote path stays as it is: the session core sends it unmarked.
    let path = super::handle::absolute(file);
    Source {
        path: Some(path.display().to_string()),
        ..Source::default()
    }
}
