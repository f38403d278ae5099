//! Tracepoints over MCP on real debugpy: a launch whose breakpoint collects values runs
//! to its end without a stop, says how many rows it recorded, and debug.trace reads
//! them by cursor; debug.set_breakpoint shows what a tracepoint collects; and since
//! collecting runs code in the program, Default mode with no one to ask refuses it.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::json;

fn readings() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/programs/python/readings.py")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tracepoint_records_every_iteration_and_debug_trace_reads_them_by_cursor() {
    let script = readings();
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script,
                    "breakpoints": [{ "file": script, "statement": "total += reading",
                                      "collect": ["i", "reading"] }] }),
        )
        .await;
    let id = launched["session_id"].clone();
    // A tracepoint does not stop: the launch waited only its short while for one.
    assert_ne!(launched["state"], "stopped", "{launched}");
    let ended = client
        .ok("debug_wait", json!({ "session_id": id, "timeout": 120 }))
        .await;
    assert_eq!(ended["state"], "terminated", "no stop: {ended}");
    assert_eq!(ended["exit_code"], 12, "{ended}");
    assert_eq!(ended["trace_rows"], 1000, "{ended}");
    assert_eq!(ended["never_hit"], json!([]), "{ended}");

    let first = client.ok("debug_trace", json!({ "session_id": id })).await;
    let rows = first["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 100, "one page: the list bound");
    assert_eq!(rows[0]["values"], json!({ "i": "0", "reading": "0" }));
    assert_eq!(rows[99]["hit"], 100);
    assert_eq!(rows[99]["values"], json!({ "i": "99", "reading": "27" }));
    assert_eq!(
        (&first["next"], &first["more"]),
        (&json!(100), &json!(true))
    );

    let last = client
        .ok("debug_trace", json!({ "session_id": id, "since": 990 }))
        .await;
    let rows = last["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[9]["values"], json!({ "i": "999", "reading": "98" }));
    assert_eq!(
        (&last["next"], &last["more"]),
        (&json!(1000), &json!(false))
    );

    // The breakpoint reads as what it collects, not as its template.
    let set = client
        .ok(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": script, "statement": "count += 1",
                    "collect": ["count"] }),
        )
        .await;
    let listed = set["breakpoints"].as_array().unwrap();
    assert!(
        listed
            .iter()
            .any(|b| b["collect"] == json!(["count"]) && b["log_message"].is_null()),
        "{set}"
    );
    client.close().await;

    // Default mode, no one to ask: collecting evaluates in the program, so it is refused.
    let strict = McpClient::start(&[], Elicitation::Unsupported).await;
    let refused = strict
        .fails(
            "debug_launch",
            json!({ "program": script,
                    "breakpoints": [{ "file": script, "line": 12, "collect": ["i"] }] }),
            500,
        )
        .await;
    assert_eq!(refused["kind"], "forbidden", "{refused}");
    strict.close().await;
}
