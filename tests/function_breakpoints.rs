//! Function breakpoints added by calls in flight together, through the catalogue on a
//! real dlv: each function keeps its own verdict (dlv answers with the line each
//! function is declared on, which tells a swapped pair at once).

mod agent;
mod common;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::ToolCatalogue;
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::{json, Value};

/// The line dlv gives a breakpoint on function NAME: its `func NAME(` line.
fn first_line(source: &str, name: &str) -> i64 {
    line_of(source, &format!("func {name}("))
}

/// Each verified entry of a reply is on its own function's first line.
fn each_on_its_own_line(reply: &Value, source: &str) {
    for entry in reply["breakpoints"].as_array().unwrap() {
        if entry["verified"] != true {
            continue;
        }
        let function = entry["function"].as_str().unwrap();
        let name = function.trim_start_matches("main.");
        assert_eq!(entry["line"], first_line(source, name), "{reply}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_adds_and_removes_keep_each_functions_own_verdict() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let tools = ToolCatalogue::new(runtime)
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let source = program("go/inventory/main.go").display().to_string();
    let binary = common::go_binary().display().to_string();
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": binary, "breakpoints": [{ "function": "main.main" }] }),
    )
    .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    let id = launched["session_id"].as_str().unwrap().to_string();

    let call = |tool: &'static str, function: &'static str| {
        let tools = tools.clone();
        let id = id.clone();
        tokio::spawn(async move {
            let r = tools
                .call(tool, json!({ "session_id": id, "function": function }))
                .await;
            assert!(!r.is_error, "{tool} {function}: {}", r.text);
            r.structured
        })
    };
    // Several rounds, each with adds and a remove in flight at once (main.main is
    // there to remove: set at launch, and set again before each round).
    for round in 0..3 {
        if round > 0 {
            call("debug.set_breakpoint", "main.main").await.unwrap();
        }
        let calls = [
            call("debug.set_breakpoint", "main.needsRestock"),
            call("debug.remove_breakpoint", "main.main"),
            call("debug.set_breakpoint", "main.restock"),
        ];
        for c in calls {
            each_on_its_own_line(&c.await.unwrap(), &source);
        }
    }
    let settled = ok(
        &tools,
        "debug.set_breakpoint",
        json!({ "session_id": id, "function": "main.restock" }),
    )
    .await;
    let names: Vec<&str> = settled["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["function"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"main.restock") && names.contains(&"main.needsRestock"));
    assert!(settled["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["verified"] == true));
    each_on_its_own_line(&settled, &source);

    // And they stop the program where they say.
    let stop = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert!(
        stop["stop"]["function"]
            .as_str()
            .unwrap()
            .contains("restock"),
        "{stop}"
    );
    tools.runtime().shutdown().await;
}
