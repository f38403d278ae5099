//! The small words of an agent's first hour, through the real MCP server on debugpy:
//! a statement evaluated reads as run, not `zz = 5 = `; a pause of a stopped program
//! says it is stopped; every call that needs a live program, on a session whose
//! program ended, gets one kind of error, `session_ended`, saying how it ended; and
//! ending a session already ended answers that it ended, without asking anyone's
//! approval.

mod agent;
mod cli_support;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::json;

#[tokio::test]
async fn an_ended_session_says_so_in_one_kind_of_error() {
    let dir = cli_support::scratch("ended-mcp");
    let script = dir.join("avg.py");
    std::fs::write(
        &script,
        "xs = [1, 2, 3]\ntotal = sum(xs)\nprint(total / len(xs))\n",
    )
    .unwrap();
    let line = common::line_of(&script, "total = sum");
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "breakpoints": [{ "file": script, "line": line }] }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let session = json!({ "session_id": id });

    let ran = client
        .call(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "zz = 5" }),
        )
        .await;
    let text = ran["content"][0]["text"].as_str().unwrap();
    assert_eq!(text, "ran `zz = 5`: it has no value", "{ran}");

    let paused = client.fails("debug_pause", session.clone(), 400).await;
    assert!(
        paused["hint"].as_str().unwrap().contains("already stopped"),
        "{paused}"
    );

    let ended = client.ok("debug_continue", session.clone()).await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    let evaluate = json!({ "session_id": id, "expression": "xs" });
    for (tool, args) in [
        ("debug_evaluate", evaluate),
        ("debug_continue", session.clone()),
        ("debug_step", json!({ "session_id": id, "kind": "over" })),
        ("debug_pause", session.clone()),
        ("debug_stack_trace", session.clone()),
    ] {
        let err = client.fails(tool, args, 400).await;
        assert_eq!(err["kind"], "session_ended", "{tool}: {err}");
        assert!(
            err["error"]
                .as_str()
                .unwrap()
                .contains("exited with code 0"),
            "{tool}: {err}"
        );
    }
    client.ok("debug_terminate", session.clone()).await;
    assert!(client.close().await.success());

    // Asking nobody: a server that would ask for approval (and cannot here) answers
    // an ended session's end at once.
    let client =
        McpClient::start(&["--permission-mode", "default"], Elicitation::Unsupported).await;
    let launched = client
        .ok("debug_launch", json!({ "program": script }))
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let session = json!({ "session_id": id });
    client.ok("debug_terminate", session.clone()).await;
    let again = client.fails("debug_terminate", session, 404).await;
    assert_eq!(again["kind"], "session_ended", "{again}");
    assert!(
        client.elicitations().is_empty(),
        "{:?}",
        client.elicitations()
    );
    assert!(client.close().await.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 28, item 5: in the default permission mode, an evaluation on a session whose
/// program has ended asked the user to approve it, then was refused; ending that
/// session asked too. Both are answered at once now, saying how the program ended,
/// and no one is asked.
#[tokio::test]
async fn an_ended_program_asks_no_one_to_approve_a_call_it_cannot_run() {
    let dir = cli_support::scratch("ended-mcp-ask");
    let script = dir.join("three.py");
    std::fs::write(&script, "n = 3\nprint(n)\nraise SystemExit(n)\n").unwrap();
    let line = common::line_of(&script, "print(n)");
    let client =
        McpClient::start(&["--permission-mode", "default"], Elicitation::Answer(true)).await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "breakpoints": [{ "file": script, "line": line }] }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let session = json!({ "session_id": id });
    let ended = client.ok("debug_continue", session.clone()).await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    let asked = client.elicitations().len();

    let evaluate = json!({ "session_id": id, "expression": "n" });
    let err = client.fails("debug_evaluate", evaluate, 400).await;
    assert_eq!(err["kind"], "session_ended", "{err}");
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .contains("exited with code 3"),
        "{err}"
    );
    let gone = client.ok("debug_terminate", session.clone()).await;
    assert_eq!(gone["exit_code"], 3, "{gone}");
    assert_eq!(
        client.elicitations().len(),
        asked,
        "asked to approve a call on an ended program: {:?}",
        client.elicitations()
    );
    let again = client.fails("debug_terminate", session, 404).await;
    assert_eq!(again["kind"], "session_ended", "{again}");
    assert!(client.close().await.success());
    std::fs::remove_dir_all(&dir).unwrap();
}
