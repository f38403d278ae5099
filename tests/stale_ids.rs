//! Ids an agent passes back that the adapter does not know (a made-up thread, frame or
//! variables reference) are bad input: 400 with a hint saying where fresh ids come
//! from, on debugpy, lldb-dap and dlv. An id handed out at an earlier stop, passed back
//! at a later one, reads the program as it is now (debugpy), never the earlier values.

mod agent;
mod common;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::{ToolCatalogue, ToolProfile};
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::{json, Value};

/// An id no adapter here hands out this early.
const UNKNOWN: i64 = 987_654;

async fn stopped_at(program: &str, file: &str, needle: &str) -> (ToolCatalogue, String) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let tools = ToolCatalogue::new(runtime)
        .with_profile(ToolProfile::All)
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let line = line_of(file, needle);
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": program, "breakpoints": [{ "file": file, "line": line }] }),
    )
    .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    let id = launched["session_id"].as_str().unwrap().to_string();
    (tools, id)
}

/// `tool` with `args` fails with a 400 that names `id_name` and points at fresh ids.
async fn refused(tools: &ToolCatalogue, tool: &str, args: Value, id_name: &str) {
    let result = fails(tools, tool, args, 400).await;
    let err = result.error().unwrap();
    assert!(
        err.error.contains(&format!("{id_name} {UNKNOWN}")),
        "{tool}: {err:?}"
    );
    assert!(
        err.hint.contains("debug.stack_trace") && err.hint.contains("stays stopped"),
        "{tool}: {err:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_and_stale_ids_on_debugpy() {
    let file = discount();
    let (tools, id) = stopped_at(&file, &file, "total += discounted").await;
    let s = |extra: Value| {
        let mut args = json!({ "session_id": id });
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        args
    };
    refused(
        &tools,
        "debug.stack_trace",
        s(json!({ "thread_id": UNKNOWN })),
        "thread_id",
    )
    .await;
    refused(
        &tools,
        "debug.scopes",
        s(json!({ "frame_id": UNKNOWN })),
        "frame_id",
    )
    .await;
    refused(
        &tools,
        "debug.variables",
        s(json!({ "variables_reference": UNKNOWN })),
        "variables_reference",
    )
    .await;
    refused(
        &tools,
        "debug.step_over",
        s(json!({ "thread_id": UNKNOWN })),
        "thread_id",
    )
    .await;
    let eval = fails(
        &tools,
        "debug.evaluate",
        s(json!({ "expression": "1", "frame_id": UNKNOWN })),
        400,
    )
    .await;
    assert!(eval.text.contains("stays stopped"), "{}", eval.text);

    // Ids handed out at an earlier stop, passed back at the next one (the loop stops on
    // the same line again). debugpy keeps a frame's ids from stop to stop: the old
    // reference reads the frame as it is now, never the values of the earlier stop.
    let discounted = |listing: &Value| -> String {
        let all = listing["variables"].as_array().unwrap();
        let found = all.iter().find(|v| v["name"] == "discounted").unwrap();
        found["value"].as_str().unwrap().to_string()
    };
    let stack = ok(&tools, "debug.stack_trace", s(json!({}))).await;
    let frame = stack["frames"][0]["id"].clone();
    let scopes = ok(&tools, "debug.scopes", s(json!({ "frame_id": frame }))).await;
    let reference = scopes["scopes"][0]["variables_reference"].clone();
    let first = discounted(
        &ok(
            &tools,
            "debug.variables",
            s(json!({ "variables_reference": reference })),
        )
        .await,
    );
    let again = ok(&tools, "debug.continue", s(json!({}))).await;
    assert_eq!(again["state"], "stopped", "{again}");
    let stack = ok(&tools, "debug.stack_trace", s(json!({}))).await;
    let fresh_frame = stack["frames"][0]["id"].clone();
    let scopes = ok(
        &tools,
        "debug.scopes",
        s(json!({ "frame_id": fresh_frame })),
    )
    .await;
    let fresh = scopes["scopes"][0]["variables_reference"].clone();
    let now = discounted(
        &ok(
            &tools,
            "debug.variables",
            s(json!({ "variables_reference": fresh })),
        )
        .await,
    );
    assert_ne!(
        first, now,
        "the positive control: the value moved between the stops"
    );
    let stale = ok(
        &tools,
        "debug.variables",
        s(json!({ "variables_reference": reference })),
    )
    .await;
    assert_eq!(
        discounted(&stale),
        now,
        "an earlier stop's id read old values: {stale}"
    );

    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_ids_on_lldb_dap() {
    let source = program("c/average.c").display().to_string();
    let binary = c_binary().display().to_string();
    let (tools, id) = stopped_at(&binary, &source, "double mean = sum / count;").await;
    // lldb-dap answers an unknown thread with no frames rather than an error (and an
    // unknown frame with some frame's scopes, which cannot be told apart).
    let err = fails(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id, "thread_id": UNKNOWN }),
        400,
    )
    .await;
    assert!(err.text.contains("debug.threads"), "{}", err.text);
    refused(
        &tools,
        "debug.step_over",
        json!({ "session_id": id, "thread_id": UNKNOWN }),
        "thread_id",
    )
    .await;
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_ids_on_dlv() {
    let source = program("go/inventory/main.go").display().to_string();
    let binary = common::go_binary().display().to_string();
    let (tools, id) = stopped_at(&binary, &source, "return item.Stock < item.Threshold").await;
    for (tool, name) in [
        ("debug.stack_trace", "thread_id"),
        ("debug.scopes", "frame_id"),
        ("debug.variables", "variables_reference"),
    ] {
        refused(
            &tools,
            tool,
            json!({ "session_id": id, name: UNKNOWN }),
            name,
        )
        .await;
    }
    // The session is still stopped where it was, and answers with good ids.
    let stack = ok(&tools, "debug.stack_trace", json!({ "session_id": id })).await;
    assert!(stack["frames"][0]["name"]
        .as_str()
        .unwrap()
        .contains("needsRestock"));
    tools.runtime().shutdown().await;
}
