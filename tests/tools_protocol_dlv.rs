//! The protocol tools on a real dlv, through the catalogue: instruction breakpoints
//! and instruction steps, and goroutines listed in pages under the threads bound.

mod agent;
mod common;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::{Bounds, ToolCatalogue, ToolProfile};
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::{json, Value};

fn names(list: &Value, field: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v[field].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instruction_breakpoints_and_steps_on_dlv() {
    let tools = catalogue().await;
    let binary = common::go_binary().display().to_string();
    let source = program("go/inventory/main.go").display().to_string();
    let (id, line) = launched(
        &tools,
        &binary,
        &source,
        "return item.Stock < item.Threshold",
    )
    .await;

    let code = ok(
        &tools,
        "debug.disassemble",
        json!({ "session_id": id, "instruction_count": 2 }),
    )
    .await;
    let rows = code["instructions"].as_array().unwrap();
    assert_eq!(rows[0]["current"], true);
    let first = rows[0]["address"].clone();
    let next = rows[1]["address"].clone();

    // One instruction on: the pointer is at the next one, still on the line.
    let step = ok(
        &tools,
        "debug.step",
        json!({ "session_id": id, "kind": "over", "granularity": "instruction" }),
    )
    .await;
    assert_eq!(step["stop"]["line"], line);
    let here = ok(
        &tools,
        "debug.disassemble",
        json!({ "session_id": id, "instruction_count": 1 }),
    )
    .await;
    assert_eq!(here["instructions"][0]["address"], next);

    // Stop the next call at the line's first instruction instead of the line (dlv
    // refuses two breakpoints at one address: the line's goes first).
    ok(
        &tools,
        "debug.set_breakpoints",
        json!({ "session_id": id, "file": source, "lines": [] }),
    )
    .await;
    let set = ok(
        &tools,
        "debug.set_instruction_breakpoints",
        json!({ "session_id": id, "breakpoints": [{ "instruction_reference": first }] }),
    )
    .await;
    assert_eq!(set["breakpoints"][0]["verified"], true, "{set}");
    let stop = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(stop["stop"]["reason"], "instruction breakpoint");
    let name = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "item.Name" }),
    )
    .await;
    assert_eq!(name["result"], "\"nuts\"");

    // The caller's slice, elements only, from the second one.
    let stack = ok(&tools, "debug.stack_trace", json!({ "session_id": id })).await;
    let restock = stack["frames"][1]["id"].clone();
    let locals = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals", "frame_id": restock }),
    )
    .await;
    let items = var(&locals["variables"], "items")["variables_reference"].clone();
    let tail = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "variables_reference": items, "filter": "indexed", "offset": 1 }),
    )
    .await;
    assert_eq!(names(&tail["variables"], "name"), ["[1]", "[2]", "[3]"]);
    assert_eq!(tail["total"], 4);

    let cleared = ok(
        &tools,
        "debug.set_instruction_breakpoints",
        json!({ "session_id": id, "breakpoints": [] }),
    )
    .await;
    assert_eq!(cleared["breakpoints"], json!([]));
    let end = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(end["state"], "terminated");
    assert_eq!(end["exit_code"], 5);
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn goroutines_come_in_pages_under_the_threads_bound() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let tools = ToolCatalogue::new(runtime)
        .with_profile(ToolProfile::All)
        .with_bounds(Bounds::default().max_threads(2))
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let binary = common::go_binary().display().to_string();
    let source = program("go/inventory/main.go").display().to_string();
    let (id, _) = launched(
        &tools,
        &binary,
        &source,
        "return item.Stock < item.Threshold",
    )
    .await;

    // Page through every goroutine, two at a time, and meet each once.
    let mut seen: Vec<i64> = Vec::new();
    let mut offset = 0;
    let total = loop {
        let page = ok(
            &tools,
            "debug.threads",
            json!({ "session_id": id, "offset": offset }),
        )
        .await;
        let threads = page["threads"].as_array().unwrap();
        assert!(threads.len() <= 2, "{page}");
        seen.extend(threads.iter().map(|t| t["id"].as_i64().unwrap()));
        if page["truncated"] == false {
            assert!(page.get("next_offset").is_none(), "{page}");
            break page["total"].as_u64().unwrap() as usize;
        }
        assert_eq!(page["next_offset"], offset + threads.len(), "{page}");
        offset = page["next_offset"].as_u64().unwrap() as usize;
    };
    // dlv lists the runtime's goroutines beside main's: more than one page.
    assert!(total > 2, "{total} goroutines");
    assert_eq!(seen.len(), total);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), total, "no goroutine twice");
    let past = ok(
        &tools,
        "debug.threads",
        json!({ "session_id": id, "offset": total + 5 }),
    )
    .await;
    assert_eq!(past["threads"], json!([]));
    assert_eq!(past["truncated"], false);
    tools.runtime().shutdown().await;
}
