//! Long calls over MCP, with debugpy. Cancelled (`notifications/cancelled`), a call
//! ends at once on the server: a cancelled wait gives its session back (the idle
//! reaper, which never takes a session with a call under way, takes it), the session
//! serves the next call, and an approval answered after its call was cancelled runs
//! nothing. Given a progress token, a call reports progress while it waits.

mod agent;
mod common;

use std::path::PathBuf;

use agent::mcp_client::{Elicitation, McpClient};
use rmcp::service::RequestHandle;
use rmcp::RoleClient;
use serde_json::{json, Value};

/// A program that never stops on its own.
const FOREVER: &str = "import time\nwhile True:\n    time.sleep(0.05)\n";

/// A file for this test in a folder of its own.
fn scratch(test: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dapvisor-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A `debug_continue` of session `id` that waits up to 300 s, once it is under way:
/// its first progress report says it is waiting on the debugger.
async fn continued(client: &McpClient, id: &str) -> RequestHandle<RoleClient> {
    let running = client
        .send_call(
            "debug_continue",
            json!({ "session_id": id, "timeout": 300 }),
        )
        .await;
    let token = serde_json::to_value(&running.progress_token).unwrap();
    client
        .notification(|n| {
            n["method"] == "notifications/progress" && n["params"]["progressToken"] == token
        })
        .await;
    running
}

/// Launch FOREVER stopped on entry; its session id.
async fn forever(client: &McpClient, test: &str) -> String {
    let file = scratch(test, "forever.py");
    std::fs::write(&file, FOREVER).unwrap();
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": file, "stop_on_entry": true }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    launched["session_id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_continue_ends_its_wait_and_the_session_serves_the_next_call() {
    // The idle clock restarts with each call; the limit must outlast the calls below.
    let client = McpClient::start(
        &["--permission-mode", "bypass_all", "--idle-timeout", "5"],
        Elicitation::Unsupported,
    )
    .await;
    let id = forever(&client, "cancel-continue").await;
    let uri = format!("debugger://sessions/{id}");
    client.subscribe(&uri).await;

    // Cancelled while it waits (for up to 300 s) on a program that never stops.
    let running = continued(&client, &id).await;
    running
        .cancel(Some("the user moved on".into()))
        .await
        .unwrap();
    // The next call on the session works.
    let paused = client.ok("debug_pause", json!({ "session_id": id })).await;
    assert_eq!(paused["state"], "stopped", "{paused}");

    // Cancelled again, with nothing to end its wait but the cancellation: the call
    // no longer holds the session, so the idle reaper takes it. A call still waiting
    // would hold it for the whole 300 s.
    let running = continued(&client, &id).await;
    running.cancel(None).await.unwrap();
    let reaped = client.update(&uri, "dap_session_reaped").await;
    assert!(reaped["params"]["_meta"]["dapvisor/event"]["payload"]["idle_secs"].is_u64());
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_answered_after_its_call_was_cancelled_runs_nothing() {
    // Default mode: an evaluation asks the user, who answers only when told to.
    let client = McpClient::start(&[], Elicitation::Held(true)).await;
    let id = forever(&client, "cancel-approval").await;
    let marker = scratch("cancel-approval", "marker");
    let _ = std::fs::remove_file(&marker);
    let write = format!("open({:?}, 'w').write('ran')", marker.display().to_string());

    let asked = client
        .send_call(
            "debug_evaluate",
            json!({ "session_id": id, "expression": write }),
        )
        .await;
    client.elicited(1).await;
    asked
        .cancel(Some("the user moved on".into()))
        .await
        .unwrap();
    // The user approves after all: too late, the call is gone.
    client.release_approval();

    // The same way once more, not cancelled: it runs, after the first answer was
    // handled, and the session serves it.
    client.release_approval();
    let two = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "1 + 1" }),
        )
        .await;
    assert_eq!(two["result"], "2", "{two}");
    assert_eq!(client.elicitations().len(), 2);
    assert!(
        !marker.exists(),
        "the cancelled evaluation ran: {:?}",
        std::fs::read_to_string(&marker).ok()
    );
    let ended = client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    assert_eq!(ended["state"], Value::from("terminated"), "{ended}");
    assert!(client.close().await.success());
}

/// The progress notifications received for `token`, as JSON.
fn progress_for(client: &McpClient, token: &Value) -> Vec<Value> {
    client
        .notifications()
        .into_iter()
        .filter(|n| n["method"] == "notifications/progress")
        .filter(|n| n["params"]["progressToken"] == *token)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_reports_progress_while_it_waits_and_not_after() {
    // rmcp's client gives every request a progress token.
    let client = McpClient::start(&[], Elicitation::Held(true)).await;
    let id = forever(&client, "progress").await;

    // Waiting on the program: every second, the seconds so far.
    let running = client
        .send_call(
            "debug_continue",
            json!({ "session_id": id, "timeout": 300 }),
        )
        .await;
    let token = serde_json::to_value(&running.progress_token).unwrap();
    let first = client
        .notification(|n| {
            n["method"] == "notifications/progress" && n["params"]["progressToken"] == token
        })
        .await;
    let message = first["params"]["message"].as_str().unwrap();
    assert!(
        message.contains("debug_continue: waiting on the debugger"),
        "{first}"
    );
    client
        .notification(|n| {
            n["params"]["progressToken"] == token && n["params"]["progress"].as_f64() >= Some(2.0)
        })
        .await;
    let seconds: Vec<f64> = progress_for(&client, &token)
        .iter()
        .map(|n| n["params"]["progress"].as_f64().unwrap())
        .collect();
    assert!(seconds.windows(2).all(|w| w[0] < w[1]), "{seconds:?}");
    // Ended, it reports no more: the pause's own answer comes after the continue's.
    let paused = client.ok("debug_pause", json!({ "session_id": id })).await;
    assert_eq!(paused["state"], "stopped", "{paused}");
    let answered = running.await_response().await.unwrap();
    assert!(format!("{answered:?}").contains("stopped"), "{answered:?}");
    let reports = progress_for(&client, &token).len();

    // Waiting on the user: the reports say so.
    let asked = client
        .send_call(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "1 + 1" }),
        )
        .await;
    let asking_token = serde_json::to_value(&asked.progress_token).unwrap();
    client.elicited(1).await;
    let asking = client
        .notification(|n| n["params"]["progressToken"] == asking_token)
        .await;
    let message = asking["params"]["message"].as_str().unwrap();
    assert!(
        message.contains("debug_evaluate: waiting on the user's approval"),
        "{asking}"
    );
    client.release_approval();
    let answered = asked.await_response().await.unwrap();
    assert!(format!("{answered:?}").contains("\"2\""), "{answered:?}");
    assert_eq!(progress_for(&client, &token).len(), reports);
    assert!(client.close().await.success());
}
