//! Breakpoints said, not silent, over MCP on real debugpy: a launch names the
//! breakpoint whose file does not exist; the end of a run names each breakpoint no
//! stop hit, and an exit code of 0 past one reads "ran to completion; ... was never
//! hit", while a breakpoint that was hit is not named.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unhit_breakpoint_is_named_at_the_end_and_a_missing_file_at_the_launch() {
    let dir = std::env::temp_dir().join(format!("dapvisor-unhit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("unhit.py");
    std::fs::write(
        &script,
        "def unused():\n    return 1\n\nx = 41\nx += 1\nprint(x)\n",
    )
    .unwrap();
    let missing = dir.join("no_such_file.py");
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "breakpoints": [
                { "file": script, "line": 2 },
                { "file": script, "line": 5 },
                { "file": missing, "line": 1 },
            ] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    assert_eq!(launched["stop"]["line"], 5, "{launched}");
    let unverified = launched["unverified_breakpoints"].as_array().unwrap();
    assert_eq!(unverified.len(), 1, "{launched}");
    assert_eq!(unverified[0]["file"], missing.display().to_string());
    assert_eq!(unverified[0]["message"], "no such file");

    let id = launched["session_id"].clone();
    let end = client
        .call("debug_continue", json!({ "session_id": id }))
        .await;
    let text = end["content"][0]["text"].as_str().unwrap().to_string();
    let end = agent::mcp_client::ok_result("debug_continue", end);
    assert_eq!(end["exit_code"], 0, "{end}");
    let unhit = format!("{}:2", script.display());
    let never: Vec<String> = end["never_hit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(never.contains(&unhit), "{end}");
    assert!(
        !never.iter().any(|b| b.ends_with("unhit.py:5")),
        "line 5 was hit: {end}"
    );
    assert!(
        text.contains("ran to completion; ") && text.contains(&unhit) && text.contains("never hit"),
        "{text}"
    );
    client.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
