//! A debug server attached to directly (`debugpy --listen`, `dlv --headless`: the
//! connection is the target itself) that drops the connection is gone: the program
//! there ended, or the network, tunnel or container between was cut. That ends the
//! session as [`Failure::TargetGone`], not as a crash to restart: a re-attach through
//! a tunnel that still accepts (`kubectl port-forward`, `ssh -L`) would reach nothing,
//! or another program. Where an adapter of ours sits between (lldb-dap before
//! `lldb-server`, js-debug before `node --inspect`), its own exit is a crash as any,
//! and the server's drop is what the adapter says of it
//! ([`Quirks::target_lost_line`](crate::quirks::Quirks::target_lost_line)).

use crate::core::attach_target::AttachTarget;
use crate::core::failure::Failure;
use crate::core::session::SessionCore;
use crate::core::state::Operation;
use crate::error::AdapterExit;
use crate::wire::types::OutputEventBody;
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
    /// debug server it attached to by port dropped the connection; `None` otherwise.
    pub(super) fn lost_target_in(&self, event: &Event) -> Option<Failure> {
        let marker = self.quirks().target_lost_line?;
        if event.event != "output" {
            return None;
        }
        let plan = self.plan.as_ref()?;
        let Some(AttachTarget::Server { host, port }) = &plan.attach_target else {
            return None;
        };
        let body: OutputEventBody = event.parse_body().ok()?;
        let line = body.output.lines().find(|l| l.contains(marker))?.trim();
        Some(Failure::TargetGone(format!(
            "the debug server at {host}:{port} dropped the connection ({} says: {line}): \
             the program there ended, or the connection to it was cut; start the debug \
             server again and attach to it anew",
            plan.adapter.name
        )))
    }
}
