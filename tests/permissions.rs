//! The permission gate, in the catalogue and over MCP: Default asks the approval gate
//! (a host's approver, or the user through MCP elicitation) before code in the
//! debuggee, commands on the host and foreign processes, PlanOnly runs reads only,
//! BypassAll asks nothing, DenyUnauthorized runs only what an allow rule grants, and a
//! deny rule always wins. Calls that carry code in their arguments (breakpoint
//! conditions, log messages): tests/permissions_code.rs; routes through an adapter:
//! tests/permissions_lldb.rs, tests/permissions_debugpy.rs; processes dapvisor did not
//! start: tests/permissions_foreign.rs; approvals for a session:
//! tests/permissions_session.rs.

mod agent;
mod common;
mod permission_support;

use std::sync::Arc;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use dapvisor::permission::{AllowAll, PermissionGate, PermissionMode, PermissionRule};
use permission_support::*;
use serde_json::json;

#[tokio::test]
async fn default_mode_asks_the_approver_before_destructive_tools_only() {
    let no = Recording::new(false);
    let tools =
        gated_with_blank_session(PermissionGate::new(PermissionMode::Default).approver(no.clone()))
            .await;

    let said_no = refused(&tools, "debug.evaluate", eval_args()).await;
    assert!(
        said_no.text.contains("the reviewer said no"),
        "{}",
        said_no.text
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
    assert_eq!(
        r.error().unwrap().code,
        PAST_THE_GATE,
        "past the gate: {}",
        r.text
    );
    assert_eq!(yes.asked().len(), 1);
    tools.runtime().shutdown().await;

    // Without an approver set, destructive tools are refused, saying why.
    let tools = gated_with_blank_session(PermissionGate::default()).await;
    let r = refused(&tools, "debug.evaluate", eval_args()).await;
    assert!(r.text.contains("no approval gate"), "{}", r.text);
    tools.runtime().shutdown().await;

    // An allow rule pre-approves the tool's own effect, code in the debuggee; a
    // session not started yet may start under any adapter, one whose expressions run
    // on the host, so that is still asked (a real session: tests/permissions_lldb.rs).
    let no = Recording::new(false);
    let gate = PermissionGate::new(PermissionMode::Default)
        .approver(no.clone())
        .rule(PermissionRule::allow("debug.evaluate"))
        .rule(PermissionRule::allow("effect:host"));
    let tools = gated_with_blank_session(gate).await;
    fails(&tools, "debug.evaluate", eval_args(), PAST_THE_GATE).await;
    assert!(no.asked().is_empty());
    tools.runtime().shutdown().await;
    let gate = PermissionGate::new(PermissionMode::Default)
        .approver(no.clone())
        .rule(PermissionRule::allow("debug.evaluate"));
    let tools = gated_with_blank_session(gate).await;
    let r = refused(&tools, "debug.evaluate", eval_args()).await;
    assert!(r.text.contains("the reviewer said no"), "{}", r.text);
    let asked = no.asked();
    assert!(
        asked[0].why.contains("runs commands on the host") && asked[0].why.contains("not known"),
        "{}",
        asked[0].why
    );
    tools.runtime().shutdown().await;
}

#[tokio::test]
async fn plan_only_runs_read_only_tools_and_refuses_the_rest_with_a_reason() {
    let tools = gated_with_blank_session(
        PermissionGate::new(PermissionMode::PlanOnly).approver(Arc::new(AllowAll)),
    )
    .await;
    for tool in [
        "debug.launch",
        "debug.continue",
        "debug.evaluate",
        "debug.set_breakpoints",
    ] {
        let r = refused(&tools, tool, json!({ "session_id": "s1" })).await;
        let err = r.error().unwrap();
        assert!(err.error.contains("plan_only"), "{err:?}");
        assert!(err.error.contains("read the debuggee"), "{err:?}");
    }
    ok(&tools, "debug.sessions", json!({})).await;
    fails(&tools, "debug.output", json!({ "session_id": "s77" }), 404).await;
    fails(
        &tools,
        "debug.variables",
        json!({ "session_id": "s77", "scope": "Locals" }),
        404,
    )
    .await;
    tools.runtime().shutdown().await;
}

#[tokio::test]
async fn bypass_all_asks_nothing_but_a_deny_rule_still_wins() {
    let never = Recording::new(false);
    let tools = gated_with_blank_session(
        PermissionGate::new(PermissionMode::BypassAll).approver(never.clone()),
    )
    .await;
    fails(&tools, "debug.evaluate", eval_args(), PAST_THE_GATE).await;
    assert!(never.asked().is_empty());
    tools.runtime().shutdown().await;

    let gate =
        PermissionGate::new(PermissionMode::BypassAll).rule(PermissionRule::deny("debug.eval*"));
    let tools = gated_with_blank_session(gate).await;
    let r = refused(&tools, "debug.evaluate", eval_args()).await;
    assert!(r.text.contains("debug.eval*"), "{}", r.text);
    fails(&tools, "debug.threads", json!({ "session_id": "s77" }), 404).await;
    tools.runtime().shutdown().await;
}

#[tokio::test]
async fn deny_unauthorized_runs_only_what_an_allow_rule_names() {
    let tools =
        gated_with_blank_session(PermissionGate::new(PermissionMode::DenyUnauthorized)).await;
    let r = refused(&tools, "debug.sessions", json!({})).await;
    assert!(r.text.contains("deny_unauthorized"), "{}", r.text);
    tools.runtime().shutdown().await;

    let gate = PermissionGate::new(PermissionMode::DenyUnauthorized)
        .rule(PermissionRule::allow("debug.*"))
        .rule(PermissionRule::deny("debug_evaluate"));
    let tools = gated_with_blank_session(gate).await;
    ok(&tools, "debug.sessions", json!({})).await;
    fails(
        &tools,
        "debug.launch",
        json!({ "program": "/no/such.py" }),
        400,
    )
    .await;
    let r = refused(&tools, "debug.evaluate", eval_args()).await;
    assert!(r.text.contains("debug_evaluate"), "{}", r.text);
    tools.runtime().shutdown().await;

    let gate = PermissionGate::new(PermissionMode::DenyUnauthorized)
        .rule(PermissionRule::allow("debug.s*"));
    let tools = gated_with_blank_session(gate).await;
    ok(&tools, "debug.sessions", json!({})).await;
    refused(&tools, "debug.threads", json!({ "session_id": "s1" })).await;
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_evaluation_runs_and_a_refused_one_changes_nothing() {
    let reviewer = Recording::new(false);
    let tools =
        gated_catalogue(PermissionGate::new(PermissionMode::Default).approver(reviewer.clone()))
            .await;
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
    refused(&tools, "debug.evaluate", assignment.clone()).await;
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
    // The user approves: the call passes the gate and runs.
    let client = McpClient::start_all_tools(&[], Elicitation::Answer(true)).await;
    let id = stopped_session(&client).await;
    let two = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "1 + 1" }),
        )
        .await;
    assert_eq!(two["result"], "2", "{two}");
    let asked = client.elicitations();
    assert_eq!(asked.len(), 1);
    let message = asked[0]["message"].as_str().unwrap();
    assert!(
        // Named as the MCP client lists the tool.
        message.contains("`debug_evaluate`") && message.contains("1 + 1"),
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
    // Nor does code on an id no session has: refused at once, so that no approval
    // given meanwhile runs it in a session started under that id later.
    let unknown = json!({ "session_id": "s77", "expression": "1 + 1" });
    let err = client.fails("debug_evaluate", unknown, 404).await;
    assert_eq!(err["kind"], "unknown_session", "{err}");
    assert_eq!(client.elicitations().len(), 1);
    assert!(client.close().await.success());

    // The user says no, or declines.
    for (answer, why) in [
        (Elicitation::Answer(false), "did not approve"),
        (Elicitation::Decline, "declined"),
    ] {
        let client = McpClient::start_all_tools(&[], answer).await;
        let id = stopped_session(&client).await;
        let args = json!({ "session_id": id, "expression": "1 + 1" });
        let err = refused_over_mcp(&client, "debug_evaluate", args).await;
        assert!(err["error"].as_str().unwrap().contains(why), "{err}");
        assert!(client.close().await.success());
    }

    // A client that cannot ask: refused, saying so and what to do.
    let client = McpClient::start_all_tools(&[], Elicitation::Unsupported).await;
    let id = stopped_session(&client).await;
    let args = json!({ "session_id": id, "expression": "1 + 1" });
    let err = refused_over_mcp(&client, "debug_evaluate", args).await;
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
    let client = McpClient::start_all_tools(
        &["--permission-mode", "plan_only"],
        Elicitation::Unsupported,
    )
    .await;
    let err = refused_over_mcp(&client, "debug_launch", json!({ "program": discount() })).await;
    assert!(
        err["error"].as_str().unwrap().contains("plan_only"),
        "{err}"
    );
    client.ok("debug_sessions", json!({})).await;
    assert!(client.close().await.success());

    let client = McpClient::start_all_tools(
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
    let id = stopped_session(&client).await;
    let args = json!({ "session_id": id, "expression": "1 + 1" });
    refused_over_mcp(&client, "debug_evaluate", args).await;
    assert!(client.elicitations().is_empty(), "a deny is not a question");
    assert!(client.close().await.success());

    // --allow in default mode pre-approves the tool's own effect: no question.
    let client =
        McpClient::start_all_tools(&["--allow", "debug.evaluate"], Elicitation::Answer(false))
            .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap();
    let value = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "6 * 7" }),
        )
        .await;
    assert_eq!(value["result"], "42");
    assert!(client.elicitations().is_empty());
    assert!(client.close().await.success());

    // A flag naming no effect is refused at start, naming the effects.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(["mcp", "--allow", "effect:hots"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("hots") && err.contains("read, control, start, code, foreign, host"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_allow_rules_admit_read_only_tools_on_a_live_session() {
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let start = json!({ "program": file, "breakpoints": [{ "file": file, "line": line }] });
    let readers = [
        "--allow",
        "debug_launch",
        "--allow",
        "debug_stack_trace",
        "--allow",
        "debug.variables",
        "--allow",
        "debug_threads",
    ];
    for mode in ["deny_unauthorized", "plan_only"] {
        let mut flags = vec!["--permission-mode", mode];
        flags.extend(readers);
        let client = McpClient::start_all_tools(&flags, Elicitation::Answer(true)).await;
        let launched = client.ok("debug_launch", start.clone()).await;
        assert_eq!(launched["state"], "stopped", "{mode}: {launched}");
        let id = launched["session_id"].as_str().unwrap().to_string();
        let frames = client
            .ok("debug_stack_trace", json!({ "session_id": id }))
            .await;
        assert_eq!(
            frames["frames"][0]["name"], "order_total",
            "{mode}: {frames}"
        );
        let locals = client
            .ok(
                "debug_variables",
                json!({ "session_id": id, "scope": "Locals" }),
            )
            .await;
        assert_eq!(var(&locals["variables"], "discounted")["value"], "1000");
        let threads = client
            .ok("debug_threads", json!({ "session_id": id }))
            .await;
        assert!(!threads["threads"].as_array().unwrap().is_empty());
        // What no rule names stays refused, without a question.
        let err = refused_over_mcp(
            &client,
            "debug_evaluate",
            json!({ "session_id": id, "expression": "total = 1" }),
        )
        .await;
        assert!(err["error"].as_str().unwrap().contains(mode), "{err}");
        refused_over_mcp(&client, "debug_continue", json!({ "session_id": id })).await;
        assert!(client.elicitations().is_empty(), "{mode}");
        assert!(client.close().await.success());
    }
}

#[tokio::test]
async fn plan_only_admits_what_an_allow_rule_names_but_a_deny_rule_still_wins() {
    let gate = PermissionGate::new(PermissionMode::PlanOnly)
        .rule(PermissionRule::allow("debug.*"))
        .rule(PermissionRule::deny("debug.evaluate"));
    let tools = gated_with_blank_session(gate).await;
    fails(&tools, "debug.continue", json!({ "session_id": "s1" }), 400).await;
    let r = refused(&tools, "debug.evaluate", eval_args()).await;
    assert!(r.text.contains("denied by the rule"), "{}", r.text);
    tools.runtime().shutdown().await;
}
