//! Reading a stopped program as typed methods of [`SessionHandle`]: threads, the
//! stack, scopes, variables and evaluation, and [`SessionHandle::request`], the one
//! way every DAP request goes. More inspection requests are in `requests_inspect.rs`.

use std::time::Duration;

use serde_json::Value;

use crate::core::command::{Answer, Command};
use crate::core::state::Operation;
use crate::error::SessionError;
use crate::session::handle::unexpected;
use crate::session::SessionHandle;
use crate::wire::typed_requests::{Evaluate, NoArguments, Scopes, StackTrace, Threads, Variables};
use crate::wire::types::{
    EvaluateArguments, EvaluateResponseBody, Scope, ScopesArguments, StackFrame,
    StackTraceArguments, StackTraceResponseBody, Thread, Variable, VariablesArguments,
};
use crate::wire::{DapCommand, RawJson};

impl SessionHandle {
    /// Send a DAP request and return the response body. The state is checked as the
    /// operation the command carries out ([`Operation::of_command`]; a command the
    /// runtime does not know as [`Operation::CustomRequest`]), whatever `operation`
    /// the caller names: a `continue` asked for as a query is still refused while the
    /// program runs.
    pub async fn request(
        &self,
        operation: Operation,
        command: &str,
        arguments: Option<Value>,
        timeout: Option<Duration>,
    ) -> Result<Value, SessionError> {
        let body = self
            .request_raw(operation, command, arguments, timeout)
            .await?;
        Ok(body.to_value())
    }

    /// [`Self::request`], with the body as the adapter sent it.
    async fn request_raw(
        &self,
        operation: Operation,
        command: &str,
        arguments: Option<Value>,
        timeout: Option<Duration>,
    ) -> Result<RawJson, SessionError> {
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

    /// Send a request this runtime knows, checked as the operation it carries out.
    pub(super) async fn request_by_command(
        &self,
        command: DapCommand,
        arguments: Option<Value>,
    ) -> Result<RawJson, SessionError> {
        self.request_raw(Operation::of(command), command.name(), arguments, None)
            .await
    }

    /// The debuggee's threads.
    pub async fn threads(&self) -> Result<Vec<Thread>, SessionError> {
        Ok(self.call::<Threads>(NoArguments).await?.threads)
    }

    /// A thread's call stack, innermost frame first; `levels` of 0 or `None` asks for
    /// all. The thread defaults to the last stopped thread.
    pub async fn stack_trace(
        &self,
        thread_id: Option<i64>,
        levels: Option<i64>,
    ) -> Result<Vec<StackFrame>, SessionError> {
        Ok(self
            .stack_trace_page(thread_id, 0, levels)
            .await?
            .stack_frames)
    }

    /// A page of a thread's call stack: `levels` frames (all when 0 or `None`) from
    /// frame `start_frame` (0: the innermost), with the adapter's `totalFrames` when it
    /// gives one. The thread defaults to the last stopped thread.
    pub async fn stack_trace_page(
        &self,
        thread_id: Option<i64>,
        start_frame: i64,
        levels: Option<i64>,
    ) -> Result<StackTraceResponseBody, SessionError> {
        let thread_id = match thread_id {
            Some(t) => t,
            None => Self::thread_or_stopped(&self.snapshot().await?, None)?,
        };
        self.call::<StackTrace>(StackTraceArguments {
            thread_id,
            start_frame: Some(start_frame),
            levels,
            format: None,
        })
        .await
    }

    /// The scopes of a frame (from [`Self::stack_trace`]).
    pub async fn scopes(&self, frame_id: i64) -> Result<Vec<Scope>, SessionError> {
        let body = self.call::<Scopes>(ScopesArguments { frame_id }).await?;
        Ok(body.scopes)
    }

    /// The variables under a reference (a scope's or a structured value's); where the
    /// adapter shows objects as ids (JdiDapServer), each with a preview read from its
    /// children instead (see `object_previews.rs`).
    pub async fn variables(&self, variables_reference: i64) -> Result<Vec<Variable>, SessionError> {
        let variables = self.raw_variables(variables_reference).await?;
        Ok(self.with_previews(variables).await)
    }

    /// The variables under a reference as the adapter gave them.
    pub(crate) async fn raw_variables(
        &self,
        variables_reference: i64,
    ) -> Result<Vec<Variable>, SessionError> {
        self.refresh_stale_frames().await;
        let body = self
            .call::<Variables>(VariablesArguments {
                variables_reference,
                ..Default::default()
            })
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
        self.refresh_stale_frames().await;
        self.call::<Evaluate>(EvaluateArguments {
            expression: expression.to_string(),
            frame_id,
            context: context.map(str::to_string),
            ..Default::default()
        })
        .await
    }
}
