//! The permission gate, in the catalogue and over MCP: Default asks the approval gate
//! (a host's approver, or the user through MCP elicitation) before destructive tools,
//! PlanOnly runs read-only tools only, BypassAll asks nothing, DenyUnauthorized runs
//! only what an allow rule names, and a deny rule always wins.

mod agent;

use std::sync::{Arc, Mutex};

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use dapvisor::permission::{
    AllowAll, Approval, ApprovalRequest, Approver, PermissionGate, PermissionMode, PermissionRule,
};
use dapvisor::tools::ToolCatalogue;
use dapvisor::{Runtime, RuntimeConfig};
use futures::future::BoxFuture;
use serde_json::json;

/// An approver that answers as told and remembers what it was asked.
struct Recording {
    approve: bool,
    asked: Mutex<Vec<ApprovalRequest>>,
}

impl Recording {
    fn new(approve: bool) -> Arc<Self> {
        Arc::new(Self {
            approve,
            asked: Mutex::new(Vec::new()),
        })
    }

    fn asked(&self) -> Vec<ApprovalRequest> {
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

async fn catalogue(gate: PermissionGate) -> ToolCatalogue {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    ToolCatalogue::new(runtime).with_permissions(gate)
}

/// A call on a session that does not exist: 404 once past the gate, 403 if refused.
fn eval_args() -> serde_json::Value {
    json!({ "session_id": "s77", "expression": "1 + 1" })
}

#[tokio::test]
async fn default_mode_asks_the_approver_before_destructive_tools_only() {
    let no = Recording::new(false);
    let tools = catalogue(PermissionGate::new(PermissionMode::Default).approver(no.clone())).await;

    let refused = fails(&tools, "debug.evaluate", eval_args(), 403).await;
    assert!(
        refused.text.contains("the reviewer said no"),
        "{}",
        refused.text
    );
    let asked = no.asked();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].tool, "debug.evaluate");
    assert_eq!(asked[0].arguments["expression"], "1 + 1");
    assert!(asked[0].summary().contains("debug.evaluate"));

    // Not destructive: no question asked.
    ok(&tools, "debug.sessions", json!({})).await;
    fails(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": "s77" }),
        404,
    )
    .await;
    fails(
        &tools,
        "debug.launch",
        json!({ "program": "/no/such.py" }),
        400,
    )
    .await;
    assert_eq!(no.asked().len(), 1);

    // The per-call approver of a host that asks per caller.
    let yes = Recording::new(true);
    let r = tools
        .call_with_approver("debug.evaluate", eval_args(), yes.as_ref())
        .await;
    assert_eq!(r.error().unwrap().code, 404, "past the gate: {}", r.text);
    assert_eq!(yes.asked().len(), 1);
    tools.runtime().shutdown().await;

    // Without an approver set, destructive tools are refused, saying why.
    let tools = catalogue(PermissionGate::default()).await;
    let r = fails(&tools, "debug.evaluate", eval_args(), 403).await;
    assert!(r.text.contains("no approval gate"), "{}", r.text);
    tools.runtime().shutdown().await;

    // An allow rule pre-approves.
    let no = Recording::new(false);
    let gate = PermissionGate::new(PermissionMode::Default)
        .approver(no.clone())
        .rule(PermissionRule::allow("debug.evaluate"));
    let tools = catalogue(gate).await;
    fails(&tools, "debug.evaluate", eval_args(), 404).await;
    assert!(no.asked().is_empty());
    tools.runtime().shutdown().await;
}

#[tokio::test]
async fn plan_only_runs_read_only_tools_and_refuses_the_rest_with_a_reason() {
    let tools =
        catalogue(PermissionGate::new(PermissionMode::PlanOnly).approver(Arc::new(AllowAll))).await;
    for tool in [
        "debug.launch",
        "debug.continue",
        "debug.evaluate",
        "debug.set_breakpoints",
    ] {
        let r = fails(&tools, tool, json!({ "session_id": "s1" }), 403).await;
        let err = r.error().unwrap();
        assert!(err.error.contains("plan_only"), "{err:?}");
        assert!(err.error.contains("read-only"), "{err:?}");
    }
    ok(&tools, "debug.sessions", json!({})).await;
    fails(&tools, "debug.output", json!({ "session_id": "s1" }), 404).await;
    fails(
        &tools,
        "debug.variables",
        json!({ "session_id": "s1", "scope": "Locals" }),
        404,
    )
    .await;
    tools.runtime().shutdown().await;
}

#[tokio::test]
async fn bypass_all_asks_nothing_but_a_deny_rule_still_wins() {
    let never = Recording::new(false);
    let tools =
        catalogue(PermissionGate::new(PermissionMode::BypassAll).approver(never.clone())).await;
    fails(&tools, "debug.evaluate", eval_args(), 404).await;
    assert!(never.asked().is_empty());
    tools.runtime().shutdown().await;

    let gate =
        PermissionGate::new(PermissionMode::BypassAll).rule(PermissionRule::deny("debug.eval*"));
    let tools = catalogue(gate).await;
    let r = fails(&tools, "debug.evaluate", eval_args(), 403).await;
    assert!(r.text.contains("debug.eval*"), "{}", r.text);
    fails(&tools, "debug.threads", json!({ "session_id": "s77" }), 404).await;
    tools.runtime().shutdown().await;
}

#[tokio::test]
async fn deny_unauthorized_runs_only_what_an_allow_rule_names() {
    let tools = catalogue(PermissionGate::new(PermissionMode::DenyUnauthorized)).await;
    let r = fails(&tools, "debug.sessions", json!({}), 403).await;
    assert!(r.text.contains("deny_unauthorized"), "{}", r.text);
    tools.runtime().shutdown().await;

    let gate = PermissionGate::new(PermissionMode::DenyUnauthorized)
        .rule(PermissionRule::allow("debug.*"))
        .rule(PermissionRule::deny("debug_evaluate"));
    let tools = catalogue(gate).await;
    ok(&tools, "debug.sessions", json!({})).await;
    fails(
        &tools,
        "debug.launch",
        json!({ "program": "/no/such.py" }),
        400,
    )
    .await;
    let r = fails(&tools, "debug.evaluate", eval_args(), 403).await;
    assert!(r.text.contains("debug_evaluate"), "{}", r.text);
    tools.runtime().shutdown().await;

    let gate = PermissionGate::new(PermissionMode::DenyUnauthorized)
        .rule(PermissionRule::allow("debug.s*"));
    let tools = catalogue(gate).await;
    ok(&tools, "debug.sessions", json!({})).await;
    fails(&tools, "debug.threads", json!({ "session_id": "s1" }), 403).await;
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_evaluation_runs_and_a_refused_one_changes_nothing() {
    let reviewer = Recording::new(false);
    let tools =
        catalogue(PermissionGate::new(PermissionMode::Default).approver(reviewer.clone())).await;
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": file, "breakpoints": [{ "file": file, "line": line }] }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let assignment = json!({ "session_id": id, "expression": "total = 999" });
    fails(&tools, "debug.evaluate", assignment.clone(), 403).await;
    let total = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals" }),
    )
    .await;
    assert_eq!(
        var(&total["variables"], "total")["value"],
        "0",
        "the refused code did not run"
    );

    let yes = AllowAll;
    let r = tools
        .call_with_approver("debug.evaluate", assignment, &yes)
        .await;
    assert!(!r.is_error, "{}", r.text);
    let total = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals" }),
    )
    .await;
    assert_eq!(var(&total["variables"], "total")["value"], "999");
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_default_mode_asks_the_user_through_elicitation() {
    // The user approves: the call passes the gate (and finds no such session).
    let client = McpClient::start(&[], Elicitation::Answer(true)).await;
    client.fails("debug_evaluate", eval_args(), 404).await;
    let asked = client.elicitations();
    assert_eq!(asked.len(), 1);
    let message = asked[0]["message"].as_str().unwrap();
    assert!(
        message.contains("debug.evaluate") && message.contains("1 + 1"),
        "{message}"
    );
    let schema = &asked[0]["requestedSchema"];
    assert_eq!(
        schema["properties"]["approve"]["type"], "boolean",
        "{schema}"
    );
    // Read-only tools ask nothing.
    client.ok("debug_sessions", json!({})).await;
    assert_eq!(client.elicitations().len(), 1);
    assert!(client.close().await.success());

    // The user says no, or declines.
    for (answer, why) in [
        (Elicitation::Answer(false), "did not approve"),
        (Elicitation::Decline, "declined"),
    ] {
        let client = McpClient::start(&[], answer).await;
        let err = client.fails("debug_evaluate", eval_args(), 403).await;
        assert!(err["error"].as_str().unwrap().contains(why), "{err}");
        assert!(client.close().await.success());
    }

    // A client that cannot ask: refused, saying so and what to do.
    let client = McpClient::start(&[], Elicitation::Unsupported).await;
    let err = client.fails("debug_evaluate", eval_args(), 403).await;
    let text = err["error"].as_str().unwrap();
    assert!(
        text.contains("elicitation") && text.contains("--allow"),
        "{err}"
    );
    assert!(client.elicitations().is_empty());
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_the_mode_and_rules_come_from_the_flags() {
    let client = McpClient::start(
        &["--permission-mode", "plan_only"],
        Elicitation::Unsupported,
    )
    .await;
    let err = client
        .fails("debug_launch", json!({ "program": discount() }), 403)
        .await;
    assert!(
        err["error"].as_str().unwrap().contains("plan_only"),
        "{err}"
    );
    client.ok("debug_sessions", json!({})).await;
    assert!(client.close().await.success());

    let client = McpClient::start(
        &[
            "--permission-mode",
            "deny_unauthorized",
            "--allow",
            "debug.*",
            "--deny",
            "debug_evaluate",
        ],
        Elicitation::Answer(true),
    )
    .await;
    client.ok("debug_sessions", json!({})).await;
    client.fails("debug_evaluate", eval_args(), 403).await;
    assert!(client.elicitations().is_empty(), "a deny is not a question");
    assert!(client.close().await.success());

    // --allow in default mode pre-approves: no question.
    let client = McpClient::start(&["--allow", "debug.evaluate"], Elicitation::Answer(false)).await;
    client.fails("debug_evaluate", eval_args(), 404).await;
    assert!(client.elicitations().is_empty());
    assert!(client.close().await.success());
}
