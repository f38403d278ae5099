//! Rust values read as Rust on lldb-dap: a Rust program (recognised by its binary) gets
//! the toolchain's LLDB formatters loaded, so its `Vec<String>`, `HashMap`, `Option`
//! and enums show their contents, through the Rust API and over MCP, the same values
//! CodeLLDB shows (tests/codelldb.rs, tests/mcp_js_debug_codelldb.rs). Without a
//! toolchain the session's output says so once, and the program runs on.

mod agent;
mod common;

use agent::mcp_client::{ok_result, Elicitation, McpClient};
use common::{
    assert_orders_locals_read_as_rust, build_rust, expect_exit, line_of, orders_stopped_at_total,
    program,
};
use dapvisor::wire::types::SourceBreakpoint;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_shows_a_rust_programs_collections_options_and_enums_as_rust() {
    let (runtime, session, source, line) = orders_stopped_at_total("lldb-dap").await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    // lldb-dap names the function with its symbol hash (`orders::main::h61a6...`).
    assert!(frame.name.starts_with("orders::main"), "{frame:?}");
    assert_eq!(frame.line, line);

    assert_orders_locals_read_as_rust(&session, frame.id).await;
    let eval = |expression: &'static str| {
        let session = session.clone();
        async move {
            session
                .evaluate(expression, Some(frame.id), None)
                .await
                .unwrap_or_else(|e| panic!("`{expression}`: {e}"))
                .result
        }
    };
    assert_eq!(eval("items[1]").await, "\"honey\"");
    assert_eq!(eval("coupon").await, "Some(15)");

    // The formatters loaded quietly: no note of a missing toolchain, no command echo.
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(!out.contains("no Rust toolchain"), "{out:?}");

    session
        .set_breakpoints(&source, Vec::<SourceBreakpoint>::new())
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(11));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_a_rust_stop_reads_the_same_on_lldb_dap_and_codelldb() {
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let source_path = program("rust/orders.rs");
    let source = source_path.display().to_string();
    let binary = build_rust("orders").display().to_string();
    let line = line_of(
        &source_path,
        "let total = order_total(&items, &prices, shipping)",
    );
    for adapter in ["lldb-dap", "codelldb"] {
        let launched = client
            .call(
                "debug_launch",
                json!({ "program": binary, "adapter": adapter,
                        "breakpoints": [{ "file": source, "line": line }], "timeout": 120 }),
            )
            .await;
        let launched = ok_result("debug_launch", launched);
        assert_eq!(launched["state"], "stopped", "{adapter}: {launched}");
        let locals = &launched["stop"]["locals"];
        for (name, want) in [
            ("coupon", "Some(15)"),
            ("shipping", "Pickup"),
            ("express", "Courier{days:1}"),
            ("items", "size=2"),
            ("prices", "size=2"),
        ] {
            assert_eq!(agent::var(locals, name)["value"], want, "{adapter}: {name}");
        }
        let id = launched["session_id"].clone();
        let eval = client
            .ok(
                "debug_evaluate",
                json!({ "session_id": id, "expression": "items[0]" }),
            )
            .await;
        assert_eq!(eval["result"], "\"tea\"", "{adapter}: {eval}");
        client
            .ok("debug_terminate", json!({ "session_id": id }))
            .await;
    }
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_toolchain_the_session_says_so_once_and_runs_on() {
    // A PATH with lldb-dap and nothing else: no rustc to find the formatters with.
    let dir = std::env::temp_dir().join(format!("dapvisor-no-rustc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lldb_dap = ["/usr/bin/lldb-dap-22", "/usr/bin/lldb-dap-19"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("lldb-dap is installed (scripts/provision)");
    let _ = std::fs::remove_file(dir.join("lldb-dap"));
    std::os::unix::fs::symlink(lldb_dap, dir.join("lldb-dap")).unwrap();
    let binary = build_rust("orders");
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(["debug", "--json", "--adapter", "lldb-dap"])
        .arg(&binary)
        .env("PATH", &dir)
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(11), "it ran to its end: {stdout}");
    let end: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let output = end["output"].as_str().unwrap();
    assert!(
        output.starts_with("dapvisor: no Rust toolchain found"),
        "{output}"
    );
    assert_eq!(output.matches("no Rust toolchain").count(), 1, "{output}");
    std::fs::remove_dir_all(&dir).unwrap();
}
