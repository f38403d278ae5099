//! A person's VS Code on an agent's session, through VS Code's own DAP client library
//! (`@vscode/debugadapter-testsupport`'s `DebugClient`, which `scripts/provision`
//! installs into `.node-test`; the test fails, saying so, when it is missing), on a
//! real debugpy session the MCP server exposes: the stop, the stack and the locals
//! read-only with `continue` refused; then, exposed again with `control`, a step the
//! agent's `debug_wait` says an editor made. A wrong token is turned away both times.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use serde_json::{json, Value};

/// Where `scripts/provision` installs the VS Code DAP test client.
fn node_modules() -> std::path::PathBuf {
    let modules = root().join(".node-test/node_modules");
    assert!(
        modules.join("@vscode/debugadapter-testsupport").is_dir(),
        "@vscode/debugadapter-testsupport is not in {}: run scripts/provision",
        modules.display()
    );
    modules
}

/// Run the VS Code client on the exposure of session `id` (`mode`: watch or drive).
async fn vscode(mcp: &McpClient, id: &str, control: bool, mode: &str) -> Value {
    let exposed = mcp
        .ok(
            "debug_expose",
            json!({"session_id": id, "control": control}),
        )
        .await;
    let file = exposed["setup_file"].as_str().unwrap();
    let setup: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let port = setup["vscode"]["debugServer"].to_string();
    let token = setup["vscode"]["token"].as_str().unwrap().to_string();
    let run = tokio::process::Command::new("node")
        .arg(root().join("tests/support/vscode_editor.js"))
        .args([&port, &token, mode])
        .env("NODE_PATH", node_modules())
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(common::ANSWER_WAIT, run)
        .await
        .expect("the VS Code client finishes")
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "the client printed no JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vscodes_own_dap_client_watches_then_drives_an_agents_debugpy_session() {
    let mcp = McpClient::start_all_tools(&[], Elicitation::Unsupported).await;
    let file = discount();
    let line = line_of(&file, "discounted = apply_discount");
    let launched = mcp
        .ok(
            "debug_launch",
            json!({"program": file, "breakpoints": [{"file": file, "line": line}]}),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();

    let watched = vscode(&mcp, &id, false, "watch").await;
    assert!(
        watched["wrong_token"].as_str().unwrap().contains("token"),
        "{watched}"
    );
    assert_eq!(watched["stopped"]["reason"], "breakpoint", "{watched}");
    assert_eq!(watched["top"]["line"], line, "{watched}");
    assert_eq!(watched["top"]["path"], file, "{watched}");
    assert_eq!(watched["locals"]["line_cents"], "1000", "{watched}");
    assert!(
        watched["continue_refused"]
            .as_str()
            .unwrap()
            .contains("read-only"),
        "{watched}"
    );
    assert_eq!(
        watched["capabilities"]["supportsSetVariable"], false,
        "{watched}"
    );
    let still = mcp
        .ok("debug_wait", json!({"session_id": id, "timeout": 1}))
        .await;
    assert_eq!(still["stop"]["line"], line, "{still}");

    let driven = vscode(&mcp, &id, true, "drive").await;
    assert_eq!(driven["after_next"]["reason"], "step", "{driven}");
    assert_eq!(driven["after_next"]["line"], line + 1, "{driven}");
    let waited = mcp
        .ok("debug_wait", json!({"session_id": id, "timeout": 30}))
        .await;
    assert_eq!(waited["stop"]["line"], line + 1, "{waited}");
    assert_eq!(
        waited["editor_moves"]["moves"][0]["command"], "next",
        "{waited}"
    );
    mcp.ok("debug_terminate", json!({"session_id": id})).await;
}
