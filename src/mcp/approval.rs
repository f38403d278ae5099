//! [`ElicitationApprover`]: the approval gate over MCP. It asks the user through the
//! client (MCP elicitation): approve this call, approve it for the rest of its debug
//! session, or not; and refuses, saying why, when the client cannot ask.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::service::ElicitationError;
use rmcp::{Peer, RoleServer};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::permission::{Approval, ApprovalRequest, Approver};
use crate::tools::ToolNames;

/// How long the user has to answer an approval request before it counts as a no:
/// 5 minutes.
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// The form the user fills in for a call on no debug session (a launch, an attach).
#[derive(Debug, Deserialize, JsonSchema)]
struct Decision {
    /// Allow this call?
    approve: bool,
}

/// The form the user fills in for a call on a debug session.
#[derive(Debug, Deserialize, JsonSchema)]
struct SessionDecision {
    /// Allow this call?
    approve: bool,
    /// With approve: also allow this tool to do the same (the same effect) in this
    /// debug session from now on, without asking again.
    #[serde(default)]
    for_session: bool,
}

rmcp::elicit_safe!(Decision, SessionDecision);

/// The user's answer, whichever form it came on.
enum Answer {
    Yes,
    ForSession,
    No,
}

/// Asks the user of one MCP client.
pub struct ElicitationApprover {
    peer: Peer<RoleServer>,
    timeout: Duration,
    asking: Arc<AtomicBool>,
}

impl ElicitationApprover {
    /// An approver that asks through `peer`, waiting up to `timeout` for the answer.
    pub fn new(peer: Peer<RoleServer>, timeout: Duration) -> Self {
        Self {
            peer,
            timeout,
            asking: Arc::default(),
        }
    }

    /// Whether it is waiting for the user's answer now (for progress reports).
    pub(crate) fn asking(&self) -> Arc<AtomicBool> {
        self.asking.clone()
    }
}

/// Marks an approver as asking while it lives.
struct Asking<'a>(&'a AtomicBool);

impl<'a> Asking<'a> {
    fn new(flag: &'a AtomicBool) -> Self {
        flag.store(true, Ordering::Relaxed);
        Self(flag)
    }
}

impl Drop for Asking<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

impl ElicitationApprover {
    /// Ask the user with the form that fits the call: with the choice of approving
    /// for the session when the call acts on one.
    async fn ask(&self, request: &ApprovalRequest) -> Result<Option<Answer>, ElicitationError> {
        let timeout = Some(self.timeout);
        let _asking = Asking::new(&self.asking);
        // The person sees the tools as their MCP client lists them: `debug_evaluate`.
        let names = ToolNames::Mcp;
        match &request.session {
            Some(session) => {
                let message = format!(
                    "{} (`for_session` approves `{}` doing this in debug session {session} \
                     from now on.)",
                    names.in_text(&request.summary()),
                    names.of(&request.tool)
                );
                let answer = self
                    .peer
                    .elicit_with_timeout::<SessionDecision>(message, timeout)
                    .await?;
                Ok(answer.map(|d| match (d.approve, d.for_session) {
                    (true, true) => Answer::ForSession,
                    (true, false) => Answer::Yes,
                    (false, _) => Answer::No,
                }))
            }
            None => {
                let answer = self
                    .peer
                    .elicit_with_timeout::<Decision>(names.in_text(&request.summary()), timeout)
                    .await?;
                Ok(answer.map(|d| if d.approve { Answer::Yes } else { Answer::No }))
            }
        }
    }
}

impl Approver for ElicitationApprover {
    fn approve<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Approval> {
        Box::pin(async move {
            match self.ask(request).await {
                Ok(Some(Answer::Yes)) => Approval::Approved,
                Ok(Some(Answer::ForSession)) => Approval::ApprovedForSession,
                Ok(Some(Answer::No)) => Approval::Denied("the user did not approve it".into()),
                Ok(None) | Err(ElicitationError::NoContent) => {
                    Approval::Denied("the user gave no answer".into())
                }
                Err(ElicitationError::UserDeclined) => Approval::Denied("the user declined".into()),
                Err(ElicitationError::UserCancelled) => {
                    Approval::Denied("the user dismissed the question".into())
                }
                Err(ElicitationError::CapabilityNotSupported) => Approval::Denied(format!(
                    "it needs the user's approval, and this MCP client cannot ask (it does not \
                     support elicitation); the server can be started with {} or \
                     --permission-mode bypass_all",
                    request.rules_to_allow
                )),
                Err(other) => Approval::Denied(format!("the approval request failed: {other}")),
            }
        })
    }
}
