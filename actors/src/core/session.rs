//! The session core: the DAP state machine, breakpoint cache, threads, last stop and
//! output of one session, as plain code. Inputs in, effects out (see [`super::command`]).
//!
//! This file holds the state and what every part shares (sending, replying,
//! publishing, phase changes, state checks). Where the session is in its life is one
//! value, its [`Phase`] (`phase.rs`), whose variants carry what exists in them (a
//! handshake while starting, a crash while a restart is due, ...); the agent-facing
//! [`SessionState`] is computed from it. What the current adapter run has said is
//! `run.rs`, replaced whole at each start; what is in flight is `pending.rs`.
//!
//! The parts extend [`SessionCore`] in files of their own, a file per phase: the
//! handshake (`starting.rs`), ending (`ending.rs`, with `graceful.rs` and
//! `relaunch.rs`), crashes (`crashed.rs`), failure (`failed.rs`), a program in a
//! session of its own (`program_session.rs`); and a file per input: an agent's command
//! (`commands.rs`, `breakpoint_commands.rs`, `control.rs`), adapter events
//! (`adapter_events.rs`), responses and timers (`responses.rs`), child sessions
//! (`children.rs`). The answers of a stop's reads are kept in `stop_cache.rs`.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;

use crate::core::breakpoints::BreakpointCache;
use crate::core::capability;
use crate::core::command::{Answer, Effect, Input, StartPlan, Tag, TimerId, Token};
use crate::core::output::OutputRing;
use crate::core::pending::{Pending, StopWaiter};
use crate::core::phase::{GracefulWait, Phase, Program};
use crate::core::session_event::EventKind;
use crate::core::snapshot::SessionSnapshot;
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;
use crate::limits;
use crate::wire::types::{Capabilities, FunctionBreakpoint};
use crate::wire::{DapCommand, Request};

/// The limits a session core enforces.
#[derive(Debug, Clone)]
pub struct CoreConfig {
    /// Deadline of a request that names none
    /// (default [`limits::DEFAULT_REQUEST_TIMEOUT`]).
    pub request_timeout: Duration,
    /// Deadline of a launch or attach handshake whose plan names none; `None` (the
    /// default): the adapter family's own (see [`limits::DEFAULT_LAUNCH_TIMEOUT`]).
    pub launch_timeout: Option<Duration>,
    /// Breakpoints per session (default [`limits::DEFAULT_MAX_BREAKPOINTS`]).
    pub max_breakpoints: usize,
    /// Output kept (default [`limits::DEFAULT_OUTPUT_BUFFER_BYTES`]).
    pub output_buffer_bytes: usize,
    /// Tracepoint rows kept (default [`limits::DEFAULT_MAX_TRACE_ROWS`]).
    pub max_trace_rows: usize,
    /// Calls recorded a second (default [`limits::DEFAULT_MAX_CALLS_PER_SECOND`]).
    pub max_calls_per_second: u32,
    /// How long a graceful terminate gives the debuggee (default
    /// [`limits::DEFAULT_TERMINATE_GRACE`]).
    pub terminate_grace: Duration,
    /// The deadline of the `disconnect` that lets the adapter go (default
    /// [`limits::DEFAULT_DISCONNECT_TIMEOUT`]).
    pub disconnect_timeout: Duration,
    /// The session whose adapter asked for this one (`startDebugging`), if any.
    pub parent: Option<crate::core::session_id::SessionId>,
}

impl Default for CoreConfig {
    fn default() -> Self {
        Self {
            request_timeout: limits::DEFAULT_REQUEST_TIMEOUT,
            launch_timeout: None,
            max_breakpoints: limits::DEFAULT_MAX_BREAKPOINTS,
            output_buffer_bytes: limits::DEFAULT_OUTPUT_BUFFER_BYTES,
            max_trace_rows: limits::DEFAULT_MAX_TRACE_ROWS,
            max_calls_per_second: limits::DEFAULT_MAX_CALLS_PER_SECOND,
            terminate_grace: limits::DEFAULT_TERMINATE_GRACE,
            disconnect_timeout: limits::DEFAULT_DISCONNECT_TIMEOUT,
            parent: None,
        }
    }
}

/// The pure state of one debug session.
#[derive(Debug)]
pub struct SessionCore {
    pub(super) config: CoreConfig,
    /// Where the session is in its life (`phase.rs`).
    pub(super) phase: Phase,
    pub(super) plan: Option<StartPlan>,
    pub(super) breakpoints: BreakpointCache,
    pub(super) stop_epoch: u64,
    pub(super) output: OutputRing,
    /// Tracepoints and the rows their hits recorded.
    pub(super) trace: crate::core::trace::TraceLog,
    /// Call traces: patterns, open calls (`calls.rs`).
    pub(super) calls: crate::core::calls::CallTracker,
    /// The answers of this stop's reads (`stop_cache.rs`).
    pub(super) stop_cache: crate::core::stop_cache::StopCache,
    pub(super) pending: HashMap<Tag, Pending>,
    pub(super) next_tag: Tag,
    pub(super) next_timer: TimerId,
    /// Timers running and withdrawn calls, given back once let go (`releases.rs`).
    pub(super) releases: crate::core::releases::Releases,
    pub(super) waiters: Vec<StopWaiter>,
    /// The deadline an agent gave the command being handled
    /// ([`Command::WithTimeout`]), for the requests it sends.
    pub(super) command_timeout: Option<Duration>,
    /// What the current adapter run has said (`run.rs`).
    pub(super) run: crate::core::run::Run,
    /// Adapter restarts after crashes so far.
    pub(super) restarts: u32,
    /// Why the adapter last crashed, if it ever did: the snapshot's `failure` until
    /// the session fails for good (then the failure's own reason).
    pub(super) last_crash: Option<String>,
    pub(super) effects: Vec<Effect>,
}

impl SessionCore {
    /// A session that has not started.
    pub fn new(config: CoreConfig) -> Self {
        Self {
            breakpoints: BreakpointCache::new(config.max_breakpoints),
            output: OutputRing::new(config.output_buffer_bytes),
            trace: crate::core::trace::TraceLog::new(config.max_trace_rows),
            calls: crate::core::calls::CallTracker::new(config.max_calls_per_second),
            stop_cache: Default::default(),
            config,
            phase: Phase::NotStarted,
            plan: None,
            stop_epoch: 0,
            pending: HashMap::new(),
            next_tag: 1,
            next_timer: 1,
            releases: Default::default(),
            waiters: Vec::new(),
            command_timeout: None,
            run: Default::default(),
            restarts: 0,
            last_crash: None,
            effects: Vec::new(),
        }
    }

    /// Feed one input; returns what the shell must do, in order.
    pub fn handle(&mut self, input: Input) -> Vec<Effect> {
        let input = self.map_incoming_paths(input);
        match input {
            Input::Command { token, command } => {
                if let Err(err) = self.on_command(token, command) {
                    self.reply(token, Err(err));
                }
            }
            Input::Response { tag, result } => self.on_response(tag, result),
            Input::Event(event) => self.on_event(event),
            Input::Closed(exit) => self.on_closed(exit),
            Input::Timer(id) => {
                self.releases.fired(id);
                self.on_timer(id)
            }
            Input::AdapterRestartScheduled {
                attempt,
                after,
                crash,
            } => self.on_adapter_restart_scheduled(attempt, after, crash),
            Input::RestartAdapter { attempt, crash } => self.restart_adapter(attempt, crash),
            Input::Fail { cause } => self.on_fail(cause),
            Input::Withdraw { token } => self.withdraw(token),
            Input::StartDebugging {
                request,
                configuration,
                server,
            } => self.on_start_debugging(&request, configuration, server),
            Input::Bootstrap(input) => self.on_bootstrap(input),
        }
        self.release_what_is_let_go();
        let mut effects = std::mem::take(&mut self.effects);
        self.map_outgoing_paths(&mut effects);
        effects
    }

    /// Cancel the timers and release the withdrawn calls nothing holds any more
    /// (`releases.rs`).
    fn release_what_is_let_go(&mut self) {
        if self.releases.is_empty() {
            return;
        }
        let timers = self.timers_held().collect();
        let tokens = self.tokens_held().collect();
        let gone = self.releases.let_go(&timers, &tokens);
        self.effects.extend(gone);
    }

    /// Every timer some part of the core still waits on.
    pub(super) fn timers_held(&self) -> impl Iterator<Item = TimerId> + '_ {
        let phase = match &self.phase {
            Phase::Starting { handshake, .. } => vec![Some(handshake.timer), handshake.held_retry],
            Phase::Ending {
                graceful: Some(graceful),
                ..
            } => vec![Some(graceful.timer)],
            Phase::Severed { timer, .. } => vec![Some(*timer)],
            _ => Vec::new(),
        };
        let waiters = self.waiters.iter().map(|w| w.timer);
        let bootstrap = self.run.bootstrap.iter().flat_map(|b| b.timers());
        phase.into_iter().flatten().chain(waiters).chain(bootstrap)
    }

    /// Every call some part of the core still holds: requests of it pending, a start
    /// or an end under way for it.
    pub(super) fn tokens_held(&self) -> impl Iterator<Item = Token> + '_ {
        let pending = self.pending.values().filter_map(|pending| match pending {
            Pending::Agent { token, .. } => Some(*token),
            Pending::Ending { token } => *token,
            Pending::Startup(_)
            | Pending::TraceStop(_)
            | Pending::CallStop(_)
            | Pending::StopHits(_) => None,
        });
        let startup = self.phase.handshake().and_then(|h| h.starter.token());
        let graceful = self.phase.graceful().and_then(|g| match g.awaits {
            GracefulWait::End(token) => Some(token),
            GracefulWait::Answer | GracefulWait::LateAnswer => None,
        });
        let relaunch = self.phase.relaunch().map(|r| r.token);
        let waiters = self.waiters.iter().map(|w| w.token);
        pending
            .chain(startup)
            .chain(graceful)
            .chain(relaunch)
            .chain(waiters)
    }

    /// How this session's adapter departs from plain DAP (plain DAP before a plan).
    pub(super) fn quirks(&self) -> &'static crate::quirks::Quirks {
        self.plan
            .as_ref()
            .map_or(&crate::quirks::Quirks::NONE, |p| p.adapter.flavor.quirks())
    }

    /// The agent-facing state, computed from the phase.
    pub fn state(&self) -> SessionState {
        self.phase.state()
    }

    /// Why the session failed, or why its adapter last crashed.
    pub(super) fn failure(&self) -> Option<std::borrow::Cow<'_, str>> {
        match &self.phase {
            Phase::Failed(cause) => Some(cause.to_string().into()),
            _ => self.last_crash.as_deref().map(Into::into),
        }
    }

    /// The cached state, as agents see it.
    pub fn snapshot(&self) -> SessionSnapshot {
        let state = self.state();
        SessionSnapshot {
            state,
            allowed: crate::core::post_mortem::allowed_for(state, self.core_file().is_some()),
            core_file: self.core_file().map(|f| f.display().to_string()),
            core_signal: self.plan.as_ref().and_then(|p| p.core_signal),
            adapter: self.plan.as_ref().map(|p| p.adapter.name.clone()),
            operation: self.plan.as_ref().map(|p| p.operation),
            adapter_flavor: self.plan.as_ref().map(|p| p.adapter.flavor),
            attached_to: self.attach_target().cloned(),
            program: self.plan.as_ref().and_then(|p| p.program.clone()),
            adapter_live: self.phase.is_live(),
            pages_variables: self
                .plan
                .as_ref()
                .is_some_and(|p| p.adapter.def.pages_variables),
            capabilities: self.run.capabilities.clone().unwrap_or_default(),
            breakpoints: self.breakpoints.clone(),
            threads: self.run.threads.values().cloned().collect(),
            last_stop: self.run.last_stop.clone(),
            stop_epoch: self.stop_epoch,
            top_frame: self
                .run
                .top_frame
                .filter(|(epoch, _)| *epoch == self.stop_epoch && state == SessionState::Stopped)
                .map(|(_, top)| top),
            exit_code: self.run.exit_code,
            output_end: self.output.end(),
            output_truncated: self.output.truncated(),
            pending_requests: self.pending.len(),
            traffic: Default::default(),
            // The session's shared record has it; the handle fills it in.
            last_used: None,
            parent: self.config.parent,
            restarts: self.restarts,
            failure: self.failure().map(String::from),
        }
    }

    // ---- effects ----

    pub(super) fn reply(&mut self, token: Token, result: Result<Answer, SessionError>) {
        // Agents who asked for the same read while it was on its way get its answer.
        for follower in self.stop_cache.followers(token) {
            self.effects.push(Effect::Reply {
                token: follower,
                result: result.clone(),
            });
        }
        self.effects.push(Effect::Reply { token, result });
    }

    pub(super) fn emit(&mut self, kind: EventKind) {
        self.effects.push(Effect::Emit(kind));
    }

    /// Enter `phase`, publishing the state change it makes.
    pub(super) fn enter(&mut self, phase: Phase) {
        let from = self.state();
        self.phase = phase;
        self.state_changed(from);
    }

    /// Move the program to `to` where an adapter runs (or just broke); with none, an
    /// ended program ends the phase.
    pub(super) fn set_program(&mut self, to: Program) {
        let from = self.state();
        match self.phase.program_mut() {
            Some(program) => *program = to,
            None if to == Program::Ended => self.phase.end(),
            None => {}
        }
        self.state_changed(from);
    }

    /// Change the phase in place with `change`, publishing the state change it makes.
    pub(super) fn change_phase<T>(&mut self, change: impl FnOnce(&mut Phase) -> T) -> T {
        let from = self.state();
        let out = change(&mut self.phase);
        self.state_changed(from);
        out
    }

    fn state_changed(&mut self, from: SessionState) {
        let to = self.state();
        if to != SessionState::Stopped {
            // What a stop's reads answered holds only while it lasts.
            self.stop_cache.invalidate();
        }
        if from != to {
            self.emit(EventKind::StateChanged { from, to });
        }
    }

    pub(super) fn timer(&mut self, after: Duration) -> TimerId {
        let id = self.next_timer;
        self.next_timer += 1;
        self.releases.started(id);
        self.effects.push(Effect::StartTimer { id, after });
        id
    }

    /// Send one of the requests this runtime knows.
    pub(super) fn send(
        &mut self,
        command: DapCommand,
        arguments: Option<Value>,
        timeout: Option<Duration>,
        pending: Pending,
    ) -> Tag {
        self.send_named(command.name(), arguments, timeout, pending)
    }

    /// Send a request by its wire name: an agent's, which may be an adapter's own.
    pub(super) fn send_named(
        &mut self,
        command: &str,
        arguments: Option<Value>,
        timeout: Option<Duration>,
        pending: Pending,
    ) -> Tag {
        let tag = self.next_tag;
        self.next_tag += 1;
        // An agent's deadline covers the agent's requests, not a handshake or an
        // ending its command sets off; a handshake's requests have the handshake's.
        let timeout = match (&pending, self.phase.handshake()) {
            (Pending::Startup(_), Some(handshake)) => handshake.deadline,
            (Pending::Agent { .. }, _) => limits::clamp_request_timeout(
                timeout
                    .or(self.command_timeout)
                    .unwrap_or(self.config.request_timeout),
            ),
            _ => limits::clamp_request_timeout(timeout.unwrap_or(self.config.request_timeout)),
        };
        self.pending.insert(tag, pending);
        self.stop_cache.on_send(command);
        self.effects.push(Effect::Send {
            tag,
            request: Request::new(command, arguments),
            timeout,
        });
        tag
    }

    /// What the current adapter advertised, or nothing (plain DAP) while that is not
    /// known.
    pub(super) fn advertised(&self) -> &Capabilities {
        static NOTHING: std::sync::LazyLock<Capabilities> =
            std::sync::LazyLock::new(Capabilities::default);
        self.run.capabilities.as_ref().unwrap_or(&NOTHING)
    }

    /// Whether the session's state takes `op` (see [`crate::core::state::check`]).
    pub(super) fn check(&self, op: Operation) -> Result<(), SessionError> {
        crate::core::post_mortem::check_session(
            self.state(),
            self.failure().as_deref(),
            self.core_file().is_some(),
            op,
        )
    }

    /// Refuse `command` with `arguments` when the adapter did not advertise a
    /// capability the request, or one of its arguments, needs (see
    /// [`crate::core::capability`]). Every request the core builds for an agent
    /// passes here before it is sent; until the capabilities are known nothing is
    /// refused.
    pub(super) fn check_request(
        &self,
        command: &str,
        arguments: Option<&Value>,
    ) -> Result<(), SessionError> {
        let Some(caps) = &self.run.capabilities else {
            return Ok(());
        };
        let flag = capability::required_capability(command);
        if let Some(flag) = flag {
            if !capability::has_capability(caps, flag) {
                return Err(self.unsupported(&format!("`{command}` ({flag})")));
            }
        }
        // An adapter that dies on commands it does not know gets none of them; one
        // whose capability it advertised it serves, whatever the list says.
        let served = self
            .plan
            .as_ref()
            .and_then(|p| p.adapter.def.served_commands.as_ref());
        if let Some(served) = served {
            if flag.is_none() && !served.serves(command) {
                return Err(self.unsupported(&format!("`{command}` ({})", served.reason)));
            }
        }
        let Some(arguments) = arguments else {
            return Ok(());
        };
        for (flag, what) in capability::argument_requirements(command, arguments) {
            if !capability::has_capability(caps, flag) {
                return Err(self.unsupported(&format!("{what} ({flag})")));
            }
        }
        Ok(())
    }

    fn adapter_name(&self) -> String {
        self.plan
            .as_ref()
            .map_or_else(|| "(none yet)".to_string(), |p| p.adapter.name.clone())
    }

    pub(super) fn unsupported(&self, capability: &str) -> SessionError {
        SessionError::Unsupported {
            adapter: self.adapter_name(),
            capability: capability.to_string(),
        }
    }
}

/// A function breakpoint by name.
pub fn function_breakpoint(name: impl Into<String>) -> FunctionBreakpoint {
    FunctionBreakpoint {
        name: name.into(),
        ..FunctionBreakpoint::default()
    }
}
