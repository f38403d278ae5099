//! Calls on a session whose program has ended, answered before the permission gate:
//! nothing they could run is left to approve (issue 28, item 5).
//!
//! - A call the session would refuse now that its program has ended (`debug.evaluate`,
//!   `debug.continue`, ...: an operation [`SessionState::Terminated`] does not allow)
//!   is answered `session_ended`, saying how the program ended, instead of asking the
//!   user to approve what would then be refused.
//! - `debug.terminate` ends the session without asking: its program and adapter are
//!   gone already, so ending it only forgets it. It still needs the caller to be one
//!   who may drive the session (checked as it ends it), and says how the program
//!   ended.
//!
//! Anything else (a relaunch, a read, the breakpoints kept for the next run) goes
//! through the gate as before.

use serde_json::json;

use crate::{Operation, SessionHandle, SessionSnapshot, SessionState};

use crate::tools::access::acting::SessionCall;
use crate::tools::catalogue::operations::Asks;
use crate::tools::results::exit_signal::{how_it_ended, session_ended};
use crate::tools::{ToolCatalogue, ToolResult};

impl ToolCatalogue {
    /// The answer to `call` if its session's program has ended and the call needs
    /// no one's approval to be answered; `None` to go on to the gate.
    pub(in crate::tools) async fn answer_ended(
        &self,
        call: Option<&SessionCall>,
    ) -> Option<ToolResult> {
        let call = call?;
        let operation = operation_of(call.tool);
        let terminate = operation == Some(Operation::Terminate);
        // Only the calls an ended session refuses cost a look at the session.
        let refused = operation.is_some_and(|op| {
            !SessionState::Terminated.allows(op)
                && !matches!(op, Operation::Terminate | Operation::Disconnect)
        });
        if !terminate && !refused {
            return None;
        }
        let session = self.ctx.session(&call.id).ok()?;
        let snapshot = session.snapshot().await.ok()?;
        if snapshot.state != SessionState::Terminated {
            return None;
        }
        if terminate {
            return Some(self.forget_ended(call, &session, &snapshot).await);
        }
        Some(session_ended(&snapshot).into())
    }

    /// End `session` (`call`'s), whose program ended as `snapshot` says.
    async fn forget_ended(
        &self,
        call: &SessionCall,
        session: &SessionHandle,
        snapshot: &SessionSnapshot,
    ) -> ToolResult {
        // Checked as it acts: the session may have changed hands since it was weighed.
        if let Err(refusal) = self.may_act_on(call) {
            return refusal.into();
        }
        if let Err(err) = self.ctx.runtime.end_session(session.id()).await {
            return crate::tools::ToolError::from(err).into();
        }
        ToolResult::ok(
            json!({
                "session_id": call.id,
                "state": "terminated",
                "exit_code": snapshot.exit_code,
            }),
            format!(
                "session {} had already ended ({}); it is removed",
                call.id,
                how_it_ended(snapshot)
            ),
        )
    }
}

/// The session operation `tool` asks for, if it asks for one.
fn operation_of(tool: &str) -> Option<Operation> {
    let described = crate::tools::catalogue_tools()
        .iter()
        .find(|t| t.spec.name == tool)?;
    match described.asks {
        Asks::Operation(op) => Some(op),
        Asks::AnyState => None,
    }
}
