//! Routes by which lldb-dap runs code that a tool's name does not announce, on a real
//! lldb-dap and a C program built with `-g -O0`: a `debug.data_breakpoint_info` name
//! without a container is evaluated as an expression in the debuggee, and
//! `debug.evaluate` in the `repl` context runs lldb commands on the host. Each call
//! that the gate refuses would have created a file; the same call let through (by a
//! catalogue that asks nothing, over the same runtime) shows that it does.

mod agent;
mod common;
mod permission_support;

use std::sync::Arc;

use agent::*;
use dapvisor::permission::{AllowAll, PermissionGate, PermissionMode, PermissionRule};
use permission_support::*;
use serde_json::json;

/// average.c under lldb-dap, stopped in `mean_of`; returns the session id.
async fn stopped_in_mean_of(open: &dapvisor::tools::ToolCatalogue) -> String {
    let binary = c_binary().display().to_string();
    let source = program("c/average.c").display().to_string();
    let (id, _) = launched(open, &binary, &source, "double mean = sum / count;").await;
    id
}

/// A C expression that creates `file` when the debuggee runs it.
fn creating(file: &std::path::Path) -> String {
    format!("(int)creat(\"{}\", 0600)", file.display())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_only_refuses_a_data_breakpoint_name_that_lldb_dap_would_evaluate() {
    let gate = PermissionGate::new(PermissionMode::PlanOnly).approver(Arc::new(AllowAll));
    let (open, gated) = open_and_gated(gate).await;
    let id = stopped_in_mean_of(&open).await;

    // A variable of a scope is looked up by name, not evaluated: a read.
    let info = ok(
        &gated,
        "debug.data_breakpoint_info",
        json!({ "session_id": id, "name": "sum", "scope": "Locals" }),
    )
    .await;
    assert!(info["data_id"].is_string(), "{info}");

    // A name without a container is an expression lldb-dap evaluates.
    let refused_file = marker("data-name-refused");
    let r = refused(
        &gated,
        "debug.data_breakpoint_info",
        json!({ "session_id": id, "name": creating(&refused_file) }),
    )
    .await;
    let err = r.error().unwrap().error;
    assert!(
        err.contains("plan_only")
            && err.contains("runs code in the debuggee")
            && err.contains("name"),
        "{err}"
    );
    assert!(!refused_file.exists(), "the refused name was not evaluated");

    // Let through, the same call runs the expression.
    let ran_file = marker("data-name-ran");
    ok(
        &open,
        "debug.data_breakpoint_info",
        json!({ "session_id": id, "name": creating(&ran_file) }),
    )
    .await;
    assert!(
        ran_file.exists(),
        "lldb-dap evaluates a name without a container"
    );
    let _ = std::fs::remove_file(&ran_file);
    open.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allow_rule_for_evaluate_grants_expressions_but_not_lldb_commands_on_the_host() {
    let reviewer = Recording::new(false);
    let gate = PermissionGate::new(PermissionMode::Default)
        .approver(reviewer.clone())
        .rule(PermissionRule::allow("debug.evaluate"));
    let (open, gated) = open_and_gated(gate).await;
    let id = stopped_in_mean_of(&open).await;

    // An expression in the debuggee: what the rule names, so no question.
    let value = ok(
        &gated,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "sum + 1" }),
    )
    .await;
    assert_eq!(value["result"], "427", "{value}");
    assert!(reviewer.asked().is_empty());

    // lldb commands, recognised by lldb-dap's auto mode or by its command escape:
    // asked, named as host commands with the argument that makes them so, and refused.
    for (i, command) in ["platform shell touch {}", "`platform shell touch {}"]
        .into_iter()
        .enumerate()
    {
        let file = marker(&format!("repl-refused-{i}"));
        let expression = command.replace("{}", &file.display().to_string());
        let r = refused(
            &gated,
            "debug.evaluate",
            json!({ "session_id": id, "expression": expression, "context": "repl" }),
        )
        .await;
        assert!(r.text.contains("the reviewer said no"), "{}", r.text);
        let asked = reviewer.asked();
        assert_eq!(asked.len(), i + 1);
        let question = asked[i].summary();
        assert!(
            question.contains("runs lldb commands on the host (context: repl)"),
            "{question}"
        );
        assert!(
            !file.exists(),
            "the refused command did not run: {expression}"
        );
    }

    // Let through, the same call runs a shell on the host.
    let ran = marker("repl-ran");
    ok(
        &open,
        "debug.evaluate",
        json!({ "session_id": id, "context": "repl",
                "expression": format!("platform shell touch {}", ran.display()) }),
    )
    .await;
    assert!(ran.exists(), "lldb-dap runs repl commands on the host");
    let _ = std::fs::remove_file(&ran);
    open.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_naming_the_host_effect_admits_lldb_commands_and_a_deny_of_it_wins() {
    let gate = PermissionGate::new(PermissionMode::DenyUnauthorized)
        .rule(PermissionRule::allow("effect:read"))
        .rule(PermissionRule::allow("effect:host"));
    let (open, gated) = open_and_gated(gate).await;
    let id = stopped_in_mean_of(&open).await;
    let file = marker("repl-admitted");
    ok(
        &gated,
        "debug.evaluate",
        json!({ "session_id": id, "context": "repl",
                "expression": format!("platform shell touch {}", file.display()) }),
    )
    .await;
    assert!(file.exists(), "effect:host admits it");
    let _ = std::fs::remove_file(&file);
    // An expression is code in the debuggee, which lldb commands can run (`expr`):
    // allowing them allows it.
    ok(
        &gated,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "sum" }),
    )
    .await;
    ok(&gated, "debug.stack_trace", json!({ "session_id": id })).await;

    let gate =
        PermissionGate::new(PermissionMode::BypassAll).rule(PermissionRule::deny("effect:host"));
    let denied = dapvisor::tools::ToolCatalogue::new(open.runtime().clone())
        .with_profile(dapvisor::tools::ToolProfile::All)
        .with_permissions(gate);
    let file = marker("repl-denied");
    let r = refused(
        &denied,
        "debug.evaluate",
        json!({ "session_id": id, "context": "repl",
                "expression": format!("platform shell touch {}", file.display()) }),
    )
    .await;
    assert!(r.text.contains("effect:host"), "{}", r.text);
    assert!(!file.exists());
    ok(
        &denied,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "sum" }),
    )
    .await;
    open.runtime().shutdown().await;
}
