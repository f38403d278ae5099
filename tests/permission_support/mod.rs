//! Helpers of the permission tests (tests/permissions*.rs): an approver that records
//! what it was asked, a catalogue behind a gate (and one without, over the same
//! runtime, to set a session up), files a refused call must not create, and checks
//! that a call was refused by the gate, in the catalogue or over MCP.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use dapvisor::permission::{Approval, ApprovalRequest, Approver, PermissionGate, PermissionMode};
use dapvisor::tools::{ToolCatalogue, ToolProfile, ToolResult};
use dapvisor::{Runtime, RuntimeConfig};
use futures::future::BoxFuture;
use serde_json::json;

use crate::agent::fails;
use crate::agent::mcp_client::McpClient;

/// An approver that answers as told and remembers what it was asked.
pub struct Recording {
    approve: bool,
    asked: Mutex<Vec<ApprovalRequest>>,
}

impl Recording {
    pub fn new(approve: bool) -> Arc<Self> {
        Arc::new(Self {
            approve,
            asked: Mutex::new(Vec::new()),
        })
    }

    pub fn asked(&self) -> Vec<ApprovalRequest> {
        self.asked.lock().unwrap().clone()
    }
}

impl Approver for Recording {
    fn approve<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Approval> {
        self.asked.lock().unwrap().push(request.clone());
        let answer = if self.approve {
            Approval::Approved
        } else {
            Approval::Denied("the reviewer said no".into())
        };
        Box::pin(std::future::ready(answer))
    }
}

pub async fn gated_catalogue(gate: PermissionGate) -> ToolCatalogue {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    ToolCatalogue::new(runtime)
        .with_profile(ToolProfile::All)
        .with_permissions(gate)
}

/// A catalogue behind `gate`, whose runtime holds one session, `s1`, created and never
/// started ([`eval_args`] names it): a call on it passes the existence check made
/// before the gate and reaches the gate as a call on a live session does, without an
/// adapter. (A call that would change a session, on an id no session has, is refused
/// before the gate: `unknown_session`.)
pub async fn gated_with_blank_session(gate: PermissionGate) -> ToolCatalogue {
    let tools = gated_catalogue(gate).await;
    let blank = tools.runtime().new_session().await.unwrap();
    assert_eq!(blank.id().to_string(), "s1");
    tools
}

/// Two catalogues over one runtime: one that asks nothing, to set sessions up (and
/// to show that a call refused by the gate does its harm when let through), and one
/// behind `gate`.
pub async fn open_and_gated(gate: PermissionGate) -> (ToolCatalogue, ToolCatalogue) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let open = ToolCatalogue::new(runtime.clone())
        .with_profile(ToolProfile::All)
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    (
        open,
        ToolCatalogue::new(runtime)
            .with_profile(ToolProfile::All)
            .with_permissions(gate),
    )
}

/// A file that a refused call's side effect would create: unique to this test
/// process and `name`, and not there yet.
pub fn marker(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!(
        "dapvisor-permissions-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// What a refusal by the gate carries: code 500 (the second seed's "otherwise"),
/// kind `forbidden`.
pub const REFUSED: u16 = 500;

/// Insist that the catalogue's gate refused the call.
pub async fn refused(tools: &ToolCatalogue, tool: &str, args: serde_json::Value) -> ToolResult {
    let r = fails(tools, tool, args, REFUSED).await;
    assert_eq!(r.error().unwrap().kind, "forbidden", "{}", r.text);
    r
}

/// Insist that the MCP server's gate refused the call; its structured error.
pub async fn refused_over_mcp(
    client: &McpClient,
    tool: &str,
    args: serde_json::Value,
) -> serde_json::Value {
    let err = client.fails(tool, args, REFUSED).await;
    assert_eq!(err["kind"], "forbidden", "{err}");
    err
}

/// An evaluation on the session [`gated_with_blank_session`] created and never
/// started: 400 once past the gate (the session is not stopped), refused otherwise.
pub fn eval_args() -> serde_json::Value {
    json!({ "session_id": "s1", "expression": "1 + 1" })
}

/// What an evaluation on the never-started session answers once past the gate.
pub const PAST_THE_GATE: u16 = 400;

/// Launch the discount example stopped at its first line over MCP; its session id.
pub async fn stopped_session(client: &McpClient) -> String {
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": crate::agent::discount(), "stop_on_entry": true }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    launched["session_id"].as_str().unwrap().to_string()
}
