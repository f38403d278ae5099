//! `debug_attach {"pid": N}` with no adapter named picks the adapter by what the
//! process is (its executable and the runtime it loaded): a Python process gets
//! debugpy, a Go binary dlv, a C binary lldb-dap; each stops at a breakpoint in its
//! own source. A breakpoint an adapter does not verify says why, also when the adapter
//! gives no reason. Real debugpy, dlv and lldb-dap, through the MCP server.

mod agent;
mod common;

use std::process::{Child, Command, Stdio};

use agent::mcp_client::{Elicitation, McpClient};
use common::*;
use serde_json::json;

/// A ticker running on its own, killed when the test ends.
struct Target(Child);

impl Drop for Target {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(command: &mut Command) -> Target {
    Target(
        command
            .stdout(Stdio::null())
            .spawn()
            .expect("the ticker starts"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attach_by_pid_picks_the_adapter_of_what_the_process_is() {
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let py = program("python/ticker.py");
    let go = program("go/ticker/main.go");
    let c = program("c/ticker.c");
    let targets = [
        ("debugpy", start(Command::new(python()).arg(&py)), py),
        ("dlv", start(&mut Command::new(build_go("ticker"))), go),
        ("lldb-dap", start(&mut Command::new(build_c("ticker"))), c),
    ];
    for (adapter, target, source) in &targets {
        let line = line_of(source, "return next");
        let attached = client
            .ok(
                "debug_attach",
                json!({ "pid": target.0.id(), "timeout": 60,
                        "breakpoints": [{ "file": source, "line": line }] }),
            )
            .await;
        assert_eq!(attached["adapter"], *adapter, "{attached}");
        assert_eq!(attached["state"], "stopped", "{attached}");
        assert_eq!(attached["stop"]["line"], line, "{attached}");
        let id = attached["session_id"].as_str().unwrap();
        client
            .ok("debug_disconnect", json!({ "session_id": id }))
            .await;
    }
    // The native debugger named for the Python process: the breakpoint says why it
    // is not set, where lldb-dap gives no reason.
    let (_, python_target, py) = &targets[0];
    let line = line_of(py, "return next");
    let wrong = client
        .ok(
            "debug_attach",
            json!({ "pid": python_target.0.id(), "adapter": "lldb-dap", "timeout": 2,
                    "breakpoints": [{ "file": py, "line": line }] }),
        )
        .await;
    let why = wrong["unverified_breakpoints"][0]["message"]
        .as_str()
        .unwrap_or("");
    assert!(why.contains("lldb-dap does not debug .py files"), "{wrong}");
    let id = wrong["session_id"].as_str().unwrap();
    client
        .ok("debug_disconnect", json!({ "session_id": id }))
        .await;
    assert!(client.close().await.success());
}
