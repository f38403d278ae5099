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
use dapvisor::tools::{ToolCatalogue, ToolResult};
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

/// What a refusal by the gate carries: code 500 (the second seed's "otherwise"),
/// kind `forbidden`.
const REFUSED: u16 = 500;

/// Insist that the catalogue's gate refused the call.
async fn refused(tools: &ToolCatalogue, tool: &str, args: serde_json::Value) -> ToolResult {
    let r = fails(tools, tool, args, REFUSED).await;
    assert_eq!(r.error().unwrap().kind, "forbidden", "{}", r.text);
    r
}

/// Insist that the MCP server's gate refused the call; its structured error.
async fn refused_over_mcp(
    client: &McpClient,
    tool: &str,
    args: serde_json::Value,
) -> serde_json::Value {
    let err = client.fails(tool, args, REFUSED).await;
    assert_eq!(err["kind"], "forbidden", "{err}");
    err
}

/// A call on a session that does not exist: 404 once past the gate, refused otherwise.
fn eval_args() -> serde_json::Value {
    json!({ "session_id": "s77", "expression": "1 + 1" })
}

#[tokio::test]
async fn default_mode_asks_the_approver_before_destructive_tools_only() {
    let no = Recording::new(false);
    let tools = catalogue(PermissionGate::new(PermissionMode::Default).approver(no.clone())).await;

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
    assert_eq!(r.error().unwrap().code, 404, "past the gate: {}", r.text);
    assert_eq!(yes.asked().len(), 1);
    tools.runtime().shutdown().await;

    // Without an approver set, destructive tools are refused, saying why.
    let tools = catalogue(PermissionGate::default()).await;
    let r = refused(&tools, "debug.evaluate", eval_args()).await;
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
        let r = refused(&tools, tool, json!({ "session_id": "s1" })).await;
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
    let r = refused(&tools, "debug.evaluate", eval_args()).await;
    assert!(r.text.contains("debug.eval*"), "{}", r.text);
    fails(&tools, "debug.threads", json!({ "session_id": "s77" }), 404).await;
    tools.runtime().shutdown().await;
}

#[tokio::test]
async fn deny_unauthorized_runs_only_what_an_allow_rule_names() {
    let tools = catalogue(PermissionGate::new(PermissionMode::DenyUnauthorized)).await;
    let r = refused(&tools, "debug.sessions", json!({})).await;
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
    let r = refused(&tools, "debug.evaluate", eval_args()).await;
    assert!(r.text.contains("debug_evaluate"), "{}", r.text);
    tools.runtime().shutdown().await;

    let gate = PermissionGate::new(PermissionMode::DenyUnauthorized)
        .rule(PermissionRule::allow("debug.s*"));
    let tools = catalogue(gate).await;
    ok(&tools, "debug.sessions", json!({})).await;
    refused(&tools, "debug.threads", json!({ "session_id": "s1" })).await;
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
        let err = refused_over_mcp(&client, "debug_evaluate", eval_args()).await;
        assert!(err["error"].as_str().unwrap().contains(why), "{err}");
        assert!(client.close().await.success());
    }

    // A client that cannot ask: refused, saying so and what to do.
    let client = McpClient::start(&[], Elicitation::Unsupported).await;
    let err = refused_over_mcp(&client, "debug_evaluate", eval_args()).await;
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
    let err = refused_over_mcp(&client, "debug_launch", json!({ "program": discount() })).await;
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
    refused_over_mcp(&client, "debug_evaluate", eval_args()).await;
    assert!(client.elicitations().is_empty(), "a deny is not a question");
    assert!(client.close().await.success());

    // --allow in default mode pre-approves: no question.
    let client = McpClient::start(&["--allow", "debug.evaluate"], Elicitation::Answer(false)).await;
    client.fails("debug_evaluate", eval_args(), 404).await;
    assert!(client.elicitations().is_empty());
    assert!(client.close().await.success());
}

/// A file that a breakpoint condition's side effect would create, not there yet.
fn marker(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!(
        "dapvisor-permissions-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// A condition that writes `marker` and is false, so the program never stops on it.
fn writing_condition(marker: &std::path::Path) -> String {
    format!(
        "open({:?}, 'w').write('x') and False",
        marker.display().to_string()
    )
}

#[tokio::test]
async fn the_tools_that_take_code_in_their_arguments_say_so() {
    let tools = catalogue(PermissionGate::default()).await;
    let mut with_code: Vec<&str> = tools
        .list()
        .iter()
        .filter(|s| !s.code_arguments.is_empty())
        .map(|s| s.name)
        .collect();
    with_code.sort();
    assert_eq!(
        with_code,
        [
            "debug.attach",
            "debug.launch",
            "debug.set_breakpoint",
            "debug.set_breakpoints",
            "debug.set_data_breakpoints",
            "debug.set_exception_breakpoints",
            "debug.set_instruction_breakpoints",
        ]
    );
    let one = tools.spec("debug.set_breakpoint").unwrap();
    assert_eq!(
        one.code_arguments,
        ["condition", "hit_condition", "log_message"]
    );
    let found = tools.spec("debug.launch").unwrap().code_in(&json!({
        "program": "p.py",
        "breakpoints": [{ "file": "p.py", "line": 3 }, { "file": "p.py", "line": 4, "log_message": "{x}" }],
    }));
    assert_eq!(found, ["breakpoints[1].log_message"]);
    // Unset, null or empty: no code.
    let none = one.code_in(&json!({ "session_id": "s1", "condition": null, "log_message": "" }));
    assert!(none.is_empty(), "{none:?}");
    tools.runtime().shutdown().await;
}

#[tokio::test]
async fn a_call_carrying_a_condition_or_log_message_is_gated_as_destructive() {
    let no = Recording::new(false);
    let tools = catalogue(PermissionGate::new(PermissionMode::Default).approver(no.clone())).await;
    let bp = |extra: serde_json::Value| {
        let mut args = json!({ "session_id": "s77", "file": "/tmp/x.py", "line": 3 });
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        args
    };

    // Without code: as before, past the gate (no such session), nothing asked.
    fails(&tools, "debug.set_breakpoint", bp(json!({})), 404).await;
    fails(
        &tools,
        "debug.set_breakpoint",
        bp(json!({ "condition": "" })),
        404,
    )
    .await;
    assert!(no.asked().is_empty());

    // With code, every way of passing it: asked, and refused when the answer is no.
    let calls = [
        (
            "debug.set_breakpoint",
            bp(json!({ "condition": "x > 1" })),
            "condition",
        ),
        (
            "debug.set_breakpoint",
            bp(json!({ "hit_condition": ">= 2" })),
            "hit_condition",
        ),
        (
            "debug.set_breakpoint",
            bp(json!({ "log_message": "{x}" })),
            "log_message",
        ),
        (
            "debug.set_breakpoints",
            json!({ "session_id": "s77", "file": "/tmp/x.py",
                    "breakpoints": [{ "line": 3 }, { "line": 4, "condition": "x" }] }),
            "breakpoints[1].condition",
        ),
        (
            "debug.launch",
            json!({ "program": discount(),
                    "breakpoints": [{ "file": discount(), "line": 3, "condition": "x" }] }),
            "breakpoints[0].condition",
        ),
        (
            "debug.attach",
            json!({ "pid": 1, "breakpoints": [{ "file": discount(), "line": 3, "log_message": "{x}" }] }),
            "breakpoints[0].log_message",
        ),
        (
            "debug.set_instruction_breakpoints",
            json!({ "session_id": "s77",
                    "breakpoints": [{ "instruction_reference": "0x10", "condition": "1" }] }),
            "breakpoints[0].condition",
        ),
        (
            "debug.set_data_breakpoints",
            json!({ "session_id": "s77",
                    "breakpoints": [{ "data_id": "d", "hit_condition": "3" }] }),
            "breakpoints[0].hit_condition",
        ),
        (
            "debug.set_exception_breakpoints",
            json!({ "session_id": "s77", "filters": [],
                    "filter_options": [{ "filter_id": "raised", "condition": "1" }] }),
            "filter_options[0].condition",
        ),
    ];
    for (i, (tool, args, field)) in calls.iter().enumerate() {
        let r = refused(&tools, tool, args.clone()).await;
        assert!(
            r.text.contains("the reviewer said no"),
            "{tool}: {}",
            r.text
        );
        let asked = no.asked();
        assert_eq!(asked.len(), i + 1, "{tool} asked once");
        let request = &asked[i];
        assert_eq!(request.tool, *tool);
        assert!(
            request.why.contains(field) && request.summary().contains(field),
            "{tool}: {}",
            request.summary()
        );
    }
    // The refused launch started nothing.
    let sessions = ok(&tools, "debug.sessions", json!({})).await;
    assert_eq!(sessions["sessions"], json!([]), "{sessions}");

    // Approved, the call goes on (to find no such session).
    let yes = Recording::new(true);
    let r = tools
        .call_with_approver(
            "debug.set_breakpoint",
            bp(json!({ "condition": "x" })),
            yes.as_ref(),
        )
        .await;
    assert_eq!(r.error().unwrap().code, 404, "past the gate: {}", r.text);
    assert_eq!(yes.asked().len(), 1);
    tools.runtime().shutdown().await;

    // PlanOnly refuses it, naming the code; a deny rule wins over any approver.
    let tools =
        catalogue(PermissionGate::new(PermissionMode::PlanOnly).approver(Arc::new(AllowAll))).await;
    let r = refused(
        &tools,
        "debug.set_breakpoint",
        bp(json!({ "condition": "x" })),
    )
    .await;
    assert!(
        r.text.contains("plan_only") && r.text.contains("condition"),
        "{}",
        r.text
    );
    tools.runtime().shutdown().await;
    let always = Recording::new(true);
    let gate = PermissionGate::new(PermissionMode::Default)
        .approver(always.clone())
        .rule(PermissionRule::deny("debug.set_breakpoint"));
    let tools = catalogue(gate).await;
    refused(
        &tools,
        "debug.set_breakpoint",
        bp(json!({ "condition": "x" })),
    )
    .await;
    refused(&tools, "debug.set_breakpoint", bp(json!({}))).await;
    assert!(always.asked().is_empty(), "a deny is not a question");
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_breakpoint_condition_never_runs_and_an_approved_one_does() {
    let file = discount();
    let line = line_of(&file, "total += discounted");
    for approve in [false, true] {
        let reviewer = Recording::new(approve);
        let tools =
            catalogue(PermissionGate::new(PermissionMode::Default).approver(reviewer.clone()))
                .await;
        let launched = ok(
            &tools,
            "debug.launch",
            json!({ "program": file, "stop_on_entry": true }),
        )
        .await;
        let id = launched["session_id"].as_str().unwrap().to_string();
        let written = marker(&format!("condition-{approve}"));
        let conditional = json!({
            "session_id": id, "file": file, "line": line,
            "condition": writing_condition(&written),
        });
        if approve {
            ok(&tools, "debug.set_breakpoint", conditional).await;
        } else {
            refused(&tools, "debug.set_breakpoint", conditional).await;
        }
        assert_eq!(reviewer.asked().len(), 1);
        let end = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
        assert_eq!(end["state"], "terminated", "the condition is false: {end}");
        assert_eq!(
            written.exists(),
            approve,
            "the condition's side effect happened only when approved"
        );
        let _ = std::fs::remove_file(&written);
        tools.runtime().shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_a_declined_user_changes_nothing_and_an_approving_one_runs_the_code() {
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let after = line_of(&file, "return total");
    for approve in [false, true] {
        let client = McpClient::start(&[], Elicitation::Answer(approve)).await;
        let launched = client
            .ok(
                "debug_launch",
                json!({ "program": file, "breakpoints": [{ "file": file, "line": line }] }),
            )
            .await;
        assert!(
            client.elicitations().is_empty(),
            "a plain launch asks nothing"
        );
        let id = launched["session_id"].as_str().unwrap().to_string();
        // The new session changed the resource list, and the client is told.
        client
            .notification(|n| n["method"] == "notifications/resources/list_changed")
            .await;

        // An evaluation: runs and answers only when approved.
        let assignment = json!({ "session_id": id, "expression": "total = 999" });
        if approve {
            client.ok("debug_evaluate", assignment).await;
            let value = client
                .ok(
                    "debug_evaluate",
                    json!({ "session_id": id, "expression": "discount_percent(5700)" }),
                )
                .await;
            assert_eq!(value["result"], "10");
        } else {
            let err = refused_over_mcp(&client, "debug_evaluate", assignment).await;
            assert!(
                err["error"].as_str().unwrap().contains("did not approve"),
                "{err}"
            );
        }
        let locals = client
            .ok(
                "debug_variables",
                json!({ "session_id": id, "scope": "Locals" }),
            )
            .await;
        let total = if approve { "999" } else { "0" };
        assert_eq!(
            var(&locals["variables"], "total")["value"],
            total,
            "{locals}"
        );

        // A breakpoint whose condition writes a file: asked, and run only if approved.
        let written = marker(&format!("mcp-{approve}"));
        client
            .ok(
                "debug_set_breakpoints",
                json!({ "session_id": id, "file": file, "lines": [] }),
            )
            .await;
        let conditional = json!({
            "session_id": id, "file": file, "line": after,
            "condition": writing_condition(&written),
        });
        if approve {
            client.ok("debug_set_breakpoint", conditional).await;
        } else {
            refused_over_mcp(&client, "debug_set_breakpoint", conditional).await;
        }
        let asked = client.elicitations();
        let message = asked.last().unwrap()["message"].as_str().unwrap();
        assert!(
            message.contains("condition") && message.contains("debuggee"),
            "{message}"
        );
        let asked_so_far = if approve { 3 } else { 2 };
        assert_eq!(asked.len(), asked_so_far, "{asked:?}");
        let end = client
            .ok("debug_continue", json!({ "session_id": id }))
            .await;
        assert_eq!(end["state"], "terminated", "{end}");
        assert_eq!(
            written.exists(),
            approve,
            "the side effect only when approved"
        );
        let _ = std::fs::remove_file(&written);
        assert!(client.close().await.success());
    }
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
        let client = McpClient::start(&flags, Elicitation::Answer(true)).await;
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
    let tools = catalogue(gate).await;
    fails(&tools, "debug.continue", json!({ "session_id": "s1" }), 404).await;
    let r = refused(&tools, "debug.evaluate", eval_args()).await;
    assert!(r.text.contains("denied by the rule"), "{}", r.text);
    tools.runtime().shutdown().await;
}
