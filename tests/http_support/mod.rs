//! A `dapvisor mcp --http` server for the tests, driven by a plain HTTP/1.1 client:
//! start it, initialize MCP sessions, call tools, subscribe to resources and listen
//! for notifications on a client's SSE stream, end sessions with `DELETE`, end the
//! server with SIGTERM.
#![allow(dead_code)]

use std::net::{IpAddr, SocketAddr};
use std::process::Stdio;

use bytes::Bytes;
use http::{header, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

use super::agent::mcp_client::ANSWER_WAIT;

/// The token the tests' servers take: as long as a token must be (32 characters).
pub const TOKEN: &str = "a-token-for-the-tests-of-mcp-over-http";

/// `Authorization: Bearer TOKEN`'s value.
pub fn bearer() -> String {
    format!("Bearer {TOKEN}")
}

/// A running `dapvisor mcp --http` on a free loopback port.
pub struct HttpServer {
    /// The server's process.
    pub child: Child,
    /// Where the tests reach it (where it listens, unless [`HttpServer::reached_at`]).
    pub addr: SocketAddr,
    /// What it said on stderr before it said where it listens.
    pub said: Vec<String>,
}

/// One HTTP/1.1 connection to the server, kept for several requests.
pub struct Connection {
    sender: SendRequest<Full<Bytes>>,
}

impl Connection {
    /// Send `request` on this connection; the response, its body still to read.
    pub async fn send(
        &mut self,
        request: Request<Full<Bytes>>,
    ) -> hyper::Response<hyper::body::Incoming> {
        self.sender.ready().await.unwrap();
        self.sender.send_request(request).await.unwrap()
    }
}

impl HttpServer {
    /// A server that lets every call run (`bypass_all`).
    pub async fn start() -> Self {
        Self::start_with(&[]).await
    }

    /// A server that lets every call run, with `flags` besides.
    pub async fn start_with(flags: &[&str]) -> Self {
        Self::start_in_mode("bypass_all", flags).await
    }

    /// A server in permission mode `mode` (`default` asks each client's user through
    /// elicitation), with `flags` besides.
    pub async fn start_in_mode(mode: &str, flags: &[&str]) -> Self {
        Self::spawn("0", mode, flags, None).await
    }

    /// A server listening on `listen` (the `--http` value) that lets every call run,
    /// with `flags` besides.
    pub async fn start_on(listen: &str, flags: &[&str]) -> Self {
        Self::spawn(listen, "bypass_all", flags, None).await
    }

    /// A server on a free loopback port that may open only `files` descriptors
    /// (RLIMIT_NOFILE), with `flags` besides.
    pub async fn start_with_files(files: u64, flags: &[&str]) -> Self {
        Self::spawn("0", "bypass_all", flags, Some(files)).await
    }

    async fn spawn(listen: &str, mode: &str, flags: &[&str], files: Option<u64>) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_dapvisor"));
        command
            .args(["mcp", "--http", listen, "--permission-mode", mode])
            .args(flags)
            .env("DAPVISOR_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if let Some(files) = files {
            // SAFETY: setrlimit(2) only, in the child before it runs dapvisor.
            unsafe {
                command.pre_exec(move || {
                    let limit = libc::rlimit {
                        rlim_cur: files,
                        rlim_max: files,
                    };
                    match libc::setrlimit(libc::RLIMIT_NOFILE, &limit) {
                        0 => Ok(()),
                        _ => Err(std::io::Error::last_os_error()),
                    }
                });
            }
        }
        let mut child = command.spawn().expect("the dapvisor binary runs");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut said = Vec::new();
        let announced = async {
            while let Some(line) = lines.next_line().await.unwrap() {
                if let Some(url) = line.strip_prefix("dapvisor: MCP over HTTP at http://") {
                    return url.trim_end_matches("/mcp").parse::<SocketAddr>().unwrap();
                }
                said.push(line);
            }
            panic!("the server ended without saying where it listens: {said:?}")
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
        Self { child, addr, said }
    }

    /// The same server, reached at `ip` (a server listening on 0.0.0.0, say, at
    /// another loopback address), on the port it listens on.
    pub fn reached_at(mut self, ip: IpAddr) -> Self {
        self.addr.set_ip(ip);
        self
    }

    /// A new connection to the server.
    pub async fn connect(&self) -> Connection {
        let stream = tokio::net::TcpStream::connect(self.addr).await.unwrap();
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .unwrap();
        tokio::spawn(connection);
        Connection { sender }
    }

    /// Send `request` on a connection of its own; the response, its body still to read.
    async fn send(&self, request: Request<Full<Bytes>>) -> hyper::Response<hyper::body::Incoming> {
        self.connect().await.send(request).await
    }

    /// Send `request` on a connection of its own; the status and the whole body.
    pub async fn exchange(&self, request: Request<Full<Bytes>>) -> (StatusCode, String) {
        let exchange = async {
            let response = self.send(request).await;
            let status = response.status();
            let body = response.into_body().collect().await.unwrap().to_bytes();
            (status, String::from_utf8_lossy(&body).into_owned())
        };
        tokio::time::timeout(ANSWER_WAIT, exchange)
            .await
            .expect("the server answers")
    }

    /// A POST of an MCP `initialize` to /mcp with the server's address as Host, and no
    /// token: the tests add the headers they try.
    pub fn initialize_request(&self) -> http::request::Builder {
        Request::post("/mcp")
            .header(header::HOST, self.addr.to_string())
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream")
    }

    /// The body of an MCP `initialize`.
    pub fn initialize_body() -> Full<Bytes> {
        Full::new(Bytes::from(initialize_message(json!({})).to_string()))
    }

    /// POST `message` to /mcp (or `path`) with `token` and MCP session `session`; the
    /// status, the MCP session id the server gave, and the JSON-RPC messages of the
    /// answer (its SSE events, or its JSON body).
    pub async fn post(
        &self,
        path: &str,
        token: Option<&str>,
        session: Option<&str>,
        message: Value,
    ) -> (StatusCode, Option<String>, Vec<Value>) {
        let mut connection = self.connect().await;
        self.post_on(&mut connection, path, token, session, message)
            .await
    }

    /// [`HttpServer::post`] on `connection`.
    pub async fn post_on(
        &self,
        connection: &mut Connection,
        path: &str,
        token: Option<&str>,
        session: Option<&str>,
        message: Value,
    ) -> (StatusCode, Option<String>, Vec<Value>) {
        let exchange = async {
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
            let response = connection.send(request.body(body).unwrap()).await;
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
    pub async fn initialize(&self) -> String {
        self.initialize_on(&mut self.connect().await).await
    }

    /// Initialize an MCP session as a client whose user can be asked to approve a
    /// call (it declares elicitation); its id.
    pub async fn initialize_eliciting(&self) -> String {
        let capabilities = json!({ "elicitation": {} });
        self.initialize_with(&mut self.connect().await, capabilities)
            .await
    }

    /// Initialize an MCP session as a client on `connection`; its id.
    pub async fn initialize_on(&self, connection: &mut Connection) -> String {
        self.initialize_with(connection, json!({})).await
    }

    /// Initialize an MCP session as a client with `capabilities` on `connection`; its id.
    async fn initialize_with(&self, connection: &mut Connection, capabilities: Value) -> String {
        let (status, session, answer) = self
            .post_on(
                connection,
                "/mcp",
                Some(TOKEN),
                None,
                initialize_message(capabilities),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer:?}");
        assert_eq!(answer[0]["result"]["serverInfo"]["name"], "dapvisor");
        let session = session.expect("the server gives an MCP session id");
        let (status, _, _) = self
            .post_on(
                connection,
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
    pub async fn call(&self, session: &str, id: u64, tool: &str, arguments: Value) -> Value {
        let result = self.call_result(session, id, tool, arguments).await;
        assert_eq!(result["isError"], false, "{tool}: {result}");
        result["structuredContent"].clone()
    }

    /// Call `tool` in MCP session `session`, insisting that it fails; the error's
    /// structured content (`code`, `kind`, `error`, `hint`).
    pub async fn refused(&self, session: &str, id: u64, tool: &str, arguments: Value) -> Value {
        let result = self.call_result(session, id, tool, arguments).await;
        assert_eq!(result["isError"], true, "{tool} should fail: {result}");
        result["structuredContent"].clone()
    }

    /// Call `tool` in MCP session `session`; the JSON-RPC result, error or not.
    pub async fn call_result(&self, session: &str, id: u64, tool: &str, arguments: Value) -> Value {
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
        result["result"].clone()
    }

    /// Call `tool` in MCP session `session` and read its answer as it streams: the
    /// server's requests made for the call (an elicitation asking the user to approve
    /// it), then the answer. Returns once the request is sent and the answer's stream
    /// has opened.
    pub async fn start_call(
        &self,
        session: &str,
        id: u64,
        tool: &str,
        arguments: Value,
    ) -> Notifications {
        let request = Request::post("/mcp")
            .header(header::HOST, self.addr.to_string())
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream")
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-06-18");
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                             "params": {"name": tool, "arguments": arguments}});
        let body = Full::new(Bytes::from(message.to_string()));
        let response = tokio::time::timeout(ANSWER_WAIT, self.send(request.body(body).unwrap()))
            .await
            .expect("the server answers");
        assert_eq!(response.status(), StatusCode::OK);
        read_events(response.into_body())
    }

    /// Send MCP session `session`'s answer `result` to the server's request `id` (such
    /// as an elicitation's).
    pub async fn answer(&self, session: &str, id: &Value, result: Value) {
        let (status, _, answer) = self
            .post(
                "/mcp",
                Some(TOKEN),
                Some(session),
                json!({"jsonrpc": "2.0", "id": id, "result": result}),
            )
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{answer:?}");
    }

    /// End MCP session `session` as a client leaving does: `DELETE /mcp`.
    pub async fn delete(&self, session: &str) -> StatusCode {
        let exchange = async {
            let request = Request::delete("/mcp")
                .header(header::HOST, self.addr.to_string())
                .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", "2025-06-18")
                .body(Full::new(Bytes::new()))
                .unwrap();
            self.send(request).await.status()
        };
        tokio::time::timeout(ANSWER_WAIT, exchange)
            .await
            .expect("the server answers")
    }

    /// Subscribe MCP session `session` to resource `uri` (`resources/subscribe`).
    pub async fn subscribe(&self, session: &str, id: u64, uri: &str) {
        let (status, _, answer) = self
            .post(
                "/mcp",
                Some(TOKEN),
                Some(session),
                json!({"jsonrpc": "2.0", "id": id, "method": "resources/subscribe",
                       "params": {"uri": uri}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer:?}");
        let result = answer.iter().find(|m| m["id"] == id);
        assert!(
            result.is_some_and(|r| r.get("result").is_some()),
            "subscribing to {uri}: {answer:?}"
        );
    }

    /// Open MCP session `session`'s standalone SSE stream (`GET /mcp`) and read it
    /// from now on.
    pub async fn listen(&self, session: &str) -> Notifications {
        self.listen_on(self.connect().await, session).await
    }

    /// [`HttpServer::listen`] on `connection`, which the stream then holds.
    pub async fn listen_on(&self, mut connection: Connection, session: &str) -> Notifications {
        let opened = async {
            let request = Request::get("/mcp")
                .header(header::HOST, self.addr.to_string())
                .header(header::ACCEPT, "text/event-stream")
                .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", "2025-06-18")
                .body(Full::new(Bytes::new()))
                .unwrap();
            connection.send(request).await
        };
        let response = tokio::time::timeout(ANSWER_WAIT, opened)
            .await
            .expect("the server answers");
        assert_eq!(response.status(), StatusCode::OK);
        read_events(response.into_body())
    }

    /// End the server as a service manager does, with SIGTERM; insists that it exits,
    /// and successfully.
    pub async fn terminate(&mut self) {
        let pid = self.child.id().expect("the server still runs");
        // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
        unsafe { libc::kill(pid as i32, libc::SIGTERM) };
        let status = tokio::time::timeout(ANSWER_WAIT, self.child.wait())
            .await
            .expect("the server exits")
            .unwrap();
        assert!(status.success(), "{status}");
    }
}

/// An MCP `initialize` request from a client with `capabilities`.
fn initialize_message(capabilities: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": capabilities,
        "clientInfo": {"name": "dapvisor-tests", "version": "0"}}})
}

/// Read an SSE body (a stream of events) as it comes, from a task of its own, so the
/// server never waits on a full stream; the messages pile up until the test looks.
fn read_events(mut body: hyper::body::Incoming) -> Notifications {
    let (to_test, messages) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut pending = String::new();
        while let Some(Ok(frame)) = body.frame().await {
            let Ok(data) = frame.into_data() else {
                continue;
            };
            pending.push_str(&String::from_utf8_lossy(&data).replace("\r\n", "\n"));
            // An SSE event ends at a blank line; its `data:` lines are the message.
            while let Some(end) = pending.find("\n\n") {
                let event: String = pending.drain(..end + 2).collect();
                let Some(message) = message_of_event(&event) else {
                    continue;
                };
                if to_test.send(message).is_err() {
                    return;
                }
            }
        }
    });
    Notifications { messages }
}

/// The JSON message of one SSE event (none for a priming event or a comment).
fn message_of_event(event: &str) -> Option<Value> {
    let data: Vec<&str> = event
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(|d| d.strip_prefix(' ').unwrap_or(d))
        .collect();
    serde_json::from_str(&data.join("\n")).ok()
}

/// A client's standalone SSE stream (`GET /mcp`), where rmcp's streamable HTTP server
/// sends what is not the answer to a request: `notifications/resources/updated`, the
/// list changes, log messages. A task reads it as it comes, so the server never waits
/// on a full stream; the messages pile up here until the test looks.
pub struct Notifications {
    messages: mpsc::UnboundedReceiver<Value>,
}

impl Notifications {
    /// Every message up to and including the first that `matches`, in the order they
    /// came (after those an earlier call took). Panics if none comes in
    /// [`ANSWER_WAIT`] or the stream ends first.
    pub async fn until(&mut self, matches: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut seen = Vec::new();
        let wait = async {
            while let Some(message) = self.messages.recv().await {
                let found = matches(&message);
                seen.push(message);
                if found {
                    return true;
                }
            }
            false
        };
        match tokio::time::timeout(ANSWER_WAIT, wait).await {
            Ok(true) => seen,
            Ok(false) => panic!("the SSE stream ended first; it had {seen:?}"),
            Err(_) => panic!("no such message in {ANSWER_WAIT:?}; the stream had {seen:?}"),
        }
    }
}

/// Whether `message` is a `notifications/resources/updated` for `uri`.
pub fn updated(message: &Value, uri: &str) -> bool {
    message["method"] == "notifications/resources/updated" && message["params"]["uri"] == uri
}

/// The JSON messages of an answer: SSE `data:` lines, or the body itself.
pub fn messages(body: &str) -> Vec<Value> {
    if let Ok(one) = serde_json::from_str::<Value>(body) {
        return vec![one];
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect()
}
