//! Reading a stopped program as typed methods of [`SessionHandle`]: threads, the
//! stack, scopes, variables and evaluation, and [`SessionHandle::request`], the one
//! way every DAP request goes. More inspection requests are in `requests_inspect.rs`.

use std::collections::HashMap;
use std::time::Duration;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::{json, Value};

use crate::core::command::{Answer, Command};
use crate::core::state::Operation;
use crate::error::{ProtocolError, SessionError};
use crate::session::handle::unexpected;
use crate::session::SessionHandle;
use crate::wire::types::{
    EvaluateResponseBody, Scope, ScopesResponseBody, StackFrame, StackTraceResponseBody, Thread,
    ThreadsResponseBody, Variable, VariablesResponseBody,
};
use crate::wire::RawJson;

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

    /// A request whose body is parsed straight from the adapter's text into `T`.
    async fn typed<T: DeserializeOwned>(
        &self,
        operation: Operation,
        command: &str,
        arguments: Value,
    ) -> Result<T, SessionError> {
        let body = self
            .request_raw(operation, command, Some(arguments), None)
            .await?;
        // The wire types forgive missing fields; an answer without the one thing it
        // exists for must not pass as an empty stack or a blank value.
        if let Some(field) = required_field(command) {
            let fields: Result<HashMap<String, IgnoredAny>, _> = body.parse();
            if !fields.is_ok_and(|f| f.contains_key(field)) {
                return Err(SessionError::Protocol(ProtocolError::MissingField {
                    command: command.to_string(),
                    field,
                    body: body.to_string(),
                }));
            }
        }
        body.parse().map_err(|e| {
            SessionError::Protocol(ProtocolError::Malformed {
                command: command.to_string(),
                detail: e.to_string(),
            })
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
        let mut args = json!({ "threadId": thread_id, "startFrame": start_frame });
        if let Some(levels) = levels {
            args["levels"] = json!(levels);
        }
        self.typed(Operation::StackTrace, "stackTrace", args).await
    }

    /// The scopes of a frame (from [`Self::stack_trace`]).
    pub async fn scopes(&self, frame_id: i64) -> Result<Vec<Scope>, SessionError> {
        let body: ScopesResponseBody = self
            .typed(Operation::Scopes, "scopes", json!({ "frameId": frame_id }))
            .await?;
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
        self.refresh_stale_frames().await;
        self.typed(Operation::Evaluate, "evaluate", args).await
    }
}
