//! Routes by which CodeLLDB runs code on the host that a tool's name does not
//! announce, on a real CodeLLDB and a C program built with `-g -O0`: an expression
//! prefixed `/py` is Python that the adapter runs (in its own process, on the host),
//! in `debug.evaluate` and in a breakpoint's condition alike. Neither an allow rule
//! for `debug.evaluate` nor one for code in the debuggee grants it; the same calls let through create the file
//! the refused ones would have.

mod agent;
mod common;
mod permission_support;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode, PermissionRule};
use dapvisor::tools::ToolCatalogue;
use permission_support::*;
use serde_json::json;

/// average.c under CodeLLDB, stopped in `mean_of`: the session id and the line.
async fn stopped_in_mean_of(open: &ToolCatalogue) -> (String, i64) {
    let source = program("c/average.c").display().to_string();
    let line = line_of(&source, "double mean = sum / count;");
    let answer = ok(
        open,
        "debug.launch",
        json!({ "program": c_binary(), "adapter": "codelldb",
                "breakpoints": [{ "file": source, "line": line }] }),
    )
    .await;
    assert_eq!(answer["state"], "stopped", "{answer}");
    (answer["session_id"].as_str().unwrap().to_string(), line)
}

/// CodeLLDB's Python evaluator creating `file` (and answering 1).
fn python_creating(file: &std::path::Path) -> String {
    format!("/py open('{}', 'w').close() or 1", file.display())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allow_rule_for_evaluate_does_not_grant_python_that_codelldb_runs_on_the_host() {
    let reviewer = Recording::new(false);
    let gate = PermissionGate::new(PermissionMode::Default)
        .approver(reviewer.clone())
        .rule(PermissionRule::allow("debug.evaluate"))
        .rule(PermissionRule::allow("debug.set_breakpoint"))
        // Code in the debuggee is granted: what is asked is the host.
        .rule(PermissionRule::allow("effect:code"));
    let (open, gated) = open_and_gated(gate).await;
    let (id, line) = stopped_in_mean_of(&open).await;

    // Any CodeLLDB expression may be Python run by the adapter: asked as host
    // commands, naming the argument, and refused.
    let file = marker("codelldb-py-refused");
    let r = refused(
        &gated,
        "debug.evaluate",
        json!({ "session_id": id, "expression": python_creating(&file) }),
    )
    .await;
    assert!(r.text.contains("the reviewer said no"), "{}", r.text);
    let question = reviewer.asked()[0].summary();
    assert!(
        question.contains("on the host") && question.contains("expression"),
        "{question}"
    );
    assert!(!file.exists(), "the refused expression did not run");

    // A condition is an expression too.
    let cond_file = marker("codelldb-py-condition-refused");
    let source = program("c/average.c").display().to_string();
    refused(
        &gated,
        "debug.set_breakpoint",
        json!({ "session_id": id, "file": source, "line": line + 1,
                "condition": python_creating(&cond_file) }),
    )
    .await;
    let asked = reviewer.asked();
    assert_eq!(asked.len(), 2);
    let question = asked[1].summary();
    assert!(
        question.contains("on the host") && question.contains("condition"),
        "{question}"
    );
    assert!(!cond_file.exists());

    // Let through, the same expression runs Python on the host.
    let ran = marker("codelldb-py-ran");
    ok(
        &open,
        "debug.evaluate",
        json!({ "session_id": id, "expression": python_creating(&ran) }),
    )
    .await;
    assert!(ran.exists(), "CodeLLDB runs /py expressions on the host");
    let _ = std::fs::remove_file(&ran);
    open.runtime().shutdown().await;
}
