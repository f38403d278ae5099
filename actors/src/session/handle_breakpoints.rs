//! Source, function and exception breakpoints as typed methods of [`SessionHandle`].
//! The session caches them, so they can be set in any state (before the adapter is
//! configured they go out during configuration) and are replayed on a new adapter.

use std::path::Path;

use crate::core::breakpoints::SourceBreakpointRecord;
use crate::core::command::{Answer, Command};
use crate::core::trace::Tracepoint;
use crate::error::SessionError;
use crate::session::handle::{absolute, unexpected};
use crate::session::SessionHandle;
use crate::wire::types::{Breakpoint, FunctionBreakpoint, SourceBreakpoint};

impl SessionHandle {
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

    /// Add (or replace at its line) a tracepoint in `file`: a log point that records
    /// its `collect` values at each hit instead of stopping (read them with
    /// [`SessionHandle::trace`]). Returns the file's breakpoints.
    pub async fn add_tracepoint(
        &self,
        file: impl AsRef<Path>,
        tracepoint: Tracepoint,
    ) -> Result<Vec<SourceBreakpointRecord>, SessionError> {
        let file = absolute(file.as_ref());
        source_records(
            self.ask(Command::AddTracepoint { file, tracepoint })
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

    /// Change the call trace: trace the calls of the functions `add` names, and no
    /// longer those of `remove` (patterns as given before). Each call of a traced
    /// function is recorded as a trace row with its arguments, and its return as
    /// another with the return value, without the program stopping for anyone (read
    /// with [`Self::trace`]). A pattern is `name`, `module.name` (`pkg.Type.method` in
    /// Go) or `file:function`, with `*` globs in the module or file part; a bad one is
    /// refused with why. Answers with the patterns traced now, and the adapter's
    /// verdicts on the call breakpoints (none before the adapter takes breakpoints).
    /// Empty lists change nothing: they read the patterns.
    pub async fn set_calls(
        &self,
        add: Vec<String>,
        remove: Vec<String>,
    ) -> Result<(Vec<String>, Vec<Breakpoint>), SessionError> {
        match self.ask(Command::SetCalls { add, remove }).await? {
            Answer::Calls {
                patterns,
                breakpoints,
            } => Ok((patterns, breakpoints)),
            other => Err(unexpected(other)),
        }
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
}

fn source_records(answer: Answer) -> Result<Vec<SourceBreakpointRecord>, SessionError> {
    match answer {
        Answer::SourceBreakpoints(list) => Ok(list),
        other => Err(unexpected(other)),
    }
}
