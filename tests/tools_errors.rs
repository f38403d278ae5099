//! The errors an agent gets from the tool catalogue, on a real debugpy: bad input gets
//! an error with a code and a next step, and a missing adapter says how to install it.

mod agent;
mod common;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::registry::{AdapterDef, AdapterRegistry};
use dapvisor::tools::{Bounds, ToolCatalogue, ToolProfile};
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_an_error_with_a_code_and_a_next_step() {
    let tools = catalogue_with(Bounds::default()).await;
    let file = discount();

    // No such session, and a malformed id.
    let r = fails(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": "s999" }),
        404,
    )
    .await;
    assert!(r.error().unwrap().hint.contains("debug.launch"));
    fails(
        &tools,
        "debug.continue",
        json!({ "session_id": "nope" }),
        400,
    )
    .await;
    // Missing and unknown arguments, an unknown tool.
    fails(&tools, "debug.launch", json!({}), 400).await;
    fails(
        &tools,
        "debug.launch",
        json!({ "program": file, "sessionId": "s1" }),
        400,
    )
    .await;
    fails(&tools, "debug.fly", json!({}), 400).await;
    // A program that does not exist, an unknown adapter.
    let r = fails(
        &tools,
        "debug.launch",
        json!({ "program": "/no/such/prog.py" }),
        400,
    )
    .await;
    assert!(r.text.contains("does not exist"), "{}", r.text);
    let r = fails(
        &tools,
        "debug.launch",
        json!({ "program": file, "adapter": "nodebugger" }),
        400,
    )
    .await;
    assert!(r.error().unwrap().hint.contains("debugpy"), "{}", r.text);

    // Wrong state: a session stopped at entry cannot pause; ended, it cannot step.
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": file, "stop_on_entry": true }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    assert_eq!(launched["state"], "stopped");
    let r = fails(&tools, "debug.pause", json!({ "session_id": id }), 400).await;
    let err = r.error().unwrap().error;
    assert!(err.contains("stopped"), "{}", r.text);
    // What is allowed is said in tools to call, not the runtime's operation names.
    assert!(
        err.contains("debug.pause cannot run") && err.contains("debug.step_over"),
        "{err}"
    );
    assert!(
        err.contains("debug.modules") && !err.contains(" query") && !err.contains(" navigate"),
        "{err}"
    );

    // An expression over the limit; more breakpoints than a session holds.
    let long = "1+".repeat(5_000) + "1";
    let r = fails(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": long }),
        400,
    )
    .await;
    assert!(r.text.contains("10000"), "{}", r.text);
    // More than the session keeps, each within the file (a line past its end is
    // refused first).
    let lines: Vec<i64> = (0..1001).map(|i| 1 + i % 50).collect();
    fails(
        &tools,
        "debug.set_breakpoints",
        json!({ "session_id": id, "file": file, "lines": lines }),
        500, // kind `limit`
    )
    .await;
    fails(
        &tools,
        "debug.set_breakpoint",
        json!({ "session_id": id, "file": file }),
        400,
    )
    .await;
    fails(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Nowhere" }),
        400,
    )
    .await;
    // Numbers past anything an adapter takes are refused, not wrapped (or a panic).
    let huge = u64::MAX;
    let r = fails(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Globals", "filter": "named", "offset": huge }),
        400,
    )
    .await;
    assert!(r.text.contains("`offset`"), "{}", r.text);
    // (A huge `levels` is only capped per call; a huge `start_frame` is refused.)
    fails(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id, "start_frame": huge }),
        400,
    )
    .await;
    let capped = ok(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id, "levels": huge }),
    )
    .await;
    assert!(!capped["frames"].as_array().unwrap().is_empty());
    fails(
        &tools,
        "debug.modules",
        json!({ "session_id": id, "offset": huge }),
        400,
    )
    .await;
    let page = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Globals", "offset": huge }),
    )
    .await;
    assert_eq!(page["variables"], json!([]), "past the end: an empty page");
    let source = ok(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id, "levels": 1_000_000 }),
    )
    .await;
    assert!(!source["frames"].as_array().unwrap().is_empty());

    let end = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(end["exit_code"], 3);
    let r = fails(&tools, "debug.step_over", json!({ "session_id": id }), 400).await;
    let err = r.error().unwrap();
    assert_eq!(err.kind, "session_ended", "{err:?}");
    assert!(err.error.contains("exited with code 3"), "{err:?}");
    assert!(err.hint.contains("launch"), "{err:?}");
    fails(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id }),
        400,
    )
    .await;
    // The session still answers after all that.
    ok(&tools, "debug.output", json!({ "session_id": id })).await;
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_adapter_says_how_to_install_it() {
    let mut registry = AdapterRegistry::builtin();
    let mut def = AdapterDef::generic("ghostdbg", "/nonexistent/ghostdbg-dap");
    def.extensions = vec!["ghost".into()];
    def.install_hint = "install ghostdbg with `apt-get install ghostdbg`".into();
    registry.register(def);
    let runtime = Runtime::start(RuntimeConfig::default().registry(registry))
        .await
        .unwrap();
    let tools = ToolCatalogue::new(runtime)
        .with_profile(ToolProfile::All)
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let dir = std::env::temp_dir().join(format!("dapvisor-ghost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("a.ghost");
    std::fs::write(&program, "boo").unwrap();

    let r = fails(
        &tools,
        "debug.launch",
        json!({ "program": program, "adapter": "ghostdbg" }),
        500,
    )
    .await;
    let err = r.error().unwrap();
    assert!(err.error.contains("apt-get install ghostdbg"), "{err:?}");
    assert!(err.hint.contains("install"), "{err:?}");
    // Chosen by extension, the same.
    let r = fails(&tools, "debug.launch", json!({ "program": program }), 500).await;
    assert!(r.text.contains("ghostdbg"), "{}", r.text);
    std::fs::remove_dir_all(&dir).unwrap();
    tools.runtime().shutdown().await;
}
