//! The launch handshake, in the order every adapter here accepts:
//!
//! 1. `initialize`, awaited;
//! 2. `launch` / `attach` sent but not awaited (debugpy answers it only after
//!    `configurationDone`; lldb-dap and dlv answer it before `initialized`);
//! 3. on the `initialized` event: every file's full breakpoint list, function
//!    breakpoints, exception filters, then `configurationDone` with `{}` where supported
//!    (under JdiDapServer, once the launched program is held: `held_start.rs`);
//! 4. the agent is answered once `launch` has succeeded and configuration is done.
//!
//! The handshake has a deadline of its own, for the whole and for each of its requests
//! (`launch` may build the program first): the plan's `launch_timeout`, else the
//! deadline of the `SessionHandle::with_timeout` view that started it, else the
//! runtime's ([`crate::limits::DEFAULT_LAUNCH_TIMEOUT`]).
//!
//! A failed `launch` is reported in the adapter's own words, not as a follow-on error.
//!
//! This is the behaviour of the [`Phase::Starting`] phase; the handshake's data is
//! `handshake.rs`.

use serde_json::{json, Value};

use crate::core::answer::answer_of;
use crate::core::bootstrap::bootstrap_for;
use crate::core::command::{Answer, Effect, StartPlan, Token};
use crate::core::handshake::{
    initialize_arguments, Configuration, Handshake, StartRequest, Starter, StartupStep,
};
use crate::core::pending::Pending;
use crate::core::phase::{Phase, Program};
use crate::core::run::Run;
use crate::core::session::SessionCore;
use crate::core::session_event::EventKind;
use crate::core::state::{Operation, SessionState};
use crate::error::{SessionError, TransportError};
use crate::limits;
use crate::wire::types::{SetBreakpointsResponseBody, SourceBreakpoint};
use crate::wire::DapCommand;
use crate::wire::Response;

impl SessionCore {
    /// Begin a launch or attach: a fresh adapter, then `initialize`.
    pub(super) fn start(&mut self, token: Token, plan: StartPlan) -> Result<(), SessionError> {
        self.check(plan.operation)?;
        // All of the plan's breakpoints or none: a refused start leaves the cache as
        // it was.
        let mut cache = self.breakpoints.clone();
        for bp in &plan.breakpoints {
            let source = if bp.collect.is_empty() {
                SourceBreakpoint {
                    line: bp.line,
                    condition: bp.condition.clone(),
                    hit_condition: bp.hit_condition.clone(),
                    log_message: bp.log_message.clone(),
                    ..SourceBreakpoint::default()
                }
            } else {
                let tracepoint = crate::core::trace::Tracepoint {
                    line: bp.line,
                    condition: bp.condition.clone(),
                    hit_condition: bp.hit_condition.clone(),
                    collect: bp.collect.clone(),
                };
                self.tracepoint_breakpoint(&bp.file, tracepoint)?
            };
            cache.add(&bp.file, source)?;
        }
        if !plan.function_breakpoints.is_empty() {
            cache.set_functions(plan.function_breakpoints.clone())?;
        }
        if !plan.exception_filters.is_empty() {
            cache.set_exception_filters(plan.exception_filters.clone())?;
        }
        if !plan.calls.is_empty() {
            self.set_call_patterns(&plan.calls)?;
        }
        self.breakpoints = cache;

        // dapvisor's own words on the start (a toolchain missing, ...): `important`,
        // so that a reader who leaves out the adapter's console still sees them.
        for note in &plan.notes {
            self.output.push("important", note);
            self.emit(EventKind::Output {
                category: "important".into(),
                output: note.clone(),
            });
        }
        self.plan = Some(plan);
        self.begin_run(Starter::Agent(token));
        Ok(())
    }

    /// Start a fresh adapter for the plan in force and begin its handshake; the cached
    /// breakpoints and filters go to it during configuration.
    pub(super) fn begin_run(&mut self, starter: Starter) {
        let Some(plan) = self.plan.clone() else {
            return;
        };
        let op = plan.operation;
        // A new run: what the old adapter said no longer holds.
        self.run = Run {
            bootstrap: bootstrap_for(&plan),
            ..Run::default()
        };
        self.breakpoints.clear_results();
        self.calls.new_run();

        self.effects
            .push(Effect::StartAdapter(Box::new(plan.adapter.clone())));
        // The plan's own deadline, else the one an agent's view gave its start
        // (`SessionHandle::with_timeout`), else the runtime's, else the adapter
        // family's (a build, a large symbol load takes longer).
        let asked = plan
            .launch_timeout
            .or(starter.token().and(self.command_timeout))
            .or(self.config.launch_timeout)
            .unwrap_or(plan.adapter.flavor.launch_timeout());
        let deadline = limits::clamp_launch_timeout(asked);
        let timer = self.timer(deadline);
        self.enter(Phase::Starting {
            handshake: Handshake::new(starter, op, deadline, timer),
            program: Program::Initializing,
        });
        self.send(
            DapCommand::Initialize,
            Some(initialize_arguments(&plan.adapter.adapter_id)),
            None,
            Pending::Startup(StartupStep::Initialize),
        );
    }

    pub(super) fn on_startup_response(
        &mut self,
        step: StartupStep,
        result: Result<Response, TransportError>,
    ) {
        let command = match &step {
            StartupStep::Initialize => DapCommand::Initialize,
            StartupStep::Start => self.start_command(),
            StartupStep::ConfigSource(..) => DapCommand::SetBreakpoints,
            StartupStep::ConfigFunctions(_) => DapCommand::SetFunctionBreakpoints,
            StartupStep::ConfigExceptions => DapCommand::SetExceptionBreakpoints,
            StartupStep::HeldThreads => DapCommand::Threads,
            StartupStep::HeldStack => DapCommand::StackTrace,
            StartupStep::ConfigurationDone => DapCommand::ConfigurationDone,
        };
        let result = answer_of(command.name(), result);
        match (step, result) {
            (StartupStep::Initialize, Ok(response)) => {
                let claimed = response.parse_body().unwrap_or_default();
                self.run.capabilities = Some(self.quirks().honoured(claimed));
                if let Some(h) = self.phase.handshake_mut() {
                    h.start = StartRequest::Sent;
                }
                let target = self.phase.handshake().and_then(|h| h.target.clone());
                let arguments = target
                    .or_else(|| self.plan.as_ref().map(|p| p.arguments.clone()))
                    .map(Value::Object);
                let command = self.start_command();
                self.send(
                    command,
                    arguments,
                    None,
                    Pending::Startup(StartupStep::Start),
                );
            }
            (StartupStep::Start, Ok(_)) => {
                if let Some(h) = self.phase.handshake_mut() {
                    h.start = StartRequest::Succeeded;
                }
                self.check_hold_after_start();
                self.maybe_finish_startup();
            }
            (StartupStep::HeldThreads, result) => self.on_held_threads(result),
            (StartupStep::HeldStack, result) => self.on_held_stack(result),
            (StartupStep::ConfigurationDone, Ok(_)) => self.configuration_done(),
            (StartupStep::ConfigSource(file, sent), Ok(response)) => {
                let body: SetBreakpointsResponseBody = response.parse_body().unwrap_or_default();
                self.breakpoints
                    .record_file_result(&file, &sent, body.breakpoints);
            }
            (StartupStep::ConfigFunctions(sent), Ok(response)) => {
                let body: SetBreakpointsResponseBody = response.parse_body().unwrap_or_default();
                let (agents, _) = self.take_call_ids(&sent, body.breakpoints);
                self.breakpoints.record_function_result(&sent, agents);
            }
            (StartupStep::ConfigExceptions, Ok(_)) => {}
            (
                StartupStep::Initialize | StartupStep::Start | StartupStep::ConfigurationDone,
                Err(err),
            ) => {
                let message = match err {
                    SessionError::Adapter { message, .. } => message,
                    other => other.to_string(),
                };
                self.fail_startup(format!("`{command}` failed: {message}"));
            }
            (step, Err(err)) => {
                // A refused breakpoint must not sink the launch; it shows as unverified.
                tracing::warn!(?step, %err, "configuration request failed during startup");
            }
        }
    }

    fn start_command(&self) -> DapCommand {
        let operation = self.phase.handshake().map(|h| h.operation);
        match operation.or(self.plan.as_ref().map(|p| p.operation)) {
            Some(Operation::Attach) => DapCommand::Attach,
            _ => DapCommand::Launch,
        }
    }

    /// The adapter is ready for configuration: send every breakpoint, then
    /// `configurationDone`.
    pub(super) fn on_initialized(&mut self) {
        let Some(handshake) = self.phase.handshake_mut() else {
            return;
        };
        if handshake.initialized() {
            return;
        }
        handshake.configuration = Configuration::AwaitingDone;
        if self.state() == SessionState::Initializing {
            self.set_program(Program::Configured);
        }
        let files: Vec<_> = self.breakpoints.files().map(|f| f.to_path_buf()).collect();
        for file in files {
            let args = self.source_arguments(&file);
            let sent = self.breakpoints.requested(&file);
            self.send(
                DapCommand::SetBreakpoints,
                args,
                None,
                Pending::Startup(StartupStep::ConfigSource(file, sent)),
            );
        }
        self.note_calls_unsupported();
        if self.has_function_breakpoints()
            && self.advertised().supports_function_breakpoints == Some(true)
        {
            let args = serde_json::to_value(self.function_breakpoint_arguments()).ok();
            self.send(
                DapCommand::SetFunctionBreakpoints,
                args,
                None,
                Pending::Startup(StartupStep::ConfigFunctions(
                    self.function_breakpoint_names(),
                )),
            );
        }
        let adapter_has_filters = self
            .advertised()
            .exception_breakpoint_filters
            .as_ref()
            .is_some_and(|f| !f.is_empty());
        if self.breakpoints.has_exception_settings() || adapter_has_filters {
            // Options go to an adapter that says it takes them (a restarted one may be
            // another version); the plain filters go either way.
            let mut settings = self.breakpoints.exception_arguments();
            if self.advertised().supports_exception_filter_options != Some(true) {
                settings.filter_options = None;
            }
            if self.advertised().supports_exception_options != Some(true) {
                settings.exception_options = None;
            }
            let args = serde_json::to_value(settings).ok();
            self.send(
                DapCommand::SetExceptionBreakpoints,
                args,
                None,
                Pending::Startup(StartupStep::ConfigExceptions),
            );
        }
        self.request_configuration_done();
    }

    /// `configurationDone`, where the adapter takes one.
    pub(super) fn send_configuration_done(&mut self) {
        if let Some(h) = self.phase.handshake_mut() {
            h.configuration = Configuration::AwaitingDone;
        }
        if self.advertised().supports_configuration_done_request == Some(true) {
            self.send(
                DapCommand::ConfigurationDone,
                Some(json!({})),
                None,
                Pending::Startup(StartupStep::ConfigurationDone),
            );
        } else {
            self.configuration_done();
        }
    }

    /// The configuration is done: the program runs (unless it already stopped or
    /// ended), and the start may be answered.
    fn configuration_done(&mut self) {
        if let Some(h) = self.phase.handshake_mut() {
            h.configuration = Configuration::Done;
        }
        if self.state() == SessionState::Configured {
            self.set_program(Program::Running);
        }
        self.maybe_finish_startup();
    }

    /// Answer the agent once launch succeeded and configuration is done (or the
    /// debuggee already ended).
    pub(super) fn maybe_finish_startup(&mut self) {
        let ended = self.state() == SessionState::Terminated;
        let done = self.phase.handshake().is_some_and(|h| {
            h.start == StartRequest::Succeeded
                && (h.configuration == Configuration::Done || ended)
                // The program's own session is still to come (js-debug).
                && (!self.awaiting_target() || ended)
        });
        if done {
            if let Some(handshake) = self.phase.take_handshake() {
                match handshake.starter {
                    Starter::Agent(token) => {
                        let answer = Answer::Snapshot(Box::new(self.snapshot()));
                        self.reply(token, Ok(answer));
                    }
                    Starter::Relaunch { token, epoch } => {
                        self.reply(token, Ok(Answer::Resumed { epoch }));
                    }
                    Starter::Restart { attempt } => {
                        self.emit(EventKind::AdapterRestarted { attempt });
                    }
                }
            }
            if self.state() == SessionState::Terminated {
                // The debuggee ended during the handshake: let the adapter go now.
                self.release_adapter();
            }
        }
    }

    /// End a handshake under way with `message`; a no-op when none is under way.
    pub(super) fn fail_startup(&mut self, message: String) {
        if let Some(handshake) = self.phase.take_handshake() {
            self.fail_handshake(handshake, message, true);
        }
    }

    /// End `handshake` with `message`; `adapter_runs`: its adapter is still there, to
    /// be told to stop (not when its going is what failed the handshake).
    pub(super) fn fail_handshake(
        &mut self,
        handshake: Handshake,
        message: String,
        adapter_runs: bool,
    ) {
        let Some(token) = handshake.starter.token() else {
            // A restart that did not come up counts as another crash.
            if adapter_runs {
                self.effects.push(Effect::StopAdapter);
            }
            let exit = crate::error::AdapterExit {
                reason: format!("the restarted adapter did not come up: {message}"),
                ..Default::default()
            };
            self.on_crash(exit);
            return;
        };
        let since = self.output.end().saturating_sub(4096);
        let output = self.output.read_since(since, 4096).text();
        self.reply(
            token,
            Err(SessionError::StartFailed {
                operation: handshake.operation,
                message,
                output,
            }),
        );
        if adapter_runs {
            // Told to stop, the adapter is being let go: its close is no crash.
            self.change_phase(|phase| {
                phase.ending();
                if let Some(program) = phase.program_mut() {
                    *program = Program::Ended;
                }
            });
        } else {
            self.change_phase(Phase::end);
        }
        self.stop_bootstrap();
        self.wake_waiters();
        if adapter_runs {
            self.effects.push(Effect::StopAdapter);
        }
    }
}
