//! A small MCP client for tests: starts `dapvisor mcp` as a child process and speaks
//! JSON-RPC to it over stdio, one JSON message per line, as MCP clients do. It answers
//! the server's elicitation requests as told, and keeps every notification.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// How long one answer may take: generous, adapters on a loaded 2-core machine are slow.
pub const ANSWER_WAIT: Duration = Duration::from_secs(120);

/// What the client does when the server asks the user to approve a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elicitation {
    /// The client does not support elicitation (it does not declare the capability).
    Unsupported,
    /// The user accepts the form with `approve` set to this.
    Answer(bool),
    /// The user declines.
    Decline,
}

/// A running `dapvisor mcp` and the client's side of the connection.
pub struct McpClient {
    child: Child,
    stdin: ChildStdin,
    incoming: mpsc::UnboundedReceiver<Value>,
    next_id: i64,
    elicitation: Elicitation,
    /// Notifications received so far.
    pub notifications: Vec<Value>,
    /// Elicitation requests received so far (their params).
    pub elicitations: Vec<Value>,
    /// Answers that arrived while waiting for another one.
    parked: Vec<Value>,
}

impl McpClient {
    /// Start `dapvisor mcp` with `flags`, and initialize the connection.
    pub async fn start(flags: &[&str], elicitation: Elicitation) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dapvisor"))
            .arg("mcp")
            .args(flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("the dapvisor binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let message: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout must carry only JSON-RPC: {e}: {line}"));
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Self {
            child,
            stdin,
            incoming,
            next_id: 0,
            elicitation,
            notifications: Vec::new(),
            elicitations: Vec::new(),
            parked: Vec::new(),
        };
        let capabilities = match elicitation {
            Elicitation::Unsupported => json!({}),
            _ => json!({ "elicitation": {} }),
        };
        let init = client
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-06-18",
                    "capabilities": capabilities,
                    "clientInfo": { "name": "dapvisor-tests", "version": "0" },
                }),
            )
            .await;
        assert_eq!(init["result"]["serverInfo"]["name"], "dapvisor", "{init}");
        client.notify("notifications/initialized", json!({})).await;
        client
    }

    async fn write(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).await.unwrap();
        self.stdin.flush().await.unwrap();
    }

    /// Send a notification.
    pub async fn notify(&mut self, method: &str, params: Value) {
        self.write(json!({ "jsonrpc": "2.0", "method": method, "params": params }))
            .await;
    }

    /// Send a request without waiting; returns its id.
    pub async fn send(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.write(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        id
    }

    /// Send a request and wait for its whole answer (`result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params).await;
        self.answer(id).await
    }

    /// Wait for the answer to request `id`, answering server requests meanwhile.
    pub async fn answer(&mut self, id: i64) -> Value {
        if let Some(i) = self.parked.iter().position(|m| m["id"] == id) {
            return self.parked.remove(i);
        }
        loop {
            let message = tokio::time::timeout(ANSWER_WAIT, self.incoming.recv())
                .await
                .unwrap_or_else(|_| panic!("no answer to request {id} in {ANSWER_WAIT:?}"))
                .unwrap_or_else(|| panic!("the server closed stdout before answering {id}"));
            let is_request = message.get("method").is_some() && message.get("id").is_some();
            if is_request {
                self.serve(message).await;
            } else if message.get("method").is_some() {
                self.notifications.push(message);
            } else if message["id"] == id {
                return message;
            } else {
                self.parked.push(message);
            }
        }
    }

    /// Wait for a notification that `matches` (among those already received, or the
    /// next ones), answering server requests meanwhile.
    pub async fn notification(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        loop {
            if let Some(n) = self.notifications.iter().find(|n| matches(n)) {
                return n.clone();
            }
            let message = tokio::time::timeout(ANSWER_WAIT, self.incoming.recv())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "no such notification in {ANSWER_WAIT:?}: {:?}",
                        self.notifications
                    )
                })
                .expect("the server closed stdout");
            if message.get("method").is_some() && message.get("id").is_some() {
                self.serve(message).await;
            } else if message.get("method").is_some() {
                self.notifications.push(message);
            } else {
                self.parked.push(message);
            }
        }
    }

    /// Answer a request from the server (elicitation is the only one dapvisor sends).
    async fn serve(&mut self, request: Value) {
        assert_eq!(request["method"], "elicitation/create", "{request}");
        self.elicitations.push(request["params"].clone());
        let result = match self.elicitation {
            Elicitation::Answer(approve) => {
                json!({ "action": "accept", "content": { "approve": approve } })
            }
            Elicitation::Decline | Elicitation::Unsupported => json!({ "action": "decline" }),
        };
        self.write(json!({ "jsonrpc": "2.0", "id": request["id"], "result": result }))
            .await;
    }

    /// Call a tool; returns the `result` (a CallToolResult), failing on a protocol error.
    pub async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let answer = self
            .request(
                "tools/call",
                json!({ "name": tool, "arguments": arguments }),
            )
            .await;
        assert!(answer.get("error").is_none(), "{tool}: {answer}");
        answer["result"].clone()
    }

    /// Call a tool that must succeed; returns its structured content.
    pub async fn ok(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.call(tool, arguments).await;
        assert_ne!(result["isError"], true, "{tool} failed: {result}");
        let text = result["content"][0]["text"].as_str().unwrap_or("");
        assert!(!text.is_empty(), "{tool} gave no text: {result}");
        result["structuredContent"].clone()
    }

    /// Call a tool that must fail with `code`; returns its structured content.
    pub async fn fails(&mut self, tool: &str, arguments: Value, code: u16) -> Value {
        let result = self.call(tool, arguments).await;
        assert_eq!(result["isError"], true, "{tool} should fail: {result}");
        let err = result["structuredContent"].clone();
        assert_eq!(err["code"], code, "{tool}: {result}");
        assert!(err["hint"].as_str().is_some_and(|h| !h.is_empty()), "{err}");
        err
    }

    /// Close stdin and wait for the server to exit; returns its exit status.
    pub async fn close(mut self) -> std::process::ExitStatus {
        drop(self.stdin);
        tokio::time::timeout(ANSWER_WAIT, self.child.wait())
            .await
            .expect("the server exits when its client closes stdin")
            .unwrap()
    }
}
