//! A debug server attached to directly (`debugpy --listen`, `dlv --headless`: the
//! connection is the target itself) that drops the connection is gone: the program
//! there ended, or the network, tunnel or container between was cut. That ends the
//! session as [`Failure::TargetGone`], not as a crash to restart: a re-attach through
//! a tunnel that still accepts (`kubectl port-forward`, `ssh -L`) would reach nothing,
//! or another program. Where an adapter of ours sits between (lldb-dap before
//! `lldb-server`, js-debug before `node --inspect`), its own exit is a crash as any,
//! and the server's drop is what the adapter says of it
//! ([`Quirks::target_lost_exit_code`](crate::quirks::Quirks::target_lost_exit_code)).

use crate::core::attach_target::AttachTarget;
use crate::core::command::Effect;
use crate::core::failure::Failure;
use crate::core::phase::Phase;
use crate::core::session::SessionCore;
use crate::core::session_event::EventKind;
use crate::core::state::Operation;
use crate::core::state::SessionState;
use crate::error::AdapterExit;
use crate::error::SessionError;
use crate::wire::types::ExitedEventBody;
use crate::wire::Event;

impl SessionCore {
    /// Why the session's target is gone, when `exit` is the drop of a connection to a
    /// debug server attached to directly; `None` otherwise.
    pub(super) fn dropped_target(&self, exit: &AdapterExit) -> Option<Failure> {
        let plan = self.plan.as_ref()?;
        let Some(AttachTarget::Server { host, port }) = &plan.attach_target else {
            return None;
        };
        let direct = plan.operation == Operation::Attach && self.quirks().attach_port_speaks_dap;
        direct.then(|| {
            Failure::TargetGone(format!(
                "the debug server at {host}:{port} ({}) dropped the connection ({exit}): \
                 the program there ended, or the connection to it was cut; start the \
                 debug server again and attach to it anew",
                plan.adapter.name
            ))
        })
    }

    /// Why the session's target is gone, when `event` is the adapter's word that the
    /// debug server it attached to by port dropped the connection (an `exited` with
    /// the family's [`target_lost_exit_code`](crate::quirks::Quirks)); `None` otherwise.
    pub(super) fn lost_target_in(&self, event: &Event) -> Option<Failure> {
        let lost = self.quirks().target_lost_exit_code?;
        let asked_to_end = self.phase.is_ending() && !self.run.ended_on_its_own;
        if event.event != "exited" || asked_to_end {
            return None;
        }
        let plan = self.plan.as_ref()?;
        let Some(AttachTarget::Server { host, port }) = &plan.attach_target else {
            return None;
        };
        let body: ExitedEventBody = event.parse_body().ok()?;
        (body.exit_code == lost).then(|| {
            Failure::TargetGone(format!(
                "the debug server at {host}:{port} dropped the connection ({} gave the \
                 program the exit code {lost}, its mark of a lost connection): the program \
                 there ended, or the connection to it was cut; start the debug server \
                 again and attach to it anew",
                plan.adapter.name
            ))
        })
    }

    /// The target is gone: the session fails, also where the adapter already said
    /// `terminated` (lldb says the exit code after it), which it said of its own
    /// accord (`lost_target_in` checks).
    pub(super) fn target_lost(&mut self, gone: Failure) {
        if self.state() != SessionState::Terminated {
            self.on_fail(gone);
            return;
        }
        self.effects.push(Effect::StopAdapter);
        let reason = gone.to_string();
        self.enter(Phase::Failed(gone));
        self.emit(EventKind::SessionFailed {
            reason: reason.clone(),
        });
        self.fail_pending(SessionError::SessionFailed { reason });
    }
}
