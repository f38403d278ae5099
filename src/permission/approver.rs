//! [`Approver`]: the approval gate a host implements, asked before a tool that needs
//! approval runs (in [`PermissionMode::Default`](super::PermissionMode::Default), the
//! destructive ones).

use futures::future::BoxFuture;
use serde_json::Value;

/// What the gate is asked to approve.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    /// The tool's canonical name, such as `debug.evaluate`.
    pub tool: String,
    /// The tool's description.
    pub description: String,
    /// The call's arguments.
    pub arguments: Value,
    /// Why the call needs approval, such as "its condition run(s) as code in the
    /// debuggee".
    pub why: String,
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
    /// Run the tool.
    Approved,
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
