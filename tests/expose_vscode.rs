//! A person's VS Code on an agent's session, through VS Code's own DAP client library
//! (`@vscode/debugadapter-testsupport`'s `DebugClient`, which `scripts/provision`
//! installs into `.node-test`; the test fails, saying so, when it is missing), on a
//! real debugpy session the MCP server exposes: the stop, the stack and the locals
//! read-only with `continue` refused; then, exposed again with `control`, a step the
//! agent's `debug_wait` says an editor made. A wrong token is turned away both times;
//! a VS Code past the endpoint's cap of editors is told why, and one on a session
//! that ends is told so.

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

/// Expose session `id` (with `control`): the port and token a person's VS Code reads
/// from the file the answer names.
async fn exposed(mcp: &McpClient, id: &str, control: bool) -> (String, String) {
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
    (port, token)
}

/// The VS Code client on the endpoint at `port`, in `mode`.
fn vscode_client(port: &str, token: &str, mode: &str) -> tokio::process::Command {
    let mut node = tokio::process::Command::new("node");
    node.arg(root().join("tests/support/vscode_editor.js"))
        .args([port, token, mode])
        .env("NODE_PATH", node_modules())
        .kill_on_drop(true);
    node
}

/// The JSON line the client printed, or why there is none.
fn printed(line: &str, stderr: &[u8]) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| {
        panic!(
            "the client printed no JSON ({e}): {line}\n{}",
            String::from_utf8_lossy(stderr)
        )
    })
}

/// The next line the client prints ("" once it has closed its output).
async fn next_line<R>(lines: &mut tokio::io::Lines<R>) -> String
where
    R: tokio::io::AsyncBufRead + Unpin,
{
    tokio::time::timeout(common::ANSWER_WAIT, lines.next_line())
        .await
        .expect("the VS Code client says something")
        .unwrap()
        .unwrap_or_default()
}

/// Run the VS Code client on the exposure of session `id` (`mode`: watch or drive).
async fn vscode(mcp: &McpClient, id: &str, control: bool, mode: &str) -> Value {
    let (port, token) = exposed(mcp, id, control).await;
    let run = vscode_client(&port, &token, mode).output();
    let output = tokio::time::timeout(common::ANSWER_WAIT, run)
        .await
        .expect("the VS Code client finishes")
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    printed(
        String::from_utf8_lossy(&output.stdout).trim(),
        &output.stderr,
    )
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vscode_is_told_why_a_full_endpoint_turns_it_away_and_why_the_session_ended() {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
    let mcp =
        McpClient::start_all_tools(&["--max-exposed-clients", "1"], Elicitation::Unsupported).await;
    let file = discount();
    let line = line_of(&file, "discounted = apply_discount");
    let launched = mcp
        .ok(
            "debug_launch",
            json!({"program": file, "breakpoints": [{"file": file, "line": line}]}),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let (port, token) = exposed(&mcp, &id, false).await;
    let mut node = vscode_client(&port, &token, "crowded")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("node runs");
    let mut stderr = node.stderr.take().unwrap();
    let mut lines = BufReader::new(node.stdout.take().unwrap()).lines();
    let ready = next_line(&mut lines).await;
    if ready != "ready" {
        let mut why = Vec::new();
        let _ = stderr.read_to_end(&mut why).await;
        panic!("{ready}: {}", String::from_utf8_lossy(&why));
    }
    // The second VS Code was turned away; the first watches the session end.
    mcp.ok("debug_terminate", json!({"session_id": id})).await;
    let seen = next_line(&mut lines).await;
    let status = tokio::time::timeout(common::ANSWER_WAIT, node.wait())
        .await
        .expect("the VS Code client exits")
        .unwrap();
    let mut why = Vec::new();
    let _ = stderr.read_to_end(&mut why).await;
    assert!(status.success(), "{}", String::from_utf8_lossy(&why));
    let seen = printed(&seen, &why);

    let turned_away = seen["turned_away"].as_str().unwrap();
    for part in [
        &format!("session {id} already has 1 editor connected"),
        "MAX_EXPOSED_CLIENTS, 1 on this server",
        "held by editor 1 (from 127.0.0.1:",
        "--max-exposed-clients N",
    ] {
        assert!(turned_away.contains(part), "{part}: {seen}");
    }
    // Its `initialize` is refused with the same, which VS Code shows its user.
    assert!(
        seen["initialize_refused"]
            .as_str()
            .unwrap()
            .contains("MAX_EXPOSED_CLIENTS"),
        "{seen}"
    );
    assert_eq!(seen["turned_away_terminated"], true, "{seen}");
    let told = seen["holder_told"].to_string();
    assert!(told.contains("this editor is disconnected"), "{seen}");
}
