//! Rust values read as Rust on lldb-dap: a Rust program (recognised by its binary) gets
//! the toolchain's LLDB formatters loaded, so its `Vec<String>`, `HashMap`, `Option`
//! and enums show their contents, through the Rust API and over MCP, the same values
//! CodeLLDB shows (tests/codelldb.rs, tests/mcp_js_debug_codelldb.rs).

mod agent;
mod common;

use agent::mcp_client::{ok_result, Elicitation, McpClient};
use common::{build_rust, expect_exit, expect_stop, line_of, program};
use dapvisor::wire::types::SourceBreakpoint;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_shows_a_rust_programs_collections_options_and_enums_as_rust() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("rust/orders.rs");
    let binary = build_rust("orders");
    let line = line_of(
        &source,
        "let total = order_total(&items, &prices, shipping)",
    );
    let session = runtime
        .launch(
            LaunchSpec::new(&binary)
                .adapter("lldb-dap")
                .breakpoint(&source, line),
        )
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    // lldb-dap names the function with its symbol hash (`orders::main::h61a6...`).
    assert!(frame.name.starts_with("orders::main"), "{frame:?}");
    assert_eq!(frame.line, line);

    let scopes = session.scopes(frame.id).await.unwrap();
    let locals = session
        .variables(scopes[0].variables_reference)
        .await
        .unwrap();
    let value = |name: &str| {
        locals
            .iter()
            .find(|v| v.name == name)
            .unwrap_or_else(|| panic!("no local `{name}` in {locals:#?}"))
            .clone()
    };
    assert_eq!(value("coupon").value, "Some(15)");
    assert_eq!(value("shipping").value, "Pickup");
    assert_eq!(value("express").value, "Courier{days:1}");
    let items = value("items");
    assert_eq!(items.value, "size=2");
    let elements = session.variables(items.variables_reference).await.unwrap();
    let shown: Vec<(&str, &str)> = elements
        .iter()
        .map(|v| (v.name.as_str(), v.value.as_str()))
        .take(2)
        .collect();
    assert_eq!(shown, [("[0]", "\"tea\""), ("[1]", "\"honey\"")]);
    let prices = value("prices");
    assert_eq!(prices.value, "size=2");
    let entries = session.variables(prices.variables_reference).await.unwrap();
    let mut pairs = Vec::new();
    for entry in entries.iter().filter(|e| e.variables_reference > 0) {
        let pair = session.variables(entry.variables_reference).await.unwrap();
        pairs.extend(pair.iter().map(|v| v.value.clone()));
    }
    for want in ["\"tea\"", "450", "\"honey\"", "899"] {
        assert!(pairs.iter().any(|k| k == want), "{want} in {pairs:?}");
    }
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
