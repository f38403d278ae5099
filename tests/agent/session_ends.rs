//! How the MCP tests open a session, wait for its end and read what it left, in one
//! shape each: a core dump opened (`debug_launch` with `core`), a session waited on
//! until it ends and its `debug_sessions` entry read, a target gone said as
//! `target_gone`, and the server closed with nothing of its left running.

use serde_json::{json, Value};

use super::mcp_client::McpClient;
use crate::common::left_behind_by;

/// Open `core`, the dump of `binary`, under `adapter` (`None`: the one dapvisor picks
/// for the binary); its `debug_launch` answer (stopped where the process died).
pub async fn open_core(
    client: &McpClient,
    binary: &impl AsRef<std::path::Path>,
    core: &impl AsRef<std::path::Path>,
    adapter: Option<&str>,
) -> Value {
    let mut arguments = json!({ "program": binary.as_ref(), "core": core.as_ref(),
                                "timeout": 120 });
    if let Some(adapter) = adapter {
        arguments["adapter"] = adapter.into();
    }
    client.ok("debug_launch", arguments).await
}

/// Session `id`'s entry in `debug_sessions` (the session must be listed).
pub async fn session_entry(client: &McpClient, id: &str) -> Value {
    let sessions = client.ok("debug_sessions", json!({})).await;
    sessions["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session_id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no session {id} in {sessions}"))
}

/// Wait (at most `timeout` seconds) until session `id` is no longer live, and read
/// its `debug_sessions` entry. A wait on a session whose target went answers with its
/// failure, an error result: the entry says it.
pub async fn ended_entry(client: &McpClient, id: &str, timeout: u64) -> Value {
    client
        .call(
            "debug_wait",
            json!({ "session_id": id, "timeout": timeout }),
        )
        .await;
    session_entry(client, id).await
}

/// The session of `entry` failed because its target went (`target_gone`), and was
/// not restarted as a crash.
pub fn assert_target_gone(entry: &Value) {
    assert_eq!(entry["state"], "failed", "{entry}");
    let failure = entry["failure"].as_str().unwrap_or("");
    assert!(failure.starts_with("target_gone"), "{entry}");
    assert_eq!(entry["restarts"], 0, "not restarted as a crash: {entry}");
}

/// Close the server, which exits cleanly leaving no process of its behind.
pub async fn close_leaving_nothing(client: McpClient) {
    let pid = client.pid();
    assert!(client.close().await.success());
    assert_eq!(left_behind_by(pid).await, Vec::new());
}
