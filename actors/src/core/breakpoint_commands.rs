//! Agent commands on the breakpoint cache: source, function and exception
//! breakpoints. Each change updates the cache first, then sends the affected list
//! whole (DAP replaces a file's list, or every function breakpoint, per request) to an
//! adapter that takes breakpoints now, or answers from the cache (they go out during
//! configuration).

use std::path::PathBuf;

use serde_json::json;

use crate::core::command::{Answer, Token};
use crate::core::pending::{Pending, Purpose};
use crate::core::session::SessionCore;
use crate::core::state::Operation;
use crate::core::trace;
use crate::error::SessionError;
use crate::wire::types::{FunctionBreakpoint, SetExceptionBreakpointsArguments, SourceBreakpoint};
use crate::wire::DapCommand;

impl SessionCore {
    /// Replace every breakpoint of `file`.
    pub(super) fn set_file_breakpoints(
        &mut self,
        token: Token,
        file: PathBuf,
        breakpoints: Vec<SourceBreakpoint>,
    ) -> Result<(), SessionError> {
        self.check(Operation::SetBreakpoints)?;
        self.check_source_features(&breakpoints)?;
        self.check_only_added(&file, &breakpoints)?;
        self.breakpoints.set_file(&file, breakpoints)?;
        self.sync_file(token, file);
        Ok(())
    }

    /// Add (or replace at its line) one breakpoint of `file`.
    pub(super) fn add_file_breakpoint(
        &mut self,
        token: Token,
        file: PathBuf,
        breakpoint: SourceBreakpoint,
    ) -> Result<(), SessionError> {
        self.check(Operation::SetBreakpoints)?;
        self.check_source_features(std::slice::from_ref(&breakpoint))?;
        let mut next: Vec<SourceBreakpoint> = self.breakpoints.requested(&file);
        next.retain(|b| b.line != breakpoint.line);
        next.push(breakpoint.clone());
        self.check_only_added(&file, &next)?;
        self.breakpoints.add(&file, breakpoint)?;
        self.sync_file(token, file);
        Ok(())
    }

    /// The log point that records `tracepoint`'s values at each hit.
    pub(super) fn tracepoint_breakpoint(
        &mut self,
        file: &std::path::Path,
        tracepoint: crate::core::trace::Tracepoint,
    ) -> Result<SourceBreakpoint, SessionError> {
        let crate::core::trace::Tracepoint {
            line,
            condition,
            hit_condition,
            collect,
        } = tracepoint;
        let template = self.trace.template(file.to_path_buf(), line, &collect)?;
        Ok(SourceBreakpoint {
            line,
            condition,
            hit_condition,
            log_message: Some(template),
            ..SourceBreakpoint::default()
        })
    }

    /// Remove the breakpoint of `file` at `line`.
    pub(super) fn remove_file_breakpoint(
        &mut self,
        token: Token,
        file: PathBuf,
        line: i64,
    ) -> Result<(), SessionError> {
        self.check(Operation::SetBreakpoints)?;
        let mut next: Vec<SourceBreakpoint> = self.breakpoints.requested(&file);
        next.retain(|b| b.line != line);
        self.check_only_added(&file, &next)?;
        if !self.breakpoints.remove(&file, line) {
            let lines: Vec<String> = self
                .breakpoints
                .file(&file)
                .iter()
                .map(|r| r.requested.line.to_string())
                .collect();
            return Err(SessionError::InvalidArgument(format!(
                "no breakpoint at {}:{line}; its breakpoints are at lines [{}]",
                file.display(),
                lines.join(", ")
            )));
        }
        self.sync_file(token, file);
        Ok(())
    }

    /// Replace every function breakpoint.
    pub(super) fn set_function_breakpoints(
        &mut self,
        token: Token,
        list: Vec<FunctionBreakpoint>,
    ) -> Result<(), SessionError> {
        self.check(Operation::SetBreakpoints)?;
        self.check_function_features(&list)?;
        self.breakpoints.set_functions(list)?;
        self.sync_functions(token);
        Ok(())
    }

    /// Add (or replace on its function) one function breakpoint.
    pub(super) fn add_function_breakpoint(
        &mut self,
        token: Token,
        bp: FunctionBreakpoint,
    ) -> Result<(), SessionError> {
        self.check(Operation::SetBreakpoints)?;
        self.check_function_features(std::slice::from_ref(&bp))?;
        self.breakpoints.add_function(bp)?;
        self.sync_functions(token);
        Ok(())
    }

    /// Remove the function breakpoint on `name`.
    pub(super) fn remove_function_breakpoint(
        &mut self,
        token: Token,
        name: String,
    ) -> Result<(), SessionError> {
        self.check(Operation::SetBreakpoints)?;
        if !self.breakpoints.remove_function(&name) {
            let names: Vec<&str> = self
                .breakpoints
                .functions()
                .iter()
                .map(|r| r.requested.name.as_str())
                .collect();
            return Err(SessionError::InvalidArgument(format!(
                "no function breakpoint on `{name}`; the function breakpoints are [{}]",
                names.join(", ")
            )));
        }
        self.sync_functions(token);
        Ok(())
    }

    /// Replace the exception settings (filters, and options where the adapter has
    /// them): checked against the adapter's capabilities, cached for a restarted
    /// adapter, and sent now if the adapter takes breakpoints.
    pub(super) fn set_exception_settings(
        &mut self,
        token: Token,
        settings: SetExceptionBreakpointsArguments,
    ) -> Result<(), SessionError> {
        self.check(Operation::SetExceptionBreakpoints)?;
        let wanted =
            serde_json::to_value(&settings).map_err(|e| SessionError::internal("encoding", e))?;
        self.check_request(DapCommand::SetExceptionBreakpoints.name(), Some(&wanted))?;
        self.breakpoints.set_exceptions(settings)?;
        if self.adapter_takes_breakpoints() {
            let args = serde_json::to_value(self.breakpoints.exception_arguments())
                .map_err(|e| SessionError::internal("encoding", e))?;
            self.send(
                DapCommand::SetExceptionBreakpoints,
                Some(args),
                None,
                Pending::Agent {
                    token,
                    command: DapCommand::SetExceptionBreakpoints.name().into(),
                    purpose: Purpose::Body,
                },
            );
        } else {
            self.reply(token, Ok(Answer::Done));
        }
        Ok(())
    }

    /// Whether breakpoint changes go to the adapter now: it is configured and is not
    /// being let go (after the debuggee ended they wait in the cache for the next run).
    pub(super) fn adapter_takes_breakpoints(&self) -> bool {
        self.phase.accepts_breakpoints()
    }

    /// Function breakpoints need `supportsFunctionBreakpoints`, and their conditions
    /// the capabilities conditions need.
    pub(super) fn check_function_features(
        &self,
        list: &[FunctionBreakpoint],
    ) -> Result<(), SessionError> {
        self.check_request(
            "setFunctionBreakpoints",
            Some(&json!({ "breakpoints": list })),
        )
    }

    /// Lines count from 1; conditions, hit conditions and log messages need their
    /// capabilities.
    /// Refuse a new list for `file` that drops or changes one of its breakpoints, for an
    /// adapter that can only add them (rdbg 1.4 keeps every line it was ever given, and
    /// the first condition at each): the adapter would go on stopping there.
    fn check_only_added(
        &self,
        file: &std::path::Path,
        next: &[SourceBreakpoint],
    ) -> Result<(), SessionError> {
        if !self.quirks().breakpoints_are_only_added {
            return Ok(());
        }
        let kept = |old: &SourceBreakpoint| next.iter().any(|b| b == old);
        match self
            .breakpoints
            .requested(file)
            .into_iter()
            .find(|old| !kept(old))
        {
            None => Ok(()),
            Some(old) => Err(self.unsupported(&format!(
                "removing or changing a breakpoint (it only adds them, so the one at {}:{} \
                 stays as it is until the program ends; relaunch without it instead)",
                file.display(),
                old.line
            ))),
        }
    }

    fn check_source_features(&self, list: &[SourceBreakpoint]) -> Result<(), SessionError> {
        if let Some(bad) = list.iter().find(|b| b.line < 1) {
            return Err(SessionError::InvalidArgument(format!(
                "breakpoint line {} is not a line: lines count from 1",
                bad.line
            )));
        }
        // A tracepoint goes without its log message where there are no log points.
        let checked: Vec<SourceBreakpoint> = list
            .iter()
            .map(
                |b| match b.log_message.as_deref().and_then(trace::collected) {
                    Some(_) => SourceBreakpoint {
                        log_message: None,
                        ..b.clone()
                    },
                    None => b.clone(),
                },
            )
            .collect();
        self.check_request(
            DapCommand::SetBreakpoints.name(),
            Some(&json!({ "breakpoints": checked })),
        )
    }

    /// Send `file`'s whole list to the adapter, or answer from the cache when the
    /// adapter is not ready for breakpoints (they go out during configuration).
    fn sync_file(&mut self, token: Token, file: PathBuf) {
        if self.adapter_takes_breakpoints() {
            let args = self.source_arguments(&file);
            let sent = self.breakpoints.requested(&file);
            self.send(
                DapCommand::SetBreakpoints,
                args,
                None,
                Pending::Agent {
                    token,
                    command: DapCommand::SetBreakpoints.name().into(),
                    purpose: Purpose::SourceBreakpoints(file, sent),
                },
            );
        } else {
            let records = self.breakpoints.file(&file).to_vec();
            self.reply(token, Ok(Answer::SourceBreakpoints(records)));
        }
    }

    fn sync_functions(&mut self, token: Token) {
        if self.adapter_takes_breakpoints() {
            let args = serde_json::to_value(self.function_breakpoint_arguments()).ok();
            self.send(
                DapCommand::SetFunctionBreakpoints,
                args,
                None,
                Pending::Agent {
                    token,
                    command: DapCommand::SetFunctionBreakpoints.name().into(),
                    purpose: Purpose::FunctionBreakpoints(self.function_breakpoint_names()),
                },
            );
        } else {
            let cached = self
                .breakpoints
                .functions()
                .iter()
                .map(|r| r.actual.clone().unwrap_or_default())
                .collect();
            self.reply(token, Ok(Answer::Breakpoints(cached)));
        }
    }
}
