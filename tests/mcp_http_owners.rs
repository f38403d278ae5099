//! Session owners over MCP's streamable HTTP, with real debugpy sessions: two clients
//! on one server each start their own sessions; each sees and reads the other's but
//! cannot drive them until they are shared; a handover moves the session for good;
//! when a client's MCP session ends, the sessions it still owns end after the grace,
//! their adapters with them, and the one it handed over stays. What a person's editor
//! does on a session is told to the clients that drive it, and to no other.

mod agent;
mod common;
mod editor_support;
mod http_support;

use std::time::{Duration, Instant};

use agent::*;
use editor_support::Editor;
use http::StatusCode;
use http_support::HttpServer;
use serde_json::{json, Value};

/// The owner grace the server runs with: short for the test, long enough to see a
/// departed client's session outlive it.
const GRACE: Duration = Duration::from_secs(4);

/// The entry of session `id` in a `debug_sessions` result.
fn entry<'a>(listed: &'a Value, id: &str) -> Option<&'a Value> {
    listed["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session_id"] == id)
}

/// `refused` is a refusal for not owning the session, naming `owner`.
fn names_the_owner(refused: &Value, owner: &str, caller: &str) {
    assert_eq!(refused["kind"], "not_owner", "{refused}");
    let error = refused["error"].as_str().unwrap();
    assert!(
        error.contains(&format!("belongs to client {owner}")),
        "{refused}"
    );
    assert!(
        error.contains(&format!("you are client {caller}")),
        "{refused}"
    );
    let hint = refused["hint"].as_str().unwrap();
    assert!(
        hint.contains(&format!("ask client {owner} to call debug_share")),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_read_each_others_sessions_and_drive_them_only_when_shared() {
    let grace = GRACE.as_secs().to_string();
    let server = HttpServer::start_with(&["--tools", "all", "--owner-grace", &grace]).await;
    let a = server.initialize().await;
    let b = server.initialize().await;
    let line = line_of(discount(), "discounted = apply_discount");
    let at_line =
        json!({ "program": discount(), "breakpoints": [{"file": discount(), "line": line}] });

    // Each launches its own.
    let first = server.call(&a, 2, "debug_launch", at_line.clone()).await;
    assert_eq!(first["state"], "stopped", "{first}");
    let s1 = first["session_id"].as_str().unwrap().to_string();
    let kept = server
        .call(
            &a,
            3,
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    let s3 = kept["session_id"].as_str().unwrap().to_string();
    let own = server.call(&b, 2, "debug_launch", at_line).await;
    let s2 = own["session_id"].as_str().unwrap().to_string();
    assert_eq!(own["owner"], "c2", "{own}");
    assert_eq!(first["owner"], "c1", "{first}");

    // B sees A's sessions, whose they are, and that it may not drive them.
    let listed = server.call(&b, 3, "debug_sessions", json!({})).await;
    assert_eq!(listed["you"], "c2", "{listed}");
    let theirs = entry(&listed, &s1).expect("B lists A's session");
    assert_eq!(
        (&theirs["owner"], &theirs["may_drive"]),
        (&json!("c1"), &json!(false))
    );
    let mine = entry(&listed, &s2).unwrap();
    assert_eq!(
        (&mine["owner"], &mine["may_drive"]),
        (&json!("c2"), &json!(true))
    );

    // The session's resource says the same to B.
    let uri = format!("debugger://sessions/{s1}");
    let (status, _, answer) = server
        .post(
            "/mcp",
            Some(http_support::TOKEN),
            Some(&b),
            json!({"jsonrpc": "2.0", "id": 30, "method": "resources/read",
                   "params": {"uri": uri}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer:?}");
    let text = answer[0]["result"]["contents"][0]["text"].as_str().unwrap();
    let resource: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        (&resource["owner"], &resource["may_drive"]),
        (&json!("c1"), &json!(false)),
        "{resource}"
    );

    // It reads them...
    let stack = server
        .call(&b, 4, "debug_stack_trace", json!({ "session_id": s1 }))
        .await;
    assert_eq!(stack["frames"][0]["line"], line, "{stack}");
    let locals = server
        .call(
            &b,
            5,
            "debug_variables",
            json!({ "session_id": s1, "scope": "Locals" }),
        )
        .await;
    assert!(locals.to_string().contains("line_cents"), "{locals}");

    // ...but does not drive them, and cannot share them either.
    for (id, tool, arguments) in [
        (6, "debug_continue", json!({ "session_id": s1 })),
        (
            7,
            "debug_evaluate",
            json!({ "session_id": s1, "expression": "qty" }),
        ),
        (8, "debug_terminate", json!({ "session_id": s1 })),
        (
            9,
            "debug_set_breakpoint",
            json!({ "session_id": s1, "file": discount(), "line": 50 }),
        ),
        (
            40,
            "debug_watch",
            json!({ "session_id": s1, "add": ["qty"] }),
        ),
    ] {
        let refused = server.refused(&b, id, tool, arguments).await;
        names_the_owner(&refused, "c1", "c2");
    }
    let refused = server
        .refused(
            &b,
            10,
            "debug_share",
            json!({ "session_id": s1, "with": "c2" }),
        )
        .await;
    assert_eq!(refused["kind"], "not_owner", "{refused}");
    // Still stopped where it was: nothing B asked ran.
    let still = server.call(&a, 4, "debug_sessions", json!({})).await;
    assert_eq!(entry(&still, &s1).unwrap()["state"], "stopped", "{still}");

    // Shared with B, it is B's to drive too.
    let shared = server
        .call(
            &a,
            5,
            "debug_share",
            json!({ "session_id": s1, "with": "c2" }),
        )
        .await;
    assert_eq!(
        (&shared["owner"], &shared["shared_with"]),
        (&json!("c1"), &json!(["c2"]))
    );
    let moved = server
        .call(&b, 11, "debug_continue", json!({ "session_id": s1 }))
        .await;
    assert_eq!(moved["state"], "stopped", "{moved}");
    let qty = server
        .call(
            &b,
            12,
            "debug_evaluate",
            json!({ "session_id": s1, "expression": "qty" }),
        )
        .await;
    assert_eq!(qty["result"], "10", "the second item: {qty}");

    // The share undone, B is refused again.
    let unshared = server
        .call(
            &a,
            60,
            "debug_share",
            json!({ "session_id": s1, "stop_sharing": "c2" }),
        )
        .await;
    assert_eq!(unshared["shared_with"], json!([]), "{unshared}");
    let refused = server
        .refused(
            &b,
            60,
            "debug_evaluate",
            json!({ "session_id": s1, "expression": "qty" }),
        )
        .await;
    assert_eq!(refused["kind"], "not_owner", "{refused}");

    // A client that is not connected cannot be given anything.
    let nobody = server
        .refused(
            &a,
            6,
            "debug_share",
            json!({ "session_id": s1, "hand_over_to": "c9" }),
        )
        .await;
    assert!(
        nobody["error"].as_str().unwrap().contains("no client `c9`"),
        "{nobody}"
    );

    // Handed over, it is B's alone: A reads it, and is refused the rest.
    let handed = server
        .call(
            &a,
            7,
            "debug_share",
            json!({ "session_id": s1, "hand_over_to": "c2" }),
        )
        .await;
    assert_eq!(
        (&handed["owner"], &handed["shared_with"]),
        (&json!("c2"), &json!([]))
    );
    let refused = server
        .refused(&a, 8, "debug_continue", json!({ "session_id": s1 }))
        .await;
    names_the_owner(&refused, "c2", "c1");
    server
        .call(&a, 9, "debug_stack_trace", json!({ "session_id": s1 }))
        .await;

    // A shares its other session with everyone, then leaves: that one still ends
    // after the grace, its adapter with it; the one it handed over stays.
    server
        .call(
            &a,
            10,
            "debug_share",
            json!({ "session_id": s3, "with": "*" }),
        )
        .await;
    let listed = server.call(&b, 13, "debug_sessions", json!({})).await;
    assert_eq!(entry(&listed, &s3).unwrap()["shared_with"], "*", "{listed}");
    assert_eq!(entry(&listed, &s3).unwrap()["may_drive"], true, "{listed}");
    let adapter = entry(&listed, &s3).unwrap()["adapter_pid"]
        .as_u64()
        .unwrap() as u32;
    // B hears of s3's end on its own stream: the test waits on that event.
    let uri = format!("debugger://sessions/{s3}");
    let mut heard = server.listen(&b).await;
    server.subscribe(&b, 15, &uri).await;
    assert_eq!(server.delete(&a).await, StatusCode::NO_CONTENT);
    let left = Instant::now();
    let listed = server.call(&b, 14, "debug_sessions", json!({})).await;
    assert!(entry(&listed, &s3).is_some(), "within the grace: {listed}");
    heard
        .until(|m| {
            http_support::updated(m, &uri)
                && m["params"]["_meta"]["dapvisor/event"]["signal"] == "dap_session_closed"
        })
        .await;
    assert!(
        left.elapsed() >= GRACE,
        "ended before the grace: {:?}",
        left.elapsed()
    );
    let ended = server.call(&b, 100, "debug_sessions", json!({})).await;
    assert!(entry(&ended, &s3).is_none(), "{s3} ended: {ended}");
    let id = 101;
    assert_eq!(
        common::procs::wait_gone(vec![adapter]).await,
        Vec::<u32>::new()
    );
    let handed_over = entry(&ended, &s1).expect("the handed-over session stays");
    assert_eq!(handed_over["owner"], "c2", "{ended}");
    assert!(entry(&ended, &s2).is_some(), "B's own stays: {ended}");

    // B, its owner now, ends it.
    for (session, call) in [(&s1, id), (&s2, id + 1)] {
        let over = server
            .call(
                &b,
                call,
                "debug_terminate",
                json!({ "session_id": session }),
            )
            .await;
        assert_eq!(over["state"], "terminated", "{over}");
    }
}

/// Expose session `id` of client `session` with control, and join it as an editor.
async fn editor_with_control(server: &HttpServer, session: &str, call: u64, id: &str) -> Editor {
    let exposed = server
        .call(
            session,
            call,
            "debug_expose",
            json!({ "session_id": id, "control": true }),
        )
        .await;
    let file = exposed["setup_file"].as_str().unwrap();
    let setup: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let mut editor = Editor::connect(setup["address"].as_str().unwrap()).await;
    assert!(
        editor.join(setup["token"].as_str().unwrap()).await.success,
        "{setup}"
    );
    editor
}

/// Whether `message` tells that an editor took over session `id`.
fn took_over(message: &Value, id: &str) -> bool {
    let data = &message["params"]["data"];
    message["method"] == "notifications/message"
        && data["signal"] == "editor_took_over"
        && data["session_id"] == id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_editor_taking_over_is_told_to_the_clients_that_drive_the_session_only() {
    let server = HttpServer::start_with(&["--tools", "all"]).await;
    let owner = server.initialize().await;
    let shared = server.initialize().await;
    let other = server.initialize().await;
    let mut owner_hears = server.listen(&owner).await;
    let mut shared_hears = server.listen(&shared).await;
    let mut other_hears = server.listen(&other).await;
    let line = line_of(discount(), "discounted = apply_discount");
    let launched = server
        .call(
            &owner,
            2,
            "debug_launch",
            json!({ "program": discount(), "breakpoints": [{"file": discount(), "line": line}] }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    server
        .call(
            &owner,
            3,
            "debug_share",
            json!({ "session_id": id, "with": "c2" }),
        )
        .await;
    let mut editor = editor_with_control(&server, &owner, 4, &id).await;
    owner_hears.until(|m| took_over(m, &id)).await;
    // The client it is shared with drives it too, so it hears.
    shared_hears.until(|m| took_over(m, &id)).await;

    // The third client only reads it. Its own session, shown to an editor of its own,
    // is told it after the first (editor activity comes in one ordered feed): the
    // first was never told it.
    let own = server
        .call(
            &other,
            2,
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    let own_id = own["session_id"].as_str().unwrap().to_string();
    let mut own_editor = editor_with_control(&server, &other, 3, &own_id).await;
    let heard = other_hears.until(|m| took_over(m, &own_id)).await;
    let editor_signal = |m: &&Value| {
        let data = &m["params"]["data"];
        data["session_id"] == id.as_str()
            && data["signal"]
                .as_str()
                .is_some_and(|s| s.starts_with("editor_"))
    };
    assert!(!heard.iter().any(|m| editor_signal(&m)), "{heard:?}");

    for (client, session, call) in [(&owner, &id, 5), (&other, &own_id, 4)] {
        let over = server
            .call(
                client,
                call,
                "debug_terminate",
                json!({ "session_id": session }),
            )
            .await;
        assert_eq!(over["state"], "terminated", "{over}");
    }
    editor.until_closed().await;
    own_editor.until_closed().await;
}
