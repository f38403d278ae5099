//! A debug server attached to directly (`debugpy --listen`, `dlv --headless`: the
//! connection is the target itself) that drops the connection is gone: the program
//! there ended, or the network, tunnel or container between was cut. That ends the
//! session as [`Failure::TargetGone`], not as a crash to restart: a re-attach through
//! a tunnel that still accepts (`kubectl port-forward`, `ssh -L`) would reach nothing,
//! or another program. Where an adapter of ours sits between (lldb-dap before
//! `lldb-server`, js-debug before `node --inspect`), its own exit is a crash as any.

use crate::core::attach_target::AttachTarget;
use crate::core::failure::Failure;
use crate::core::session::SessionCore;
use crate::core::state::Operation;
use crate::error::AdapterExit;

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
}
