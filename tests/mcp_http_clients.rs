//! Many clients on one `dapvisor mcp --http` server at once, with real debugpy
//! sessions. Ten clients connect together and each finds discount.py's bug in a
//! session of its own, seeing every session but owning only its own; after SIGTERM no
//! adapter or debuggee is left. And a resource notification goes to the client that
//! subscribed to it, over that client's SSE stream, not to every client.

mod agent;
mod common;
mod http_support;

use std::cell::Cell;
use std::collections::HashSet;
use std::time::{Duration, Instant};

use agent::mcp_client::ANSWER_WAIT;
use agent::*;
use http_support::{updated, HttpServer};
use serde_json::{json, Value};
use tokio::sync::Barrier;

/// How many clients connect at once.
const CLIENTS: usize = 10;

/// How many times a client waits with `debug_wait` (each bounded by the catalogue's
/// default wait) for a stop that its launch or continue did not see in time: ten
/// debugpy sessions starting together on two shared cores can take longer than one
/// wait.
const STOP_ROUNDS: usize = 3;

/// How long a client waits at a meeting point for the slowest of the others: the most
/// the requests before it can take, each bounded by [`ANSWER_WAIT`].
const MEET_WAIT: Duration = Duration::from_secs(ANSWER_WAIT.as_secs() * 8);

/// One MCP client of the server: its MCP session, and the ids of its requests.
struct Client<'a> {
    server: &'a HttpServer,
    session: String,
    last_id: Cell<u64>,
}

impl<'a> Client<'a> {
    /// A client that connected and initialized.
    async fn connect(server: &'a HttpServer) -> Self {
        Self {
            server,
            session: server.initialize().await,
            last_id: Cell::new(1),
        }
    }

    fn next_id(&self) -> u64 {
        self.last_id.set(self.last_id.get() + 1);
        self.last_id.get()
    }

    /// Call `tool`, insisting that it succeeds; its structured result.
    async fn call(&self, tool: &str, arguments: Value) -> Value {
        self.server
            .call(&self.session, self.next_id(), tool, arguments)
            .await
    }

    /// `answer`, from a launch or a continue, once session `id` stopped: a stop later
    /// than the call's own wait is waited for with `debug_wait`.
    async fn stopped(&self, id: &str, mut answer: Value) -> Value {
        for _ in 0..STOP_ROUNDS {
            if answer["state"] != "running" {
                break;
            }
            answer = self.call("debug_wait", json!({ "session_id": id })).await;
        }
        assert_eq!(answer["state"], "stopped", "{answer}");
        answer
    }

    /// Subscribe to resource `uri`.
    async fn subscribe(&self, uri: &str) {
        self.server
            .subscribe(&self.session, self.next_id(), uri)
            .await;
    }
}

/// Wait at `meet` for the other clients, for no longer than [`MEET_WAIT`].
async fn meet(meet: &Barrier, why: &str) {
    tokio::time::timeout(MEET_WAIT, meet.wait())
        .await
        .unwrap_or_else(|_| panic!("the other clients never came {why}"));
}

/// What one client found, and what it ran.
struct Found {
    client: String,
    session_id: String,
    /// The adapter and everything under it, the debuggee among them.
    pids: Vec<u32>,
}

/// One client's whole run: connect, launch discount.py to a breakpoint in its loop,
/// show the bug, check that `debug.sessions` shows it as the owner of its own session
/// only, end the session. The clients meet once all have stopped (so every session is
/// listed) and again once all have listed (so none has ended yet).
async fn find_the_bug(server: &HttpServer, together: &Barrier) -> Found {
    let client = Client::connect(server).await;
    let line = line_of(discount(), "discounted = apply_discount");
    let launched = client
        .call(
            "debug_launch",
            json!({ "program": discount(), "breakpoints": [{"file": discount(), "line": line}] }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let me = launched["owner"].as_str().unwrap().to_string();
    client.stopped(&id, launched).await;

    // The bug: the first line item is discounted on its own, and gets nothing...
    let locals = client
        .call(
            "debug_variables",
            json!({ "session_id": id, "scope": "Locals" }),
        )
        .await;
    assert_eq!(var(&locals["variables"], "line_cents")["value"], "1000");
    let alone = client
        .call(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "apply_discount(line_cents)" }),
        )
        .await;
    assert_eq!(alone["result"], "1000", "{alone}");
    // ...while the order as a whole is in the 10% tier.
    let whole = client
        .call(
            "debug_evaluate",
            json!({ "session_id": id,
                    "expression": "discount_percent(sum(q * p for _, q, p in items))" }),
        )
        .await;
    assert_eq!(whole["result"], "10", "{whole}");

    // The adapter, and the debuggee under it.
    let listed = client.call("debug_sessions", json!({})).await;
    let mine = listed["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session_id"] == id.as_str())
        .unwrap_or_else(|| panic!("{me} does not list its own {id}: {listed}"));
    let adapter = mine["adapter_pid"].as_u64().unwrap() as u32;
    let mut pids = vec![adapter];
    pids.extend(common::procs::descendants(adapter));
    assert!(
        pids.iter()
            .any(|&p| common::procs::cmdline(p).contains("discount.py")),
        "no debuggee under adapter {adapter}: {pids:?}"
    );

    meet(together, "to a stop").await;
    let listed = client.call("debug_sessions", json!({})).await;
    assert_eq!(listed["you"], me.as_str(), "{listed}");
    let sessions = listed["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), CLIENTS, "every client's session: {listed}");
    let owned: Vec<&Value> = sessions
        .iter()
        .filter(|s| s["owner"] == me.as_str())
        .collect();
    assert_eq!(owned.len(), 1, "{me} owns one session: {listed}");
    assert_eq!(owned[0]["session_id"], id.as_str(), "{listed}");
    assert_eq!(owned[0]["may_drive"], true, "{listed}");
    for theirs in sessions.iter().filter(|s| s["session_id"] != id.as_str()) {
        assert_eq!(theirs["may_drive"], false, "{me} and {theirs}");
    }
    meet(together, "to their lists").await;

    let over = client
        .call("debug_terminate", json!({ "session_id": id }))
        .await;
    assert_eq!(over["state"], "terminated", "{over}");
    Found {
        client: me,
        session_id: id,
        pids,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_clients_at_once_each_find_the_bug_in_their_own_session() {
    let began = Instant::now();
    let mut server = HttpServer::start().await;
    let together = Barrier::new(CLIENTS);
    let found =
        futures::future::join_all((0..CLIENTS).map(|_| find_the_bug(&server, &together))).await;
    let clients: HashSet<&str> = found.iter().map(|f| f.client.as_str()).collect();
    let sessions: HashSet<&str> = found.iter().map(|f| f.session_id.as_str()).collect();
    assert_eq!(clients.len(), CLIENTS, "a client id each");
    assert_eq!(sessions.len(), CLIENTS, "a session each");

    server.terminate().await;
    let pids: Vec<u32> = found.into_iter().flat_map(|f| f.pids).collect();
    assert_eq!(
        common::procs::wait_gone(pids).await,
        Vec::<u32>::new(),
        "no adapter or debuggee outlives the server"
    );
    eprintln!("ten clients: {:?} in all", began.elapsed());
}

/// Whether `message` tells of a stop at a breakpoint (a stop on entry is not one).
fn at_a_breakpoint(message: &Value) -> bool {
    message["params"]["_meta"]["dapvisor/event"]["payload"]["reason"] == "breakpoint"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_is_notified_only_to_the_client_that_subscribed() {
    let mut server = HttpServer::start().await;
    let a = Client::connect(&server).await;
    let b = Client::connect(&server).await;
    let mut heard_by_a = server.listen(&a.session).await;
    let mut heard_by_b = server.listen(&b.session).await;

    // Each starts a session stopped on entry, subscribes to it, and sets a breakpoint
    // in the loop (which runs once per line item).
    let line = line_of(discount(), "discounted = apply_discount");
    let mut ids = Vec::new();
    for client in [&a, &b] {
        let launched = client
            .call(
                "debug_launch",
                json!({ "program": discount(), "stop_on_entry": true }),
            )
            .await;
        let id = launched["session_id"].as_str().unwrap().to_string();
        client.stopped(&id, launched).await;
        client.subscribe(&format!("debugger://sessions/{id}")).await;
        client
            .call(
                "debug_set_breakpoint",
                json!({ "session_id": id, "file": discount(), "line": line }),
            )
            .await;
        ids.push(id);
    }
    let (sa, sb) = (&ids[0], &ids[1]);
    let (uri_a, uri_b) = (
        format!("debugger://sessions/{sa}"),
        format!("debugger://sessions/{sb}"),
    );

    // A's session stops at the breakpoint: A hears of it on its stream.
    let moved = a.call("debug_continue", json!({ "session_id": sa })).await;
    a.stopped(sa, moved).await;
    let heard = heard_by_a
        .until(|m| updated(m, &uri_a) && at_a_breakpoint(m))
        .await;
    let event = &heard.last().unwrap()["params"]["_meta"]["dapvisor/event"];
    assert_eq!(event["session_id"], sa.as_str(), "{event}");
    assert_eq!(event["signal"], "dap_stopped", "{event}");

    // Then B's does. Every client's notifier reads the runtime's events in one order,
    // so by the time B hears of its own stop it has passed A's: it said nothing of it.
    let moved = b.call("debug_continue", json!({ "session_id": sb })).await;
    b.stopped(sb, moved).await;
    let heard = heard_by_b
        .until(|m| updated(m, &uri_b) && at_a_breakpoint(m))
        .await;
    assert!(
        !heard.iter().any(|m| updated(m, &uri_a)),
        "B heard of A's session: {heard:?}"
    );

    // Nor did A hear of B's: A's next stop comes with nothing about B's before it.
    let moved = a.call("debug_continue", json!({ "session_id": sa })).await;
    a.stopped(sa, moved).await;
    let heard = heard_by_a
        .until(|m| updated(m, &uri_a) && at_a_breakpoint(m))
        .await;
    assert!(
        !heard.iter().any(|m| updated(m, &uri_b)),
        "A heard of B's session: {heard:?}"
    );

    for (client, id) in [(&a, sa), (&b, sb)] {
        let over = client
            .call("debug_terminate", json!({ "session_id": id }))
            .await;
        assert_eq!(over["state"], "terminated", "{over}");
    }
    server.terminate().await;
}
