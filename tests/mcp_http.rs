//! `dapvisor mcp --http`: MCP over streamable HTTP, driven by a plain HTTP/1.1 client.
//! A request without the bearer token is refused; two clients get MCP sessions of
//! their own on one runtime, so one sees the debug session the other started; SIGTERM
//! ends the debug sessions and the server.

mod agent;
mod common;
mod http_support;

use agent::mcp_client::ANSWER_WAIT;
use agent::*;
use http::StatusCode;
use http_support::{HttpServer, TOKEN};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_without_the_token_is_refused() {
    let server = HttpServer::start().await;
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    for token in [None, Some("a-wrong-token"), Some("a-token-for-the-test")] {
        let (status, session, _) = server.post("/mcp", token, None, ping.clone()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(session, None);
    }
    let (status, _, _) = server.post("/elsewhere", Some(TOKEN), None, ping).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_share_one_runtime_and_sigterm_ends_its_sessions() {
    let mut server = HttpServer::start().await;
    let first = server.initialize().await;
    let second = server.initialize().await;
    assert_ne!(first, second, "each client has an MCP session of its own");

    let launched = server
        .call(
            &first,
            2,
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    let id = launched["session_id"].as_str().unwrap();
    let adapter_pid = server.call(&first, 3, "debug_sessions", json!({})).await["sessions"][0]
        ["adapter_pid"]
        .as_u64()
        .unwrap();

    // The other client sees it: one runtime serves both.
    let listed = server.call(&second, 2, "debug_sessions", json!({})).await;
    assert_eq!(listed["sessions"][0]["session_id"], id, "{listed}");
    let stack = server
        .call(&second, 3, "debug_stack_trace", json!({ "session_id": id }))
        .await;
    assert!(
        stack["frames"].as_array().is_some_and(|f| !f.is_empty()),
        "{stack}"
    );

    // SIGTERM: the sessions end (their adapters with them), then the server.
    unsafe { libc::kill(server.child.id().unwrap() as i32, libc::SIGTERM) };
    let status = tokio::time::timeout(ANSWER_WAIT, server.child.wait())
        .await
        .expect("the server exits")
        .unwrap();
    assert!(status.success(), "{status}");
    let left = common::procs::wait_gone(vec![adapter_pid as u32]).await;
    assert_eq!(
        left,
        Vec::<u32>::new(),
        "the adapter ended with its session"
    );
}
