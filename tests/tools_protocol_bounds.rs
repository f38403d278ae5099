//! Protocol tools on lldb-dap held to the catalogue's bounds: expressions sent as values
//! or completions, memory written, and the disassembly's default count; a disassembly
//! once the program has run to its end says why there is none.

mod agent;
mod common;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::{Bounds, ToolCatalogue, ToolProfile};
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_memory_and_disassembly_are_bounded_on_lldb_dap() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let tools = ToolCatalogue::new(runtime)
        .with_profile(ToolProfile::All)
        .with_bounds(Bounds::default().instruction_count(5))
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let source = program("c/average.c").display().to_string();
    let binary = c_binary().display().to_string();
    let (id, _) = launched(&tools, &binary, &source, "double mean = sum / count;").await;

    // Whatever goes to the adapter as an expression is held to the expression bound,
    // checked before anything else (set_expression is not even supported here).
    let long = "1+".repeat(5_000) + "1";
    for (tool, extra) in [
        (
            "debug.set_variable",
            json!({ "scope": "Locals", "name": "sum", "value": long }),
        ),
        (
            "debug.set_expression",
            json!({ "expression": "sum", "value": long }),
        ),
        (
            "debug.set_expression",
            json!({ "expression": long, "value": "1" }),
        ),
        ("debug.completions", json!({ "text": long })),
        (
            "debug.custom_request",
            json!({ "command": "evaluate", "arguments": { "expression": long } }),
        ),
    ] {
        let err = fails(&tools, tool, with(&id, extra), 400).await;
        assert!(err.text.contains("10000"), "{tool}: {}", err.text);
    }
    let sum = ok(
        &tools,
        "debug.evaluate",
        with(&id, json!({ "expression": "sum" })),
    )
    .await;
    assert_eq!(sum["result"], "426", "nothing was set");

    // Writes are held to the memory bound before the data is decoded or the adapter
    // asked.
    let too_big = "AAAA".repeat(1366); // 4098 bytes
    let err = fails(
        &tools,
        "debug.write_memory",
        with(
            &id,
            json!({ "memory_reference": "0x1000", "data": too_big }),
        ),
        400,
    )
    .await;
    assert!(err.text.contains("4096"), "{}", err.text);
    // Within it, the write reaches lldb-dap 22, which refuses an address nothing is
    // mapped at...
    let err = fails(
        &tools,
        "debug.write_memory",
        with(&id, json!({ "memory_reference": "0x1000", "data": "AAAA" })),
        500,
    )
    .await;
    assert!(
        err.text.contains("Memory 0x1000 region is not writable"),
        "{}",
        err.text
    );
    // ... and writes the program's own: 500 over `sum`, at the address the evaluation
    // gave, which the program then divides.
    let sum_at = sum["memory_reference"].clone();
    assert!(sum_at.is_string(), "{sum}");
    let data = dapvisor::wire::base64::encode(&500i32.to_le_bytes());
    let written = ok(
        &tools,
        "debug.write_memory",
        with(&id, json!({ "memory_reference": sum_at, "data": data })),
    )
    .await;
    assert_eq!(written["bytes_written"], 4, "{written}");
    let mean = ok(
        &tools,
        "debug.evaluate",
        with(&id, json!({ "expression": "sum / count" })),
    )
    .await;
    assert_eq!(mean["result"], "100");

    // The disassembly's default count is a bound of its own.
    let code = ok(&tools, "debug.disassemble", with(&id, json!({}))).await;
    assert_eq!(code["instructions"].as_array().unwrap().len(), 5);
    assert_eq!(code["instructions"][0]["current"], true);

    // Without an address, a program that runs has no pointer: the answer says why.
    ok(
        &tools,
        "debug.set_breakpoints",
        with(&id, json!({ "file": source, "lines": [] })),
    )
    .await;
    let ended = ok(&tools, "debug.continue", with(&id, json!({}))).await;
    assert_eq!(ended["state"], "terminated");
    let err = fails(&tools, "debug.disassemble", with(&id, json!({})), 400).await;
    assert_eq!(err.error().unwrap().kind, "session_ended", "{}", err.text);
    assert!(err.text.contains("exited with code"), "{}", err.text);
    tools.runtime().shutdown().await;
}
