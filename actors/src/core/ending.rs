//! How a session's adapter ends: an agent's `terminate` or `disconnect`, and the
//! adapter connection closing (asked for or not; a crash goes to `crashed.rs`).

use serde_json::json;

use crate::core::capability::has_capability;
use crate::core::command::{Answer, Effect, Token};
use crate::core::handshake::Starter;
use crate::core::pending::{Pending, Purpose};
use crate::core::phase::{Phase, Program};
use crate::core::session::SessionCore;
use crate::core::session_event::EventKind;
use crate::core::state::Operation;
use crate::error::SessionError;
use crate::wire::DapCommand;

impl SessionCore {
    pub(super) fn end(
        &mut self,
        token: Token,
        op: Operation,
        terminate_debuggee: bool,
    ) -> Result<(), SessionError> {
        self.check(op)?;
        // First, while the adapter that serves them (debugpy's) still runs.
        self.effects
            .push(Effect::EndChildren { terminate_debuggee });
        self.abandon_relaunch(&format!("a {op} request ended the session first"));
        self.abandon_restart_startup();
        // An adapter still starting for an agent is let go as a serving one is, once
        // its start has failed.
        let serving = self.phase.is_serving();
        self.fail_startup(format!("ended by a {op} request before it finished"));
        if !serving {
            if self.phase.is_live() {
                self.set_program(Program::Ended);
            } else {
                self.change_phase(Phase::end);
                self.stop_bootstrap();
            }
            self.wake_waiters();
            self.reply(token, Ok(Answer::Done));
            return Ok(());
        }
        if op == Operation::Terminate
            && has_capability(self.advertised(), "supportsTerminateRequest")
        {
            // The graceful way first (see `graceful.rs`); `disconnect` follows.
            self.terminate_gracefully(token);
            return Ok(());
        }
        self.let_adapter_go(Some(token), terminate_debuggee);
        Ok(())
    }

    /// Drop the handshake of a restart after a crash (no agent waits on it), so that
    /// an agent ending the session during it ends it normally: a restart that does
    /// not come up counts as a crash (`fail_startup`), an end asked for does not.
    /// The handshake's late answers are ignored; the adapter is let go as any other.
    fn abandon_restart_startup(&mut self) {
        let restarting = self
            .phase
            .handshake()
            .is_some_and(|h| matches!(h.starter, Starter::Restart { .. }));
        if !restarting {
            return;
        }
        self.phase.take_handshake();
        self.pending
            .retain(|_, pending| !matches!(pending, Pending::Startup(_)));
    }

    /// Ask the live adapter to end (`disconnect`), ending the debuggee too if
    /// `terminate_debuggee`; `token` is answered once it has.
    pub(super) fn let_adapter_go(&mut self, token: Option<Token>, terminate_debuggee: bool) {
        self.change_phase(Phase::ending);
        self.send(
            DapCommand::Disconnect,
            Some(json!({ "restart": false, "terminateDebuggee": terminate_debuggee })),
            Some(self.config.disconnect_timeout),
            Pending::Ending { token },
        );
    }

    /// The `disconnect` was answered (or failed): the adapter is ended either way.
    pub(super) fn finish_ending(&mut self, token: Option<Token>) {
        self.set_program(Program::Ended);
        // The program's connection is let go: the bootstrap goes with it.
        self.stop_bootstrap();
        self.wake_waiters();
        self.effects.push(Effect::StopAdapter);
        if let Some(token) = token {
            self.reply(token, Ok(Answer::Done));
        }
        let relaunch = self.phase.take_relaunch();
        self.continue_relaunch(relaunch);
    }

    pub(super) fn on_closed(&mut self, exit: crate::error::AdapterExit) {
        if matches!(self.phase, Phase::Crashed { .. } | Phase::Failed(_)) {
            // An adapter already given up on (a crash, or a restart that did not come
            // up): the crash and the restart awaited stay as they are.
            return;
        }
        // During a handshake the close is judged as any adapter's: the start fails (a
        // restart's failing is another crash).
        if self.quirks().adapter_process_is_the_program
            && matches!(self.phase, Phase::Live { .. })
            && self.is_crash(&exit)
        {
            self.program_ended_with_its_process(&exit);
        }
        if self.is_crash(&exit) {
            if let Some(gone) = self.dropped_target(&exit) {
                self.on_fail(gone);
                return;
            }
            if !self.defer_crash_to_bootstrap(&exit) {
                self.on_crash(exit);
            }
            return;
        }
        let relaunch = self.phase.take_relaunch();
        // The adapter is gone: the phase ends below, once what was pending is answered.
        if let Some(handshake) = self.phase.take_handshake() {
            self.fail_handshake(handshake, format!("the adapter is gone: {exit}"), false);
        }
        let error = SessionError::AdapterExited { exit: exit.clone() };
        for (_, pending) in std::mem::take(&mut self.pending) {
            match pending {
                // The adapter is gone: the terminate asked for is done.
                Pending::Agent {
                    token,
                    purpose: Purpose::Terminating,
                    ..
                } => self.reply(token, Ok(Answer::Done)),
                Pending::Agent { token, .. } => self.reply(token, Err(error.clone())),
                Pending::Ending { token: Some(token) } => self.reply(token, Ok(Answer::Done)),
                Pending::Ending { token: None }
                | Pending::Startup(_)
                | Pending::TraceStop(_)
                | Pending::CallStop(_) => {}
                // Never told where: each breakpoint of a shared id gets the hit.
                Pending::StopHits(ids) => self.breakpoints.record_hits(&ids, None),
            }
        }
        self.change_phase(Phase::end);
        if self.end_report_pending() {
            self.await_launcher_report();
        } else {
            self.stop_bootstrap();
        }
        self.wake_waiters();
        self.emit(EventKind::AdapterExited(exit));
        self.continue_relaunch(relaunch);
    }

    /// rdbg's process is the program, and it says nothing of the program's end: its
    /// process ending unasked is that end, with the process's exit status (128 plus the
    /// signal that ended it) as the program's exit code, as if the adapter had sent
    /// `exited` and `terminated`. Nothing is sent to the adapter that is gone.
    fn program_ended_with_its_process(&mut self, exit: &crate::error::AdapterExit) {
        // Gone, it counts as let go: nothing more is sent to it (no `disconnect` after
        // the `terminated` below), and its close is then no crash.
        self.change_phase(Phase::ending);
        let code = exit
            .code
            .map(i64::from)
            .or(exit.signal.map(|signal| 128 + i64::from(signal)));
        if let Some(code) = code {
            let body = json!({ "exitCode": code });
            self.on_event(crate::wire::Event::new("exited", Some(body)));
        }
        self.on_event(crate::wire::Event::new("terminated", None));
    }
}
