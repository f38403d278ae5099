//! debug.diff over MCP on real adapters: two runs of one program on a passing and a
//! failing input (examples/programs/*/shipping), and a passing and a failing pytest
//! test, aligned by function and call order; the first difference, the rest by
//! cursor, both sessions ended (or kept stopped at the difference), two functions of
//! one name in two files counted apart (tests/support/twins), and each bad input said
//! (the cases that need the runtime itself are in diff_runs.rs).

mod agent;
mod common;
mod permission_support;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::{json, Value};

fn program(path: &str) -> String {
    common::root().join(path).display().to_string()
}

async fn client() -> McpClient {
    McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await
}

/// No session is left, and no process under the server.
async fn nothing_left(client: &McpClient) {
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"], json!([]), "{sessions}");
    let left = common::wait_gone(common::descendants(client.pid())).await;
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// `shipping` run on `120 499` (passes) and on `120 500` (fails).
fn two_inputs(program: &str, extra: Value) -> Value {
    let mut a = json!({ "program": program, "args": ["120", "499"], "timeout": 300 });
    let mut b = json!({ "program": program, "args": ["120", "500"], "timeout": 300 });
    for side in [&mut a, &mut b] {
        side.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
    }
    json!({ "a": a, "b": b, "timeout": 300 })
}

/// With `keep`: each side was run again and stopped at `target`, where its `grams`
/// are its own; then both are ended.
async fn stopped_at_the_difference(client: &McpClient, first: &Value, target: &str) {
    for (side, grams) in [("a", "499"), ("b", "500")] {
        let run = &first["stopped"][side];
        assert_eq!(run["target"], target, "{first}");
        let end = run["end"].as_str().unwrap();
        // debugpy's reason is `function breakpoint`, the others' `breakpoint`; then
        // where: `in quote at shipping.c:29`.
        let function = target.rsplit(' ').next().unwrap();
        assert!(
            end.starts_with("stopped (")
                && end.contains("breakpoint")
                && end.contains(&format!(" in {function} at ")),
            "{first}"
        );
        let id = run["session_id"].clone();
        let value = client
            .ok(
                "debug_evaluate",
                json!({ "session_id": id, "expression": "grams" }),
            )
            .await;
        assert_eq!(value["result"], grams, "{value}");
        client
            .ok("debug_terminate", json!({ "session_id": id }))
            .await;
    }
}

/// The differences of `first`'s diff, read on by cursor from the second.
async fn the_rest(client: &McpClient, first: &Value) -> Vec<Value> {
    let page = client
        .ok(
            "debug_diff",
            json!({ "diff_id": first["diff_id"], "cursor": first["next_cursor"], "limit": 20 }),
        )
        .await;
    assert!(page.get("next_cursor").is_none(), "{page}");
    page["differences"].as_array().unwrap().clone()
}

/// What the two inputs' runs of shipping differ in, on any adapter: the second
/// parcel's quote is called with 500 for 499 (after the first parcel's six rows),
/// band returns otherwise, and each run has its own rate function.
fn assert_shipping_differences(first: &Value, rest: &[Value], quote: &str, rates: [&str; 2]) {
    let one = &first["differences"][0];
    assert_eq!(
        (one["kind"].as_str(), one["event"].as_str()),
        (Some("values"), Some("call")),
        "{first}"
    );
    assert_eq!(one["function"], quote, "{one}");
    assert_eq!(one["path"], format!("{quote}#2"), "{one}");
    assert_eq!(one["matched_before"], 6, "the first parcel's rows: {one}");
    assert_eq!(one["a"]["values"]["grams"], "499", "{one}");
    assert_eq!(one["b"]["values"]["grams"], "500", "{one}");
    assert_eq!(first["a"]["end"], "exited with code 0", "{first}");
    assert_eq!(first["b"]["end"], "exited with code 16", "{first}");
    let kinds: Vec<(String, String)> = rest
        .iter()
        .map(|d| {
            (
                d["kind"].as_str().unwrap().to_string(),
                d["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let only =
        |side: &str, rate: &str| (format!("only_in_{side}"), format!("{quote}#2 > {rate}#1"));
    assert!(kinds.contains(&only("a", rates[0])), "{kinds:?}");
    assert!(kinds.contains(&only("b", rates[1])), "{kinds:?}");
    assert_eq!(first["total"].as_u64().unwrap() as usize, rest.len() + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_finds_where_two_inputs_part_and_reads_the_rest_by_cursor() {
    let client = client().await;
    let mut args = two_inputs(
        &program("examples/programs/python/shipping/shipping.py"),
        json!({}),
    );
    args["calls"] = json!(["quote", "band", "*_rate"]);
    let result = client.call("debug_diff", args).await;
    let text = result["content"][0]["text"].as_str().unwrap().to_string();
    eprintln!("{text}");
    let first = agent::mcp_client::ok_result("debug_diff", result.clone());
    assert!(
        result.to_string().len() <= dapvisor::tools::MAX_DIFF_RESULT_BYTES,
        "{result}"
    );
    assert!(
        text.contains("first difference: #0 after 6 matching rows, at quote#2"),
        "{text}"
    );
    assert!(text.contains("cursor=1"), "says how to read on: {text}");
    let rest = the_rest(&client, &first).await;
    assert_shipping_differences(&first, &rest, "quote", ["small_rate", "large_rate"]);
    let band = rest
        .iter()
        .find(|d| d["path"] == "quote#2 > band#1" && d["event"] == "return")
        .expect("band returns otherwise");
    assert_eq!(band["a"]["values"]["returned"], "'small'", "{band}");
    assert_eq!(band["b"]["values"]["returned"], "'large'", "{band}");
    nothing_left(&client).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_function_of_one_name_in_two_files_is_two_functions_counted_apart() {
    // right.weigh(1), left.weigh(2), right.weigh(3), left.weigh(grams): the runs part
    // at left.py's 2nd weigh, the 4th call of a `weigh`.
    let client = client().await;
    let main = program("tests/support/twins/main.py");
    let first = client
        .ok(
            "debug_diff",
            json!({ "a": { "program": main, "args": ["4"] },
                    "b": { "program": main, "args": ["5"] },
                    "calls": ["weigh"], "timeout": 300 }),
        )
        .await;
    let one = &first["differences"][0];
    assert_eq!(one["event"], "call", "{first}");
    assert_eq!(one["path"], "weigh#2", "{first}");
    assert!(
        one["file"].as_str().unwrap().ends_with("left.py"),
        "{first}"
    );
    assert_eq!(one["matched_before"], 6, "{first}");
    assert_eq!(one["b"]["values"]["grams"], "5", "{first}");
    nothing_left(&client).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_passing_and_a_failing_pytest_test_differ_at_the_call_they_make_otherwise() {
    let client = client().await;
    let folder = program("examples/programs/python/shipping");
    let first = client
        .ok(
            "debug_diff",
            json!({ "a": { "test": "tests/test_shipping.py::test_light", "program": folder },
                    "b": { "test": "tests/test_shipping.py::test_edge", "program": folder },
                    "calls": ["shipping.quote", "shipping.band"], "timeout": 300, "limit": 20,
                    "keep": true }),
        )
        .await;
    let differences = first["differences"].as_array().unwrap();
    let one = &differences[0];
    assert_eq!(
        (one["path"].as_str(), one["matched_before"].as_u64()),
        (Some("quote#1"), Some(0)),
        "{first}"
    );
    assert_eq!(one["a"]["values"]["grams"], "499", "{one}");
    assert_eq!(one["b"]["values"]["grams"], "500", "{one}");
    let band = differences
        .iter()
        .find(|d| d["path"] == "quote#1 > band#1" && d["event"] == "return")
        .expect("band returns otherwise");
    assert_eq!(band["b"]["values"]["returned"], "'large'", "{band}");
    // pytest exits 1 for the failing test.
    assert_eq!(first["b"]["end"], "exited with code 1", "{first}");
    stopped_at_the_difference(&client, &first, "the 1st call of quote").await;
    nothing_left(&client).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_finds_the_difference_and_keep_stops_both_runs_there() {
    let client = client().await;
    let mut args = two_inputs(
        &program("examples/programs/c/shipping.c"),
        json!({ "adapter": "lldb-dap" }),
    );
    args["calls"] = json!(["quote", "band", "small_rate", "large_rate"]);
    args["keep"] = json!(true);
    let first = client.ok("debug_diff", args).await;
    let rest = the_rest(&client, &first).await;
    assert_shipping_differences(&first, &rest, "quote", ["small_rate", "large_rate"]);
    let band = rest
        .iter()
        .find(|d| d["path"] == "quote#2 > band#1" && d["event"] == "return")
        .expect("band returns otherwise");
    assert_eq!(
        (
            band["a"]["values"]["returned"].as_str(),
            band["b"]["values"]["returned"].as_str()
        ),
        (Some("0"), Some("1")),
        "{band}"
    );
    stopped_at_the_difference(&client, &first, "the 2nd call of quote").await;
    nothing_left(&client).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_finds_the_difference_though_it_shows_no_return_values() {
    let client = client().await;
    let mut args = two_inputs(&program("examples/programs/go/shipping"), json!({}));
    args["calls"] = json!(["main.quote", "main.band", "main.*Rate"]);
    args["keep"] = json!(true);
    let first = client.ok("debug_diff", args).await;
    let rest = the_rest(&client, &first).await;
    // dlv's return rows say alike on both sides that no value is shown: equal.
    assert_shipping_differences(
        &first,
        &rest,
        "main.quote",
        ["main.smallRate", "main.largeRate"],
    );
    stopped_at_the_difference(&client, &first, "the 2nd call of main.quote").await;
    nothing_left(&client).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_bad_input_is_said_and_leaves_nothing_behind() {
    let client = client().await;
    let shipping = program("examples/programs/python/shipping/shipping.py");
    // One side does not start: the other is ended.
    let err = client
        .fails(
            "debug_diff",
            json!({ "a": { "program": shipping, "args": ["1"] },
                    "b": { "program": program("examples/programs/python/no_such.py") },
                    "calls": ["quote"] }),
            400,
        )
        .await;
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .contains("run b did not start"),
        "{err}"
    );
    nothing_left(&client).await;
    // A pattern that names nothing.
    let err = client
        .fails(
            "debug_diff",
            json!({ "a": { "program": shipping }, "b": { "program": shipping },
                    "calls": ["nothing_here_*"] }),
            400,
        )
        .await;
    assert!(
        err["error"].as_str().unwrap().contains("nothing_here_*"),
        "{err}"
    );
    // Nothing to record, and a side that sets its own calls.
    client
        .fails(
            "debug_diff",
            json!({ "a": { "program": shipping }, "b": { "program": shipping } }),
            400,
        )
        .await;
    client
        .fails(
            "debug_diff",
            json!({ "a": { "program": shipping, "calls": ["quote"] },
                    "b": { "program": shipping }, "calls": ["quote"] }),
            400,
        )
        .await;
    // Neither run records anything: no parcel is large.
    let err = client
        .fails(
            "debug_diff",
            json!({ "a": { "program": shipping, "args": ["1"] },
                    "b": { "program": shipping, "args": ["2"] },
                    "calls": ["large_rate"], "timeout": 120 }),
            400,
        )
        .await;
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .contains("neither run recorded anything"),
        "{err}"
    );
    // A diff id no one made.
    client
        .fails("debug_diff", json!({ "diff_id": "d99" }), 404)
        .await;
    nothing_left(&client).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_does_not_end_in_time_is_said_and_ended() {
    let client = client().await;
    let ticker = program("examples/programs/python/ticker.py");
    let first = client
        .ok(
            "debug_diff",
            json!({ "a": { "program": ticker }, "b": { "program": ticker },
                    "calls": ["tick"], "timeout": 3 }),
        )
        .await;
    for side in ["a", "b"] {
        assert_eq!(first[side]["end"], "did not end within 3 s", "{first}");
    }
    // A row one run has past the other's last is only maybe a difference.
    for d in first["differences"].as_array().unwrap() {
        if d["kind"] != "values" {
            assert!(d["unsure"].as_str().unwrap().contains("did not end"), "{d}");
        }
    }
    nothing_left(&client).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_launch_of_a_diff_passes_the_gate_as_debug_launch_would() {
    // Side b sets a variable that is not known to be inert: the gate asks about that
    // launch as it would about the same debug.launch, and a no ends the diff unrun.
    let client = McpClient::start_all_tools(&[], Elicitation::Answer(false)).await;
    let shipping = program("examples/programs/python/shipping/shipping.py");
    let err = permission_support::refused_over_mcp(
        &client,
        "debug_diff",
        json!({ "a": { "program": shipping, "args": ["1"] },
                "b": { "program": shipping, "args": ["2"], "env": { "PYTHONSTARTUP": "/tmp/x.py" } },
                "calls": ["quote"] }),
    )
    .await;
    assert!(
        err["error"].as_str().unwrap().contains("not approved"),
        "{err}"
    );
    let asked = client.elicitations();
    assert_eq!(asked.len(), 1, "{asked:?}");
    let question = asked[0]["message"].as_str().unwrap();
    assert!(question.contains("PYTHONSTARTUP"), "{question}");
    nothing_left(&client).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_difference_beside_secrets_shows_them_hidden_and_equal_hidden_values_match() {
    let client = client().await;
    let script = program("examples/programs/python/secrets.py");
    let line = common::line_of(
        common::root().join("examples/programs/python/secrets.py"),
        "expected = \"not-the-password\"",
    );
    // Both runs pass the same credentials to connect (equal once hidden); the
    // tracepoint reads them beside the argument count, which differs.
    let result = client
        .call(
            "debug_diff",
            json!({ "a": { "program": script }, "b": { "program": script, "args": ["x"] },
                    "calls": ["connect"],
                    "collect": [{ "file": script, "line": line,
                                  "expressions": ["password", "len(__import__('sys').argv)"] }],
                    "timeout": 120 }),
        )
        .await;
    let page = result.to_string();
    let first = agent::mcp_client::ok_result("debug_diff", result);
    assert_eq!(first["total"], 1, "{first}");
    assert_eq!(
        first["matched"], 2,
        "connect's call (its secrets hidden alike) and return: {first}"
    );
    assert_eq!(first["differences"][0]["event"], "tracepoint", "{first}");
    for secret in ["ghp_R2d2", "wJalrXUtnFEMI", "AKIAIOSFODNN7", "s3cr3t-Db"] {
        assert!(!page.contains(secret), "{secret} leaked: {page}");
    }
    assert!(page.contains("redacted"), "{page}");
    nothing_left(&client).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_stops_at_an_exception_says_so_and_its_missing_rows_are_unsure() {
    let client = client().await;
    let shipping = program("examples/programs/python/shipping/shipping.py");
    // `x` is no weight: b raises before its first quote, and stops there.
    let first = client
        .ok(
            "debug_diff",
            json!({ "a": { "program": shipping, "args": ["120"] },
                    "b": { "program": shipping, "args": ["120", "x"] },
                    "calls": ["quote"], "timeout": 120 }),
        )
        .await;
    let end = first["b"]["end"].as_str().unwrap();
    assert!(end.starts_with("stopped (exception"), "{first}");
    assert!(end.contains("ValueError"), "{first}");
    assert_eq!(
        (first["total"].as_u64(), first["b"]["rows"].as_u64()),
        (Some(2), Some(0)),
        "{first}"
    );
    let one = &first["differences"][0];
    assert_eq!(one["kind"], "only_in_a", "{one}");
    assert!(
        one["unsure"]
            .as_str()
            .unwrap()
            .starts_with("b stopped (exception"),
        "{one}"
    );
    nothing_left(&client).await;
    client.close().await;
}
