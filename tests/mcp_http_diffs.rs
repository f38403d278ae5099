//! debug.diff over MCP's streamable HTTP: the sessions of a diff are its client's, and
//! a diff kept to read on is read only by the client that made it (its rows hold the
//! program's values). Real debugpy.

mod agent;
mod common;
mod http_support;

use http_support::HttpServer;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diff_is_read_on_only_by_the_client_that_made_it() {
    let server = HttpServer::start_with(&["--tools", "all"]).await;
    let (a, b) = (server.initialize().await, server.initialize().await);
    let shipping = common::program("python/shipping/shipping.py");
    let made = server
        .call(
            &a,
            2,
            "debug_diff",
            json!({ "a": { "program": shipping, "args": ["120", "499"] },
                    "b": { "program": shipping, "args": ["120", "500"] },
                    "calls": ["quote"], "timeout": 120 }),
        )
        .await;
    let id = made["diff_id"].clone();
    assert_eq!(made["next_cursor"], 1, "{made}");
    let next = json!({ "diff_id": id, "cursor": 1 });
    let refused = server.refused(&b, 2, "debug_diff", next.clone()).await;
    assert_eq!(refused["code"], 404, "{refused}");
    let read = server.call(&a, 3, "debug_diff", next).await;
    assert_eq!(read["cursor"], 1, "{read}");
    let sessions = server.call(&a, 4, "debug_sessions", json!({})).await;
    assert_eq!(
        sessions["sessions"],
        json!([]),
        "both runs ended: {sessions}"
    );
}
