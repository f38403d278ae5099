//! At the command line the tools are said as a person there knows them: the flags and
//! commands they gave (`--eval`, `--break`, `dapvisor trace`), never the MCP's
//! `debug.*` names, in refusals, hints and "allowed now" lists (ToolNames::Cli). Real
//! debugpy.

mod agent;
mod cli_support;
mod common;

use cli_support::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::{ToolCatalogue, ToolNames};
use serde_json::json;

/// A program that never ends by itself.
fn spin(name: &str) -> String {
    let dir = scratch(name);
    let script = dir.join("spin.py");
    std::fs::write(
        &script,
        "def spin():\n    while True:\n        pass\n\n\nspin()\n",
    )
    .unwrap();
    script.display().to_string()
}

#[tokio::test]
async fn a_trace_that_does_not_end_says_so_in_the_shells_words() {
    let script = spin("names-trace");
    let run = dapvisor(&["trace", &script, "--calls", "spin", "--timeout", "2"]).await;
    let said = &run.stderr;
    assert_eq!(run.code, Some(125), "{said}");
    assert!(said.contains("the program did not end"), "{said}");
    assert!(said.contains("within 2.0s"), "{said}");
    assert!(said.contains("A longer --timeout waits more."), "{said}");
    assert!(!said.contains("debug."), "no tool named: {said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_lists_what_is_allowed_now_as_flags() {
    let script = spin("names-refusal");
    let runtime = dapvisor::Runtime::start(dapvisor::RuntimeConfig::default())
        .await
        .unwrap();
    let tools = ToolCatalogue::new(runtime.clone())
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll))
        .with_tool_names(ToolNames::Cli);
    let launched = agent::ok(
        &tools,
        "debug.launch",
        json!({ "program": script, "timeout": 0 }),
    )
    .await;
    assert_eq!(launched["state"], "running", "{launched}");
    let id = launched["session_id"].as_str().unwrap();
    let refused = tools
        .call(
            "debug.evaluate",
            agent::with(id, json!({ "expression": "1 + 1" })),
        )
        .await;
    let err = refused.error().expect("refused while it runs");
    assert!(err.error.contains("running, not stopped"), "{err:?}");
    let allowed = err.error.split("allowed now: ").nth(1).unwrap_or_default();
    assert!(
        allowed.contains("`--break`"),
        "the flags a person gives: {err:?}"
    );
    assert!(!refused.text.contains("debug."), "{}", refused.text);
    // The canonical names are the Rust API's, as before.
    let plain = ToolCatalogue::new(runtime.clone())
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let refused = plain
        .call(
            "debug.evaluate",
            agent::with(id, json!({ "expression": "1 + 1" })),
        )
        .await;
    assert!(refused.text.contains("debug.pause"), "{}", refused.text);
    runtime.shutdown().await;
}
