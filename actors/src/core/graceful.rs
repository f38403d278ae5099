//! The graceful end of a debuggee, DAP's way: where the adapter advertises
//! `supportsTerminateRequest`, an agent's terminate first sends `terminate`, which asks
//! the debuggee to end itself (debugpy launched with `onTerminate: KeyboardInterrupt`
//! raises KeyboardInterrupt in it, so its `finally` blocks and exit handlers run).
//! Once the adapter has answered, the debuggee gets until its `terminated` event, at
//! most the terminate grace (`CoreConfig::terminate_grace`, default
//! [`crate::limits::DEFAULT_TERMINATE_GRACE`]) from the request, to end; then `disconnect`
//! lets the adapter go and ends whatever is left. A refused or unanswered `terminate`
//! goes straight on to `disconnect`.

use serde_json::json;

use crate::core::command::{TimerId, Token};
use crate::core::pending::{Pending, Purpose};
use crate::core::phase::{Graceful, GracefulWait, Phase};
use crate::core::session::SessionCore;
use crate::limits;
use crate::wire::DapCommand;

impl SessionCore {
    /// Send `terminate` for the agent `token`; `disconnect` follows.
    pub(super) fn terminate_gracefully(&mut self, token: Token) {
        // The timer and the request's deadline agree: both are the grace, clamped
        // as every deadline is.
        let grace = limits::clamp_request_timeout(self.config.terminate_grace);
        let timer = self.timer(grace);
        self.change_phase(|phase| {
            phase.ending();
            if let Phase::Ending { graceful, .. } = phase {
                *graceful = Some(Graceful {
                    timer,
                    awaits: GracefulWait::Answer,
                });
            }
        });
        self.send(
            DapCommand::Terminate,
            Some(json!({})),
            Some(grace),
            Pending::Agent {
                token,
                command: DapCommand::Terminate.name().into(),
                purpose: Purpose::Terminating,
            },
        );
    }

    /// The adapter answered `terminate`: disconnect now if the debuggee already ended
    /// (or its time is up), else once it has.
    pub(super) fn terminate_answered(&mut self, token: Token, success: bool) {
        let terminated_seen = self.run.terminated_seen;
        let Some(graceful) = self.phase.graceful_mut() else {
            return self.let_adapter_go(Some(token), true);
        };
        if success && graceful.awaits == GracefulWait::Answer && !terminated_seen {
            graceful.awaits = GracefulWait::End(token);
            return;
        }
        self.phase.graceful_done();
        self.let_adapter_go(Some(token), true);
    }

    /// The debuggee ended (`terminated`): go on if a `terminate` waits for that.
    pub(super) fn graceful_end_seen(&mut self) {
        if let Some(GracefulWait::End(token)) = self.phase.graceful().map(|g| g.awaits) {
            self.phase.graceful_done();
            self.let_adapter_go(Some(token), true);
        }
    }

    /// Whether timer `id` is the graceful end's, handling it if so.
    pub(super) fn graceful_timer(&mut self, id: TimerId) -> bool {
        let Some(graceful) = self.phase.graceful_mut().filter(|g| g.timer == id) else {
            return false;
        };
        match graceful.awaits {
            GracefulWait::End(token) => {
                self.phase.graceful_done();
                self.let_adapter_go(Some(token), true);
            }
            GracefulWait::Answer | GracefulWait::LateAnswer => {
                graceful.awaits = GracefulWait::LateAnswer
            }
        }
        true
    }
}
