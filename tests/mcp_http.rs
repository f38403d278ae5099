//! `dapvisor mcp --http`: MCP over streamable HTTP, driven by a plain HTTP/1.1 client.
//! A request without the bearer token is refused; two clients get MCP sessions of
//! their own on one runtime, so one sees the debug session the other started; SIGTERM
//! ends the debug sessions and the server.

mod agent;
mod common;

use std::net::SocketAddr;
use std::process::Stdio;

use agent::mcp_client::ANSWER_WAIT;
use agent::*;
use bytes::Bytes;
use http::{header, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

const TOKEN: &str = "a-token-for-the-tests";

/// A running `dapvisor mcp --http` on a free loopback port.
struct HttpServer {
    child: Child,
    addr: SocketAddr,
}

impl HttpServer {
    async fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dapvisor"))
            .args(["mcp", "--http", "0", "--permission-mode", "bypass_all"])
            .env("DAPVISOR_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the dapvisor binary runs");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let announced = async {
            while let Some(line) = lines.next_line().await.unwrap() {
                if let Some(url) = line.strip_prefix("dapvisor: MCP over HTTP at http://") {
                    return url.trim_end_matches("/mcp").parse::<SocketAddr>().unwrap();
                }
            }
            panic!("the server ended without saying where it listens")
        };
        let addr = tokio::time::timeout(ANSWER_WAIT, announced)
            .await
            .expect("the server says where it listens");
        // The rest of its stderr goes on to the test's.
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                eprintln!("{line}");
            }
        });
        Self { child, addr }
    }

    /// POST `message` to /mcp (or `path`) with `token` and MCP session `session`; the
    /// status, the MCP session id the server gave, and the JSON-RPC messages of the
    /// answer (its SSE events, or its JSON body).
    async fn post(
        &self,
        path: &str,
        token: Option<&str>,
        session: Option<&str>,
        message: Value,
    ) -> (StatusCode, Option<String>, Vec<Value>) {
        let exchange = async {
            let stream = tokio::net::TcpStream::connect(self.addr).await.unwrap();
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream))
                    .await
                    .unwrap();
            tokio::spawn(connection);
            let mut request = Request::post(path)
                .header(header::HOST, self.addr.to_string())
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::ACCEPT, "application/json, text/event-stream");
            if let Some(token) = token {
                request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
            }
            if let Some(session) = session {
                request = request.header("mcp-session-id", session);
            }
            let body = Full::new(Bytes::from(message.to_string()));
            let response = sender
                .send_request(request.body(body).unwrap())
                .await
                .unwrap();
            let status = response.status();
            let given = response
                .headers()
                .get("mcp-session-id")
                .map(|v| v.to_str().unwrap().to_string());
            let body = response.into_body().collect().await.unwrap().to_bytes();
            (status, given, messages(&String::from_utf8_lossy(&body)))
        };
        tokio::time::timeout(ANSWER_WAIT, exchange)
            .await
            .expect("the server answers")
    }

    /// Initialize an MCP session as a client; its id.
    async fn initialize(&self) -> String {
        let (status, session, answer) = self
            .post(
                "/mcp",
                Some(TOKEN),
                None,
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "dapvisor-tests", "version": "0"}}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer:?}");
        assert_eq!(answer[0]["result"]["serverInfo"]["name"], "dapvisor");
        let session = session.expect("the server gives an MCP session id");
        let (status, _, _) = self
            .post(
                "/mcp",
                Some(TOKEN),
                Some(&session),
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            )
            .await;
        assert_eq!(status, StatusCode::ACCEPTED);
        session
    }

    /// Call `tool` in MCP session `session`; the result's structured content.
    async fn call(&self, session: &str, id: u64, tool: &str, arguments: Value) -> Value {
        let (status, _, answer) = self
            .post(
                "/mcp",
                Some(TOKEN),
                Some(session),
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer:?}");
        let result = answer
            .iter()
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no answer to {tool}: {answer:?}"));
        assert_eq!(result["result"]["isError"], false, "{result}");
        result["result"]["structuredContent"].clone()
    }
}

/// The JSON messages of an answer: SSE `data:` lines, or the body itself.
fn messages(body: &str) -> Vec<Value> {
    if let Ok(one) = serde_json::from_str::<Value>(body) {
        return vec![one];
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect()
}

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
