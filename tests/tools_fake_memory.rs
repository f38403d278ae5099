//! Memory through the catalogue on the in-process fake adapter (which serves
//! readMemory and writeMemory over a modelled program): evaluate and variables carry
//! `memory_reference` when the adapter gives one, read_memory renders the bytes (base64
//! in `data`, hex in the text), write_memory answers `bytes_written`, and the write is
//! seen by the next read and by the variable's value.

mod agent;
mod common;

use agent::ok;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::testing::FakeAdapter;
use dapvisor::tools::{ToolCatalogue, ToolProfile};
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::json;

#[tokio::test]
async fn memory_references_reads_and_writes_on_the_fake_adapter() {
    let (connect, probe) = FakeAdapter::new().keep_running().connector();
    let runtime = Runtime::start(RuntimeConfig::default().in_process_adapter("fake", connect))
        .await
        .unwrap();
    let tools = ToolCatalogue::new(runtime)
        .with_profile(ToolProfile::All)
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let program = agent::root().join("Cargo.toml").display().to_string();
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": program, "adapter": "fake",
                "breakpoints": [{ "file": program, "line": 3 }] }),
    )
    .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    let id = launched["session_id"].as_str().unwrap();

    // evaluate and variables pass the adapter's memory reference on.
    let x = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "x" }),
    )
    .await;
    assert_eq!(x["memory_reference"], "0x1000", "{x}");
    let other = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "abc" }),
    )
    .await;
    assert!(
        other.get("memory_reference").is_none(),
        "none given: {other}"
    );
    let locals = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals" }),
    )
    .await;
    assert_eq!(agent::var(&locals["variables"], "x")["value"], "42");
    assert_eq!(
        agent::var(&locals["variables"], "x")["memory_reference"],
        "0x1000"
    );
    assert_eq!(
        agent::var(&locals["variables"], "s")["memory_reference"],
        "0x1004"
    );

    // read_memory: x (42, i32 little-endian) then "hi\0".
    let read = tools
        .call(
            "debug.read_memory",
            json!({ "session_id": id, "memory_reference": "0x1000", "count": 7 }),
        )
        .await;
    assert!(!read.is_error, "{}", read.text);
    assert_eq!(read.structured["bytes_read"], 7);
    assert_eq!(
        read.structured["data"], "KgAAAGhpAA==",
        "{}",
        read.structured
    );
    assert!(read.text.contains("2a 00 00 00 68 69 00"), "{}", read.text);

    // write_memory: x becomes 7; the next read and the variable show it.
    let wrote = tools
        .call(
            "debug.write_memory",
            json!({ "session_id": id, "memory_reference": "0x1000", "data": "BwAAAA==" }),
        )
        .await;
    assert!(!wrote.is_error, "{}", wrote.text);
    assert_eq!(wrote.structured["bytes_written"], 4, "{}", wrote.structured);
    assert!(
        wrote.text.contains("wrote 4 of 4 byte(s)"),
        "{}",
        wrote.text
    );
    let again = ok(
        &tools,
        "debug.read_memory",
        json!({ "session_id": id, "memory_reference": "0x1000", "count": 4 }),
    )
    .await;
    assert_eq!(again["data"], "BwAAAA==");
    let locals = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals" }),
    )
    .await;
    assert_eq!(agent::var(&locals["variables"], "x")["value"], "7");
    assert!(probe.commands().iter().any(|c| c == "writeMemory"));
    tools.runtime().shutdown().await;
}
