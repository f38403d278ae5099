//! The tests' MCP client, on rmcp's client side, so every message both ways is typed
//! and checked by the SDK: it starts `dapvisor mcp` as a child process, answers the
//! server's elicitation requests as told, keeps every notification, and checks that
//! the server's stdout carries nothing but JSON-RPC.
#![allow(deprecated)] // resources/subscribe: the handshake-era way, which dapvisor serves

use std::process::Stdio;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, LoggingLevel,
    ProtocolVersion, ReadResourceRequestParams, ResourceUpdatedNotificationParam, ServerResult,
    SetLevelRequestParams, SubscribeRequestParams,
};
use rmcp::service::{
    NotificationContext, PeerRequestOptions, RequestContext, RequestHandle, RunningService,
};
use rmcp::{ClientHandler, ErrorData, Peer, RoleClient, ServiceError, ServiceExt};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::Notify;

pub use crate::common::ANSWER_WAIT;

/// What the client does when the server asks the user to approve a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elicitation {
    /// The client does not support elicitation (it does not declare the capability).
    Unsupported,
    /// The user accepts the form with `approve` set to this.
    Answer(bool),
    /// The user approves, for the rest of the debug session where the form offers it
    /// (`for_session`).
    ForSession,
    /// The user declines.
    Decline,
    /// The user answers `approve` only once the test calls
    /// [`McpClient::release_approval`].
    Held(bool),
}

/// What the client has received besides answers.
#[derive(Default)]
struct Seen {
    /// Notifications as they came on the wire.
    notifications: Mutex<Vec<Value>>,
    /// The URI of each `resources/updated` notification the SDK parsed and handed to
    /// the handler.
    typed_updates: Mutex<Vec<String>>,
    /// The params of each elicitation request.
    elicitations: Mutex<Vec<Value>>,
    /// Lines of the server's stdout that were not JSON.
    not_json: Mutex<Vec<String>>,
    /// The size of each `tools/list` and `prompts/list` answer, as it came on the wire.
    list_bytes: Mutex<Vec<(&'static str, usize)>>,
    /// Signalled at each notification and elicitation request.
    arrived: Notify,
    /// A permit per held approval the test released.
    released: Releases,
}

/// Permits for held approvals, none at first.
struct Releases(tokio::sync::Semaphore);

impl Default for Releases {
    fn default() -> Self {
        Self(tokio::sync::Semaphore::new(0))
    }
}

impl Seen {
    /// Keep a line of the server's stdout that is not an answer or a request.
    fn line(&self, line: &str) {
        match serde_json::from_str::<Value>(line) {
            Ok(message) if message.get("method").is_some() && message.get("id").is_none() => {
                lock(&self.notifications).push(message);
                self.arrived.notify_waiters();
            }
            Ok(message) => {
                for list in ["tools", "prompts"] {
                    if message["result"][list].is_array() {
                        lock(&self.list_bytes).push((list, line.len()));
                    }
                }
            }
            Err(_) => lock(&self.not_json).push(line.to_string()),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The client's side of the connection, as rmcp calls it.
struct Handler {
    elicitation: Elicitation,
    seen: Arc<Seen>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let capabilities = match self.elicitation {
            Elicitation::Unsupported => ClientCapabilities::default(),
            _ => ClientCapabilities::builder().enable_elicitation().build(),
        };
        ClientConfig::new(capabilities, Implementation::new("dapvisor-tests", "0"))
            .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        lock(&self.seen.elicitations).push(serde_json::to_value(&request).unwrap());
        self.seen.arrived.notify_waiters();
        if let Elicitation::Held(_) = self.elicitation {
            let permit = self.seen.released.0.acquire().await.expect("never closed");
            permit.forget();
        }
        Ok(match self.elicitation {
            Elicitation::Answer(approve) | Elicitation::Held(approve) => {
                ElicitResult::new(ElicitationAction::Accept)
                    .with_content(json!({ "approve": approve }))
            }
            Elicitation::ForSession => ElicitResult::new(ElicitationAction::Accept)
                .with_content(json!({ "approve": true, "for_session": true })),
            Elicitation::Decline | Elicitation::Unsupported => {
                ElicitResult::new(ElicitationAction::Decline)
            }
        })
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        lock(&self.seen.typed_updates).push(params.uri);
        self.seen.arrived.notify_waiters();
    }
}

/// A running `dapvisor mcp` and the client's side of the connection.
pub struct McpClient {
    service: RunningService<RoleClient, Handler>,
    child: Child,
    seen: Arc<Seen>,
}

impl McpClient {
    /// Start `dapvisor mcp` with `flags` and every tool (`--tools all`), and initialize
    /// the connection.
    pub async fn start_all_tools(flags: &[&str], elicitation: Elicitation) -> Self {
        let flags: Vec<&str> = flags.iter().copied().chain(["--tools", "all"]).collect();
        Self::start(&flags, elicitation).await
    }

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
        let seen = Arc::new(Seen::default());
        // Every line goes on to the SDK, which skips what it cannot parse: lines that
        // are not JSON are kept here, to fail the test. Notifications are kept as they
        // came (rmcp 3.9 hands the handler a `resources/updated` without its `_meta`).
        let (mut feed, from_server) = tokio::io::duplex(64 * 1024);
        let watch = seen.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                watch.line(&line);
                let sent = feed.write_all(format!("{line}\n").as_bytes()).await;
                if sent.is_err() {
                    break;
                }
            }
        });
        let handler = Handler {
            elicitation,
            seen: seen.clone(),
        };
        let service = tokio::time::timeout(ANSWER_WAIT, handler.serve((from_server, stdin)))
            .await
            .expect("the server answers initialize")
            .expect("the MCP handshake succeeds");
        let info = service.peer_info().expect("the server introduced itself");
        let name = info.server_info.as_ref().map(|i| i.name.clone());
        assert_eq!(name.as_deref(), Some("dapvisor"), "{info:?}");
        Self {
            service,
            child,
            seen,
        }
    }

    /// The connection, to make requests on from other tasks.
    pub fn peer(&self) -> Peer<RoleClient> {
        self.service.peer().clone()
    }

    /// Notifications received so far, as they came on the wire.
    pub fn notifications(&self) -> Vec<Value> {
        lock(&self.seen.notifications).clone()
    }

    /// The params of each elicitation request received so far.
    pub fn elicitations(&self) -> Vec<Value> {
        lock(&self.seen.elicitations).clone()
    }

    /// Every tool the server lists, as JSON.
    pub async fn tools(&self) -> Vec<Value> {
        let tools = within(self.service.list_all_tools()).await.unwrap();
        tools
            .iter()
            .map(|t| serde_json::to_value(t).unwrap())
            .collect()
    }

    /// The size of the last `tools/list` answer, as [`Self::list_bytes`] counts it.
    pub fn tools_list_bytes(&self) -> usize {
        self.list_bytes("tools")
    }

    /// The size of the last `{list}/list` answer (`tools`, `prompts`) in bytes as the
    /// client received it: the whole JSON-RPC message, without the line's end.
    pub fn list_bytes(&self, list: &str) -> usize {
        let sizes = lock(&self.seen.list_bytes);
        let last = sizes.iter().rev().find(|(name, _)| *name == list);
        last.map_or_else(|| panic!("no {list}/list answer came"), |(_, n)| *n)
    }

    /// Every resource the server lists, as JSON.
    pub async fn resources(&self) -> Vec<Value> {
        let list = within(self.service.list_all_resources()).await.unwrap();
        list.iter()
            .map(|r| serde_json::to_value(r).unwrap())
            .collect()
    }

    /// Every resource template the server lists, as JSON.
    pub async fn resource_templates(&self) -> Vec<Value> {
        let list = within(self.service.list_all_resource_templates())
            .await
            .unwrap();
        list.iter()
            .map(|r| serde_json::to_value(r).unwrap())
            .collect()
    }

    /// Subscribe to `uri`.
    pub async fn subscribe(&self, uri: &str) {
        within(self.service.subscribe(SubscribeRequestParams::new(uri)))
            .await
            .unwrap_or_else(|e| panic!("subscribing to {uri}: {e}"));
    }

    /// Read `uri`: its one content's `mimeType` and its text parsed as JSON, or the
    /// server's error.
    pub async fn read(&self, uri: &str) -> Result<(String, Value), ErrorData> {
        match within(
            self.service
                .read_resource(ReadResourceRequestParams::new(uri)),
        )
        .await
        {
            Ok(result) => {
                let result = serde_json::to_value(result).unwrap();
                let content = &result["contents"][0];
                let text = content["text"].as_str().unwrap();
                Ok((
                    content["mimeType"].as_str().unwrap_or("").to_string(),
                    serde_json::from_str(text).unwrap(),
                ))
            }
            Err(ServiceError::McpError(err)) => Err(err),
            Err(other) => panic!("reading {uri}: {other}"),
        }
    }

    /// Call a tool: its CallToolResult as JSON, or the protocol error.
    pub async fn try_call(&self, tool: &str, arguments: Value) -> Result<Value, ErrorData> {
        call(&self.peer(), tool, arguments).await
    }

    /// Call a tool; returns its CallToolResult as JSON, failing on a protocol error.
    pub async fn call(&self, tool: &str, arguments: Value) -> Value {
        self.try_call(tool, arguments)
            .await
            .unwrap_or_else(|e| panic!("{tool}: {e:?}"))
    }

    /// Send a tool call and return once it is on its way to the server (so that
    /// whatever the test sends next arrives after it); the task answers its
    /// CallToolResult as JSON.
    pub async fn spawn(&self, tool: &str, arguments: Value) -> tokio::task::JoinHandle<Value> {
        let Value::Object(arguments) = arguments else {
            panic!("tool arguments are a JSON object: {arguments}")
        };
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let sent = self
            .peer()
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
            .unwrap_or_else(|e| panic!("sending {tool}: {e}"));
        let tool = tool.to_string();
        tokio::spawn(async move {
            match within(sent.await_response()).await {
                Ok(ServerResult::CallToolResult(result)) => serde_json::to_value(result).unwrap(),
                other => panic!("{tool}: {other:?}"),
            }
        })
    }

    /// Send a tool call without waiting for its answer: the handle cancels it
    /// (`notifications/cancelled`) and names the progress token rmcp's client gives
    /// every request.
    pub async fn send_call(&self, tool: &str, arguments: Value) -> RequestHandle<RoleClient> {
        let Value::Object(arguments) = arguments else {
            panic!("tool arguments are a JSON object: {arguments}")
        };
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        self.peer()
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
            .unwrap_or_else(|e| panic!("sending {tool}: {e}"))
    }

    /// Wait until `n` elicitation requests have come.
    pub async fn elicited(&self, n: usize) {
        let wait = async {
            loop {
                let arrived = self.seen.arrived.notified();
                if self.elicitations().len() >= n {
                    return;
                }
                arrived.await;
            }
        };
        tokio::time::timeout(ANSWER_WAIT, wait)
            .await
            .expect("the server asked for approval");
    }

    /// Ask for log messages of `level` (`warning`, as MCP names it) and above only.
    pub async fn set_log_level(&self, level: &str) {
        let level: LoggingLevel = serde_json::from_value(json!(level)).expect("a level");
        within(self.service.set_level(SetLevelRequestParams::new(level)))
            .await
            .expect("logging/setLevel is answered");
    }

    /// Let one held approval ([`Elicitation::Held`]) answer.
    pub fn release_approval(&self) {
        self.seen.released.0.add_permits(1);
    }

    /// Call a tool that must succeed; returns its structured content.
    pub async fn ok(&self, tool: &str, arguments: Value) -> Value {
        ok_result(tool, self.call(tool, arguments).await)
    }

    /// Call a tool that must fail with `code`; returns its structured content.
    pub async fn fails(&self, tool: &str, arguments: Value, code: u16) -> Value {
        let result = self.call(tool, arguments).await;
        assert_eq!(result["isError"], true, "{tool} should fail: {result}");
        let err = result["structuredContent"].clone();
        assert_eq!(err["code"], code, "{tool}: {result}");
        assert!(err["hint"].as_str().is_some_and(|h| !h.is_empty()), "{err}");
        err
    }

    /// Wait for a notification that `matches` (among those already received, or the
    /// next ones). A `resources/updated` one must also have reached the handler,
    /// parsed by the SDK, with the same URI.
    pub async fn notification(&self, matches: impl Fn(&Value) -> bool) -> Value {
        let wait = async {
            let found = loop {
                let arrived = self.seen.arrived.notified();
                let all = self.notifications();
                if let Some(at) = all.iter().position(&matches) {
                    break updates(&all[..=at]);
                }
                arrived.await;
            };
            loop {
                let arrived = self.seen.arrived.notified();
                let typed = lock(&self.seen.typed_updates).clone();
                if typed.len() >= found.len() {
                    assert_eq!(typed[..found.len()], found[..], "the SDK's view differs");
                    break;
                }
                arrived.await;
            }
            self.notifications().into_iter().find(&matches).unwrap()
        };
        tokio::time::timeout(ANSWER_WAIT, wait)
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "no such notification in {ANSWER_WAIT:?}: {:?}",
                    self.notifications()
                )
            })
    }

    /// Wait for the `resources/updated` notification of `uri` whose event is `signal`
    /// (such as `dap_session_reaped`).
    pub async fn update(&self, uri: &str, signal: &str) -> Value {
        self.notification(|n| {
            n["params"]["uri"] == uri && n["params"]["_meta"]["dapvisor/event"]["signal"] == signal
        })
        .await
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id().expect("the server has not been waited for")
    }

    /// Wait for the server to exit on its own (the connection left open); returns its
    /// exit status.
    pub async fn exited(mut self) -> std::process::ExitStatus {
        tokio::time::timeout(ANSWER_WAIT, self.child.wait())
            .await
            .expect("the server exits")
            .unwrap()
    }

    /// Close the connection (the server's stdin) and wait for the server to exit;
    /// returns its exit status, after checking that its stdout carried only JSON-RPC.
    pub async fn close(mut self) -> std::process::ExitStatus {
        let _ = self.service.cancel().await;
        let status = tokio::time::timeout(ANSWER_WAIT, self.child.wait())
            .await
            .expect("the server exits when its client closes stdin")
            .unwrap();
        let junk = lock(&self.seen.not_json).clone();
        assert!(junk.is_empty(), "stdout must carry only JSON-RPC: {junk:?}");
        status
    }
}

/// The URIs of the `resources/updated` notifications in `list`.
fn updates(list: &[Value]) -> Vec<String> {
    list.iter()
        .filter(|n| n["method"] == "notifications/resources/updated")
        .map(|n| n["params"]["uri"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Call a tool on `peer`: its CallToolResult as JSON, or the protocol error. For calls
/// made from other tasks while the test goes on.
pub async fn call(
    peer: &Peer<RoleClient>,
    tool: &str,
    arguments: Value,
) -> Result<Value, ErrorData> {
    let Value::Object(arguments) = arguments else {
        panic!("tool arguments are a JSON object: {arguments}")
    };
    let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
    match within(peer.call_tool(params)).await {
        Ok(result) => Ok(serde_json::to_value(result).unwrap()),
        Err(ServiceError::McpError(err)) => Err(err),
        Err(other) => panic!("{tool}: {other}"),
    }
}

/// The structured content of a tool result that must be a success (with text).
pub fn ok_result(tool: &str, result: Value) -> Value {
    assert_ne!(result["isError"], true, "{tool} failed: {result}");
    let text = result["content"][0]["text"].as_str().unwrap_or("");
    assert!(!text.is_empty(), "{tool} gave no text: {result}");
    result["structuredContent"].clone()
}

async fn within<T>(answer: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(ANSWER_WAIT, answer)
        .await
        .unwrap_or_else(|_| panic!("no answer in {ANSWER_WAIT:?}"))
}
