//! `dapvisor mcp`'s settings, as a child process driven over stdio by rmcp's client:
//! `--root` confining programs and breakpoint files, flags and the config file (the
//! session limit, added adapters), idle reaping told to subscribers, and a program no
//! adapter serves.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use serde_json::json;

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn root_confines_programs_and_breakpoint_files() {
    let root = program("python");
    let root_flag = root.display().to_string();
    let client = McpClient::start(
        &["--permission-mode", "bypass_all", "--root", &root_flag],
        Elicitation::Unsupported,
    )
    .await;
    let err = client
        .fails("debug_launch", json!({ "program": "../c/average.c" }), 500)
        .await;
    assert_eq!(err["kind"], "forbidden", "{err}");
    assert!(
        err["error"].as_str().unwrap().contains("outside the root"),
        "{err}"
    );
    let err = client
        .fails("debug_launch", json!({ "program": "/etc/hostname" }), 500)
        .await;
    assert_eq!(err["kind"], "forbidden", "{err}");
    client
        .fails(
            "debug_launch",
            json!({ "program": "discount.py",
                    "breakpoints": [{ "file": program("c/average.c"), "line": 18 }] }),
            500,
        )
        .await;
    client
        .fails(
            "debug_launch",
            json!({ "program": "discount.py", "cwd": "/tmp" }),
            500,
        )
        .await;

    // A relative program resolves against the root and runs to its end.
    let ran = client
        .ok(
            "debug_launch",
            json!({ "program": "discount.py", "timeout": 60 }),
        )
        .await;
    assert_eq!(ran["state"], "terminated", "{ran}");
    assert_eq!(ran["exit_code"], 3);
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flags_set_the_session_limit_and_add_adapters_from_a_config_file() {
    let dir = std::env::temp_dir().join(format!("dapvisor-mcp-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("adapters.toml");
    std::fs::write(
        &config,
        "[adapters.ghostdbg]\ncommand = \"/nonexistent/ghostdbg\"\nextensions = [\"ghost\"]\n\
         install_hint = \"fetch ghostdbg from the attic\"\n\n\
         # an alias of debugpy's: it changes debugpy, it is no new adapter\n\
         [adapters.python]\nlaunch_defaults = { subProcess = false }\n",
    )
    .unwrap();
    let ghost = dir.join("a.ghost");
    std::fs::write(&ghost, "boo").unwrap();
    let config_flag = config.display().to_string();
    let client = McpClient::start(
        &[
            "--permission-mode",
            "bypass_all",
            "--max-sessions",
            "1",
            "--request-timeout",
            "20",
            "--config",
            &config_flag,
        ],
        Elicitation::Unsupported,
    )
    .await;
    let err = client
        .fails("debug_launch", json!({ "program": ghost }), 500)
        .await;
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .contains("fetch ghostdbg from the attic"),
        "{err}"
    );

    let first = client
        .ok(
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    assert_eq!(first["state"], "stopped");
    let err = client
        .fails("debug_launch", json!({ "program": discount() }), 500)
        .await;
    assert_eq!(err["kind"], "limit", "{err}");
    assert!(
        err["error"].as_str().unwrap().contains("limit of 1"),
        "{err}"
    );
    assert!(client.close().await.success());
    std::fs::remove_dir_all(&dir).unwrap();

    // A config file that cannot be read stops the server before it serves, saying why.
    let stderr = refused_at_start(&["mcp", "--config", "/nonexistent/adapters.toml"]).await;
    assert!(stderr.contains("/nonexistent/adapters.toml"), "{stderr}");

    // So does a session limit of 0, naming the flag, the rule and the default.
    let stderr = refused_at_start(&["mcp", "--max-sessions", "0"]).await;
    assert!(
        stderr.contains("--max-sessions 0: invalid argument: RuntimeConfig::max_sessions is 0")
            && stderr.contains("at least 1")
            && stderr.contains("the default is"),
        "{stderr}"
    );
    // And a cap on an exposed session's editors out of its range.
    let stderr = refused_at_start(&["mcp", "--max-exposed-clients", "65"]).await;
    assert!(
        stderr.contains("--max-exposed-clients: at most 65 editors")
            && stderr.contains("1 to 64 (default 4)"),
        "{stderr}"
    );
}

/// `dapvisor ARGS` fails before it serves: nothing on stdout; what it said on stderr.
async fn refused_at_start(args: &[&str]) -> String {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert!(!out.status.success(), "{args:?} was not refused");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_session_is_reaped_and_its_subscribers_are_told() {
    // The idle clock starts with the launch request, so the limit must outlast a start.
    let client = McpClient::start(
        &["--permission-mode", "bypass_all", "--idle-timeout", "4"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let uri = format!("debugger://sessions/{id}");
    client.subscribe(&uri).await;
    let reaped = client.update(&uri, "dap_session_reaped").await;
    assert!(reaped["params"]["_meta"]["dapvisor/event"]["payload"]["idle_secs"].is_u64());
    // The client's user is told too, in a log message sent before the update.
    let logs = log_messages(&client);
    assert_eq!(logs.len(), 1, "{logs:?}");
    let log = &logs[0]["params"];
    assert_eq!(log["level"], "notice", "{log}");
    assert_eq!(log["logger"], "dapvisor", "{log}");
    assert_eq!(log["data"]["session_id"], id.as_str(), "{log}");
    assert_eq!(log["data"]["signal"], "dap_session_reaped", "{log}");
    let text = log["data"]["message"].as_str().unwrap();
    assert!(text.contains("without a call"), "{log}");
    // Asked again, the session says how it ended, not just that it is unknown.
    let err = client
        .fails("debug_stack_trace", json!({ "session_id": id }), 404)
        .await;
    let error = err["error"].as_str().unwrap();
    assert!(
        error.contains(&id) && error.contains("reaped after") && error.contains("s without"),
        "{err}"
    );
    assert!(
        err["hint"].as_str().unwrap().contains("idle limit"),
        "{err}"
    );
    let gone = client.read(&uri).await.unwrap_err();
    assert!(gone.message.contains("reaped after"), "{gone:?}");
    client
        .fails("debug_stack_trace", json!({ "session_id": "s99" }), 404)
        .await;
    assert_eq!(
        client.ok("debug_sessions", json!({})).await["sessions"],
        json!([])
    );

    // A client that wants warnings and worse is not told of a reaping.
    client.set_log_level("warning").await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    let uri = format!(
        "debugger://sessions/{}",
        launched["session_id"].as_str().unwrap()
    );
    client.subscribe(&uri).await;
    client.update(&uri, "dap_session_reaped").await;
    assert_eq!(log_messages(&client).len(), 1);
    assert!(client.close().await.success());
}

/// The log messages (`notifications/message`) received so far.
fn log_messages(client: &McpClient) -> Vec<serde_json::Value> {
    client
        .notifications()
        .into_iter()
        .filter(|n| n["method"] == "notifications/message")
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_no_adapter_serves_is_a_400_naming_it_and_the_adapters() {
    let client = McpClient::start(BYPASS, Elicitation::Unsupported).await;
    let odd = std::env::temp_dir().join(format!("dapvisor-mcp-{}.unknownext", std::process::id()));
    std::fs::write(&odd, "nothing to debug\n").unwrap();
    let folder = program("python");
    for target in [odd.display().to_string(), folder.display().to_string()] {
        let err = client
            .fails("debug_launch", json!({ "program": target }), 400)
            .await;
        let text = err["error"].as_str().unwrap();
        assert!(text.contains(&target), "names the program: {err}");
        for adapter in ["debugpy", "lldb-dap", "dlv"] {
            assert!(text.contains(adapter), "names {adapter} to choose: {err}");
        }
        assert!(!text.contains("(none)"), "{err}");
        assert_eq!(err["kind"], "invalid_argument", "{err}");
    }
    let _ = std::fs::remove_file(&odd);
    assert!(client.close().await.success());
}
