//! Owners are checked where a call acts, not before it waits (DESIGN 15), over MCP's
//! streamable HTTP with real debugpy sessions and the default permission mode, where a
//! client's user approves code in the debuggee through elicitation and may take long
//! to answer:
//!
//! - a call that would change a session, on an id no session has yet, is refused at
//!   once (`unknown_session`): never asked, so never approved and then run in the
//!   session another client starts under that id meanwhile;
//! - a call approved after its session stopped being shared with its client runs
//!   nothing;
//! - what one client's user approved for the rest of a session lets no other client's
//!   call through: a client the session is shared with is asked its own user.

mod agent;
mod common;
mod http_support;

use agent::*;
use http_support::{HttpServer, Notifications};
use serde_json::{json, Value};

/// Whether `message` is the server asking the client's user (MCP elicitation).
fn is_elicitation(message: &Value) -> bool {
    message["method"] == "elicitation/create"
}

/// A file the expression `writes` creates; unique to this test process, not there yet.
fn marker(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!(
        "dapvisor-late-approval-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// Python that creates `file`.
fn writes(file: &std::path::Path) -> String {
    format!("open({:?}, 'w').write('ran')", file.display().to_string())
}

/// The answer to call `id` on `stream`, after the server's requests for it; `during`
/// runs when the server asks the user, before the user approves. Returns the call's
/// result and whether the user was asked.
async fn answer_approving(
    server: &HttpServer,
    client: &str,
    stream: &mut Notifications,
    id: u64,
    during: impl std::future::Future<Output = ()>,
) -> (Value, bool) {
    let approve = json!({"action": "accept", "content": {"approve": true}});
    answer_with(server, client, stream, id, during, approve).await
}

/// As [`answer_approving`], the user's answer being `answer` (an elicitation result).
async fn answer_with(
    server: &HttpServer,
    client: &str,
    stream: &mut Notifications,
    id: u64,
    during: impl std::future::Future<Output = ()>,
    answer: Value,
) -> (Value, bool) {
    let first = stream
        .until(|m| is_elicitation(m) || m["id"] == id)
        .await
        .pop()
        .unwrap();
    if !is_elicitation(&first) {
        return (first["result"].clone(), false);
    }
    during.await;
    server.answer(client, &first["id"], answer).await;
    let result = stream.until(|m| m["id"] == id).await.pop().unwrap();
    (result["result"].clone(), true)
}

/// Client `a` launches the discount example, stopped at its first line; its session id.
async fn launch_stopped(server: &HttpServer, a: &str, id: u64) -> String {
    let launched = server
        .call(
            a,
            id,
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    launched["session_id"].as_str().unwrap().to_string()
}

/// The entry of session `id` in client `client`'s `debug_sessions`, if it is listed.
async fn listed(server: &HttpServer, client: &str, call: u64, id: &str) -> Option<Value> {
    let all = server.call(client, call, "debug_sessions", json!({})).await;
    all["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session_id"] == id)
        .cloned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_on_an_id_no_session_has_is_refused_at_once_not_run_in_the_next_session() {
    let server = HttpServer::start_in_mode("default", &["--tools", "all"]).await;
    let a = server.initialize().await;
    let b = server.initialize_eliciting().await;

    // B names s1 before anyone has started it, with code that writes a file; had
    // B's user been asked, they would approve after A started s1.
    let file = marker("evaluate");
    let evaluate = json!({ "session_id": "s1", "expression": writes(&file) });
    let mut stream = server.start_call(&b, 2, "debug_evaluate", evaluate).await;
    let mut started = None;
    let (result, asked) = answer_approving(&server, &b, &mut stream, 2, async {
        started = Some(launch_stopped(&server, &a, 2).await);
    })
    .await;
    let s1 = match started {
        Some(id) => id,
        None => launch_stopped(&server, &a, 2).await,
    };
    assert_eq!(s1, "s1", "A's session has the id B named");
    assert!(!asked, "B's user was asked to approve a call on no session");
    assert_eq!(result["isError"], true, "{result}");
    let refusal = &result["structuredContent"];
    assert_eq!(
        (&refusal["code"], &refusal["kind"]),
        (&json!(404), &json!("unknown_session")),
        "{refusal}"
    );
    assert!(
        refusal["error"]
            .as_str()
            .unwrap()
            .contains("no session `s1`"),
        "{refusal}"
    );
    assert!(
        !file.exists(),
        "B's expression ran in A's session: {:?}",
        std::fs::read_to_string(&file).ok()
    );

    // Ending a session works the same way: B cannot end the s2 A starts later.
    let mut stream = server
        .start_call(&b, 3, "debug_terminate", json!({ "session_id": "s2" }))
        .await;
    let mut started = None;
    let (result, asked) = answer_approving(&server, &b, &mut stream, 3, async {
        started = Some(launch_stopped(&server, &a, 3).await);
    })
    .await;
    let s2 = match started {
        Some(id) => id,
        None => launch_stopped(&server, &a, 3).await,
    };
    assert_eq!(s2, "s2");
    assert!(!asked, "B's user was asked to end a session no one has");
    assert_eq!(
        result["structuredContent"]["kind"], "unknown_session",
        "{result}"
    );
    let still = listed(&server, &a, 4, &s2).await;
    assert!(still.is_some(), "B ended A's session");

    // Reading needs no session to exist first: it says there is none.
    let read = server
        .call_result(&b, 4, "debug_stack_trace", json!({ "session_id": "s9" }))
        .await;
    assert_eq!(read["structuredContent"]["kind"], "not_found", "{read}");

    for (call, id) in [(5, &s1), (6, &s2)] {
        let over = server
            .call(&a, call, "debug_terminate", json!({ "session_id": id }))
            .await;
        assert_eq!(over["state"], "terminated", "{over}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_that_comes_after_the_share_ended_runs_nothing() {
    let server = HttpServer::start_in_mode("default", &["--tools", "all"]).await;
    let a = server.initialize().await;
    let b = server.initialize_eliciting().await;
    let s1 = launch_stopped(&server, &a, 2).await;
    let shared = server
        .call(
            &a,
            3,
            "debug_share",
            json!({ "session_id": s1, "with": "c2" }),
        )
        .await;
    assert_eq!(shared["shared_with"], json!(["c2"]), "{shared}");

    // B may drive s1 when it asks; its user answers only after A took that back.
    let file = marker("share");
    let evaluate = json!({ "session_id": s1, "expression": writes(&file) });
    let mut stream = server.start_call(&b, 2, "debug_evaluate", evaluate).await;
    let (result, asked) = answer_approving(&server, &b, &mut stream, 2, async {
        let unshared = server
            .call(
                &a,
                4,
                "debug_share",
                json!({ "session_id": s1, "stop_sharing": "c2" }),
            )
            .await;
        assert_eq!(unshared["shared_with"], json!([]), "{unshared}");
    })
    .await;
    assert!(asked, "code in the debuggee asks B's user");
    assert_eq!(result["isError"], true, "{result}");
    let refusal = &result["structuredContent"];
    assert_eq!(refusal["kind"], "not_owner", "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .unwrap()
            .contains("belongs to client c1"),
        "{refusal}"
    );
    assert!(
        !file.exists(),
        "the expression ran after the share ended: {:?}",
        std::fs::read_to_string(&file).ok()
    );

    // A still drives it, and B still reads it.
    server
        .call(&b, 3, "debug_stack_trace", json!({ "session_id": s1 }))
        .await;
    let over = server
        .call(&a, 5, "debug_terminate", json!({ "session_id": s1 }))
        .await;
    assert_eq!(over["state"], "terminated", "{over}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_for_the_session_is_its_users_alone() {
    let server = HttpServer::start_in_mode("default", &["--tools", "all"]).await;
    let a = server.initialize_eliciting().await;
    let b = server.initialize_eliciting().await;
    let s1 = launch_stopped(&server, &a, 2).await;

    // A's user approves evaluations in s1 for the rest of the session.
    let two = json!({ "session_id": s1, "expression": "1 + 1" });
    let mut stream = server.start_call(&a, 3, "debug_evaluate", two).await;
    let for_session =
        json!({"action": "accept", "content": {"approve": true, "for_session": true}});
    let (result, asked) = answer_with(&server, &a, &mut stream, 3, async {}, for_session).await;
    assert!(asked, "code in the debuggee asks A's user");
    assert_eq!(result["structuredContent"]["result"], "2", "{result}");
    let four = json!({ "session_id": s1, "expression": "2 + 2" });
    let again = server.call(&a, 4, "debug_evaluate", four).await;
    assert_eq!(again["result"], "4", "A is not asked again: {again}");

    // Shared with B, B's code in s1 is still put to B's user, who says no.
    server
        .call(
            &a,
            5,
            "debug_share",
            json!({ "session_id": s1, "with": "c2" }),
        )
        .await;
    let file = marker("for-session");
    let evaluate = json!({ "session_id": s1, "expression": writes(&file) });
    let mut stream = server.start_call(&b, 2, "debug_evaluate", evaluate).await;
    let no = json!({"action": "accept", "content": {"approve": false}});
    let (result, asked) = answer_with(&server, &b, &mut stream, 2, async {}, no).await;
    assert!(
        asked,
        "B's user was not asked: A's approval let B's code run"
    );
    assert_eq!(result["structuredContent"]["kind"], "forbidden", "{result}");
    assert!(
        !file.exists(),
        "B's expression ran unasked: {:?}",
        std::fs::read_to_string(&file).ok()
    );

    let over = server
        .call(&a, 6, "debug_terminate", json!({ "session_id": s1 }))
        .await;
    assert_eq!(over["state"], "terminated", "{over}");
}
