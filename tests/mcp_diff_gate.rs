//! debug.diff through the permission gate over MCP: reading on a kept diff by
//! `diff_id` and `cursor` runs nothing, so it is a read (served in `plan_only`,
//! asked about by no one), while a diff that makes runs is still gated as a start
//! and as each of its two launches.

mod agent;
mod common;
mod permission_support;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::{json, Value};

fn shipping() -> String {
    common::root()
        .join("examples/programs/python/shipping/shipping.py")
        .display()
        .to_string()
}

/// A diff of shipping on a passing and a failing input.
fn new_diff() -> Value {
    json!({ "a": { "program": shipping(), "args": ["120", "499"] },
            "b": { "program": shipping(), "args": ["120", "500"] },
            "calls": ["quote"], "timeout": 300 })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_plan_only_a_page_of_a_diff_is_read_and_a_new_diff_is_refused() {
    let client = McpClient::start_all_tools(
        &["--permission-mode", "plan_only"],
        Elicitation::Unsupported,
    )
    .await;
    // Past the gate: the handler's own answer (no such diff), not plan_only's refusal.
    let page = client
        .fails(
            "debug_diff",
            json!({ "diff_id": "d1", "cursor": 1, "limit": 2 }),
            404,
        )
        .await;
    assert!(
        page["error"].as_str().unwrap().contains("no diff `d1`"),
        "{page}"
    );
    // A field that runs something beside the id makes it a new diff's call: refused.
    let mixed = permission_support::refused_over_mcp(
        &client,
        "debug_diff",
        json!({ "diff_id": "d1", "calls": ["quote"] }),
    )
    .await;
    assert!(
        mixed["error"].as_str().unwrap().contains("plan_only"),
        "{mixed}"
    );
    let err = permission_support::refused_over_mcp(&client, "debug_diff", new_diff()).await;
    let said = err["error"].as_str().unwrap();
    assert!(
        said.contains("plan_only") && said.contains("starts a process"),
        "{err}"
    );
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"], json!([]), "{sessions}");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_launch_of_a_diff_is_asked_about_and_its_next_page_asks_nothing() {
    // A variable not known to be inert makes each launch ask, as debug.launch would.
    let client = McpClient::start_all_tools(&[], Elicitation::Answer(true)).await;
    let mut args = new_diff();
    for side in ["a", "b"] {
        args[side]["env"] = json!({ "DIFFWAY_NOTE": side });
    }
    let first = client.ok("debug_diff", args).await;
    assert!(
        first["next_cursor"].is_u64(),
        "more than one difference: {first}"
    );
    let asked = client.elicitations();
    assert_eq!(asked.len(), 2, "{asked:?}");
    for (question, side) in asked.iter().zip(["a", "b"]) {
        let text = question["message"].as_str().unwrap();
        let env = format!(r#""DIFFWAY_NOTE":"{side}""#);
        assert!(
            text.contains("`debug_launch`") && text.contains(&env),
            "{side}: {text}"
        );
    }
    let page = client
        .ok(
            "debug_diff",
            json!({ "diff_id": first["diff_id"], "cursor": first["next_cursor"] }),
        )
        .await;
    assert!(
        page["differences"]
            .as_array()
            .is_some_and(|d| !d.is_empty()),
        "{page}"
    );
    assert_eq!(client.elicitations().len(), 2, "a page read asked");
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"], json!([]), "{sessions}");
    client.close().await;
}
