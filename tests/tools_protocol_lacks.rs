//! Protocol tools called through the catalogue on adapters that lack them, debugpy and
//! dlv: each refused with a 501 naming the capability, bad input refused before the
//! capability is asked about, nothing of it moving the program; `debug.restart`, which
//! neither has as a request, relaunches the program on a new adapter.

mod agent;
mod common;

use agent::*;
use dapvisor::tools::ToolCatalogue;
use serde_json::json;
use serde_json::Value;

/// `debug.restart` on an adapter without a restart request: a new adapter runs the
/// program again, the session keeps its id, and it stops at `line` again.
async fn restarts_by_relaunching(tools: &ToolCatalogue, id: &str, line: i64) {
    let adapter_pid = |listed: Value| listed["sessions"][0]["adapter_pid"].clone();
    let before = adapter_pid(ok(tools, "debug.sessions", json!({})).await);
    let again = ok(tools, "debug.restart", with(id, json!({}))).await;
    assert_eq!(again["state"], "stopped", "{again}");
    assert_eq!(again["stop"]["reason"], "breakpoint", "{again}");
    assert_eq!(again["stop"]["line"], line, "{again}");
    let listed = ok(tools, "debug.sessions", json!({})).await;
    assert_eq!(listed["sessions"][0]["session_id"], id, "{listed}");
    assert_ne!(adapter_pid(listed), before, "a new adapter runs it");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_debugpy_lacks_is_refused_naming_the_capability() {
    let tools = catalogue().await;
    let file = discount();
    let (id, line) = launched(&tools, &file, &file, "total += discounted").await;
    let frame =
        ok(&tools, "debug.stack_trace", with(&id, json!({}))).await["frames"][0]["id"].clone();

    for (tool, extra, capability) in [
        (
            "debug.continue_thread",
            json!({}),
            "supportsSingleThreadExecutionRequests",
        ),
        (
            "debug.cancel",
            json!({ "request_id": 1 }),
            "supportsCancelRequest",
        ),
        (
            "debug.loaded_sources",
            json!({}),
            "supportsLoadedSourcesRequest",
        ),
        (
            "debug.terminate_threads",
            json!({ "thread_ids": [1] }),
            "supportsTerminateThreadsRequest",
        ),
        (
            "debug.breakpoint_locations",
            json!({ "file": file, "line": line }),
            "supportsBreakpointLocationsRequest",
        ),
        ("debug.step_back", json!({}), "supportsStepBack"),
        ("debug.reverse_continue", json!({}), "supportsStepBack"),
        (
            "debug.restart_frame",
            json!({ "frame_id": frame }),
            "supportsRestartFrame",
        ),
    ] {
        lacks(&tools, tool, with(&id, extra), capability).await;
    }
    // debugpy has no restart request: the session relaunches its program on a new
    // adapter, keeps its id and stops at the breakpoint again.
    restarts_by_relaunching(&tools, &id, line).await;

    // Bad input is refused before the capability is even asked about.
    fails(
        &tools,
        "debug.terminate_threads",
        with(&id, json!({ "thread_ids": [] })),
        400,
    )
    .await;
    fails(
        &tools,
        "debug.breakpoint_locations",
        with(&id, json!({ "file": file, "line": 0 })),
        400,
    )
    .await;
    // `locations` needs no capability: debugpy refuses the command, and the reference
    // (which no adapter here hands out) is what the agent is told to check.
    let err = fails(
        &tools,
        "debug.locations",
        with(&id, json!({ "location_reference": 987_654 })),
        400,
    )
    .await;
    assert!(
        err.text.contains("location_reference 987654"),
        "{}",
        err.text
    );

    // Nothing of that moved the program.
    let total = ok(
        &tools,
        "debug.evaluate",
        with(&id, json!({ "expression": "total" })),
    )
    .await;
    assert_eq!(total["result"], "0");
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_dlv_lacks_is_refused_naming_the_capability() {
    let tools = catalogue().await;
    let source = program("go/inventory/main.go").display().to_string();
    let binary = common::go_binary().display().to_string();
    let (id, line) = launched(&tools, &binary, &source, "due := needsRestock(item)").await;
    lacks(
        &tools,
        "debug.step_in_targets",
        with(&id, json!({})),
        "supportsStepInTargetsRequest",
    )
    .await;
    restarts_by_relaunching(&tools, &id, line).await;
    for (tool, extra, capability) in [
        (
            "debug.goto",
            json!({ "file": source, "line": line + 1 }),
            "supportsGotoTargetsRequest",
        ),
        (
            "debug.loaded_sources",
            json!({}),
            "supportsLoadedSourcesRequest",
        ),
    ] {
        lacks(&tools, tool, with(&id, extra), capability).await;
    }
    // Still stopped where it was.
    let stack = ok(&tools, "debug.stack_trace", with(&id, json!({}))).await;
    assert_eq!(stack["frames"][0]["line"], line);
    tools.runtime().shutdown().await;
}
