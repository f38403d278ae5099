//! Routing an agent's command: the state check first, then the part of the core
//! that serves it (the handshake, the breakpoint cache, execution control, ending), or
//! a DAP request sent as asked, refused when it needs a capability the adapter did not
//! advertise.

use std::time::Duration;

use serde_json::{json, Value};

use crate::core::command::{Answer, Command, Token};
use crate::core::pending::{Pending, Purpose};
use crate::core::phase::Program;
use crate::core::session::SessionCore;
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;
use crate::wire::types::SetExceptionBreakpointsArguments;
use crate::wire::DapCommand;

impl SessionCore {
    pub(super) fn on_command(
        &mut self,
        token: Token,
        command: Command,
    ) -> Result<(), SessionError> {
        match command {
            Command::WithTimeout { timeout, command } => {
                self.command_timeout = Some(timeout);
                let result = self.on_command(token, *command);
                self.command_timeout = None;
                result
            }
            Command::Start(plan) => self.start(token, *plan),
            Command::SetBreakpoints { file, breakpoints } => {
                self.set_file_breakpoints(token, file, breakpoints)
            }
            Command::AddBreakpoint { file, breakpoint } => {
                self.add_file_breakpoint(token, file, breakpoint)
            }
            Command::AddTracepoint { file, tracepoint } => {
                let breakpoint = self.tracepoint_breakpoint(&file, tracepoint)?;
                self.add_file_breakpoint(token, file, breakpoint)
            }
            Command::Trace { since, max_rows } => {
                let mut slice = self.trace.read_since(since, max_rows);
                slice.calls_dropped = self.calls.over_rate;
                self.reply(token, Ok(Answer::Trace(slice)));
                Ok(())
            }
            Command::RemoveBreakpoint { file, line } => {
                self.remove_file_breakpoint(token, file, line)
            }
            Command::SetFunctionBreakpoints(list) => self.set_function_breakpoints(token, list),
            Command::SetCalls { add, remove } => self.change_calls(token, add, remove),
            Command::AddFunctionBreakpoint(bp) => self.add_function_breakpoint(token, bp),
            Command::RemoveFunctionBreakpoint(name) => self.remove_function_breakpoint(token, name),
            Command::SetExceptionBreakpoints(filters) => {
                let settings = SetExceptionBreakpointsArguments {
                    filters,
                    ..SetExceptionBreakpointsArguments::default()
                };
                self.set_exception_settings(token, settings)
            }
            Command::SetExceptionSettings(settings) => self.set_exception_settings(token, settings),
            Command::Control {
                action,
                thread_id,
                granularity,
            } => self.control(token, action, thread_id, granularity),
            Command::WaitForStop { after, timeout } => {
                crate::core::state::check_not_failed(self.state(), self.failure().as_deref())?;
                self.wait_for_stop(token, after, timeout);
                Ok(())
            }
            Command::Request {
                operation,
                command,
                arguments,
                timeout,
            } => self.request(token, (operation, command), arguments, timeout, false),
            Command::Move {
                operation,
                command,
                arguments,
            } => self.request(token, (operation, command), Some(arguments), None, true),
            Command::Output { since, max_bytes } => {
                let slice = self.output.read_since(since, max_bytes);
                self.reply(token, Ok(Answer::Output(slice)));
                Ok(())
            }
            Command::Restart => self.restart_debuggee(token),
            Command::Snapshot => {
                let snapshot = Box::new(self.snapshot());
                self.reply(token, Ok(Answer::Snapshot(snapshot)));
                Ok(())
            }
            Command::Terminate => self.end(token, Operation::Terminate, true),
            Command::Disconnect { terminate_debuggee } => {
                self.end(token, Operation::Disconnect, terminate_debuggee)
            }
        }
    }

    /// What the cache learns from a request sent by name: the plain filters of a
    /// `setExceptionBreakpoints` with options are cached like those set alone, so a
    /// restarted adapter gets them again (the options themselves are not kept).
    fn note_request(
        &mut self,
        command: &str,
        arguments: Option<&Value>,
    ) -> Result<(), SessionError> {
        if DapCommand::from_name(command) != Some(DapCommand::SetExceptionBreakpoints) {
            return Ok(());
        }
        let filters = arguments
            .and_then(|a| a.get("filters"))
            .and_then(|f| serde_json::from_value::<Vec<String>>(f.clone()).ok())
            .unwrap_or_default();
        self.breakpoints.set_exception_filters(filters)
    }

    /// Send an agent's DAP `command`, unless it is one the session sends itself as part
    /// of an operation (`raw_requests.rs`). A command that moves the program sets the
    /// session running at once; with `ticket`, its answer is the stop epoch current
    /// now (what to wait from) rather than the body.
    fn request(
        &mut self,
        token: Token,
        (as_asked, command): (Operation, String),
        arguments: Option<Value>,
        timeout: Option<Duration>,
        ticket: bool,
    ) -> Result<(), SessionError> {
        let known = DapCommand::from_name(&command);
        if let Some(refused) = known.and_then(crate::core::raw_requests::refusal) {
            return Err(refused);
        }
        // The state is checked as what the command does, not as what the caller says
        // it is: a `continue` sent "as a query" is still a continue.
        let operation = known.map_or(Operation::CustomRequest, Operation::of);
        if operation != as_asked {
            tracing::debug!(%command, %operation, %as_asked, "checked as its own operation");
        }
        self.check(operation)?;
        self.check_request(&command, arguments.as_ref())?;
        self.note_request(&command, arguments.as_ref())?;
        let arguments = self.with_default_context(&command, arguments);
        // A read at a stop is answered from this stop's cache, or fills it.
        let cache_key = crate::core::stop_cache::key(&command, arguments.as_ref())
            .filter(|_| self.state() == SessionState::Stopped);
        if cache_key.is_some() {
            if let Some(body) = self.stop_cache.get(&command, arguments.as_ref()) {
                self.reply(token, Ok(Answer::Body(body)));
                return Ok(());
            }
        }
        if let Some(key) = &cache_key {
            if self.stop_cache.follow(key, token) {
                return Ok(()); // answered with the same read's answer
            }
        }
        // A command this runtime does not know is taken to leave the program where it
        // is (it may still change it: the stop cache forgets everything it sends).
        let moves = ticket || known.is_some_and(|c| c.spec().moves_program);
        let purpose = if known == Some(DapCommand::Threads) {
            Purpose::Threads
        } else if let Some(thread_id) = self.reads_a_stack_top(known, arguments.as_ref()) {
            Purpose::StackTop {
                thread_id,
                epoch: self.stop_epoch,
            }
        } else if moves {
            Purpose::Moving {
                epoch: self.stop_epoch,
                ticket,
                was: self.state(),
            }
        } else {
            Purpose::Body
        };
        let tag = self.send_named(
            &command.clone(),
            arguments,
            timeout,
            Pending::Agent {
                token,
                command,
                purpose,
            },
        );
        if let Some(key) = cache_key {
            self.stop_cache.expect(tag, key, token);
        }
        if moves {
            // As for `continue`: a `stopped` event may beat the response.
            self.set_program(Program::Running);
        }
        Ok(())
    }

    /// The thread whose top frame a `stackTrace` with `arguments` reads at this stop,
    /// if it is one that does (from frame 0, while stopped).
    fn reads_a_stack_top(
        &self,
        known: Option<DapCommand>,
        arguments: Option<&Value>,
    ) -> Option<i64> {
        if known != Some(DapCommand::StackTrace) || self.state() != SessionState::Stopped {
            return None;
        }
        let arguments = arguments?;
        let from_top = arguments
            .get("startFrame")
            .is_none_or(|s| s.as_i64() == Some(0));
        from_top.then(|| arguments.get("threadId")?.as_i64())?
    }

    /// An `evaluate` without a context gets the one that answers with the plain value
    /// (`repl` for most adapters, `watch` for lldb-dap; see `quirks/`). An agent can
    /// still ask for another. The permission gate rates the request by the same
    /// [`Quirks::evaluate_context`](crate::quirks::Quirks::evaluate_context).
    fn with_default_context(&self, command: &str, arguments: Option<Value>) -> Option<Value> {
        if DapCommand::from_name(command) != Some(DapCommand::Evaluate) {
            return arguments;
        }
        let mut arguments = arguments.unwrap_or_else(|| json!({}));
        let context = self.quirks().evaluate_context(Some(&arguments));
        if let Some(fields) = arguments.as_object_mut() {
            fields.insert("context".into(), context);
        }
        Some(arguments)
    }
}
