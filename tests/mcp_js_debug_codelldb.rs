//! `dapvisor mcp` driving js-debug and CodeLLDB, as an agent would: a breakpoint stop
//! with its locals, the stack, a value's fields, evaluation, steps in, out and over,
//! the exit code and the program's output; then an exception stop under each. The
//! two adapters' sessions run side by side in one server.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use serde_json::{json, Value};

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

/// The top frame of `id`'s stack: (function, line).
async fn top(client: &McpClient, id: &str) -> (String, i64) {
    let stack = client
        .ok(
            "debug_stack_trace",
            json!({ "session_id": id, "levels": 1 }),
        )
        .await;
    let frame = &stack["frames"][0];
    (
        frame["name"].as_str().unwrap().to_string(),
        frame["line"].as_i64().unwrap(),
    )
}

/// A control tool, insisting that it stopped.
async fn stopped(client: &McpClient, tool: &str, id: &str) -> Value {
    let answer = client.ok(tool, json!({ "session_id": id })).await;
    assert_eq!(answer["state"], "stopped", "{tool}: {answer}");
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn js_debug_and_codelldb_sessions_find_their_bugs_side_by_side() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let cart = program("javascript/cart.js").display().to_string();
    let call = line_of(&cart, "const cents = lineCents(line);");
    let rust = program("rust/orders.rs").display().to_string();
    let binary = rust_orders_binary().display().to_string();
    let rust_line = line_of(&rust, "let total = order_total(&items, &prices, shipping)");
    let js_call = client
        .spawn(
            "debug_launch",
            json!({ "program": cart, "breakpoints": [{ "file": cart, "line": call }],
                    "timeout": 120 }),
        )
        .await;
    let rust_call = client
        .spawn(
            "debug_launch",
            json!({ "program": binary, "adapter": "codelldb",
                    "breakpoints": [{ "file": rust, "line": rust_line }], "timeout": 120 }),
        )
        .await;
    let js = agent::mcp_client::ok_result("debug_launch", js_call.await.unwrap());
    let rs = agent::mcp_client::ok_result("debug_launch", rust_call.await.unwrap());

    // js-debug: stopped in cartTotal, one session for the program.
    assert_eq!(js["state"], "stopped", "{js}");
    assert_eq!(js["adapter"], "js-debug");
    assert_eq!(js["stop"]["line"], call);
    assert!(js["stop"]["function"]
        .as_str()
        .unwrap()
        .contains("cartTotal"));
    let js_id = js["session_id"].as_str().unwrap().to_string();
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(
        sessions["sessions"].as_array().unwrap().len(),
        2,
        "{sessions}"
    );

    // CodeLLDB: stopped in main, the Rust values as Rust.
    assert_eq!(rs["state"], "stopped", "{rs}");
    assert_eq!(rs["adapter"], "codelldb");
    assert_eq!(rs["stop"]["line"], rust_line);
    let rs_id = rs["session_id"].as_str().unwrap().to_string();
    let locals = &rs["stop"]["locals"];
    assert_eq!(var(locals, "coupon")["value"], "Some(15)");
    assert_eq!(var(locals, "express")["value"], "Courier{days:1}");
    let items = var(locals, "items");
    assert_eq!(items["value"], "size=2");
    let elements = client
        .ok(
            "debug_variables",
            json!({ "session_id": rs_id,
                    "variables_reference": items["variables_reference"] }),
        )
        .await;
    assert_eq!(var(&elements["variables"], "[1]")["value"], "\"honey\"");
    let eval = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": rs_id, "expression": "items[0]" }),
        )
        .await;
    assert_eq!(eval["result"], "\"tea\"", "{eval}");

    // js-debug: the stack, a value's fields, an evaluation, then into, out and over.
    let stack = client
        .ok("debug_stack_trace", json!({ "session_id": js_id }))
        .await;
    let frames = stack["frames"].as_array().unwrap();
    assert!(
        frames[1]["name"].as_str().unwrap().contains("main"),
        "{stack}"
    );
    let line_var = var(&js["stop"]["locals"], "line").clone();
    let fields = client
        .ok(
            "debug_variables",
            json!({ "session_id": js_id,
                    "variables_reference": line_var["variables_reference"] }),
        )
        .await;
    assert_eq!(var(&fields["variables"], "sku")["value"], "'tea'");
    let eval = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": js_id, "expression": "lineCents(line) + DELIVERY_CENTS" }),
        )
        .await;
    assert_eq!(eval["result"], "1849");
    stopped(&client, "debug_step_in", &js_id).await;
    let (function, line) = top(&client, &js_id).await;
    assert!(function.contains("lineCents"), "{function}");
    assert_eq!(line, line_of(&cart, "const unit = salePrice("));
    // Out of the call, V8 stops on the statement after it: the call's result is in.
    let out = stopped(&client, "debug_step_out", &js_id).await;
    assert!(out["stop"]["function"]
        .as_str()
        .unwrap()
        .contains("cartTotal"));
    let bug = line_of(&cart, "total += cents + DELIVERY_CENTS;");
    assert_eq!(out["stop"]["line"], bug, "{out}");
    assert_eq!(var(&out["stop"]["locals"], "cents")["value"], "1350");
    // The stop's locals gather js-debug's block and function scopes.
    assert_eq!(var(&out["stop"]["locals"], "total")["value"], "0");
    let over = stopped(&client, "debug_step_over", &js_id).await;
    assert_eq!(
        over["stop"]["line"],
        line_of(&cart, "for (const line of lines) {"),
        "{over}"
    );
    assert_eq!(var(&over["stop"]["locals"], "total")["value"], "1849");

    // CodeLLDB: into order_total, out again, over the line.
    stopped(&client, "debug_step_in", &rs_id).await;
    assert_eq!(
        top(&client, &rs_id).await,
        (
            "orders::order_total".to_string(),
            line_of(&rust, "let mut total = 0;")
        )
    );
    stopped(&client, "debug_step_out", &rs_id).await;
    assert_eq!(top(&client, &rs_id).await.0, "orders::main");
    stopped(&client, "debug_step_over", &rs_id).await;

    // Both to their exit codes, with their output.
    for (id, file) in [(&js_id, &cart), (&rs_id, &rust)] {
        client
            .ok(
                "debug_set_breakpoints",
                json!({ "session_id": id, "file": file, "lines": [] }),
            )
            .await;
    }
    for (id, code, prints) in [
        (&js_id, 6, "cart total: 55.46"),
        (&rs_id, 11, "2 items, Pickup, total 1634 cents"),
    ] {
        let end = client
            .ok(
                "debug_continue",
                json!({ "session_id": id, "timeout": 120 }),
            )
            .await;
        assert_eq!(end["state"], "terminated", "{end}");
        assert_eq!(end["exit_code"], code, "{end}");
        let out = client
            .ok(
                "debug_output",
                json!({ "session_id": id, "categories": ["stdout"] }),
            )
            .await;
        assert!(out["output"].as_str().unwrap().contains(prints), "{out}");
    }
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_stops_under_js_debug_and_codelldb() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let parse = program("javascript/parse_orders.js").display().to_string();
    let js = client
        .ok(
            "debug_launch",
            json!({ "program": parse, "filters": ["uncaught"], "timeout": 120 }),
        )
        .await;
    assert_eq!(js["state"], "stopped", "{js}");
    assert_eq!(js["stop"]["reason"], "exception");
    assert_eq!(
        js["stop"]["line"],
        line_of(&parse, "if (orders.get(sku).qty > orders.get(best).qty)")
    );
    let js_id = js["session_id"].as_str().unwrap().to_string();
    let end = client
        .ok("debug_continue", json!({ "session_id": js_id }))
        .await;
    assert_eq!(end["exit_code"], 1, "{end}");

    let rust = rust_orders_binary().display().to_string();
    let rs = client
        .ok(
            "debug_launch",
            json!({ "program": rust, "adapter": "codelldb", "args": ["panic"],
                    "filters": ["rust_panic"], "timeout": 120 }),
        )
        .await;
    assert_eq!(rs["state"], "stopped", "{rs}");
    assert_eq!(rs["stop"]["reason"], "exception", "{rs}");
    let rs_id = rs["session_id"].as_str().unwrap().to_string();
    let stack = client
        .ok("debug_stack_trace", json!({ "session_id": rs_id }))
        .await;
    let names: Vec<&str> = stack["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"orders::main"), "{names:?}");
    client
        .ok("debug_terminate", json!({ "session_id": rs_id }))
        .await;
    assert!(client.close().await.success());
}
