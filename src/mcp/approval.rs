//! [`ElicitationApprover`]: the approval gate over MCP. It asks the user through the
//! client (MCP elicitation) and refuses, saying why, when the client cannot ask.

use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::service::ElicitationError;
use rmcp::{Peer, RoleServer};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::permission::{Approval, ApprovalRequest, Approver};

/// How long the user has to answer an approval request before it counts as a no:
/// 5 minutes.
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// The form the user fills in.
#[derive(Debug, Deserialize, JsonSchema)]
struct Decision {
    /// Allow this call?
    approve: bool,
}

rmcp::elicit_safe!(Decision);

/// Asks the user of one MCP client.
pub struct ElicitationApprover {
    peer: Peer<RoleServer>,
    timeout: Duration,
}

impl ElicitationApprover {
    /// An approver that asks through `peer`, waiting up to `timeout` for the answer.
    pub fn new(peer: Peer<RoleServer>, timeout: Duration) -> Self {
        Self { peer, timeout }
    }
}

impl Approver for ElicitationApprover {
    fn approve<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Approval> {
        Box::pin(async move {
            let asked = self
                .peer
                .elicit_with_timeout::<Decision>(request.summary(), Some(self.timeout))
                .await;
            match asked {
                Ok(Some(Decision { approve: true })) => Approval::Approved,
                Ok(Some(Decision { approve: false })) => {
                    Approval::Denied("the user did not approve it".into())
                }
                Ok(None) | Err(ElicitationError::NoContent) => {
                    Approval::Denied("the user gave no answer".into())
                }
                Err(ElicitationError::UserDeclined) => Approval::Denied("the user declined".into()),
                Err(ElicitationError::UserCancelled) => {
                    Approval::Denied("the user dismissed the question".into())
                }
                Err(ElicitationError::CapabilityNotSupported) => Approval::Denied(format!(
                    "it needs the user's approval, and this MCP client cannot ask (it does not \
                     support elicitation); the server can be started with --allow {} or \
                     --permission-mode bypass_all",
                    request.tool
                )),
                Err(other) => Approval::Denied(format!("the approval request failed: {other}")),
            }
        })
    }
}
