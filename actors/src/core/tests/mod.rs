//! Pure tests of [`SessionCore`]: the harness and fixtures the topic files share.
//!
//! The topic files: `states.rs` (every operation refused in every state
//! that does not allow it, naming what is allowed; every allowed one let through),
//! `startup.rs` (the launch handshake),
//! `breakpoints.rs` (the cache and what reaches the adapter),
//! `breakpoint_features.rs` (conditions, logpoints and the like, refused
//! where not advertised), `function_breakpoints.rs` (function breakpoints
//! and exception filters),
//! `control.rs` (continue, step, pause, waiting for stops),
//! `lifecycle.rs` (events, output, ending, requests, stray responses)
//! `adapter_restart*.rs` (crashes, adapter restarts) and `failed.rs`
//! (failure, and every request while restarting or failed).
//!
//! Each test feeds [`Input`]s and asserts on the [`Effect`]s that come back.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};

use crate::core::command::{
    Answer, Command, ControlAction, Effect, Input, StartPlan, Tag, TimerId, Token,
};
use crate::core::session::{CoreConfig, SessionCore};
use crate::core::session_event::EventKind;
use crate::core::state::{Operation, SessionState};
use crate::error::{SessionError, TransportError};
use crate::launch::InitialBreakpoint;
use crate::registry::{AdapterDef, AdapterFlavor, ResolvedAdapter};
use crate::wire::types::SourceBreakpoint;
use crate::wire::{Event, Request, Response};

// ---- the harness ----

/// A core with a token counter.
pub(super) struct Harness {
    pub(super) core: SessionCore,
    next_token: Token,
}

/// What one input produced.
#[derive(Debug)]
pub(super) struct Effects(pub(super) Vec<Effect>);

impl Harness {
    pub(super) fn new() -> Self {
        Self::with_config(CoreConfig::default())
    }

    pub(super) fn with_config(config: CoreConfig) -> Self {
        Self {
            core: SessionCore::new(config),
            next_token: 1,
        }
    }

    pub(super) fn state(&self) -> SessionState {
        self.core.state()
    }

    /// An agent's command, as the actor shell feeds it.
    pub(super) fn command(&mut self, command: Command) -> (Token, Effects) {
        let token = self.next_token;
        self.next_token += 1;
        let effects = self.core.handle(Input::Command { token, command });
        (token, Effects(effects))
    }

    /// A successful response to the request sent with `tag`.
    pub(super) fn ok(&mut self, tag: Tag, body: Value) -> Effects {
        self.respond(tag, Ok(response(true, None, Some(body))))
    }

    /// A `success: false` response with the adapter's `message`.
    pub(super) fn refuse(&mut self, tag: Tag, message: &str) -> Effects {
        self.respond(tag, Ok(response(false, Some(message), None)))
    }

    pub(super) fn respond(
        &mut self,
        tag: Tag,
        result: Result<Response, TransportError>,
    ) -> Effects {
        Effects(self.core.handle(Input::Response { tag, result }))
    }

    pub(super) fn event(&mut self, name: &str, body: Value) -> Effects {
        Effects(self.core.handle(Input::Event(Event::new(name, Some(body)))))
    }

    pub(super) fn timer(&mut self, id: TimerId) -> Effects {
        Effects(self.core.handle(Input::Timer(id)))
    }

    /// A `stopped` event on thread 1.
    pub(super) fn stop(&mut self, reason: &str) -> Effects {
        self.event("stopped", json!({ "reason": reason, "threadId": 1 }))
    }

    /// The handshake of `plan` against an adapter with `caps`, in lldb-dap's order
    /// (launch answered first), every configuration request answered. Returns every
    /// effect of it, the start's answer last.
    pub(super) fn launch_with(&mut self, plan: StartPlan, caps: Value) -> Effects {
        let (token, mut all) = self.command(Command::Start(Box::new(plan)));
        let launch = self.ok(all.tag("initialize"), caps);
        let answered = self.ok(launch.tag(start_command(&launch)), json!({}));
        let configuration = self.event("initialized", json!({}));
        let tags: Vec<Tag> = configuration.sends().iter().map(|(t, _, _)| *t).collect();
        all.0.extend(
            launch
                .0
                .into_iter()
                .chain(answered.0)
                .chain(configuration.0),
        );
        for tag in tags {
            all.0.extend(self.ok(tag, json!({})).0);
        }
        assert!(all.reply(token).is_ok(), "start failed: {all:?}");
        all
    }

    /// Running, after a full handshake with [`full_caps`] and no breakpoints.
    pub(super) fn running() -> Self {
        let mut h = Self::new();
        h.launch_with(plan(), full_caps());
        assert_eq!(h.state(), SessionState::Running);
        h
    }

    /// Stopped at a breakpoint on thread 1 (stop epoch 1).
    pub(super) fn stopped() -> Self {
        let mut h = Self::running();
        h.stop("breakpoint");
        assert_eq!(h.state(), SessionState::Stopped);
        h
    }

    /// In `state`, reached the way a real session reaches it.
    pub(super) fn in_state(state: SessionState) -> Self {
        match state {
            SessionState::NotStarted => Self::new(),
            SessionState::Initializing => {
                let mut h = Self::new();
                h.command(Command::Start(Box::new(plan())));
                h
            }
            SessionState::Configured => {
                let mut h = Self::new();
                let (_, started) = h.command(Command::Start(Box::new(plan())));
                h.ok(started.tag("initialize"), full_caps());
                h.event("initialized", json!({}));
                h
            }
            SessionState::Running => Self::running(),
            SessionState::Stopped => Self::stopped(),
            SessionState::Terminated => {
                let mut h = Self::running();
                h.event("exited", json!({ "exitCode": 0 }));
                let released = h.event("terminated", json!({}));
                h.ok(released.tag("disconnect"), json!({}));
                h
            }
            other => panic!("the harness does not reach {other}"),
        }
        .checked(state)
    }

    fn checked(self, state: SessionState) -> Self {
        assert_eq!(self.state(), state);
        self
    }
}

fn start_command(effects: &Effects) -> &'static str {
    if effects.commands().contains(&"attach") {
        "attach"
    } else {
        "launch"
    }
}

impl Effects {
    /// Every request sent: tag, request, deadline.
    pub(super) fn sends(&self) -> Vec<(Tag, &Request, Duration)> {
        self.0
            .iter()
            .filter_map(|e| match e {
                Effect::Send {
                    tag,
                    request,
                    timeout,
                } => Some((*tag, request, *timeout)),
                _ => None,
            })
            .collect()
    }

    /// The commands sent, in order.
    pub(super) fn commands(&self) -> Vec<&str> {
        self.sends()
            .into_iter()
            .map(|(_, r, _)| r.command.as_str())
            .collect()
    }

    /// The first request of `command`: its tag, arguments and deadline.
    pub(super) fn sent(&self, command: &str) -> (Tag, Value, Duration) {
        self.sends()
            .into_iter()
            .find(|(_, r, _)| r.command == command)
            .map(|(tag, r, timeout)| (tag, r.arguments.clone().unwrap_or(Value::Null), timeout))
            .unwrap_or_else(|| panic!("no `{command}` was sent: {self:?}"))
    }

    pub(super) fn tag(&self, command: &str) -> Tag {
        self.sent(command).0
    }

    pub(super) fn args(&self, command: &str) -> Value {
        self.sent(command).1
    }

    /// The answer to `token`; panics unless there is exactly one.
    pub(super) fn reply(&self, token: Token) -> &Result<Answer, SessionError> {
        let replies: Vec<_> = self
            .0
            .iter()
            .filter_map(|e| match e {
                Effect::Reply { token: t, result } if *t == token => Some(result),
                _ => None,
            })
            .collect();
        assert_eq!(replies.len(), 1, "want one reply to {token}: {self:?}");
        replies[0]
    }

    /// The error answered to `token`.
    pub(super) fn error(&self, token: Token) -> &SessionError {
        match self.reply(token) {
            Err(err) => err,
            Ok(answer) => panic!("want an error, got {answer:?}"),
        }
    }

    pub(super) fn replies(&self) -> usize {
        self.0
            .iter()
            .filter(|e| matches!(e, Effect::Reply { .. }))
            .count()
    }

    pub(super) fn events(&self) -> Vec<&EventKind> {
        self.0
            .iter()
            .filter_map(|e| match e {
                Effect::Emit(kind) => Some(kind),
                _ => None,
            })
            .collect()
    }

    /// The state changes published, as (from, to).
    pub(super) fn transitions(&self) -> Vec<(SessionState, SessionState)> {
        self.events()
            .into_iter()
            .filter_map(|k| match k {
                EventKind::StateChanged { from, to } => Some((*from, *to)),
                _ => None,
            })
            .collect()
    }

    pub(super) fn timers(&self) -> Vec<(TimerId, Duration)> {
        self.0
            .iter()
            .filter_map(|e| match e {
                Effect::StartTimer { id, after } => Some((*id, *after)),
                _ => None,
            })
            .collect()
    }

    pub(super) fn starts_adapter(&self) -> bool {
        self.0.iter().any(|e| matches!(e, Effect::StartAdapter(_)))
    }

    pub(super) fn stops_adapter(&self) -> bool {
        self.0.iter().any(|e| matches!(e, Effect::StopAdapter))
    }
}

// ---- fixtures ----

pub(super) const PROGRAM: &str = "/src/app.py";

/// A launch of [`PROGRAM`] under an in-process adapter named `fake`.
pub(crate) fn plan() -> StartPlan {
    let def = AdapterDef::in_process("fake");
    let mut arguments = serde_json::Map::new();
    arguments.insert("program".into(), json!(PROGRAM));
    StartPlan {
        operation: Operation::Launch,
        adapter: ResolvedAdapter::running(&def, PathBuf::new(), Vec::new()),
        arguments,
        breakpoints: Vec::new(),
        function_breakpoints: Vec::new(),
        exception_filters: Vec::new(),
        calls: Vec::new(),
        program: Some(PROGRAM.into()),
        parent: None,
        attach_target: None,
        launch_timeout: None,
        notes: Vec::new(),
        replay_check: None,
        core_file: None,
        core_signal: None,
        path_map: Default::default(),
    }
}

/// An attach to pid 42.
pub(super) fn attach_plan() -> StartPlan {
    let mut plan = plan();
    plan.operation = Operation::Attach;
    plan.arguments = serde_json::Map::new();
    plan.arguments.insert("processId".into(), json!(42));
    plan
}

/// A launch under an lldb-dap flavoured adapter.
pub(super) fn lldb_plan() -> StartPlan {
    let mut plan = plan();
    plan.adapter.flavor = AdapterFlavor::LldbDap;
    plan
}

/// A launch under a dlv flavoured adapter (no `exited`; the status on the console).
pub(super) fn dlv_plan() -> StartPlan {
    let mut plan = plan();
    plan.adapter.flavor = AdapterFlavor::Delve;
    plan
}

/// `plan` with a breakpoint at each `file:line`.
pub(super) fn with_breakpoints(mut plan: StartPlan, at: &[(&str, i64)]) -> StartPlan {
    plan.breakpoints = at
        .iter()
        .map(|(file, line)| InitialBreakpoint {
            file: file.into(),
            line: *line,
            ..InitialBreakpoint::default()
        })
        .collect();
    plan
}

/// Capabilities with everything the core checks for.
pub(super) fn full_caps() -> Value {
    json!({
        "supportsConfigurationDoneRequest": true,
        "supportsFunctionBreakpoints": true,
        "supportsConditionalBreakpoints": true,
        "supportsHitConditionalBreakpoints": true,
        "supportsLogPoints": true,
        "supportsSetVariable": true,
        "supportsGotoTargetsRequest": true,
        "supportsRestartRequest": true,
        "supportsSteppingGranularity": true,
    })
}

pub(super) fn bp(line: i64) -> SourceBreakpoint {
    SourceBreakpoint {
        line,
        ..SourceBreakpoint::default()
    }
}

pub(super) fn response(success: bool, message: Option<&str>, body: Option<Value>) -> Response {
    Response {
        success,
        message: message.map(str::to_string),
        body: body.map(Into::into),
        ..Response::default()
    }
}

pub(super) fn control(action: ControlAction) -> Command {
    Command::Control {
        action,
        thread_id: None,
        granularity: None,
    }
}

pub(super) fn request(operation: Operation, command: &str, arguments: Value) -> Command {
    Command::Request {
        operation,
        command: command.into(),
        arguments: Some(arguments),
        timeout: None,
    }
}

/// The lines of a `setBreakpoints` request's list.
pub(super) fn lines(arguments: &Value) -> Vec<i64> {
    arguments["breakpoints"]
        .as_array()
        .expect("a breakpoints list")
        .iter()
        .map(|b| b["line"].as_i64().expect("a line"))
        .collect()
}

mod adapter_restart;
mod adapter_restart_replay;
mod arguments;
mod bootstrap;
mod breakpoint_features;
mod breakpoints;
mod children;
mod codelldb;
mod control;
mod events;
mod failed;
mod function_breakpoints;
mod held_start;
mod launch_timeout;
mod lifecycle;
mod moves;
mod post_mortem;
mod raw_requests;
mod relaunch;
mod releases;
mod run_end;
mod startup;
mod startup_failures;
mod states;
mod target_gone;
mod terminate;
mod trace;
