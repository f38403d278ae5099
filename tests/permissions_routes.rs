//! Routes to code that the permission gate once rated by too little, replayed over MCP
//! on the real adapters: a custom request that evaluates, or that sends a command
//! dapvisor does not rate, under `--deny effect:code` (debugpy); a generic adapter's
//! evaluation that names no context, which the core sends in `repl` (an adapter
//! defined with `--config` that is debugpy under another name); and environment
//! variables that a launch's program, test runner or build reads (debugpy, pytest).

mod agent;
mod common;
mod permission_support;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use dapvisor::registry::AdapterRegistry;
use permission_support::*;
use serde_json::{json, Value};

/// A Python expression that creates `file` (and answers None).
fn creating(file: &std::path::Path) -> String {
    format!("open({:?}, 'w').close()", file.display().to_string())
}

/// discount.py launched over `client`, stopped at its first line: the session and
/// the top frame's id.
async fn at_entry(client: &McpClient, extra: Value) -> (Value, Value) {
    let mut args = json!({ "program": discount(), "stop_on_entry": true });
    args.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let launched = client.ok("debug_launch", args).await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    (
        launched["session_id"].clone(),
        launched["stop"]["frame_id"].clone(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deny_of_code_refuses_the_custom_requests_that_run_code() {
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all", "--deny", "effect:code"],
        Elicitation::Unsupported,
    )
    .await;
    let (id, frame) = at_entry(&client, json!({})).await;

    // The same code by each route: debug_evaluate, and custom requests of the
    // commands that evaluate; and a command dapvisor does not rate, which can do
    // anything debugpy can.
    let evaluated = marker("custom-evaluate");
    refused_over_mcp(
        &client,
        "debug_evaluate",
        json!({ "session_id": id, "expression": creating(&evaluated) }),
    )
    .await;
    let routes = [
        (
            "evaluate",
            json!({ "expression": creating(&evaluated), "frameId": frame }),
        ),
        (
            "evaluate",
            json!({ "expression": creating(&evaluated), "frameId": frame, "context": "repl" }),
        ),
        (
            "setExpression",
            json!({ "expression": "probe", "value": creating(&evaluated), "frameId": frame }),
        ),
    ];
    for (command, arguments) in routes {
        let err = refused_over_mcp(
            &client,
            "debug_custom_request",
            json!({ "session_id": id, "command": command, "arguments": arguments }),
        )
        .await;
        let text = err["error"].as_str().unwrap();
        assert!(
            text.contains("runs Python code in the debuggee") && text.contains("effect:code"),
            "{command}: {err}"
        );
        assert!(!evaluated.exists(), "the refused {command} ran no code");
    }
    // A command dapvisor does not rate, such as `Evaluate` (pydevd dispatches on the
    // lowercased name), counts as host commands, which include code.
    let other = marker("custom-other");
    for command in ["Evaluate", "pydevdSystemInfo"] {
        let err = refused_over_mcp(
            &client,
            "debug_custom_request",
            json!({ "session_id": id, "command": command,
                    "arguments": { "expression": creating(&other), "frameId": frame } }),
        )
        .await;
        let text = err["error"].as_str().unwrap();
        assert!(
            text.contains("which includes what `effect:code` names"),
            "{err}"
        );
    }
    assert!(!other.exists());

    // Reads and moves still run.
    let threads = client
        .ok(
            "debug_custom_request",
            json!({ "session_id": id, "command": "threads" }),
        )
        .await;
    assert!(threads["body"]["threads"]
        .as_array()
        .is_some_and(|t| !t.is_empty()));
    client
        .ok("debug_stack_trace", json!({ "session_id": id }))
        .await;
    assert!(client.close().await.success());
}

/// A `--config` file defining `pydbg`: debugpy, as the registry finds it, under a
/// name the registry has no row of quirks for.
fn generic_debugpy_config() -> std::path::PathBuf {
    let registry = AdapterRegistry::builtin();
    let debugpy = registry
        .resolve(registry.get("debugpy").unwrap())
        .expect("debugpy is installed (DAPVISOR_PYTHON or `dapvisor adapters install debugpy`)");
    let dir = marker("generic-config");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("adapters.toml");
    let config = format!(
        "[adapters.pydbg]\ncommand = {:?}\nargs = {:?}\nextensions = [\"pydbg\"]\n\
         launch_defaults = {{ console = \"internalConsole\", justMyCode = false }}\n",
        debugpy.program.display().to_string(),
        debugpy.args,
    );
    std::fs::write(&path, config).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generic_adapter_s_evaluation_is_rated_in_the_context_it_is_sent() {
    let config = generic_debugpy_config();
    let config_flag = config.display().to_string();
    let client = McpClient::start_all_tools(
        &[
            "--permission-mode",
            "bypass_all",
            "--deny",
            "effect:host",
            "--config",
            &config_flag,
        ],
        Elicitation::Unsupported,
    )
    .await;
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": file, "adapter": "pydbg",
                    "breakpoints": [{ "file": file, "line": line }] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    let id = launched["session_id"].clone();

    // No context: the core sends `repl`, a generic adapter's console, as an explicit
    // `repl` is.
    for extra in [json!({}), json!({ "context": "repl" })] {
        let mut args = json!({ "session_id": id, "expression": "qty" });
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let err = refused_over_mcp(&client, "debug_evaluate", args).await;
        let text = err["error"].as_str().unwrap();
        assert!(
            text.contains("console commands on the host") && text.contains("effect:host"),
            "{extra}: {err}"
        );
    }
    let custom = refused_over_mcp(
        &client,
        "debug_custom_request",
        json!({ "session_id": id, "command": "evaluate",
                "arguments": { "expression": "qty" } }),
    )
    .await;
    assert!(
        custom["error"].as_str().unwrap().contains("repl context"),
        "{custom}"
    );
    // An expression context is code in the debuggee, which the rule leaves alone.
    let watched = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "qty", "context": "watch" }),
        )
        .await;
    assert_eq!(watched["result"], "4", "{watched}");
    assert!(client.close().await.success());
    std::fs::remove_dir_all(config.parent().unwrap()).unwrap();
}
