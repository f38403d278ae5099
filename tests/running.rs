//! Programs that run on, through the tools on real adapters: `debug.pause` without a
//! `thread_id` on a program that has not stopped yet (debugpy, lldb-dap, dlv), and a
//! control action that times out (`running` with `timed_out: true`), `debug.wait`,
//! then a pause.

mod agent;
mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use agent::*;
use dapvisor::tools::ToolCatalogue;
use serde_json::{json, Value};

/// A Python program like the C and Go tickers: 20 ticks a second for two minutes.
fn python_ticker() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dapvisor-running-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("ticker.py");
    std::fs::write(
        &script,
        "import time\n\n\ndef tick(count):\n    return count + 1\n\n\ncount = 0\n\
         for i in range(2400):\n    count = tick(count)\n    time.sleep(0.05)\n\
         print('ticked', count)\n",
    )
    .unwrap();
    script
}

/// `examples/programs/c/ticker.c`, built once for this test binary (two tests that
/// built it at once would overwrite the file one of them runs).
fn c_ticker() -> String {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| common::build_c("ticker"))
        .display()
        .to_string()
}

/// Launch `program` with no breakpoint (it runs on past the short first wait), pause
/// it with no thread named, and check that it really halted: a stack trace answers.
async fn pause_a_program_that_never_stopped(program: &str, adapter: &str) {
    let tools = catalogue().await;
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": program, "timeout": 2 }),
    )
    .await;
    assert_eq!(launched["adapter"], adapter);
    assert_eq!(launched["state"], "running", "{launched}");
    assert_eq!(launched["timed_out"], true);
    let id = launched["session_id"].as_str().unwrap().to_string();

    let paused = ok(
        &tools,
        "debug.pause",
        json!({ "session_id": id, "timeout": 60 }),
    )
    .await;
    assert_eq!(paused["state"], "stopped", "{paused}");
    assert_eq!(paused["stop"]["reason"], "pause", "{paused}");
    // dlv may acknowledge a pause without halting: only a halted program has a stack.
    let stack = ok(&tools, "debug.stack_trace", json!({ "session_id": id })).await;
    assert!(!stack["frames"].as_array().unwrap().is_empty(), "{stack}");
    let sessions = ok(&tools, "debug.sessions", json!({})).await;
    assert_eq!(sessions["sessions"][0]["state"], "stopped");
    ok(&tools, "debug.terminate", json!({ "session_id": id })).await;
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_without_a_thread_halts_a_python_program_that_never_stopped() {
    let script = python_ticker();
    pause_a_program_that_never_stopped(&script.display().to_string(), "debugpy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_without_a_thread_halts_a_c_program_under_lldb_dap() {
    pause_a_program_that_never_stopped(&c_ticker(), "lldb-dap").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_without_a_thread_halts_a_go_program_under_dlv() {
    let binary = common::build_go("ticker");
    pause_a_program_that_never_stopped(&binary.display().to_string(), "dlv").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_continue_that_times_out_says_running_and_wait_and_pause_take_over() {
    let tools = catalogue().await;
    let source = program("c/ticker.c");
    let binary = c_ticker();
    let line = line_of(&source, "int next = count + 1;");
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": binary, "breakpoints": [{ "file": source, "line": line }] }),
    )
    .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    let id = launched["session_id"].as_str().unwrap().to_string();
    ok(
        &tools,
        "debug.set_breakpoints",
        json!({ "session_id": id, "file": source, "lines": [] }),
    )
    .await;

    // The loop runs for two minutes with no breakpoint left: a short wait runs out.
    let result = tools
        .call(
            "debug.continue",
            json!({ "session_id": id, "timeout": 0.5 }),
        )
        .await;
    assert!(!result.is_error, "{}", result.text);
    assert_eq!(
        result.structured,
        json!({ "state": "running", "timed_out": true, "session_id": id })
    );
    assert!(result.text.contains("debug.wait"), "{}", result.text);

    let waited = ok(
        &tools,
        "debug.wait",
        json!({ "session_id": id, "timeout": 0.5 }),
    )
    .await;
    assert_eq!(waited["state"], "running");
    assert_eq!(waited["timed_out"], true);
    let err = fails(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id }),
        400,
    )
    .await;
    assert!(err.text.contains("running"), "{}", err.text);
    assert!(
        err.text.contains("debug.pause, debug.threads"),
        "{}",
        err.text
    );

    let paused = ok(&tools, "debug.pause", json!({ "session_id": id })).await;
    assert_eq!(paused["state"], "stopped", "{paused}");
    assert_eq!(paused["stop"]["reason"], "pause");
    // A wait on a stopped program answers at once with the same stop.
    let again = ok(
        &tools,
        "debug.wait",
        json!({ "session_id": id, "timeout": 0.5 }),
    )
    .await;
    assert_eq!(again["state"], "stopped");
    assert_eq!(again["stop"]["reason"], "pause");
    let count = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "count", "frame_id": frame_in(&tools, &id, "main").await }),
    )
    .await;
    assert!(count["result"].as_str().unwrap().parse::<i64>().unwrap() >= 1);
    tools.runtime().shutdown().await;
}

/// The id of the innermost frame of the stopped thread whose function is `name`.
async fn frame_in(tools: &ToolCatalogue, id: &str, name: &str) -> Value {
    let stack = ok(
        tools,
        "debug.stack_trace",
        json!({ "session_id": id, "levels": 50 }),
    )
    .await;
    stack["frames"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"].as_str().is_some_and(|n| n.contains(name)))
        .unwrap_or_else(|| panic!("no frame in {name}: {stack}"))["id"]
        .clone()
}
