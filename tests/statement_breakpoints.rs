//! Breakpoints named by what the line holds, over MCP on real debugpy: a `statement`
//! binds to its line (spacing and a trailing comment aside) and the program stops
//! there; one on several lines is refused listing them, and `near_line` picks one; a
//! line breakpoint whose `expected_text` is not on the line fails fast with the real
//! lines around it and where the text went.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::json;

const SCRIPT: &str = "\
def double(x):
    y = x * 2  # twice
    return y

a = double(1)
b = double(2)
print(a + b)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statements_bind_to_their_lines_and_stale_lines_fail_fast() {
    let dir = std::env::temp_dir().join(format!("dapvisor-stmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("double.py");
    std::fs::write(&script, SCRIPT).unwrap();
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;

    // Ambiguous: both calls hold `= double(`; the refusal lists them.
    let refused = client
        .fails(
            "debug_launch",
            json!({ "program": script,
                    "breakpoints": [{ "file": script, "statement": "= double(" }] }),
            400,
        )
        .await;
    let error = refused["error"].as_str().unwrap();
    assert!(error.contains("breakpoints[0]"), "{refused}");
    assert!(
        error.contains("5: a = double(1)") && error.contains("6: b = double(2)"),
        "{refused}"
    );
    assert!(
        refused["hint"].as_str().unwrap().contains("near_line"),
        "{refused}"
    );

    // A stale line number with the text it should hold: refused, showing the lines.
    let stale = client
        .fails(
            "debug_launch",
            json!({ "program": script, "breakpoints": [
                { "file": script, "line": 3, "expected_text": "y = x * 2" }] }),
            400,
        )
        .await;
    assert!(
        stale["error"]
            .as_str()
            .unwrap()
            .contains("2:     y = x * 2  # twice"),
        "{stale}"
    );
    assert!(
        stale["hint"].as_str().unwrap().contains("on line 2 now"),
        "{stale}"
    );

    // By statement (the comment ignored), and with near_line.
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "breakpoints": [
                { "file": script, "statement": "y  =  x * 2" },
                { "file": script, "statement": "= double(", "near_line": 6 },
            ] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    assert_eq!(
        launched["stop"]["line"], 2,
        "the first call, inside double: {launched}"
    );
    let id = launched["session_id"].clone();
    let next = client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    assert_eq!(next["stop"]["line"], 6, "{next}");

    // On a live session too: debug.set_breakpoint by statement.
    let set = client
        .ok(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": script, "statement": "print(a + b)" }),
        )
        .await;
    let lines: Vec<i64> = set["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["line"].as_i64().unwrap())
        .collect();
    assert!(lines.contains(&7), "{set}");
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    client.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `dir/name` holding `text`, in a folder of this test's own.
fn script_in(test: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dapvisor-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("double.py");
    std::fs::write(&script, text).unwrap();
    script
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_statement_breakpoint_follows_its_statement_through_an_edit_and_a_restart() {
    let script = script_in("stmt-edit", SCRIPT);
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let first = client
        .ok(
            "debug_launch",
            json!({ "program": script,
                    "breakpoints": [{ "file": script, "statement": "return y" }] }),
        )
        .await;
    assert_eq!(first["stop"]["line"], 3, "{first}");
    let id = first["session_id"].clone();
    // A tracepoint by statement moves too, collecting what it did.
    client
        .ok(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": script, "statement": "print(a + b)",
                    "collect": ["a"] }),
        )
        .await;

    // Two lines go in above the function: `return y` is on line 5 now.
    std::fs::write(&script, format!("import sys\nLIMIT = 3\n{SCRIPT}")).unwrap();
    let restarted = client
        .ok("debug_restart", json!({ "session_id": id }))
        .await;
    assert_eq!(restarted["stop"]["line"], 5, "{restarted}");
    let rebound = restarted["rebound"].to_string();
    assert!(
        rebound.contains("double.py:3: `return y` moved to line 5")
            && rebound.contains("double.py:7: `print(a + b)` moved to line 9"),
        "{restarted}"
    );

    // A statement that is gone leaves its breakpoint where it was, and says so.
    let edited = format!("import sys\nLIMIT = 3\n{SCRIPT}").replace("return y", "return x * 2");
    std::fs::write(&script, edited).unwrap();
    let again = client
        .ok("debug_restart", json!({ "session_id": id }))
        .await;
    assert!(
        again["rebound"]
            .to_string()
            .contains("double.py:5: `return y` is no longer found"),
        "{again}"
    );
    assert_eq!(again["stop"]["line"], 5, "{again}");

    // Past both stops in double(), the tracepoint records at its new line.
    client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    let ended = client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    let rows = client.ok("debug_trace", json!({ "session_id": id })).await;
    assert_eq!(rows["rows"][0]["line"], 9, "{rows}");
    assert_eq!(rows["rows"][0]["values"], json!({ "a": "2" }), "{rows}");
    client.close().await;
    std::fs::remove_dir_all(script.parent().unwrap()).unwrap();
}
