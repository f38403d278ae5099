//! [`Approver`]: the approval gate a host implements, asked before a call whose
//! effects need approval runs (in [`PermissionMode::Default`](super::PermissionMode::Default):
//! code in the debuggee, commands on the host, processes dapvisor did not start).

use futures::future::BoxFuture;
use serde_json::Value;

use super::effect::Found;

/// What the gate is asked to approve.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    /// The tool's canonical name, such as `debug.evaluate`.
    pub tool: String,
    /// The tool's description.
    pub description: String,
    /// The call's arguments.
    pub arguments: Value,
    /// The effects that need approval, each with the argument that carries it.
    pub effects: Vec<Found>,
    /// Why the call needs approval, the effects said in words: "it runs lldb
    /// commands on the host (context: repl)".
    pub why: String,
    /// The debug session the call acts on: an approval
    /// [for the session](Approval::ApprovedForSession) covers this tool's same
    /// effects on it from now on. `None` for calls on no session (launch, attach).
    pub session: Option<String>,
    /// The flags that would let such calls run without asking, such as
    /// `--allow effect:host`.
    pub rules_to_allow: String,
}

impl ApprovalRequest {
    /// One line for a person to decide on: the tool, its arguments, and why it asks.
    pub fn summary(&self) -> String {
        format!(
            "Allow the debugger tool `{}` with arguments {}? It asks because {}.",
            self.tool, self.arguments, self.why
        )
    }
}

/// The gate's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// Run this call.
    Approved,
    /// Run this call, and let this tool have the same effects on the same debug
    /// session from now on without asking (as [`Approved`](Self::Approved) for a call
    /// on no session).
    ApprovedForSession,
    /// Do not run it, for this reason (shown to the agent).
    Denied(String),
}

/// An approval gate: asked, per call, whether a tool may run.
pub trait Approver: Send + Sync {
    /// Decide on one call. May take as long as a person needs.
    fn approve<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Approval>;
}

/// Approves everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllowAll;

impl Approver for AllowAll {
    fn approve<'a>(&'a self, _: &'a ApprovalRequest) -> BoxFuture<'a, Approval> {
        Box::pin(std::future::ready(Approval::Approved))
    }
}

/// Approves nothing: the gate of a host that has none.
#[derive(Debug, Clone, Copy, Default)]
pub struct DenyAll;

impl Approver for DenyAll {
    fn approve<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Approval> {
        Box::pin(std::future::ready(Approval::Denied(format!(
            "`{}` needs approval and no approval gate is set up here",
            request.tool
        ))))
    }
}
