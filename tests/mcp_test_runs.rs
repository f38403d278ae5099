//! One test run under the debugger over MCP, as an agent does it: `debug_launch` with
//! `test` (a pytest node id, a Go test, a Rust test in a nested module, a node:test
//! name) and a breakpoint in the function under test stops there; the agent reads a
//! local, evaluates, and continues; the end says the test failed with the runner's
//! own failure text. A test that passes says so, an unknown runner is a clear error,
//! and launching a module or the adapter's own arguments asks for approval.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use serde_json::{json, Value};

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

/// Launch `test` (in `program`, when given) with a breakpoint at `needle` in `source`;
/// at the stop, `subtotal` reads 20 and `subtotal + 1` evaluates; then continue to the
/// end, whose `test` part is returned.
async fn stop_then_fail(
    client: &McpClient,
    test: &str,
    program: Option<&str>,
    source: &str,
    needle: &str,
) -> Value {
    let file = agent::program(source);
    let line = line_of(&file, needle);
    let mut args = json!({
        "test": test,
        "breakpoints": [{ "file": file, "line": line }],
        "timeout": 300,
    });
    if let Some(program) = program {
        args["program"] = json!(agent::program(program));
    }
    let launched = client.ok("debug_launch", args).await;
    assert_eq!(launched["state"], "stopped", "{test}: {launched}");
    assert_eq!(launched["stop"]["line"], line, "{launched}");
    let id = launched["session_id"].clone();
    let subtotal = var(&launched["stop"]["locals"], "subtotal")["value"].clone();
    assert_eq!(subtotal, "20", "{test}: {launched}");
    let eval = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "subtotal + 1" }),
        )
        .await;
    assert!(
        eval["result"].as_str().unwrap().starts_with("21"),
        "{test}: {eval}"
    );
    client
        .ok(
            "debug_set_breakpoints",
            json!({ "session_id": id, "file": file, "breakpoints": [] }),
        )
        .await;
    let end = client
        .ok(
            "debug_continue",
            json!({ "session_id": id, "timeout": 120 }),
        )
        .await;
    assert_eq!(end["state"], "terminated", "{test}: {end}");
    end["test"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failing_tests_in_four_runners_stop_in_the_code_under_test_and_end_with_the_failure() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let pytest = stop_then_fail(
        &client,
        "tests/test_cart.py::test_total",
        Some("python/cart"),
        "python/cart/cart.py",
        "return subtotal",
    )
    .await;
    assert_eq!(
        (&pytest["runner"], &pytest["passed"], &pytest["exit_code"]),
        (&json!("pytest"), &json!(false), &json!(1)),
        "{pytest}"
    );
    let failure = pytest["failure"].as_str().unwrap();
    assert!(failure.contains("assert 41 == 42"), "{failure}");

    let go = stop_then_fail(
        &client,
        "TestTotal",
        Some("go/cart"),
        "go/cart/cart.go",
        "return subtotal",
    )
    .await;
    assert_eq!(
        (&go["runner"], &go["passed"]),
        (&json!("go"), &json!(false))
    );
    assert!(
        go["failure"]
            .as_str()
            .unwrap()
            .contains("Total() = 41, want 42"),
        "{go}"
    );

    let rust = stop_then_fail(
        &client,
        "tests::nested::total_of_two_items",
        Some("rust/cart"),
        "rust/cart/src/lib.rs",
        "subtotal.min(MAX_LINE_TOTAL)",
    )
    .await;
    assert_eq!(
        (&rust["runner"], &rust["passed"], &rust["exit_code"]),
        (&json!("cargo"), &json!(false), &json!(101)),
        "{rust}"
    );
    let failure = rust["failure"].as_str().unwrap();
    assert!(
        failure.contains("left: 41") && failure.contains("right: 42"),
        "{failure}"
    );

    let node = stop_then_fail(
        &client,
        "total of two items",
        Some("javascript/cart_test/cart.test.mjs"),
        "javascript/cart_test/cart.mjs",
        "return subtotal",
    )
    .await;
    assert_eq!(
        (&node["runner"], &node["passed"]),
        (&json!("node"), &json!(false))
    );
    assert!(
        node["failure"].as_str().unwrap().contains("41 !== 42"),
        "{node}"
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_passing_test_says_so_and_a_test_of_no_known_runner_is_refused_with_a_next_step() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let crate_dir = program("rust/cart");
    let ended = client
        .ok(
            "debug_launch",
            json!({ "test": "tests::nested::line_total_of_one_item", "program": crate_dir,
                    "timeout": 300,
                    "breakpoints": [{ "file": crate_dir.join("src/lib.rs"),
                                      "statement": "amount += line_total(" }] }),
        )
        .await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    assert_eq!(ended["test"]["passed"], true, "{ended}");
    assert_eq!(ended["test"]["failure"], Value::Null, "{ended}");
    // The test never calls total(): its breakpoint is named, so a pass past it does
    // not read as the answer.
    let source = crate_dir.join("src/lib.rs");
    let line = line_of(&source, "amount += line_total(");
    let unhit = format!("{}:{line}", source.display());
    assert_eq!(ended["never_hit"], json!([unhit]), "{ended}");

    // A folder with no project in it says nothing of a runner.
    let bare = std::env::temp_dir().join(format!("dapvisor-bare-{}", std::process::id()));
    std::fs::create_dir_all(&bare).unwrap();
    let refused = client
        .fails(
            "debug_launch",
            json!({ "test": "test_total", "program": bare }),
            400,
        )
        .await;
    std::fs::remove_dir_all(&bare).unwrap();
    assert!(
        refused["hint"].as_str().unwrap().contains("runner"),
        "{refused}"
    );
    let refused = client
        .fails(
            "debug_launch",
            json!({ "test": "test_total", "runner": "maven" }),
            400,
        )
        .await;
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("no test runner `maven`"),
        "{refused}"
    );
    client.fails("debug_launch", json!({}), 400).await;
    let unknown = client
        .fails(
            "debug_launch",
            json!({ "test": "total_of_two_items", "program": crate_dir }),
            404,
        )
        .await;
    assert!(
        unknown["error"]
            .as_str()
            .unwrap()
            .contains("tests::nested::total_of_two_items"),
        "names the test of that name: {unknown}"
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_module_or_the_adapters_own_launch_arguments_ask_for_approval() {
    // Default mode, a client that cannot be asked: what needs approval is refused.
    let client = McpClient::start_all_tools(&[], Elicitation::Unsupported).await;
    let script = program("python/cart/cart.py");
    for (extra, effect) in [
        (json!({ "module": "pytest" }), "effect:code"),
        (
            json!({ "launch_args": { "justMyCode": true } }),
            "effect:host",
        ),
    ] {
        let mut args = json!({ "program": script });
        for (key, value) in extra.as_object().unwrap() {
            args[key] = value.clone();
        }
        let refused = client.fails("debug_launch", args, 500).await;
        assert_eq!(refused["kind"], "forbidden", "{refused}");
        assert!(
            refused["error"].as_str().unwrap().contains(effect),
            "names {effect}: {refused}"
        );
    }
    // A plain launch of the same program needs none.
    let plain = client
        .ok("debug_launch", json!({ "program": script }))
        .await;
    assert_eq!(plain["state"], "terminated", "{plain}");
    client.close().await;
}
