//! Restarting the debuggee at an agent's request: with the adapter's `restart` request
//! where it advertises one, else by ending the debuggee and the adapter and starting
//! the stored plan again on a fresh adapter, with every cached breakpoint (those added
//! since the start included, those removed left out). Either way the session keeps its
//! id, and the agent is answered with the stop epoch to wait from: the first stop of
//! the new run is after it.
//!
//! (Restarts after an adapter crash are in `crashed.rs`.)

use serde_json::json;

use crate::core::capability::has_capability;
use crate::core::command::{Effect, Token};
use crate::core::handshake::Starter;
use crate::core::pending::{Pending, Purpose};
use crate::core::phase::Relaunch;
use crate::core::session::SessionCore;
use crate::core::state::Operation;
use crate::error::SessionError;
use crate::wire::DapCommand;

impl SessionCore {
    /// An agent's restart: the adapter's `restart` request, or a relaunch.
    pub(super) fn restart_debuggee(&mut self, token: Token) -> Result<(), SessionError> {
        self.check(Operation::Restart)?;
        if !self.phase.is_serving() {
            // Being ended (a restart or an end under way), or already gone.
            return Err(SessionError::InvalidArgument(
                "the debuggee is already being restarted or ended; wait for that to finish".into(),
            ));
        }
        let epoch = self.stop_epoch;
        // js-debug restarts a program by asking for a new session for it, which would
        // be another session: it is relaunched instead.
        let own_restart = self.run.bootstrap.is_none();
        if own_restart && has_capability(self.advertised(), "supportsRestartRequest") {
            // The configuration goes along, as DAP has it: CodeLLDB 1.11 dies on a
            // `restart` without one.
            let arguments = self
                .plan
                .as_ref()
                .map_or_else(|| json!({}), |p| json!({ "arguments": p.arguments }));
            self.send(
                DapCommand::Restart,
                Some(arguments),
                None,
                Pending::Agent {
                    token,
                    command: DapCommand::Restart.name().into(),
                    purpose: Purpose::Restart { epoch },
                },
            );
            return Ok(());
        }
        let attached = self
            .plan
            .as_ref()
            .is_none_or(|p| p.operation == Operation::Attach);
        if attached {
            return Err(self.unsupported(
                "`restart` (supportsRestartRequest); a process it attached to cannot be \
                 launched again: detach and attach anew",
            ));
        }
        if self.phase.handshake().is_some() {
            // The program runs (debugpy answers `launch` only after
            // `configurationDone`), but its start is not answered yet: that start
            // finishes first, rather than end with an adapter let go under it.
            return Err(SessionError::InvalidArgument(
                "the debuggee is still starting (its launch or attach is not answered \
                 yet); wait for the start to finish, then restart"
                    .into(),
            ));
        }
        // The new run's adapter asks for new children.
        self.effects.push(Effect::EndChildren {
            terminate_debuggee: true,
        });
        self.let_adapter_go(None, true);
        let waits = self.phase.relaunch_after(Relaunch { token, epoch });
        debug_assert!(waits, "a serving adapter is being let go");
        Ok(())
    }

    /// The old adapter has ended: start the plan again if `relaunch` (taken from its
    /// ending phase) waits for it.
    pub(super) fn continue_relaunch(&mut self, relaunch: Option<Relaunch>) {
        let Some(relaunch) = relaunch else {
            return;
        };
        self.begin_run(Starter::Relaunch {
            token: relaunch.token,
            epoch: relaunch.epoch,
        });
    }

    /// An agent ended the session while a relaunch waited: it will not come.
    pub(super) fn abandon_relaunch(&mut self, why: &str) {
        if let Some(relaunch) = self.phase.take_relaunch() {
            self.reply(
                relaunch.token,
                Err(SessionError::InvalidArgument(format!(
                    "the restart was abandoned: {why}"
                ))),
            );
        }
    }
}
