//! The session core: the DAP state machine, breakpoint cache, threads, last stop and
//! output of one session, as plain code. Inputs in, effects out (see [`super::command`]).
//!
//! The launch handshake lives in `startup.rs` and adapter events in
//! `adapter_events.rs`; both extend [`SessionCore`].

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::core::breakpoints::BreakpointCache;
use crate::core::command::{
    Answer, Command, ControlAction, Effect, Input, StartPlan, StopInfo, StopOutcome, Tag, TimerId,
    Token,
};
use crate::core::output::OutputRing;
use crate::core::snapshot::SessionSnapshot;
use crate::core::startup::{Startup, StartupStep};
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;
use crate::events::EventKind;
use crate::limits;
use crate::wire::types::{
    Capabilities, FunctionBreakpoint, SetBreakpointsResponseBody, SourceBreakpoint,
    SteppingGranularity, Thread, ThreadsResponseBody,
};
use crate::wire::{Request, Response};

/// The limits a session core enforces.
#[derive(Debug, Clone)]
pub struct CoreConfig {
    /// Deadline of a request that names none
    /// (default [`limits::DEFAULT_REQUEST_TIMEOUT`]).
    pub request_timeout: Duration,
    /// Breakpoints per session (default [`limits::DEFAULT_MAX_BREAKPOINTS`]).
    pub max_breakpoints: usize,
    /// Output kept (default [`limits::DEFAULT_OUTPUT_BUFFER_BYTES`]).
    pub output_buffer_bytes: usize,
    /// The session whose adapter asked for this one (`startDebugging`), if any.
    pub parent: Option<crate::session::SessionId>,
}

impl Default for CoreConfig {
    fn default() -> Self {
        Self {
            request_timeout: limits::DEFAULT_REQUEST_TIMEOUT,
            max_breakpoints: limits::DEFAULT_MAX_BREAKPOINTS,
            output_buffer_bytes: limits::DEFAULT_OUTPUT_BUFFER_BYTES,
            parent: None,
        }
    }
}

/// What a pending DAP request is for.
#[derive(Debug)]
pub(super) enum Pending {
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
}

/// How to turn a successful response into an agent's answer.
#[derive(Debug)]
pub(super) enum Purpose {
    Body,
    Threads,
    SourceBreakpoints(PathBuf),
    /// The names sent, in order: the answer's verdicts are paired with them.
    FunctionBreakpoints(Vec<String>),
    Control {
        action: ControlAction,
        epoch: u64,
    },
}

/// An agent waiting for a stop.
#[derive(Debug)]
pub(super) struct StopWaiter {
    pub(super) token: Token,
    pub(super) after: u64,
    pub(super) timer: TimerId,
}

/// The pure state of one debug session.
#[derive(Debug)]
pub struct SessionCore {
    pub(super) config: CoreConfig,
    pub(super) state: SessionState,
    pub(super) plan: Option<StartPlan>,
    pub(super) capabilities: Capabilities,
    pub(super) capabilities_known: bool,
    pub(super) breakpoints: BreakpointCache,
    pub(super) threads: BTreeMap<i64, Thread>,
    pub(super) last_stop: Option<StopInfo>,
    pub(super) stop_epoch: u64,
    pub(super) exit_code: Option<i64>,
    pub(super) output: OutputRing,
    pub(super) pending: HashMap<Tag, Pending>,
    pub(super) next_tag: Tag,
    pub(super) next_timer: TimerId,
    pub(super) startup: Option<Startup>,
    pub(super) waiters: Vec<StopWaiter>,
    /// An adapter is started and has not closed.
    pub(super) adapter_live: bool,
    /// The live adapter sent `initialized`: breakpoints can go to it directly.
    pub(super) accepts_breakpoints: bool,
    /// A `disconnect` is on its way; the adapter is being ended.
    pub(super) ending: bool,
    /// This run's `terminated` event came.
    pub(super) terminated_seen: bool,
    pub(super) last_used: Option<Instant>,
    /// Adapter restarts after crashes so far.
    pub(super) restarts: u32,
    /// Why the session failed, or why the adapter last crashed.
    pub(super) failure: Option<String>,
    /// The crash awaiting the supervisor's decision (or the last one).
    pub(super) crash: Option<crate::error::AdapterExit>,
    pub(super) effects: Vec<Effect>,
}

impl SessionCore {
    /// A session that has not started.
    pub fn new(config: CoreConfig) -> Self {
        Self {
            breakpoints: BreakpointCache::new(config.max_breakpoints),
            output: OutputRing::new(config.output_buffer_bytes),
            config,
            state: SessionState::NotStarted,
            plan: None,
            capabilities: Capabilities::default(),
            capabilities_known: false,
            threads: BTreeMap::new(),
            last_stop: None,
            stop_epoch: 0,
            exit_code: None,
            pending: HashMap::new(),
            next_tag: 1,
            next_timer: 1,
            startup: None,
            waiters: Vec::new(),
            adapter_live: false,
            accepts_breakpoints: false,
            ending: false,
            terminated_seen: false,
            last_used: None,
            restarts: 0,
            failure: None,
            crash: None,
            effects: Vec::new(),
        }
    }

    /// Feed one input; returns what the shell must do, in order.
    pub fn handle(&mut self, input: Input) -> Vec<Effect> {
        match input {
            Input::Command { token, command, at } => {
                // Reading the state is not using the session (a listing of sessions
                // must not keep them all from being reaped).
                if !matches!(command, Command::Snapshot) {
                    self.last_used = Some(at);
                }
                if let Err(err) = self.on_command(token, command) {
                    self.reply(token, Err(err));
                }
            }
            Input::Response { tag, result } => self.on_response(tag, result),
            Input::Event(event) => self.on_event(event),
            Input::Closed(exit) => self.on_closed(exit),
            Input::Timer(id) => self.on_timer(id),
            Input::RestartScheduled { attempt, after } => self.on_restart_scheduled(attempt, after),
            Input::Restart { attempt } => self.on_restart(attempt),
            Input::Fail { reason } => self.on_fail(reason),
            Input::StartDebugging {
                request,
                configuration,
            } => self.on_start_debugging(&request, configuration),
        }
        std::mem::take(&mut self.effects)
    }

    /// The state.
    pub fn state(&self) -> SessionState {
        self.state
    }

    /// When an agent last asked anything of this session.
    pub fn last_used(&self) -> Option<Instant> {
        self.last_used
    }

    /// The cached state, as agents see it.
    pub fn snapshot(&self) -> SessionSnapshot {
        SessionSnapshot {
            state: self.state,
            allowed: self.state.allowed_operations(),
            adapter: self.plan.as_ref().map(|p| p.adapter.name.clone()),
            operation: self.plan.as_ref().map(|p| p.operation),
            program: self.plan.as_ref().and_then(|p| p.program.clone()),
            adapter_live: self.adapter_live,
            capabilities: self.capabilities.clone(),
            breakpoints: self.breakpoints.clone(),
            threads: self.threads.values().cloned().collect(),
            last_stop: self.last_stop.clone(),
            stop_epoch: self.stop_epoch,
            exit_code: self.exit_code,
            output_end: self.output.end(),
            output_truncated: self.output.truncated(),
            pending_requests: self.pending.len(),
            parent: self.config.parent,
            restarts: self.restarts,
            failure: self.failure.clone(),
            last_used: self.last_used,
        }
    }

    // ---- effects ----

    pub(super) fn reply(&mut self, token: Token, result: Result<Answer, SessionError>) {
        self.effects.push(Effect::Reply { token, result });
    }

    pub(super) fn emit(&mut self, kind: EventKind) {
        self.effects.push(Effect::Emit(kind));
    }

    pub(super) fn set_state(&mut self, to: SessionState) {
        if self.state != to {
            let from = std::mem::replace(&mut self.state, to);
            self.emit(EventKind::StateChanged { from, to });
        }
    }

    pub(super) fn timer(&mut self, after: Duration) -> TimerId {
        let id = self.next_timer;
        self.next_timer += 1;
        self.effects.push(Effect::StartTimer { id, after });
        id
    }

    pub(super) fn send(
        &mut self,
        command: &str,
        arguments: Option<Value>,
        timeout: Option<Duration>,
        pending: Pending,
    ) -> Tag {
        let tag = self.next_tag;
        self.next_tag += 1;
        let timeout = limits::clamp_request_timeout(timeout.unwrap_or(self.config.request_timeout));
        self.pending.insert(tag, pending);
        self.effects.push(Effect::Send {
            tag,
            request: Request::new(command, arguments),
            timeout,
        });
        tag
    }

    pub(super) fn check(&self, op: Operation) -> Result<(), SessionError> {
        if self.state == SessionState::Failed {
            Err(self.failed_error())
        } else if self.state.allows(op) {
            Ok(())
        } else {
            Err(SessionError::InvalidState {
                operation: op,
                state: self.state,
                allowed: self.state.allowed_operations(),
            })
        }
    }

    fn adapter_name(&self) -> String {
        self.plan
            .as_ref()
            .map_or_else(|| "(none yet)".to_string(), |p| p.adapter.name.clone())
    }

    fn unsupported(&self, capability: &str) -> SessionError {
        SessionError::Unsupported {
            adapter: self.adapter_name(),
            capability: capability.to_string(),
        }
    }

    // ---- agent commands ----

    fn on_command(&mut self, token: Token, command: Command) -> Result<(), SessionError> {
        match command {
            Command::Start(plan) => self.start(token, *plan),
            Command::SetBreakpoints { file, breakpoints } => {
                self.check(Operation::SetBreakpoints)?;
                self.check_source_features(&breakpoints)?;
                self.breakpoints.set_file(&file, breakpoints)?;
                self.sync_file(token, file);
                Ok(())
            }
            Command::AddBreakpoint { file, breakpoint } => {
                self.check(Operation::SetBreakpoints)?;
                self.check_source_features(std::slice::from_ref(&breakpoint))?;
                self.breakpoints.add(&file, breakpoint)?;
                self.sync_file(token, file);
                Ok(())
            }
            Command::RemoveBreakpoint { file, line } => {
                self.check(Operation::SetBreakpoints)?;
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
            Command::SetFunctionBreakpoints(list) => {
                self.check(Operation::SetBreakpoints)?;
                if self.capabilities_known
                    && self.capabilities.supports_function_breakpoints != Some(true)
                {
                    return Err(self.unsupported("function breakpoints"));
                }
                self.breakpoints.set_functions(list)?;
                self.sync_functions(token);
                Ok(())
            }
            Command::AddFunctionBreakpoint(bp) => {
                self.check(Operation::SetBreakpoints)?;
                if self.capabilities_known
                    && self.capabilities.supports_function_breakpoints != Some(true)
                {
                    return Err(self.unsupported("function breakpoints"));
                }
                self.breakpoints.add_function(bp)?;
                self.sync_functions(token);
                Ok(())
            }
            Command::RemoveFunctionBreakpoint(name) => {
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
            Command::SetExceptionBreakpoints(filters) => {
                self.check(Operation::SetExceptionBreakpoints)?;
                self.breakpoints.set_exception_filters(filters)?;
                if self.adapter_takes_breakpoints() {
                    let args = serde_json::to_value(self.breakpoints.exception_arguments())
                        .map_err(|e| SessionError::Protocol(e.to_string()))?;
                    self.send(
                        "setExceptionBreakpoints",
                        Some(args),
                        None,
                        Pending::Agent {
                            token,
                            command: "setExceptionBreakpoints".into(),
                            purpose: Purpose::Body,
                        },
                    );
                } else {
                    self.reply(token, Ok(Answer::Done));
                }
                Ok(())
            }
            Command::Control {
                action,
                thread_id,
                granularity,
            } => self.control(token, action, thread_id, granularity),
            Command::WaitForStop { after, timeout } => {
                if self.state == SessionState::Failed {
                    return Err(self.failed_error());
                }
                self.wait_for_stop(token, after, timeout);
                Ok(())
            }
            Command::Request {
                operation,
                command,
                arguments,
                timeout,
            } => {
                self.check(operation)?;
                if let Some(flag) = crate::core::capability::required_capability(&command) {
                    if self.capabilities_known
                        && !crate::core::capability::has_capability(&self.capabilities, flag)
                    {
                        return Err(self.unsupported(&format!("`{command}` ({flag})")));
                    }
                }
                let arguments = self.with_default_context(&command, arguments);
                let purpose = if command == "threads" {
                    Purpose::Threads
                } else {
                    Purpose::Body
                };
                self.send(
                    &command.clone(),
                    arguments,
                    timeout,
                    Pending::Agent {
                        token,
                        command,
                        purpose,
                    },
                );
                Ok(())
            }
            Command::Output { since, max_bytes } => {
                let slice = self.output.read_since(since, max_bytes);
                self.reply(token, Ok(Answer::Output(slice)));
                Ok(())
            }
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

    /// An `evaluate` without a context gets the one that answers with the plain value:
    /// `repl` for most adapters, `watch` for lldb-dap (whose `repl` answers with lldb's
    /// command output, `(int) $0 = 85`). An agent can still ask for `repl` there.
    fn with_default_context(&self, command: &str, arguments: Option<Value>) -> Option<Value> {
        if command != "evaluate" {
            return arguments;
        }
        let mut arguments = arguments.unwrap_or_else(|| json!({}));
        if arguments.get("context").is_none() {
            let lldb = self
                .plan
                .as_ref()
                .is_some_and(|p| p.adapter.flavor == crate::registry::AdapterFlavor::LldbDap);
            arguments["context"] = json!(if lldb { "watch" } else { "repl" });
        }
        Some(arguments)
    }

    /// Whether breakpoint changes go to the adapter now: it is configured and is not
    /// being let go (after the debuggee ended they wait in the cache for the next run).
    fn adapter_takes_breakpoints(&self) -> bool {
        self.adapter_live && self.accepts_breakpoints && !self.ending
    }

    fn check_source_features(&self, list: &[SourceBreakpoint]) -> Result<(), SessionError> {
        if let Some(bad) = list.iter().find(|b| b.line < 1) {
            return Err(SessionError::InvalidArgument(format!(
                "breakpoint line {} is not a line: lines count from 1",
                bad.line
            )));
        }
        if !self.capabilities_known {
            return Ok(());
        }
        let caps = &self.capabilities;
        let needs = [
            (
                list.iter().any(|b| b.condition.is_some()),
                caps.supports_conditional_breakpoints,
                "conditional breakpoints (supportsConditionalBreakpoints)",
            ),
            (
                list.iter().any(|b| b.hit_condition.is_some()),
                caps.supports_hit_conditional_breakpoints,
                "hit-count breakpoints (supportsHitConditionalBreakpoints)",
            ),
            (
                list.iter().any(|b| b.log_message.is_some()),
                caps.supports_log_points,
                "logpoints (supportsLogPoints)",
            ),
        ];
        for (used, supported, name) in needs {
            if used && supported != Some(true) {
                return Err(self.unsupported(name));
            }
        }
        Ok(())
    }

    /// Send `file`'s whole list to the adapter, or answer from the cache when the
    /// adapter is not ready for breakpoints (they go out during configuration).
    fn sync_file(&mut self, token: Token, file: PathBuf) {
        if self.adapter_takes_breakpoints() {
            let args = serde_json::to_value(self.breakpoints.arguments_for(&file)).ok();
            self.send(
                "setBreakpoints",
                args,
                None,
                Pending::Agent {
                    token,
                    command: "setBreakpoints".into(),
                    purpose: Purpose::SourceBreakpoints(file),
                },
            );
        } else {
            let records = self.breakpoints.file(&file).to_vec();
            self.reply(token, Ok(Answer::SourceBreakpoints(records)));
        }
    }

    fn sync_functions(&mut self, token: Token) {
        if self.adapter_takes_breakpoints() {
            let args = serde_json::to_value(self.breakpoints.function_arguments()).ok();
            self.send(
                "setFunctionBreakpoints",
                args,
                None,
                Pending::Agent {
                    token,
                    command: "setFunctionBreakpoints".into(),
                    purpose: Purpose::FunctionBreakpoints(self.breakpoints.function_names()),
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

    fn default_thread(&self) -> Option<i64> {
        self.last_stop
            .as_ref()
            .and_then(|s| s.thread_id)
            .or_else(|| self.threads.keys().next().copied())
    }

    fn control(
        &mut self,
        token: Token,
        action: ControlAction,
        thread_id: Option<i64>,
        granularity: Option<SteppingGranularity>,
    ) -> Result<(), SessionError> {
        self.check(action.operation())?;
        let thread = thread_id.or_else(|| self.default_thread()).ok_or_else(|| {
            SessionError::InvalidArgument(
                "no thread is known yet; list the threads and pass a thread_id".into(),
            )
        })?;
        let mut args = json!({ "threadId": thread });
        if let Some(g) = granularity {
            args["granularity"] = serde_json::to_value(g).unwrap_or(Value::Null);
        }
        let epoch = self.stop_epoch;
        self.send(
            action.command(),
            Some(args),
            None,
            Pending::Agent {
                token,
                command: action.command().into(),
                purpose: Purpose::Control { action, epoch },
            },
        );
        if action != ControlAction::Pause {
            // Running from the moment the request leaves: a `stopped` event may beat the
            // response, and must not be overwritten by it.
            self.set_state(SessionState::Running);
        }
        Ok(())
    }

    fn wait_for_stop(&mut self, token: Token, after: u64, timeout: Duration) {
        // dlv tells the exit status only while it is being let go: wait for that.
        let exit_status_coming = self.exit_code.is_none() && self.ending && self.adapter_live;
        let ready = if self.state == SessionState::Terminated {
            (!exit_status_coming).then_some(StopOutcome::Terminated {
                exit_code: self.exit_code,
            })
        } else {
            self.last_stop
                .as_ref()
                .filter(|s| s.epoch > after)
                .map(|s| StopOutcome::Stopped(s.clone()))
        };
        match ready {
            Some(outcome) => self.reply(token, Ok(Answer::Stop(outcome))),
            None => {
                let timer = self.timer(timeout);
                self.waiters.push(StopWaiter {
                    token,
                    after,
                    timer,
                });
            }
        }
    }

    /// Answer every waiter the latest stop or end satisfies.
    pub(super) fn wake_waiters(&mut self) {
        let outcome = if self.state == SessionState::Terminated {
            StopOutcome::Terminated {
                exit_code: self.exit_code,
            }
        } else if let Some(stop) = &self.last_stop {
            StopOutcome::Stopped(stop.clone())
        } else {
            return;
        };
        let epoch = self.stop_epoch;
        let terminated = self.state == SessionState::Terminated;
        let (ready, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.waiters)
            .into_iter()
            .partition(|w| terminated || w.after < epoch);
        self.waiters = waiting;
        for w in ready {
            self.reply(w.token, Ok(Answer::Stop(outcome.clone())));
        }
    }

    fn end(
        &mut self,
        token: Token,
        op: Operation,
        terminate_debuggee: bool,
    ) -> Result<(), SessionError> {
        self.check(op)?;
        self.fail_startup(format!("ended by a {op} request before it finished"));
        if !self.adapter_live || self.ending {
            self.set_state(SessionState::Terminated);
            self.wake_waiters();
            self.reply(token, Ok(Answer::Done));
            return Ok(());
        }
        self.ending = true;
        self.send(
            "disconnect",
            Some(json!({ "restart": false, "terminateDebuggee": terminate_debuggee })),
            Some(limits::MIN_REQUEST_TIMEOUT),
            Pending::Ending { token: Some(token) },
        );
        Ok(())
    }

    /// The `disconnect` was answered (or failed): the adapter is ended either way.
    fn finish_ending(&mut self, token: Option<Token>) {
        self.set_state(SessionState::Terminated);
        self.wake_waiters();
        self.effects.push(Effect::StopAdapter);
        if let Some(token) = token {
            self.reply(token, Ok(Answer::Done));
        }
    }

    // ---- responses ----

    fn on_response(&mut self, tag: Tag, result: Result<Response, SessionError>) {
        let Some(pending) = self.pending.remove(&tag) else {
            tracing::debug!(tag, "response for a request no longer pending; dropped");
            return;
        };
        match pending {
            Pending::Startup(step) => self.on_startup_response(step, result),
            Pending::Ending { token } => self.finish_ending(token),
            Pending::Agent {
                token,
                command,
                purpose,
            } => match result.and_then(|r| success_or_error(&command, r)) {
                Ok(response) => self.on_agent_success(token, purpose, response),
                Err(err) => self.on_agent_failure(token, purpose, err),
            },
        }
    }

    fn on_agent_success(&mut self, token: Token, purpose: Purpose, response: Response) {
        let answer = match purpose {
            Purpose::Body => Answer::Body(response.body_or_empty()),
            Purpose::Threads => {
                if let Ok(body) = response.parse_body::<ThreadsResponseBody>() {
                    self.threads = body.threads.into_iter().map(|t| (t.id, t)).collect();
                }
                Answer::Body(response.body_or_empty())
            }
            Purpose::SourceBreakpoints(file) => {
                let body: SetBreakpointsResponseBody = response.parse_body().unwrap_or_default();
                self.breakpoints.record_file_result(&file, body.breakpoints);
                Answer::SourceBreakpoints(self.breakpoints.file(&file).to_vec())
            }
            Purpose::FunctionBreakpoints(sent) => {
                let body: SetBreakpointsResponseBody = response.parse_body().unwrap_or_default();
                self.breakpoints
                    .record_function_result(&sent, body.breakpoints.clone());
                Answer::Breakpoints(body.breakpoints)
            }
            Purpose::Control { epoch, .. } => Answer::Resumed { epoch },
        };
        self.reply(token, Ok(answer));
    }

    fn on_agent_failure(&mut self, token: Token, purpose: Purpose, err: SessionError) {
        if let Purpose::Control { action, epoch } = purpose {
            // The adapter did not resume: undo the optimistic Running.
            if action != ControlAction::Pause
                && self.state == SessionState::Running
                && self.stop_epoch == epoch
                && self.adapter_live
            {
                self.set_state(SessionState::Stopped);
            }
        }
        self.reply(token, Err(err));
    }

    // ---- the adapter closing, timers ----

    fn on_closed(&mut self, exit: crate::error::AdapterExit) {
        if matches!(self.state, SessionState::Restarting | SessionState::Failed) {
            // An adapter already given up on (a restart that did not come up).
            self.adapter_live = false;
            return;
        }
        if self.is_crash(&exit) {
            self.on_crash(exit);
            return;
        }
        self.adapter_live = false;
        self.accepts_breakpoints = false;
        self.ending = false;
        self.fail_startup(format!("the adapter is gone: {exit}"));
        let error = SessionError::AdapterExited { exit: exit.clone() };
        for (_, pending) in std::mem::take(&mut self.pending) {
            match pending {
                Pending::Agent { token, .. } => self.reply(token, Err(error.clone())),
                Pending::Ending { token: Some(token) } => self.reply(token, Ok(Answer::Done)),
                Pending::Ending { token: None } | Pending::Startup(_) => {}
            }
        }
        self.set_state(SessionState::Terminated);
        self.wake_waiters();
        self.emit(EventKind::AdapterExited(exit));
    }

    fn on_timer(&mut self, id: TimerId) {
        if self.startup.as_ref().is_some_and(|s| s.timer == id) {
            let waiting_for = if self.capabilities_known {
                self.startup.as_ref().map_or("", |s| s.waiting_for())
            } else {
                "the answer to `initialize`"
            };
            let after = self.config.request_timeout.as_secs();
            self.fail_startup(format!(
                "the adapter did not finish starting within {after}s (still waiting for {waiting_for})"
            ));
            return;
        }
        if let Some(pos) = self.waiters.iter().position(|w| w.timer == id) {
            let waiter = self.waiters.remove(pos);
            self.reply(waiter.token, Ok(Answer::Stop(StopOutcome::TimedOut)));
        }
    }
}

/// A response with `success: false` becomes the adapter's error.
pub(super) fn success_or_error(
    command: &str,
    response: Response,
) -> Result<Response, SessionError> {
    if response.success {
        return Ok(response);
    }
    // Adapters put the human text either in `message` or in body.error.format.
    let detail = response
        .body
        .as_ref()
        .and_then(|b| b.pointer("/error/format"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let message = match (response.message.clone(), detail) {
        (Some(m), Some(d)) if m != d => format!("{m}: {d}"),
        (Some(m), _) => m,
        (None, Some(d)) => d,
        (None, None) => "no reason given".into(),
    };
    Err(SessionError::Adapter {
        command: command.to_string(),
        message,
        body: response.body,
    })
}

/// A function breakpoint by name.
pub fn function_breakpoint(name: impl Into<String>) -> FunctionBreakpoint {
    FunctionBreakpoint {
        name: name.into(),
        ..FunctionBreakpoint::default()
    }
}
