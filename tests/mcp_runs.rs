//! `dapvisor mcp` over longer runs, driven by rmcp's client: calls answered while a
//! slow one is in flight, output past the default bound read in pages, an adapter
//! restart notified to a subscriber, and what --request-timeout does.

mod agent;
mod common;

use agent::mcp_client::{ok_result, Elicitation, McpClient};
use agent::*;
use serde_json::{json, Value};

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_calls_answer_while_a_slow_one_is_in_flight() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let dir = std::env::temp_dir().join(format!("dapvisor-mcp-loop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("loop.py");
    std::fs::write(
        &script,
        "import time\nprint('looping', flush=True)\nwhile True:\n    time.sleep(0.05)\n",
    )
    .unwrap();
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "stop_on_entry": true }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();

    // A continue that can only end when something else pauses the loop, on its way
    // before the quick calls: a server that took calls one at a time would answer
    // them only after it.
    let slow = client
        .spawn(
            "debug_continue",
            json!({ "session_id": id, "timeout": 300 }),
        )
        .await;
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"][0]["session_id"], id.as_str());
    let output = client.ok("debug_output", json!({ "session_id": id })).await;
    assert!(output["next"].is_u64(), "{output}");
    assert!(!slow.is_finished(), "the continue cannot have answered yet");

    // A breakpoint in the loop (a quick call too) ends the continue's wait, whether it
    // lands before the continue reached the program or after.
    let line = line_of(&script, "time.sleep(0.05)");
    client
        .ok(
            "debug_set_breakpoints",
            json!({ "session_id": id, "file": script, "lines": [line] }),
        )
        .await;
    let stopped = ok_result("debug_continue", slow.await.unwrap());
    assert_eq!(stopped["state"], "stopped", "{stopped}");
    assert_eq!(stopped["stop"]["reason"], "breakpoint");
    assert_eq!(stopped["stop"]["line"], line);
    assert!(client.close().await.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_past_the_default_bound_comes_in_16_kib_pages() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let dir = std::env::temp_dir().join(format!("dapvisor-mcp-chatty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("chatty.py");
    // 1000 lines of 50 bytes: three pages of the default 16 KiB and a bit.
    std::fs::write(
        &script,
        "for i in range(1000):\n    print(f'line {i:04d} ' + 'x' * 39)\n",
    )
    .unwrap();
    let expected: String = (0..1000)
        .map(|i| format!("line {i:04} {}\n", "x".repeat(39)))
        .collect();
    let ran = client
        .ok("debug_launch", json!({ "program": script, "timeout": 60 }))
        .await;
    assert_eq!(ran["state"], "terminated", "{ran}");
    let id = ran["session_id"].as_str().unwrap().to_string();

    let mut read = String::new();
    let mut since = 0;
    let mut pages = 0;
    loop {
        let page = client
            .ok("debug_output", json!({ "session_id": id, "since": since }))
            .await;
        let text = page["output"].as_str().unwrap();
        assert!(text.len() <= 16 * 1024, "{} bytes in one call", text.len());
        read.push_str(text);
        pages += 1;
        if page["truncated"] == false {
            break;
        }
        // A full page before the last, but for the end of a run of token characters
        // the page would split, kept for the next page so a credential is never
        // shown in two pieces (`dapvisor::redact::MAX_TOKEN_BYTES`).
        let short = 16 * 1024 - text.len();
        assert!(
            short <= dapvisor::redact::MAX_TOKEN_BYTES,
            "{} bytes",
            text.len()
        );
        assert_eq!(page["next"], since + text.len() as u64);
        since = page["next"].as_u64().unwrap();
    }
    assert_eq!(pages, 4);
    // Other output (such as the adapter's own) may come first; the program's is whole.
    assert!(read.ends_with(&expected), "{} bytes read", read.len());
    assert!(client.close().await.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adapter_killed_under_a_subscriber_is_restarted_and_said_so() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": file, "breakpoints": [{ "file": file, "line": line }] }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let uri = format!("debugger://sessions/{id}");
    client.subscribe(&uri).await;
    let before = client.ok("debug_sessions", json!({})).await["sessions"][0].clone();
    let pid = before["adapter_pid"].as_u64().unwrap() as i32;
    assert_eq!(before["restarts"], 0);

    unsafe { libc::kill(pid, libc::SIGKILL) };
    let signal = |wanted: &'static str| {
        let uri = uri.clone();
        move |n: &serde_json::Value| {
            n["params"]["uri"] == uri.as_str()
                && n["params"]["_meta"]["dapvisor/event"]["signal"] == wanted
        }
    };
    let crashed = client.notification(signal("dap_adapter_crashed")).await;
    let payload = &crashed["params"]["_meta"]["dapvisor/event"]["payload"];
    assert_eq!(payload["signal"], 9, "{crashed}");
    assert_eq!(payload["attempt"], 1, "{crashed}");
    let restarted = client.notification(signal("dap_adapter_restarted")).await;
    assert_eq!(
        restarted["params"]["_meta"]["dapvisor/event"]["payload"]["attempt"],
        1
    );
    // The client's user is told of both in log messages, each sent before its update.
    let logs: Vec<Value> = client
        .notifications()
        .into_iter()
        .filter(|n| n["method"] == "notifications/message")
        .map(|n| n["params"].clone())
        .collect();
    let levels: Vec<&Value> = logs.iter().map(|l| &l["level"]).collect();
    assert_eq!(levels, ["warning", "info"], "{logs:?}");
    let crash = logs[0]["data"]["message"].as_str().unwrap();
    assert!(
        crash.contains("crashed") && crash.contains("restarting it in"),
        "{crash}"
    );
    assert_eq!(logs[1]["data"]["signal"], "dap_adapter_restarted");

    // The program runs again under a new adapter and stops at its breakpoint again.
    let again = client
        .ok("debug_wait", json!({ "session_id": id, "timeout": 60 }))
        .await;
    assert_eq!(again["state"], "stopped", "{again}");
    assert_eq!(again["stop"]["line"], line);
    let after = client.ok("debug_sessions", json!({})).await["sessions"][0].clone();
    assert_eq!(after["restarts"], 1);
    assert_ne!(after["adapter_pid"], before["adapter_pid"]);
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_timeout_sets_how_long_a_request_may_take() {
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all", "--request-timeout", "5"],
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
    // An evaluation that takes 8 s outlasts the 5 s deadline (the default is 30 s).
    let err = client
        .fails(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "__import__('time').sleep(8) or 1" }),
            500, // kind `timeout`
        )
        .await;
    assert!(
        err["error"].as_str().unwrap().contains("within 5s"),
        "{err}"
    );
    // The session goes on once the adapter is done.
    let two = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "1 + 1" }),
        )
        .await;
    assert_eq!(two["result"], "2");
    assert!(client.close().await.success());
}
