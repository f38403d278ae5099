//! Routes by which debugpy runs code that a tool's name does not announce, on a real
//! debugpy: the names in an exception option's `path` are `eval`ed inside the program
//! (pydevd resolves them to exception classes that way), and a launch's `PYTHONPATH`
//! makes the program import code from elsewhere (a `sitecustomize` runs at start-up).
//! And one that looks like a route but is not: `debug.completions` evaluates only the
//! dotted name before the cursor, as reading a variable does, so it stays a read.

mod agent;
mod common;
mod permission_support;

use std::sync::Arc;

use agent::*;
use dapvisor::permission::{AllowAll, PermissionGate, PermissionMode, PermissionRule};
use permission_support::*;
use serde_json::json;

/// discount.py under debugpy, stopped at its first line; returns the session id.
async fn stopped_at_entry(open: &dapvisor::tools::ToolCatalogue) -> String {
    let launched = ok(
        open,
        "debug.launch",
        json!({ "program": discount(), "stop_on_entry": true }),
    )
    .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    launched["session_id"].as_str().unwrap().to_string()
}

/// An exception option whose second path segment creates `file` when evaluated.
fn evaluated_option(file: &std::path::Path) -> serde_json::Value {
    let name = format!(
        "__import__('pathlib').Path({:?}).touch() or ValueError",
        file.display().to_string()
    );
    json!([{ "path": [["Python Exceptions"], [name]], "break_mode": "always" }])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_option_names_are_code_that_default_mode_asks_about() {
    // No approver: what needs approval is refused.
    let (open, gated) = open_and_gated(PermissionGate::default()).await;
    let id = stopped_at_entry(&open).await;

    // Filters alone run no code: no approval needed.
    ok(
        &gated,
        "debug.set_exception_breakpoints",
        json!({ "session_id": id, "filters": ["raised"] }),
    )
    .await;

    let refused_file = marker("exception-path-refused");
    let r = refused(
        &gated,
        "debug.set_exception_breakpoints",
        json!({ "session_id": id, "filters": ["raised"],
                "exception_options": evaluated_option(&refused_file) }),
    )
    .await;
    let err = r.error().unwrap().error;
    assert!(
        err.contains("no approval gate") && err.contains("debug.set_exception_breakpoints"),
        "{err}"
    );
    assert!(
        !refused_file.exists(),
        "the refused names were not evaluated"
    );

    // Let through, the same call runs the name in the program.
    let ran_file = marker("exception-path-ran");
    ok(
        &open,
        "debug.set_exception_breakpoints",
        json!({ "session_id": id, "filters": ["raised"],
                "exception_options": evaluated_option(&ran_file) }),
    )
    .await;
    assert!(
        ran_file.exists(),
        "debugpy evaluates exception-option names"
    );
    let _ = std::fs::remove_file(&ran_file);
    open.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_question_names_the_path_that_carries_the_code() {
    let reviewer = Recording::new(false);
    let gate = PermissionGate::new(PermissionMode::Default).approver(reviewer.clone());
    let (open, gated) = open_and_gated(gate).await;
    let id = stopped_at_entry(&open).await;
    let file = marker("exception-path-asked");
    refused(
        &gated,
        "debug.set_exception_breakpoints",
        json!({ "session_id": id, "filters": [],
                "exception_options": evaluated_option(&file) }),
    )
    .await;
    let asked = reviewer.asked();
    assert_eq!(asked.len(), 1);
    let question = asked[0].summary();
    assert!(
        question.contains("runs Python code in the debuggee (exception_options[0].path)"),
        "{question}"
    );
    assert!(!file.exists());
    open.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completions_on_debugpy_are_a_read_that_runs_no_call() {
    let gate = PermissionGate::new(PermissionMode::PlanOnly).approver(Arc::new(AllowAll));
    let (open, gated) = open_and_gated(gate).await;
    let id = stopped_at_entry(&open).await;
    // pydevd evaluates the dotted name before the cursor only (`name`'s owner here is
    // the call's result, which is not a name): the call is never made.
    let file = marker("completions");
    let text = format!("open({:?}, 'w').na", file.display().to_string());
    ok(
        &gated,
        "debug.completions",
        json!({ "session_id": id, "text": text }),
    )
    .await;
    assert!(!file.exists(), "completions made no call");
    let names = ok(
        &gated,
        "debug.completions",
        json!({ "session_id": id, "text": "__name_" }),
    )
    .await;
    assert!(names["total"].as_u64().unwrap() > 0, "{names}");
    open.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_launch_still_asks_before_an_environment_not_known_to_be_inert() {
    // A folder whose sitecustomize creates a file: Python imports it at start-up from
    // PYTHONPATH.
    let hooks = marker("sitecustomize");
    std::fs::create_dir_all(&hooks).unwrap();
    let written = marker("sitecustomize-ran");
    std::fs::write(
        hooks.join("sitecustomize.py"),
        format!("open({:?}, 'w').close()\n", written.display().to_string()),
    )
    .unwrap();
    let launch = json!({ "program": discount(), "stop_on_entry": true,
                         "env": { "PYTHONPATH": hooks, "DISCOUNT_DEBUG": "1" } });

    let reviewer = Recording::new(false);
    let gate = PermissionGate::new(PermissionMode::Default)
        .approver(reviewer.clone())
        .rule(PermissionRule::allow("debug.launch"));
    let (open, gated) = open_and_gated(gate).await;
    refused(&gated, "debug.launch", launch.clone()).await;
    let why = reviewer.asked()[0].why.clone();
    assert!(
        why.starts_with("it sets environment variables not known to be inert")
            && why.ends_with("(env: DISCOUNT_DEBUG, PYTHONPATH)"),
        "{why}"
    );
    assert!(gated.runtime().sessions().is_empty(), "nothing started");
    assert!(!written.exists());
    // A plain launch is what the rule allows.
    ok(
        &gated,
        "debug.launch",
        json!({ "program": discount(), "stop_on_entry": true }),
    )
    .await;
    assert_eq!(reviewer.asked().len(), 1);

    // Let through, the program runs the hook.
    ok(&open, "debug.launch", launch).await;
    assert!(written.exists(), "PYTHONPATH loaded the hook");
    let _ = std::fs::remove_file(&written);
    let _ = std::fs::remove_dir_all(&hooks);
    open.runtime().shutdown().await;
}
