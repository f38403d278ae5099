//! Sessions whose program runs in a session the adapter asks for: js-debug.
//!
//! js-debug's launch (or attach) connection only bootstraps. Once it is configured,
//! js-debug asks for the program's own session with `startDebugging`, carrying a
//! `__pendingTargetId`, and that session must be a new connection to the same server.
//! This session adopts it: the new connection becomes the session's (every agent
//! request goes there, its stops and steps are the session's), and a second
//! handshake runs on it with the configuration js-debug gave; the agent's start is
//! answered when that handshake is done. The bootstrap connection stays open, because
//! it holds the server process (and through it the program), and because js-debug's
//! launcher reports the program's exit code there: `Process exited with code N` for
//! N > 0, then `terminated`; nothing at all for 0 or a signal.
//!
//! So the program's end waits for the launcher's word: when the program's connection
//! says `terminated`, the session is terminated at once, but waiters are answered,
//! and the program's connection let go, only once the bootstrap has reported (or
//! closed, or [`CoreConfig::disconnect_timeout`] passed). Ending the session (by an
//! agent, a crash, a failed start) ends the bootstrap too, which kills the server's
//! process group and the program with it. Children js-debug asks for later (worker
//! threads, subprocesses) are child sessions on the same server.
//!
//! [`CoreConfig::disconnect_timeout`]: crate::core::session::CoreConfig::disconnect_timeout

use serde_json::{Map, Value};

use crate::core::adapter_phase::AdapterPhase;
use crate::core::command::{Effect, StartPlan, Tag, TimerId};
use crate::core::session::{Pending, SessionCore};
use crate::core::startup::{initialize_arguments, Startup, StartupStep};
use crate::core::state::{Operation, SessionState};
use crate::error::{AdapterExit, SessionError};
use crate::events::EventKind;
use crate::registry::ResolvedAdapter;
use crate::wire::types::OutputEventBody;
use crate::wire::DapCommand;
use crate::wire::{Event, Response};

/// What the bootstrap connection sent, once the program's own connection is adopted.
#[derive(Debug)]
pub enum BootstrapInput {
    /// An event.
    Event(Event),
    /// The answer to a request sent on it before the adoption.
    Response {
        /// The core's tag for it.
        tag: Tag,
        /// The response, or why there is none.
        result: Result<Response, SessionError>,
    },
    /// It asked for another child session.
    StartDebugging {
        /// `launch` or `attach`.
        request: String,
        /// The child's arguments.
        configuration: Map<String, Value>,
        /// The server's address.
        server: Option<(String, u16)>,
    },
    /// It ended.
    Closed(AdapterExit),
}

/// The bootstrap of one run.
#[derive(Debug, Default)]
pub(crate) struct Bootstrap {
    /// The program's own connection is the session's now.
    adopted: bool,
    /// The exit code the launcher reported (`Process exited with code N`).
    exit_line: Option<i64>,
    /// Whether the launcher reports a failing exit code at all: while it discards
    /// the program's stdio (`outputCapture: console`), or when dapvisor starts the
    /// program (`console: integratedTerminal`) and says it in the launcher's words.
    /// Capturing the stdio of a program it starts (`std`), js-debug says nothing of
    /// the exit, so its silence is no 0.
    reports_exit_code: bool,
    /// The launcher's word on the program's end is in (its exit line, or its
    /// `terminated`), or no longer awaited (it closed, it was stopped, the wait ran
    /// out).
    reported: bool,
    /// The launcher's `terminated` has been carried on with (the program's end, where
    /// its own connection had not said it yet).
    end_carried: bool,
    /// The bootstrap was asked to end.
    stopped: bool,
    /// The wait for the report, once the program's connection ended.
    report_timer: Option<TimerId>,
    /// The program's connection broke while the bootstrap still ran: its crash is
    /// reported with the server's own end (exit status, stderr) when the bootstrap
    /// closes, or as it is once the wait is over.
    broken: Option<(AdapterExit, TimerId)>,
}

impl Bootstrap {
    /// The timers it waits on: for the launcher's report, for the server's end.
    pub(crate) fn timers(&self) -> impl Iterator<Item = TimerId> + '_ {
        self.report_timer
            .into_iter()
            .chain(self.broken.as_ref().map(|(_, timer)| *timer))
    }
}

/// Whether `plan` runs its program in a session the adapter asks for: js-debug's
/// own launch or attach, not one of its child sessions (which is such a session).
pub(super) fn bootstrap_for(plan: &StartPlan) -> Option<Bootstrap> {
    let said = |key| plan.arguments.get(key).and_then(Value::as_str);
    let ours = said("console") == Some("integratedTerminal")
        && plan.adapter.flavor.quirks().terminal_exit_line.is_some();
    let quirks = plan.adapter.flavor.quirks();
    (quirks.program_has_a_session_of_its_own && plan.parent.is_none()).then(|| Bootstrap {
        reports_exit_code: ours || said("outputCapture").is_none_or(|c| c == "console"),
        ..Bootstrap::default()
    })
}

impl SessionCore {
    /// Whether the session still waits for the adapter to ask for the program's own
    /// session.
    pub(super) fn awaiting_target(&self) -> bool {
        self.bootstrap.as_ref().is_some_and(|b| !b.adopted)
    }

    /// Whether the end of the program waits for the launcher's report of its exit
    /// code (a launch whose program connection was adopted).
    pub(super) fn end_report_pending(&self) -> bool {
        let launched = self
            .startup
            .as_ref()
            .map(|s| s.operation)
            .or(self.plan.as_ref().map(|p| p.operation))
            == Some(Operation::Launch);
        launched
            && self
                .bootstrap
                .as_ref()
                .is_some_and(|b| b.adopted && !b.reported)
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
        let (Some(plan), Some(startup)) = (self.plan.as_ref(), self.startup.take()) else {
            tracing::warn!("startDebugging for the program outside a start; ignored");
            return;
        };
        let Some((host, port)) = server else {
            self.startup = Some(startup);
            self.fail_startup(
                "the adapter asked for the program's session, but the address of its \
                 server is not known"
                    .into(),
            );
            return;
        };
        let adapter = ResolvedAdapter::connecting(&plan.adapter.def, host, port);
        let adapter_id = adapter.adapter_id.clone();
        if let Some(b) = self.bootstrap.as_mut() {
            b.adopted = true;
        }
        // The bootstrap's handshake is over; a late answer of it is the bootstrap's.
        self.pending
            .retain(|_, pending| !matches!(pending, Pending::Startup(_)));
        self.effects.push(Effect::AdoptTarget(Box::new(adapter)));
        // A new connection: what the bootstrap said does not hold for it.
        self.run.threads.clear();
        self.run.capabilities = None;
        self.adapter.reconnected();
        self.breakpoints.clear_results();
        let timer = self.timer(self.config.request_timeout);
        self.startup = Some(Startup {
            operation: if DapCommand::from_name(request) == Some(DapCommand::Attach) {
                Operation::Attach
            } else {
                Operation::Launch
            },
            start_result: None,
            initialized: false,
            configured: false,
            timer,
            target: Some(configuration),
            ..startup
        });
        self.set_state(SessionState::Initializing);
        self.send(
            DapCommand::Initialize,
            Some(initialize_arguments(&adapter_id)),
            None,
            Pending::Startup(StartupStep::Initialize),
        );
    }

    /// What the bootstrap connection sent after the adoption.
    pub(super) fn on_bootstrap(&mut self, input: BootstrapInput) {
        if self.bootstrap.is_none() {
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
                let broken = self.bootstrap.as_mut().and_then(|b| {
                    b.stopped = true;
                    b.broken.take()
                });
                if broken.is_some() || self.is_crash(&exit) {
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
        let Some(b) = self.bootstrap.as_mut() else {
            return;
        };
        if !b.reported {
            return self.on_launcher_report(false);
        }
        if !std::mem::replace(&mut b.end_carried, true) {
            self.after_report(false);
        }
    }

    /// The launcher said the program's exit code: that is its report. Once the
    /// program's connection has ended too, the end is carried on with; before, the
    /// code is only kept: that connection still ends on its own, after what it still
    /// has to say (the last of a tracepoint's rows).
    fn on_exit_line(&mut self, code: i64) {
        let Some(b) = self.bootstrap.as_mut() else {
            return;
        };
        b.exit_line = Some(code);
        if self.run.terminated_seen || b.reported {
            return self.on_launcher_report(false);
        }
        b.reported = true;
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
        let Some(b) = self.bootstrap.as_mut() else {
            return;
        };
        if b.reported {
            return;
        }
        b.reported = true;
        b.end_carried = true;
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
        if !self.run.terminated_seen && self.adapter.is_serving() {
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
        if !self.adapter.is_live() {
            self.stop_bootstrap();
        }
        self.wake_waiters();
    }

    /// The program's connection ended while the launcher's report is still to come:
    /// wait for it, at most [`CoreConfig::disconnect_timeout`](crate::core::session::CoreConfig).
    pub(super) fn await_launcher_report(&mut self) {
        let already = self
            .bootstrap
            .as_ref()
            .is_none_or(|b| b.report_timer.is_some());
        if already {
            return;
        }
        let timer = self.timer(self.config.disconnect_timeout);
        if let Some(b) = self.bootstrap.as_mut() {
            b.report_timer = Some(timer);
        }
    }

    /// The program's connection broke (`exit`, a crash) while the bootstrap runs:
    /// wait for the server's own end to report the crash with, at most the disconnect
    /// deadline. Returns whether the crash is deferred so.
    pub(super) fn defer_crash_to_bootstrap(&mut self, exit: &AdapterExit) -> bool {
        let running = self
            .bootstrap
            .as_ref()
            .is_some_and(|b| b.adopted && !b.stopped && b.broken.is_none());
        if !running {
            return false;
        }
        let timer = self.timer(self.config.disconnect_timeout);
        if let Some(b) = self.bootstrap.as_mut() {
            b.broken = Some((exit.clone(), timer));
        }
        self.adapter = AdapterPhase::Down;
        true
    }

    /// Whether timer `id` was the wait for the launcher's report, or for the server's
    /// end after the program's connection broke (and handle it).
    pub(super) fn launcher_report_timer(&mut self, id: TimerId) -> bool {
        let broken = self
            .bootstrap
            .as_mut()
            .and_then(|b| b.broken.take_if(|(_, timer)| *timer == id));
        if let Some((exit, _)) = broken {
            self.on_crash(exit);
            return true;
        }
        let ours = self
            .bootstrap
            .as_ref()
            .is_some_and(|b| b.report_timer == Some(id));
        if ours {
            tracing::debug!("js-debug's launcher did not report the program's end in time");
            if let Some(b) = self.bootstrap.as_mut() {
                b.report_timer = None;
            }
            self.on_launcher_report(true);
        }
        ours
    }

    /// End the bootstrap connection, once; its report is no longer awaited.
    pub(super) fn stop_bootstrap(&mut self) {
        let Some(b) = self.bootstrap.as_mut().filter(|b| b.adopted) else {
            return;
        };
        b.reported = true;
        if !std::mem::replace(&mut b.stopped, true) {
            self.effects.push(Effect::StopBootstrap);
        }
    }
}
