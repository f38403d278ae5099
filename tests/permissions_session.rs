//! Approving for the rest of a debug session, over MCP on a real debugpy: the user's
//! "for this session" lets the same tool do the same thing on that session without
//! asking again, and nothing else; a call on no session is only offered once or no.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use serde_json::{json, Value};

async fn launch(client: &McpClient) -> String {
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    launched["session_id"].as_str().unwrap().to_string()
}

fn evaluate(id: &str, expression: &str) -> Value {
    json!({ "session_id": id, "expression": expression })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_for_the_session_holds_for_that_tool_and_session_only() {
    let client = McpClient::start_all_tools(&[], Elicitation::ForSession).await;
    let first = launch(&client).await;
    assert!(client.elicitations().is_empty(), "a launch asks nothing");

    let value = client.ok("debug_evaluate", evaluate(&first, "6 * 7")).await;
    assert_eq!(value["result"], "42");
    let asked = client.elicitations();
    assert_eq!(asked.len(), 1);
    let message = asked[0]["message"].as_str().unwrap();
    assert!(
        message.contains("runs Python code in the debuggee (expression)")
            && message.contains(&format!("debug session {first}"))
            && message.contains("Allow the debugger tool `debug_evaluate`")
            && message.contains("approves `debug_evaluate`"),
        "{message}"
    );
    let form = &asked[0]["requestedSchema"]["properties"];
    assert_eq!(form["approve"]["type"], "boolean", "{form}");
    assert_eq!(form["for_session"]["type"], "boolean", "{form}");

    // The same tool and effect on the same session: no question.
    client.ok("debug_evaluate", evaluate(&first, "1 + 1")).await;
    assert_eq!(client.elicitations().len(), 1);

    // Another tool, or another session: asked again.
    client
        .ok(
            "debug_set_expression",
            json!({ "session_id": first, "expression": "__name__", "value": "'x'" }),
        )
        .await;
    assert_eq!(client.elicitations().len(), 2);
    let second = launch(&client).await;
    client.ok("debug_evaluate", evaluate(&second, "2")).await;
    assert_eq!(client.elicitations().len(), 3);
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_once_is_asked_again_and_a_call_on_no_session_offers_once_only() {
    let client = McpClient::start_all_tools(&[], Elicitation::Answer(true)).await;
    let id = launch(&client).await;
    client.ok("debug_evaluate", evaluate(&id, "1")).await;
    client.ok("debug_evaluate", evaluate(&id, "1")).await;
    assert_eq!(client.elicitations().len(), 2, "once is once");

    // A launch whose breakpoint has a condition: code, on no session yet.
    let file = discount();
    let line = line_of(&file, "total += discounted");
    client
        .ok(
            "debug_launch",
            json!({ "program": file,
                    "breakpoints": [{ "file": file, "line": line, "condition": "qty > 1" }] }),
        )
        .await;
    let asked = client.elicitations();
    assert_eq!(asked.len(), 3);
    let form = &asked[2]["requestedSchema"]["properties"];
    assert_eq!(form["approve"]["type"], "boolean", "{form}");
    assert!(form.get("for_session").is_none(), "{form}");
    let message = asked[2]["message"].as_str().unwrap();
    assert!(
        message.contains("runs Python code in the debuggee (breakpoints[0].condition)"),
        "{message}"
    );
    assert!(client.close().await.success());
}
