//! debug.diff's `keep` over MCP on real adapters, where the stop it leaves each side at
//! must be counted right: a function of the same name in another module (which a
//! function breakpoint also stops in) is not counted, and the hit counts hold on
//! CodeLLDB as they do on lldb-dap and debugpy (tests/mcp_diff.rs).

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::{json, Value};

async fn client() -> McpClient {
    McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await
}

/// Each side is stopped at `target` in `file`, where `grams` is its own; then ended,
/// and nothing is left.
async fn stopped_at(client: &McpClient, first: &Value, target: &str, file: &str, grams: [&str; 2]) {
    for (side, grams) in [("a", grams[0]), ("b", grams[1])] {
        let run = &first["stopped"][side];
        assert_eq!(run["target"], target, "{first}");
        let end = run["end"].as_str().unwrap();
        assert!(
            end.starts_with("stopped (") && end.contains(&format!("{file}:")),
            "{first}"
        );
        let id = run["session_id"].clone();
        let value = client
            .ok(
                "debug_evaluate",
                json!({ "session_id": id, "expression": "grams" }),
            )
            .await;
        assert_eq!(value["result"], grams, "{first}\n{value}");
        client
            .ok("debug_terminate", json!({ "session_id": id }))
            .await;
    }
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"], json!([]), "{sessions}");
    let left = common::wait_gone(common::descendants(client.pid())).await;
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_counts_the_calls_of_the_function_in_its_own_module_not_of_its_name() {
    // left.weigh's 2nd call is the 4th call of a `weigh` (right.weigh comes first):
    // counted by name, the runs would stop at left.weigh(2), the 2nd `weigh`.
    let client = client().await;
    let main = common::root().join("tests/support/twins/main.py");
    let first = client
        .ok(
            "debug_diff",
            json!({ "a": { "program": main, "args": ["4"] },
                    "b": { "program": main, "args": ["5"] },
                    "calls": ["left.py:weigh"], "keep": true, "timeout": 300 }),
        )
        .await;
    let one = &first["differences"][0];
    assert_eq!(one["path"], "weigh#2", "{first}");
    assert_eq!(one["b"]["values"]["grams"], "5", "{first}");
    stopped_at(
        &client,
        &first,
        "the 2nd call of weigh",
        "left.py",
        ["4", "5"],
    )
    .await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_keep_stops_both_runs_at_the_first_difference() {
    let client = client().await;
    let shipping = common::root().join("examples/programs/c/shipping.c");
    let side =
        |grams: &str| json!({ "program": shipping, "args": ["120", grams], "adapter": "codelldb" });
    let first = client
        .ok(
            "debug_diff",
            json!({ "a": side("499"), "b": side("500"),
                    "calls": ["quote", "band", "small_rate", "large_rate"],
                    "keep": true, "timeout": 300 }),
        )
        .await;
    let one = &first["differences"][0];
    assert_eq!(one["path"], "quote#2", "{first}");
    stopped_at(
        &client,
        &first,
        "the 2nd call of quote",
        "shipping.c",
        ["499", "500"],
    )
    .await;
    client.close().await;
}
