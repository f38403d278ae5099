//! Scope `"Locals"` names a frame's locals on every adapter, whatever the adapter
//! calls the scopes that hold them: CodeLLDB's `Local`, js-debug's `Block: f` and
//! `Local: f` together. Read with `debug.variables` and written with
//! `debug.set_variable`, each value written read back from the program.

mod agent;
mod common;

use agent::*;
use dapvisor::tools::ToolCatalogue;
use serde_json::{json, Value};

/// The Locals of `id`'s top frame, by scope `"Locals"`.
async fn locals(tools: &ToolCatalogue, id: &str) -> Value {
    let read = ok(
        tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals" }),
    )
    .await;
    read["variables"].clone()
}

/// Set local `name` to `value` by scope `"Locals"`.
async fn set(tools: &ToolCatalogue, id: &str, name: &str, value: &str) {
    ok(
        tools,
        "debug.set_variable",
        json!({ "session_id": id, "scope": "Locals", "name": name, "value": value }),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn locals_on_js_debug_gather_its_block_and_function_scopes() {
    let tools = catalogue().await;
    let cart = program("javascript/cart.js").display().to_string();
    let (id, _) = launched(&tools, &cart, &cart, "total += cents + DELIVERY_CENTS;").await;
    let vars = locals(&tools, &id).await;
    // `cents` and `line` from the two block scopes, `total` from the function's.
    assert_eq!(var(&vars, "cents")["value"], "1350", "{vars}");
    assert_eq!(var(&vars, "total")["value"], "0", "{vars}");
    assert!(var(&vars, "line")["variables_reference"].as_i64().unwrap() > 0);

    // Written in the scope that holds it, the last of the three. Read back by an
    // evaluation: js-debug lists the scopes' values as they were when it stopped until
    // the next stop, even read afresh after the write.
    set(&tools, &id, "total", "11").await;
    let value = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "total" }),
    )
    .await;
    assert_eq!(value["result"], "11", "{value}");
    ok(&tools, "debug.terminate", json!({ "session_id": id })).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn locals_on_codelldb_are_its_local_scope() {
    let tools = catalogue().await;
    let binary = rust_orders_binary().display().to_string();
    let rust = program("rust/orders.rs").display().to_string();
    let line = line_of(&rust, "total += prices[item];");
    let launch = ok(
        &tools,
        "debug.launch",
        json!({ "program": binary, "adapter": "codelldb",
                "breakpoints": [{ "file": rust, "line": line }] }),
    )
    .await;
    assert_eq!(launch["state"], "stopped", "{launch}");
    let id = launch["session_id"].as_str().unwrap();
    let vars = locals(&tools, id).await;
    assert_eq!(var(&vars, "total")["value"], "0", "{vars}");
    assert_eq!(var(&vars, "item")["value"], "\"tea\"", "{vars}");

    set(&tools, id, "total", "5").await;
    let vars = locals(&tools, id).await;
    assert_eq!(var(&vars, "total")["value"], "5", "{vars}");
    ok(&tools, "debug.terminate", json!({ "session_id": id })).await;
}
