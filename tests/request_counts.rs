//! The DAP requests the find-the-bug loop costs, pinned per real adapter (debugpy,
//! lldb-dap, dlv, js-debug, CodeLLDB): launch to a breakpoint, the stack, the locals, an evaluation,
//! continue to the next stop, another evaluation. Request counts are exact (the
//! session counts what it sends), so a regression shows as a number; timings are
//! never asserted.

mod agent;
mod common;

use agent::*;
use dapvisor::tools::ToolCatalogue;
use serde_json::json;

/// The requests `id` has sent so far, as `debug.sessions` reports them.
async fn requests_sent(tools: &ToolCatalogue, id: &str) -> u64 {
    let sessions = ok(tools, "debug.sessions", json!({})).await;
    let session = sessions["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session_id"] == id)
        .unwrap_or_else(|| panic!("no session {id} in {sessions}"));
    session["requests_sent"].as_u64().unwrap()
}

/// The loop's steps after the launch, each with the requests it sent: the stack, the
/// Locals, `first` evaluated, continue to the next stop, `second` evaluated. Ends the
/// session. Each step's answer is checked, so a count is never of a failed step.
/// `adapter` names the adapter where the program's kind does not pick it.
async fn find_the_bug_loop(
    program: &str,
    adapter: Option<&str>,
    file: &str,
    needle: &str,
    first: &str,
    second: &str,
) -> Vec<(&'static str, u64)> {
    let tools = catalogue().await;
    let line = line_of(file, needle);
    let mut args = json!({ "program": program, "breakpoints": [{ "file": file, "line": line }] });
    if let Some(adapter) = adapter {
        args["adapter"] = json!(adapter);
    }
    let launch = ok(&tools, "debug.launch", args).await;
    assert_eq!(launch["state"], "stopped", "{launch}");
    let id = launch["session_id"].as_str().unwrap().to_string();
    let session = json!({ "session_id": id });
    let mut counts = Vec::new();
    let mut before = requests_sent(&tools, &id).await;
    let mut count = |step: &'static str, after: u64, counts: &mut Vec<(&'static str, u64)>| {
        counts.push((step, after - before));
        before = after;
    };

    let stack = ok(&tools, "debug.stack_trace", session.clone()).await;
    assert_eq!(stack["frames"][0]["line"], line, "{stack}");
    count("stack_trace", requests_sent(&tools, &id).await, &mut counts);

    let locals = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals" }),
    )
    .await;
    // The stop summary's locals, and more if it had no room for them all: it says to
    // read on with scope "Locals", whatever the adapter names the scopes that hold them.
    let names = |vars: &serde_json::Value| -> Vec<String> {
        let vars = vars.as_array().unwrap().iter();
        vars.map(|v| v["name"].as_str().unwrap().to_string())
            .collect()
    };
    let summary = names(&launch["stop"]["locals"]);
    assert!(!summary.is_empty(), "{launch}");
    assert!(
        names(&locals["variables"]).starts_with(&summary),
        "{locals}"
    );
    count("variables", requests_sent(&tools, &id).await, &mut counts);

    let value = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": first }),
    )
    .await;
    assert!(!value["result"].as_str().unwrap().is_empty(), "{value}");
    // In the stop summary's top frame, from its answer kept: the same frame id (dlv
    // numbers the frames of each `stackTrace` answer afresh, so another's may differ).
    assert_eq!(value["frame_id"], launch["stop"]["frame_id"], "{value}");
    count("evaluate", requests_sent(&tools, &id).await, &mut counts);

    let stopped = ok(&tools, "debug.continue", session.clone()).await;
    assert_eq!(stopped["state"], "stopped", "{stopped}");
    assert_eq!(stopped["stop"]["line"], line, "{stopped}");
    count("continue", requests_sent(&tools, &id).await, &mut counts);

    let value = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": second }),
    )
    .await;
    assert!(!value["result"].as_str().unwrap().is_empty(), "{value}");
    count(
        "evaluate again",
        requests_sent(&tools, &id).await,
        &mut counts,
    );

    ok(&tools, "debug.terminate", session).await;
    counts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_on_debugpy_sends_a_pinned_number_of_requests() {
    let file = discount();
    let counts =
        find_the_bug_loop(&file, None, &file, "total += discounted", "total", "total").await;
    assert_eq!(counts, PINNED_DEBUGPY, "debugpy");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_on_lldb_dap_sends_a_pinned_number_of_requests() {
    let binary = c_binary().display().to_string();
    let file = program("c/average.c").display().to_string();
    let counts = find_the_bug_loop(
        &binary,
        None,
        &file,
        "s.sum += scores[i];",
        "s.sum",
        "s.sum",
    )
    .await;
    assert_eq!(counts, PINNED_LLDB_DAP, "lldb-dap");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_on_dlv_sends_a_pinned_number_of_requests() {
    let package = program("go/inventory").display().to_string();
    let file = program("go/inventory/main.go").display().to_string();
    let counts = find_the_bug_loop(
        &package,
        None,
        &file,
        "due := needsRestock(item)",
        "item.Stock",
        "item.Stock",
    )
    .await;
    assert_eq!(counts, PINNED_DLV, "dlv");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_on_js_debug_sends_a_pinned_number_of_requests() {
    let file = program("javascript/cart.js").display().to_string();
    let counts = find_the_bug_loop(
        &file,
        None,
        &file,
        "total += cents + DELIVERY_CENTS;",
        "total",
        "total",
    )
    .await;
    assert_eq!(counts, PINNED_JS_DEBUG, "js-debug");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_on_codelldb_sends_a_pinned_number_of_requests() {
    let binary = rust_orders_binary().display().to_string();
    let file = program("rust/orders.rs").display().to_string();
    let counts = find_the_bug_loop(
        &binary,
        Some("codelldb"),
        &file,
        "total += prices[item];",
        "total",
        "total",
    )
    .await;
    assert_eq!(counts, PINNED_CODELLDB, "codelldb");
}

/// The requests per step on debugpy, 6 in all after the launch returns (12 before the
/// stop cache; 7 while the stop summary asked for the top frame alone): the stack
/// (none: the stop summary asked for the page `debug.stack_trace` asks for by default,
/// kept in the stop cache), the Locals (none: the scopes and the Locals are the stop
/// summary's, from the cache), an evaluation (`evaluate`; the top frame from the
/// cache), continue to the next stop (`continue`, then the stop summary's
/// `stackTrace`, `scopes`, `variables`), an evaluation (`evaluate`).
///
/// Counted from the first stop, with the launch's stop summary (`stackTrace`,
/// `scopes`, `variables`), that is 9 against a minimal direct client's 7 (stackTrace,
/// scopes, variables, evaluate, continue, stackTrace, evaluate): the 2 more are the
/// second stop's locals (`scopes`, `variables`), which the stop summary shows at every
/// stop and that direct client does not read.
const PINNED_DEBUGPY: &[(&str, u64)] = &[
    ("stack_trace", 0),
    ("variables", 0),
    ("evaluate", 1),
    ("continue", 4),
    ("evaluate again", 1),
];

/// As on debugpy.
const PINNED_LLDB_DAP: &[(&str, u64)] = PINNED_DEBUGPY;

/// As on debugpy.
const PINNED_DLV: &[(&str, u64)] = PINNED_DEBUGPY;

/// As on debugpy, but for the locals: continue costs 6 (`continue`, `stackTrace`,
/// `scopes`, then one `variables` per scope of the locals). js-debug spreads a frame's
/// locals over several scopes (here `Block: cartTotal` with `cents`, `Block:
/// cartTotal` with `line`, `Local: cartTotal` with `lines` and `total`), so reading
/// the locals takes three `variables` requests, at every stop, from any client that
/// shows them all: a direct client that does, once, sends 9 after the first stop.
/// `debug.variables` with scope `"Locals"` gathers the same three from the stop's
/// cache (none).
const PINNED_JS_DEBUG: &[(&str, u64)] = &[
    ("stack_trace", 0),
    ("variables", 0),
    ("evaluate", 1),
    ("continue", 6),
    ("evaluate again", 1),
];

/// As on debugpy: CodeLLDB names the locals' scope `Local`, which scope `"Locals"`
/// finds (the first cheap scope, as the stop summary reads it).
const PINNED_CODELLDB: &[(&str, u64)] = PINNED_DEBUGPY;

/// The Locals after `debug.set_variable` and after an evaluation that assigns: read
/// again from the adapter (the stop's kept answers are forgotten), with the new value.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_changed_at_a_stop_are_read_again_from_the_adapter() {
    let tools = catalogue().await;
    let file = discount();
    let (id, _) = launched(&tools, &file, &file, "total += discounted").await;
    let locals = json!({ "session_id": id, "scope": "Locals" });
    let before = requests_sent(&tools, &id).await;
    let read = ok(&tools, "debug.variables", locals.clone()).await;
    assert_eq!(var(&read["variables"], "total")["value"], "0", "{read}");
    assert_eq!(
        requests_sent(&tools, &id).await,
        before,
        "the stop's own Locals"
    );

    ok(
        &tools,
        "debug.set_variable",
        json!({ "session_id": id, "scope": "Locals", "name": "total", "value": "7" }),
    )
    .await;
    let before = requests_sent(&tools, &id).await;
    let read = ok(&tools, "debug.variables", locals.clone()).await;
    assert_eq!(var(&read["variables"], "total")["value"], "7", "{read}");
    // Its scopes and the Locals, asked again; the top frame is the stop's own (its id
    // holds while the program stays where it stopped).
    assert_eq!(requests_sent(&tools, &id).await - before, 2);

    ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "total = 11", "context": "repl" }),
    )
    .await;
    let read = ok(&tools, "debug.variables", locals).await;
    assert_eq!(var(&read["variables"], "total")["value"], "11", "{read}");
    ok(&tools, "debug.terminate", json!({ "session_id": id })).await;
}

/// Evaluations at one stop find their default frame in the stop (a stack read of it
/// told the session its top frame): each costs its `evaluate` alone, though every
/// evaluation forgets the stop's kept answers. Before, each one after the first also
/// sent a `stackTrace` for the top frame.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evaluations_at_one_stop_cost_one_request_each() {
    let tools = catalogue().await;
    let file = discount();
    let (id, _) = launched(&tools, &file, &file, "total += discounted").await;
    let before = requests_sent(&tools, &id).await;
    for expression in ["total", "total + 1", "len(str(total))"] {
        let value = ok(
            &tools,
            "debug.evaluate",
            json!({ "session_id": id, "expression": expression }),
        )
        .await;
        assert!(value["result"].is_string(), "{value}");
    }
    assert_eq!(requests_sent(&tools, &id).await - before, 3);
    ok(&tools, "debug.terminate", json!({ "session_id": id })).await;
}

/// The requests of continuing from `first` to `last` (two breakpoints of `file`) with
/// `pattern` traced (`calls` on the launch: debugpy shows return values only then): the
/// recorded calls' own, and the continue's (`continue`, then the stop summary's
/// `stackTrace`, `scopes`, `variables` at the second stop). Checks that `calls` calls
/// were recorded with their return values, all between the two stops.
async fn requests_of_recorded_calls(
    program: &str,
    file: &str,
    (first, last): (&str, &str),
    pattern: &str,
    calls: u64,
) -> u64 {
    let tools = catalogue().await;
    let (first, last) = (line_of(file, first), line_of(file, last));
    let breakpoints = json!([{ "file": file, "line": first }, { "file": file, "line": last }]);
    let launch = ok(
        &tools,
        "debug.launch",
        json!({ "program": program, "breakpoints": breakpoints, "calls": [pattern] }),
    )
    .await;
    assert_eq!(launch["stop"]["line"], first, "{launch}");
    let id = launch["session_id"].as_str().unwrap().to_string();
    let session = json!({ "session_id": id });
    let before = requests_sent(&tools, &id).await;
    let stopped = ok(&tools, "debug.continue", session.clone()).await;
    assert_eq!(stopped["stop"]["line"], last, "{stopped}");
    let sent = requests_sent(&tools, &id).await - before;
    let trace = ok(&tools, "debug.trace", session.clone()).await;
    let rows = trace["rows"].as_array().unwrap();
    assert_eq!(rows.len() as u64, 2 * calls, "{trace}");
    let mut returns = rows.iter().filter(|r| r["call"]["event"] == "return");
    assert!(
        returns.all(|r| r["call"]["returned"].is_string()),
        "{trace}"
    );
    assert!(trace.get("calls_dropped").is_none(), "{trace}");
    ok(&tools, "debug.terminate", session).await;
    sent
}

/// A recorded call costs debugpy 8 requests: at the function's entry `stackTrace`
/// (the depth, and the frame), `scopes`, `variables` (the arguments), `stepOut`; at the
/// return `stackTrace` (which calls ended), `scopes`, `variables` (`(return) NAME`),
/// `continue`. debugpy answers each about 44 ms late (pydevd's Nagle delay,
/// BENCHMARKS.md "debugpy's delay per answer"), so a call takes about 350 ms: the 3
/// calls a second measured in BENCHMARKS.md, "Call-trace throughput".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_call_costs_debugpy_eight_requests() {
    let file = discount();
    // discount_percent is called once per line item: three times.
    let between = ("total = 0", "return total");
    let sent = requests_of_recorded_calls(&file, &file, between, "discount_percent", 3).await;
    assert_eq!(sent, 4 + 3 * PER_RECORDED_CALL, "debugpy");
}

/// As on debugpy: lldb-dap shows the return value as `(Return Value)`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_call_costs_lldb_dap_eight_requests() {
    let binary = c_binary().display().to_string();
    let file = program("c/average.c").display().to_string();
    let between = ("int scores[NUM_SCORES]", "printf(\"average of");
    let sent = requests_of_recorded_calls(&binary, &file, between, "mean_of", 1).await;
    assert_eq!(sent, 4 + PER_RECORDED_CALL, "lldb-dap");
}

/// The requests a recorded call costs where the adapter shows a return value
/// (`call_stops.rs`): three reads and a step out at the entry, three reads and a
/// continue at the return.
const PER_RECORDED_CALL: u64 = 8;
