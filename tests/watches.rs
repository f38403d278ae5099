//! Watch expressions over MCP on real debugpy: given at launch and with debug.watch,
//! each stop result carries their values and which changed since the previous stop
//! (with the value before); a watch that fails says so in its row and the stop stands;
//! a removed watch is gone; a control action's `watch` adds to the list; and adding one
//! asks for approval, as evaluate does.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::{json, Value};

const SCRIPT: &str = "\
total = 0
for i in range(3):
    total += 10 * (i + 1)
    marker = i
print(total)
";

/// The watch row of `expression` in a stop result.
fn row<'a>(result: &'a Value, expression: &str) -> &'a Value {
    result["stop"]["watches"]
        .as_array()
        .unwrap_or_else(|| panic!("no watches in {result}"))
        .iter()
        .find(|r| r["expression"] == expression)
        .unwrap_or_else(|| panic!("no row for {expression} in {result}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_show_their_values_at_every_stop_and_what_changed() {
    let dir = std::env::temp_dir().join(format!("dapvisor-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("loop.py");
    std::fs::write(&script, SCRIPT).unwrap();
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let first = client
        .ok(
            "debug_launch",
            json!({ "program": script, "breakpoints": [{ "file": script, "line": 4 }],
                    "watch": ["total", "no_such_name"] }),
        )
        .await;
    assert_eq!(row(&first, "total")["value"], "10", "{first}");
    assert_eq!(
        row(&first, "total")["changed"],
        false,
        "nothing before: {first}"
    );
    assert!(row(&first, "no_such_name")["error"]
        .as_str()
        .unwrap()
        .contains("no_such_name"));
    assert_eq!(
        first["stop"]["line"], 4,
        "the failing watch did not fail the stop"
    );

    let id = first["session_id"].clone();
    let added = client
        .ok(
            "debug_watch",
            json!({ "session_id": id, "add": ["i * 2"], "remove": ["no_such_name"] }),
        )
        .await;
    assert_eq!(added["watches"], json!(["total", "i * 2"]), "{added}");

    // A control action can add watches too, shown at the stop it comes to.
    let second = client
        .ok(
            "debug_continue",
            json!({ "session_id": id, "watch": ["marker"] }),
        )
        .await;
    assert_eq!(row(&second, "marker")["value"], "0", "{second}");
    let total = row(&second, "total");
    assert_eq!(
        (&total["value"], &total["changed"], &total["previous"]),
        (&json!("30"), &json!(true), &json!("10"))
    );
    assert_eq!(row(&second, "i * 2")["value"], "2", "{second}");
    assert!(
        second["stop"]["watches"].as_array().unwrap().len() == 3,
        "{second}"
    );

    let third = client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    assert_eq!(row(&third, "total")["value"], "60", "{third}");
    assert_eq!(row(&third, "total")["previous"], "30", "{third}");
    assert_eq!(row(&third, "i * 2")["changed"], true, "{third}");
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    client.close().await;

    // Default mode, no one to ask: a watch runs code, so it is refused.
    let strict = McpClient::start(&[], Elicitation::Unsupported).await;
    let refused = strict
        .fails(
            "debug_launch",
            json!({ "program": script, "watch": ["total"] }),
            500,
        )
        .await;
    assert_eq!(refused["kind"], "forbidden", "{refused}");
    strict.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
