//! Breakpoints named by what the line holds, over MCP on real debugpy: a `statement`
//! binds to its line (spacing and a trailing comment aside) and the program stops
//! there; one on several lines is refused listing them, and `near_line` picks one; a
//! line breakpoint whose `expected_text` is not on the line fails fast with the real
//! lines around it and where the text went.

mod agent;

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
    let client = McpClient::start(
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
