//! Call traces over MCP on real adapters: a launch with `calls` runs to its end without
//! a stop, and debug.trace reads a row per call (arguments) and per return (the value),
//! paired and nested; debug.calls changes the patterns, and refuses bad ones.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::{json, Value};

fn program(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Every row of a session's trace, read by cursor, and the texts of the pages.
async fn all_rows(client: &McpClient, id: &Value) -> (Vec<Value>, String) {
    let (mut rows, mut text, mut since) = (Vec::new(), String::new(), 0);
    loop {
        let page = client
            .call("debug_trace", json!({ "session_id": id, "since": since }))
            .await;
        let result = agent::mcp_client::ok_result("debug_trace", page.clone());
        text.push_str(page["content"][0]["text"].as_str().unwrap_or_default());
        rows.extend(result["rows"].as_array().unwrap().iter().cloned());
        since = result["next"].as_u64().unwrap();
        if result["more"] != json!(true) {
            return (rows, text);
        }
    }
}

/// The calls of `function`, as (arguments, the return row's `returned` or `unknown`).
fn calls_of(rows: &[Value], function: &str) -> Vec<(Value, Value)> {
    rows.iter()
        .filter(|r| r["call"]["function"] == function && r["call"]["event"] == "call")
        .map(|call| {
            let back =
                &rows[usize::try_from(call["call"]["pair"].as_u64().expect("paired")).unwrap()];
            assert_eq!(back["call"]["call"], call["call"]["call"], "{back}");
            assert_eq!(back["call"]["event"], "return", "{back}");
            let outcome = if back["call"]["returned"].is_null() {
                back["call"]["unknown"].clone()
            } else {
                back["call"]["returned"].clone()
            };
            (call["values"].clone(), outcome)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_records_calls_with_arguments_and_return_values_without_stopping() {
    let script = program("examples/programs/python/parcels.py");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script,
                    "calls": ["layers", "parcels.parse_grams", "parcels.py:pri*"] }),
        )
        .await;
    let id = launched["session_id"].clone();
    let ended = client
        .ok("debug_wait", json!({ "session_id": id, "timeout": 120 }))
        .await;
    assert_eq!(ended["state"], "terminated", "no one's stop: {ended}");
    assert_eq!(ended["exit_code"], 15, "{ended}");
    // Per parcel priced: parse_grams, three nested layers and price, each twice (call
    // and return); the parcel that does not parse, parse_grams alone.
    assert_eq!(ended["trace_rows"], 22, "{ended}");

    let (rows, text) = all_rows(&client, &id).await;
    eprintln!("{text}");
    assert_eq!(rows.len(), 22);
    let layers = calls_of(&rows, "layers");
    assert_eq!(layers.len(), 6);
    // pydevd shows nesting past two levels as `...`.
    assert_eq!(layers[0], (json!({ "box": "[[[...]]]" }), json!("2")));
    assert_eq!(layers[2], (json!({ "box": "[]" }), json!("0")));
    let depths: Vec<&Value> = rows
        .iter()
        .filter(|r| r["call"]["function"] == "layers" && r["call"]["event"] == "call")
        .map(|r| &r["call"]["depth"])
        .collect();
    assert_eq!(depths[..3], [&json!(0), &json!(1), &json!(2)]);
    let prices = calls_of(&rows, "price");
    assert_eq!(
        prices[1],
        (
            json!({ "grams": "500", "depth": "2" }),
            json!("Price(cents=1100, band='large')")
        ),
        "the bug, in one row"
    );
    let parsed = calls_of(&rows, "parse_grams");
    assert_eq!(parsed.len(), 3);
    assert_eq!(parsed[0], (json!({ "text": "'120'" }), json!("120")));
    // The text is a tree: nested calls indented under their callers.
    assert!(text.contains("-> layers(box=[[[...]]])"), "{text}");
    assert!(text.contains("    -> layers(box=[])"), "{text}");
    assert!(text.contains("<- price #"), "{text}");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_records_calls_and_reads_a_struct_returned_by_its_members() {
    let source = program("examples/programs/c/prices.c");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": source, "adapter": "lldb-dap",
                    "calls": ["layers", "prices.c:price_*"] }),
        )
        .await;
    let id = launched["session_id"].clone();
    let ended = client
        .ok("debug_wait", json!({ "session_id": id, "timeout": 120 }))
        .await;
    assert_eq!(ended["state"], "terminated", "no one's stop: {ended}");
    assert_eq!(ended["exit_code"], 15, "{ended}");
    // Per parcel: three nested layers and price_of, each a call and a return.
    assert_eq!(ended["trace_rows"], 16, "{ended}");
    let (rows, text) = all_rows(&client, &id).await;
    eprintln!("{text}");
    let layers = calls_of(&rows, "layers");
    assert_eq!(layers.len(), 6);
    assert_eq!(layers[0], (json!({ "boxes": "2" }), json!("2")));
    assert_eq!(layers[2], (json!({ "boxes": "0" }), json!("0")));
    let prices = calls_of(&rows, "price_of");
    assert_eq!(prices.len(), 2);
    // lldb lists the function's locals beside its arguments (`p`, not yet set).
    assert_eq!(prices[1].0["grams"], "500", "{:?}", prices[1]);
    assert_eq!(prices[1].0["depth"], "2", "{:?}", prices[1]);
    assert_eq!(
        prices[1].1,
        json!("{cents=1100, band=1}"),
        "the bug, in one row"
    );
    client.close().await;
}

fn line_of(file: &std::path::Path, text: &str) -> i64 {
    let source = std::fs::read_to_string(file).unwrap();
    let at = source.lines().position(|l| l.contains(text)).unwrap();
    i64::try_from(at + 1).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agents_breakpoint_inside_a_traced_call_still_stops_and_debug_calls_changes_the_patterns(
) {
    let script = program("examples/programs/python/parcels.py");
    let innermost = line_of(&script, "return 0");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "calls": ["layers"],
                    "breakpoints": [{ "file": script, "line": innermost }] }),
        )
        .await;
    let id = launched["session_id"].clone();
    assert_eq!(launched["state"], "stopped", "{launched}");
    assert_eq!(launched["stop"]["reason"], "breakpoint", "{launched}");
    assert_eq!(launched["stop"]["line"], innermost, "{launched}");
    // The three nested calls that led there, recorded on the way.
    let (rows, _) = all_rows(&client, &id).await;
    let depths: Vec<&Value> = rows.iter().map(|r| &r["call"]["depth"]).collect();
    assert_eq!(depths, [&json!(0), &json!(1), &json!(2)], "{rows:?}");

    let bad = client
        .fails(
            "debug_calls",
            json!({ "session_id": id, "add": ["a b"] }),
            400,
        )
        .await;
    assert!(
        bad["error"].as_str().unwrap().contains("`module.name`"),
        "{bad}"
    );
    let gone = client
        .fails(
            "debug_calls",
            json!({ "session_id": id, "remove": ["price"] }),
            400,
        )
        .await;
    assert!(
        gone["error"].as_str().unwrap().contains("layers"),
        "says what is traced: {gone}"
    );
    let changed = client
        .ok(
            "debug_calls",
            json!({ "session_id": id, "add": ["pri*"], "remove": ["layers"] }),
        )
        .await;
    assert_eq!(changed["calls"], json!(["price"]), "{changed}");

    // The next parcel's innermost layers stops again (its breakpoint is the agent's).
    let again = client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    assert_eq!(again["state"], "stopped", "{again}");
    assert_eq!(again["stop"]["line"], innermost, "{again}");
    let ended = client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    let (rows, _) = all_rows(&client, &id).await;
    let prices = calls_of(&rows, "price");
    assert_eq!(prices.len(), 2, "{rows:?}");
    assert_eq!(prices[1].1, json!("Price(cents=1100, band='large')"));
    // The layers calls the agent's stop interrupted returned unseen: said so.
    let unseen = calls_of(&rows, "layers");
    assert_eq!(unseen.len(), 3);
    assert!(
        unseen
            .iter()
            .all(|(_, why)| why.as_str().unwrap().contains("ran on")),
        "{unseen:?}"
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agents_step_over_traced_calls_still_ends_in_a_stop() {
    let script = program("examples/programs/python/parcels.py");
    let line = line_of(&script, "quote = price(grams, layers(");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "calls": ["layers", "price"],
                    "breakpoints": [{ "file": script, "line": line }] }),
        )
        .await;
    let id = launched["session_id"].clone();
    assert_eq!(launched["stop"]["line"], line, "{launched}");
    let stepped = client
        .ok("debug_step_over", json!({ "session_id": id }))
        .await;
    assert_eq!(
        stepped["state"], "stopped",
        "the step ends, not the program: {stepped}"
    );
    let (rows, _) = all_rows(&client, &id).await;
    assert!(!calls_of(&rows, "layers").is_empty(), "{rows:?}");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_records_calls_with_their_arguments_and_says_it_shows_no_return_values() {
    let package = program("examples/programs/go/parcels");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": package, "timeout": 300,
                    "calls": ["main.layers", "parseGrams", "main.price*"] }),
        )
        .await;
    let id = launched["session_id"].clone();
    let ended = client
        .ok("debug_wait", json!({ "session_id": id, "timeout": 300 }))
        .await;
    assert_eq!(ended["state"], "terminated", "no one's stop: {ended}");
    assert_eq!(ended["exit_code"], 15, "{ended}");
    let (rows, text) = all_rows(&client, &id).await;
    eprintln!("{text}");
    assert_eq!(rows.len(), 22, "{text}");
    let layers = calls_of(&rows, "main.layers");
    assert_eq!(layers.len(), 6);
    assert_eq!(layers[0].0, json!({ "boxes": "2" }));
    // dlv 1.20 shows no return value after a step out: each return row says so.
    let why = layers[0].1.as_str().unwrap();
    assert!(why.contains("no return value after a step out"), "{why}");
    let depths: Vec<&Value> = rows
        .iter()
        .filter(|r| r["call"]["function"] == "main.layers" && r["call"]["event"] == "call")
        .map(|r| &r["call"]["depth"])
        .collect();
    assert_eq!(depths[..3], [&json!(0), &json!(1), &json!(2)]);
    let parsed = calls_of(&rows, "main.parseGrams");
    assert_eq!(parsed.len(), 3);
    assert_eq!(parsed[1].0, json!({ "text": "\"heavy\"" }));
    let prices = calls_of(&rows, "main.priceOf");
    assert_eq!(prices.len(), 2);
    assert_eq!(
        prices[1].0,
        json!({ "grams": "500", "depth": "2" }),
        "the bug's call"
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_records_calls_with_arguments_and_return_values() {
    let source = program("examples/programs/c/prices.c");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": source, "adapter": "codelldb",
                    "calls": ["layers", "price_of"] }),
        )
        .await;
    let id = launched["session_id"].clone();
    let ended = client
        .ok("debug_wait", json!({ "session_id": id, "timeout": 120 }))
        .await;
    assert_eq!(ended["state"], "terminated", "no one's stop: {ended}");
    let (rows, text) = all_rows(&client, &id).await;
    eprintln!("{text}");
    assert_eq!(rows.len(), 16, "{text}");
    let layers = calls_of(&rows, "layers");
    assert_eq!(layers[0], (json!({ "boxes": "2" }), json!("2")));
    let prices = calls_of(&rows, "price_of");
    assert_eq!(prices[1].0["grams"], "500", "{:?}", prices[1]);
    assert_eq!(
        prices[1].1,
        json!("{cents:1100, band:1}"),
        "the bug, in one row"
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_shows_a_rust_number_or_bool_returned_as_its_value() {
    // CodeLLDB gives a Rust u32 or bool a `[raw]` child, which is no struct's member.
    rust_calls_and_their_values("codelldb").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_records_the_calls_of_a_rust_function_named_without_its_symbol_hash() {
    // lldb-dap names a Rust frame by its symbol, `returns::answer::h<16 hex digits>`:
    // the hash is no part of the pattern's name, nor of the row's.
    rust_calls_and_their_values("lldb-dap").await;
}

/// A Rust program's calls on `adapter`: each row named by its path, with its
/// arguments and the value it returned.
async fn rust_calls_and_their_values(adapter: &str) {
    let source = program("tests/support/returns.rs");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": source, "adapter": adapter, "calls": ["answer", "heavy"] }),
        )
        .await;
    let id = launched["session_id"].clone();
    let ended = client
        .ok("debug_wait", json!({ "session_id": id, "timeout": 120 }))
        .await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    let (rows, text) = all_rows(&client, &id).await;
    assert_eq!(
        calls_of(&rows, "returns::answer"),
        [(json!({ "x": "21" }), json!("42"))],
        "{text}"
    );
    assert_eq!(
        calls_of(&rows, "returns::heavy"),
        [(json!({ "grams": "500" }), json!("true"))],
        "{text}"
    );
    assert!(!text.contains("[raw]"), "{text}");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn js_debug_says_it_records_no_calls_rather_than_recording_none_silently() {
    let script = program("examples/programs/javascript/cart.js");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "calls": ["lineCents"] }),
        )
        .await;
    let id = launched["session_id"].clone();
    let ended = client
        .ok("debug_wait", json!({ "session_id": id, "timeout": 120 }))
        .await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    let out = client
        .call("debug_output", json!({ "session_id": id }))
        .await;
    let text = out["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(text.contains("no calls are recorded (lineCents)"), "{text}");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_calls_secret_arguments_are_redacted_as_every_value_is() {
    let script = program("examples/programs/python/secrets.py");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "calls": ["connect"] }),
        )
        .await;
    let id = launched["session_id"].clone();
    let ended = client
        .ok("debug_wait", json!({ "session_id": id, "timeout": 120 }))
        .await;
    assert_eq!(ended["trace_rows"], 2, "{ended}");
    let page = client
        .call("debug_trace", json!({ "session_id": id }))
        .await
        .to_string();
    for secret in ["ghp_R2d2", "wJalrXUtnFEMI", "AKIAIOSFODNN7", "s3cr3t-Db"] {
        assert!(!page.contains(secret), "{secret} leaked: {page}");
    }
    assert!(page.contains("redacted"), "{page}");
    client.close().await;
}
