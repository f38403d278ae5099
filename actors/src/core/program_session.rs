//! How the core follows a program that runs in a session of its own (js-debug; see
//! `bootstrap.rs` for why): adopting the program's connection, the launcher's report
//! of the program's exit, and a program connection that broke while the bootstrap
//! still runs ([`Phase::Severed`]).

use serde_json::{Map, Value};

use crate::core::bootstrap::Stage;
use crate::core::command::{BootstrapInput, Effect, TimerId};
use crate::core::handshake::{initialize_arguments, Handshake, StartupStep};
use crate::core::pending::Pending;
use crate::core::phase::{Phase, Program};
use crate::core::session::SessionCore;
use crate::core::session_event::EventKind;
use crate::core::state::Operation;
use crate::error::AdapterExit;
use crate::registry::ResolvedAdapter;
use crate::wire::types::OutputEventBody;
use crate::wire::DapCommand;
use crate::wire::Event;

impl SessionCore {
    /// Whether the session still waits for the adapter to ask for the program's own
    /// session.
    pub(super) fn awaiting_target(&self) -> bool {
        self.run.bootstrap.as_ref().is_some_and(|b| !b.adopted())
    }

    /// Whether the end of the program waits for the launcher's report of its exit
    /// code (a launch whose program connection was adopted).
    pub(super) fn end_report_pending(&self) -> bool {
        let launched = self
            .phase
            .handshake()
            .map(|h| h.operation)
            .or(self.plan.as_ref().map(|p| p.operation))
            == Some(Operation::Launch);
        launched
            && self
                .run
                .bootstrap
                .as_ref()
                .is_some_and(|b| b.stage == Stage::Adopted)
    }

    /// js-debug asked for the program's own session: connect to it on the same
    /// server, make it this session's, and run the handshake again on it with
    /// `configuration`. The agent's start stays unanswered until that is done.
    pub(super) fn adopt_target(
        &mut self,
        request: &str,
        configuration: Map<String, Value>,
        server: Option<(String, u16)>,
    ) {
        let (Some(plan), Some((starter, deadline))) = (
            self.plan.as_ref(),
            self.phase.handshake().map(|h| (h.starter, h.deadline)),
        ) else {
            tracing::warn!("startDebugging for the program outside a start; ignored");
            return;
        };
        let Some((host, port)) = server else {
            self.fail_startup(
                "the adapter asked for the program's session, but the address of its \
                 server is not known"
                    .into(),
            );
            return;
        };
        let adapter = ResolvedAdapter::connecting(&plan.adapter.def, host, port);
        let adapter_id = adapter.adapter_id.clone();
        if let Some(b) = self.run.bootstrap.as_mut() {
            b.stage = Stage::Adopted;
        }
        // The bootstrap's handshake is over; a late answer of it is the bootstrap's.
        self.pending
            .retain(|_, pending| !matches!(pending, Pending::Startup(_)));
        self.effects.push(Effect::AdoptTarget(Box::new(adapter)));
        // A new connection: what the bootstrap said does not hold for it.
        self.run.threads.clear();
        self.run.capabilities = None;
        self.breakpoints.clear_results();
        let timer = self.timer(self.config.request_timeout);
        let operation = if DapCommand::from_name(request) == Some(DapCommand::Attach) {
            Operation::Attach
        } else {
            Operation::Launch
        };
        // Its requests keep the start's deadline; the handshake on the new connection
        // has a request's.
        let mut handshake = Handshake::new(starter, operation, deadline, timer);
        handshake.target = Some(configuration);
        // The new connection has not said `initialized`: breakpoints wait for it.
        self.enter(Phase::Starting {
            handshake,
            program: Program::Initializing,
        });
        self.send(
            DapCommand::Initialize,
            Some(initialize_arguments(&adapter_id)),
            None,
            Pending::Startup(StartupStep::Initialize),
        );
    }

    /// What the bootstrap connection sent after the adoption.
    pub(super) fn on_bootstrap(&mut self, input: BootstrapInput) {
        if self.run.bootstrap.is_none() {
            return;
        }
        match input {
            BootstrapInput::Event(event) => match event.event.as_str() {
                "output" => {
                    let body: OutputEventBody = event.parse_body().unwrap_or_default();
                    let code = self
                        .quirks()
                        .launcher_exit_code
                        .and_then(|read| read(&body.output));
                    // The launcher's lines are output like any other.
                    self.on_event(event);
                    if let Some(code) = code {
                        self.on_exit_line(code);
                    }
                }
                "terminated" => self.on_launcher_terminated(),
                other => tracing::debug!(event = other, "bootstrap event; not the program's"),
            },
            BootstrapInput::Response { tag, result } => self.on_response(tag, result),
            BootstrapInput::StartDebugging {
                request,
                configuration,
                server,
            } => self.on_start_debugging(&request, configuration, server),
            BootstrapInput::Closed(exit) => {
                tracing::debug!(%exit, "the bootstrap connection ended");
                if let Some(b) = self.run.bootstrap.as_mut() {
                    b.stopped = true;
                }
                let severed = matches!(self.phase, Phase::Severed { .. });
                if severed || self.is_crash(&exit) {
                    // The server went down (it holds the program's connection too):
                    // its end is the crash's.
                    return self.on_crash(exit);
                }
                self.on_launcher_report(true);
            }
        }
    }

    /// The launcher said the program ended: its report, if its exit line was not
    /// (then the end is carried on with now).
    fn on_launcher_terminated(&mut self) {
        let Some(b) = self.run.bootstrap.as_mut() else {
            return;
        };
        match b.stage {
            Stage::Awaiting | Stage::Adopted => self.on_launcher_report(false),
            Stage::Reported => {
                b.stage = Stage::Carried;
                self.after_report(false);
            }
            Stage::Carried => {}
        }
    }

    /// The launcher said the program's exit code: that is its report. Once the
    /// program's connection has ended too, the end is carried on with; before, the
    /// code is only kept: that connection still ends on its own, after what it still
    /// has to say (the last of a tracepoint's rows).
    fn on_exit_line(&mut self, code: i64) {
        let Some(b) = self.run.bootstrap.as_mut() else {
            return;
        };
        b.exit_line = Some(code);
        if self.run.terminated_seen || b.reported() {
            return self.on_launcher_report(false);
        }
        b.stage = Stage::Reported;
        let launched = self.plan.as_ref().map(|p| p.operation) == Some(Operation::Launch);
        if launched && self.run.exit_code.is_none() {
            self.run.exit_code = Some(code);
            self.emit(EventKind::Exited { exit_code: code });
        }
    }

    /// The launcher's word on the program's end is in (or, `gone`, it will never
    /// come): the exit code is known, the program's connection can be let go, and
    /// waiters answered.
    fn on_launcher_report(&mut self, gone: bool) {
        let Some(b) = self.run.bootstrap.as_mut() else {
            return;
        };
        if b.reported() {
            return;
        }
        b.stage = Stage::Carried;
        // No line: exit code 0 (or a signal, which the launcher does not tell),
        // where the launcher would have said otherwise.
        let code = match (b.exit_line, gone || !b.reports_exit_code) {
            (Some(code), _) => Some(code),
            (None, false) => Some(0),
            (None, true) => None,
        };
        let launched = self.plan.as_ref().map(|p| p.operation) == Some(Operation::Launch);
        if let (Some(exit_code), true, None) = (code, launched, self.run.exit_code) {
            self.run.exit_code = Some(exit_code);
            self.emit(EventKind::Exited { exit_code });
        }
        self.after_report(gone);
    }

    /// The report is in (or, `gone`, no longer awaited): carry on with the program's
    /// end.
    fn after_report(&mut self, gone: bool) {
        if !self.run.terminated_seen && self.phase.is_serving() {
            if !gone {
                // The launcher saw the program end before its own connection said so.
                self.on_event(Event::new("terminated", None));
            }
            // Gone: the server went down; the program's connection follows, and its
            // end says whether that is a crash.
            return;
        }
        if self.run.terminated_seen {
            self.release_adapter();
        }
        if !self.phase.is_live() {
            self.stop_bootstrap();
        }
        self.wake_waiters();
    }

    /// The program's connection ended while the launcher's report is still to come:
    /// wait for it, at most [`CoreConfig::disconnect_timeout`](crate::core::session::CoreConfig).
    pub(super) fn await_launcher_report(&mut self) {
        let already = self
            .run
            .bootstrap
            .as_ref()
            .is_none_or(|b| b.report_timer.is_some());
        if already {
            return;
        }
        let timer = self.timer(self.config.disconnect_timeout);
        if let Some(b) = self.run.bootstrap.as_mut() {
            b.report_timer = Some(timer);
        }
    }

    /// The program's connection broke (`exit`, a crash) while the bootstrap runs:
    /// wait for the server's own end to report the crash with, at most the disconnect
    /// deadline. Returns whether the crash is deferred so.
    pub(super) fn defer_crash_to_bootstrap(&mut self, exit: &AdapterExit) -> bool {
        let running = self
            .run
            .bootstrap
            .as_ref()
            .is_some_and(|b| b.adopted() && !b.stopped);
        let Some(program) = self.phase.program_mut().map(|p| *p) else {
            return false;
        };
        if !running || matches!(self.phase, Phase::Severed { .. }) {
            return false;
        }
        let timer = self.timer(self.config.disconnect_timeout);
        self.enter(Phase::Severed {
            program,
            exit: exit.clone(),
            timer,
        });
        true
    }

    /// Whether timer `id` was the wait for the launcher's report, or for the server's
    /// end after the program's connection broke (and handle it).
    pub(super) fn launcher_report_timer(&mut self, id: TimerId) -> bool {
        if let Phase::Severed { exit, timer, .. } = &self.phase {
            if *timer == id {
                let exit = exit.clone();
                self.on_crash(exit);
                return true;
            }
        }
        let ours = self
            .run
            .bootstrap
            .as_ref()
            .is_some_and(|b| b.report_timer == Some(id));
        if ours {
            tracing::debug!("js-debug's launcher did not report the program's end in time");
            if let Some(b) = self.run.bootstrap.as_mut() {
                b.report_timer = None;
            }
            self.on_launcher_report(true);
        }
        ours
    }

    /// End the bootstrap connection, once; its report is no longer awaited.
    pub(super) fn stop_bootstrap(&mut self) {
        let Some(b) = self.run.bootstrap.as_mut().filter(|b| b.adopted()) else {
            return;
        };
        if !b.reported() {
            b.stage = Stage::Reported;
        }
        if !std::mem::replace(&mut b.stopped, true) {
            self.effects.push(Effect::StopBootstrap);
        }
    }
}
