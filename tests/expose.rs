//! A person's editor on an agent's session (`debug.expose`), through the real MCP
//! server on real adapters, with a DAP client in the test acting as the editor: it
//! sees the stop, the stack and the variables; it is refused a move when the
//! session is shown read-only, and a wrong token; with `control` it steps, and the
//! agent's next `debug_wait` says an editor did, and the agent is notified as it joins,
//! moves and leaves; its leaving leaves the session as it
//! was, and ending the session (or closing the exposure) hangs up on it.

mod agent;
mod common;
mod editor_support;

use agent::mcp_client::{ok_result, Elicitation, McpClient};
use agent::*;
use editor_support::{refused, Editor};
use serde_json::{json, Value};

/// Launch `program` over MCP to a breakpoint at the line of `file` holding `needle`.
async fn stopped_at(mcp: &McpClient, program: &str, file: &str, needle: &str) -> (String, i64) {
    let line = line_of(file, needle);
    let launched = mcp
        .ok(
            "debug_launch",
            json!({"program": program, "breakpoints": [{"file": file, "line": line}]}),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    (launched["session_id"].as_str().unwrap().to_string(), line)
}

/// Expose session `id` (with `control`): its address and token.
async fn expose(mcp: &McpClient, id: &str, control: bool) -> (String, String) {
    let exposed = mcp
        .ok(
            "debug_expose",
            json!({"session_id": id, "control": control}),
        )
        .await;
    let address = exposed["address"].as_str().unwrap().to_string();
    // The answer hides the token (what an agent reads is kept); the person reads it
    // from the file the answer names, only theirs.
    let file = exposed["setup_file"].as_str().unwrap();
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(file).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600, "{file}");
    let setup: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let token = setup["token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 64, "{setup}");
    assert_ne!(
        exposed["token"], token,
        "the answer shows the token: {exposed}"
    );
    assert!(!exposed.to_string().contains(&token), "{exposed}");
    let exposed = setup;
    let port = address.rsplit(':').next().unwrap().parse::<u64>().unwrap();
    assert!(address.starts_with("127.0.0.1:"), "{exposed}");
    assert_eq!(exposed["vscode"]["debugServer"], port, "{exposed}");
    assert_eq!(exposed["vscode"]["token"], token, "{exposed}");
    assert_eq!(exposed["vscode"]["request"], "attach", "{exposed}");
    let nvim = exposed["nvim_dap"].as_str().unwrap();
    assert!(
        nvim.contains(&format!("port = {port}")) && nvim.contains(&token),
        "{nvim}"
    );
    (address, token)
}

/// The editor's top frame of thread `thread`, and the variables of its first scope.
async fn top_frame_and_locals(editor: &mut Editor, thread: &Value) -> (Value, Vec<Value>) {
    let stack = editor
        .request("stackTrace", json!({"threadId": thread}))
        .await;
    assert!(stack.success, "{stack:?}");
    let frame = stack.body_or_empty()["stackFrames"][0].clone();
    let scopes = editor
        .request("scopes", json!({"frameId": frame["id"]}))
        .await;
    assert!(scopes.success, "{scopes:?}");
    let reference = scopes.body_or_empty()["scopes"][0]["variablesReference"].clone();
    let variables = editor
        .request("variables", json!({"variablesReference": reference}))
        .await;
    assert!(variables.success, "{variables:?}");
    let list = variables.body_or_empty()["variables"]
        .as_array()
        .unwrap()
        .clone();
    (frame, list)
}

/// The data of the first MCP log message about session `id` whose signal is `signal`
/// (waiting for it if need be).
async fn editor_notice(mcp: &McpClient, id: &str, signal: &str) -> Value {
    let found = mcp
        .notification(|n| {
            n["method"] == "notifications/message"
                && n["params"]["data"]["signal"] == signal
                && n["params"]["data"]["session_id"] == id
        })
        .await;
    found["params"]["data"].clone()
}

/// Whether the endpoint at `address` is closed: it refuses the connection, or closes
/// it without serving it.
async fn endpoint_closed(address: &str) {
    if tokio::net::TcpStream::connect(address).await.is_err() {
        return;
    }
    let mut late = Editor::connect(address).await;
    late.until_closed().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_an_editor_sees_the_stop_and_variables_and_may_not_move_a_read_only_session() {
    let mcp =
        McpClient::start_all_tools(&["--allow", "debug.evaluate"], Elicitation::Unsupported).await;
    let file = discount();
    let (id, line) = stopped_at(&mcp, &file, &file, "discounted = apply_discount").await;
    let (address, token) = expose(&mcp, &id, false).await;

    let mut editor = Editor::connect(&address).await;
    let attached = editor.join(&token).await;
    assert!(attached.success, "{attached:?}");
    editor.event("initialized").await;
    let stopped = editor.event("stopped").await.body_or_empty();
    assert_eq!(stopped["reason"], "breakpoint", "{stopped}");
    let thread = stopped["threadId"].clone();
    let threads = editor.request("threads", json!({})).await;
    let listed = threads.body_or_empty()["threads"].clone();
    assert!(
        listed.as_array().unwrap().iter().any(|t| t["id"] == thread),
        "{listed}"
    );
    let (frame, locals) = top_frame_and_locals(&mut editor, &thread).await;
    assert_eq!(frame["line"], line, "{frame}");
    let line_cents = locals
        .iter()
        .find(|v| v["name"] == "line_cents")
        .expect("line_cents");
    // An evaluation passes the gate as the agent's own would (`--allow debug.evaluate`).
    let evaluated = editor
        .request(
            "evaluate",
            json!({"expression": "qty * price", "frameId": frame["id"], "context": "watch"}),
        )
        .await;
    assert!(evaluated.success, "{evaluated:?}");
    assert_eq!(evaluated.body_or_empty()["result"], line_cents["value"]);

    // Read-only: a move, and a change, are refused, naming why.
    for (command, arguments) in [
        ("continue", json!({"threadId": thread})),
        ("next", json!({"threadId": thread})),
        (
            "setVariable",
            json!({"variablesReference": 1, "name": "qty", "value": "0"}),
        ),
        (
            "setBreakpoints",
            json!({"source": {"path": file}, "breakpoints": []}),
        ),
    ] {
        let answer = editor.request(command, arguments).await;
        let why = refused(&answer);
        assert!(
            why.contains("read-only") || why.contains("session's own"),
            "{command}: {why}"
        );
    }
    // The session did not move, and no editor move is reported.
    let waited = mcp
        .ok("debug_wait", json!({"session_id": id, "timeout": 1}))
        .await;
    assert_eq!(waited["state"], "stopped", "{waited}");
    assert_eq!(waited["stop"]["line"], line, "{waited}");
    assert!(waited.get("editor_moves").is_none(), "{waited}");

    // A web page the person opens could post to the endpoint: an HTTP request carries
    // a Content-Length too, but a connection that does not begin as DAP is closed
    // before anything in it is read or answered.
    let body = r#"{"seq":1,"type":"request","command":"initialize","arguments":{}}"#;
    let post = format!(
        "POST / HTTP/1.1\r\nHost: {address}\r\nContent-Type: text/plain\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut page = tokio::net::TcpStream::connect(&address).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut page, post.as_bytes())
        .await
        .unwrap();
    let mut answer = Vec::new();
    let read = tokio::io::AsyncReadExt::read_to_end(&mut page, &mut answer);
    let _ = tokio::time::timeout(common::ANSWER_WAIT, read)
        .await
        .expect("the endpoint hangs up");
    assert!(answer.is_empty(), "{}", String::from_utf8_lossy(&answer));

    // A wrong token, or none, is refused and hung up on.
    for arguments in [json!({"token": "f".repeat(64)}), json!({})] {
        let mut intruder = Editor::connect(&address).await;
        let init = intruder
            .request("initialize", json!({"adapterID": "x"}))
            .await;
        assert!(init.success);
        let answer = intruder.request("attach", arguments).await;
        assert!(refused(&answer).contains("token"), "{answer:?}");
        intruder.until_closed().await;
        assert!(intruder.closed);
    }

    // The editor leaving leaves the session as it was.
    let bye = editor.request("disconnect", json!({})).await;
    assert!(bye.success, "{bye:?}");
    editor.until_closed().await;
    let stack = mcp.ok("debug_stack_trace", json!({"session_id": id})).await;
    assert_eq!(stack["frames"][0]["line"], line, "{stack}");

    // Ending the session hangs up on its editors and closes the endpoint.
    let mut watcher = Editor::connect(&address).await;
    assert!(watcher.join(&token).await.success);
    mcp.ok("debug_terminate", json!({"session_id": id})).await;
    watcher.until_closed().await;
    assert!(
        watcher.events.iter().any(|e| e.event == "terminated"),
        "{:?}",
        watcher.events
    );
    endpoint_closed(&address).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_an_editor_with_control_steps_and_the_agent_hears_it_made_the_move() {
    let mcp = McpClient::start_all_tools(&[], Elicitation::Unsupported).await;
    let file = discount();
    let (id, line) = stopped_at(&mcp, &file, &file, "discounted = apply_discount").await;
    mcp.subscribe(&format!("debugger://sessions/{id}")).await;
    let (address, token) = expose(&mcp, &id, true).await;
    let mut editor = Editor::connect(&address).await;
    assert!(editor.join(&token).await.success);
    // The agent hears at once that a person's editor may now move its program.
    let took = editor_notice(&mcp, &id, "editor_took_over").await;
    assert_eq!(took["payload"], json!({"editor": 1}), "{took}");
    assert!(
        took["message"]
            .as_str()
            .unwrap()
            .contains("joined with control"),
        "{took}"
    );
    let thread = editor.event("stopped").await.body_or_empty()["threadId"].clone();
    // A second editor watches at the same time.
    let mut second = Editor::connect(&address).await;
    assert!(second.join(&token).await.success);
    second.event("stopped").await;

    let stepped = editor.request("next", json!({"threadId": thread})).await;
    assert!(stepped.success, "{stepped:?}");
    editor.event("continued").await;
    let again = editor.event("stopped").await.body_or_empty();
    assert_eq!(again["reason"], "step", "{again}");
    second.event("continued").await;
    assert_eq!(second.event("stopped").await.body_or_empty(), again);
    // The move is notified as it is made (and, to a subscriber, as a resource update),
    // not only said in the next tool result.
    let moved = editor_notice(&mcp, &id, "editor_moved").await;
    assert_eq!(
        moved["payload"],
        json!({"editor": 1, "command": "next"}),
        "{moved}"
    );
    let update = mcp
        .update(&format!("debugger://sessions/{id}"), "editor_moved")
        .await;
    assert_eq!(
        update["params"]["_meta"]["dapvisor/event"]["payload"]["command"], "next",
        "{update}"
    );

    // The agent's next look says the program moved, and who moved it.
    let result = mcp
        .call("debug_wait", json!({"session_id": id, "timeout": 30}))
        .await;
    let waited = ok_result("debug_wait", result.clone());
    assert_eq!(waited["state"], "stopped", "{waited}");
    assert_eq!(waited["stop"]["line"], line + 1, "{waited}");
    assert_eq!(
        waited["editor_moves"]["moves"],
        json!([{"editor": 1, "command": "next"}]),
        "{waited}"
    );
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("editor"), "{text}");
    // Said once: the look after that has nothing new.
    let later = mcp
        .ok("debug_wait", json!({"session_id": id, "timeout": 1}))
        .await;
    assert!(later.get("editor_moves").is_none(), "{later}");

    // The agent's own moves reach the editor as events.
    let agent_step = mcp.ok("debug_step_over", json!({"session_id": id})).await;
    assert_eq!(agent_step["state"], "stopped", "{agent_step}");
    editor.event("continued").await;
    editor.event("stopped").await;

    // Closing the exposure hangs up on the editor and leaves the session stopped.
    let closed = mcp.ok("debug_unexpose", json!({"session_id": id})).await;
    assert_eq!(closed["closed"], true, "{closed}");
    editor.until_closed().await;
    second.until_closed().await;
    // Both editors had control: each gave it back as it was hung up on.
    let gave_back = |editor: u32| {
        move |n: &Value| {
            n["method"] == "notifications/message"
                && n["params"]["data"]["signal"] == "editor_gave_back"
                && n["params"]["data"]["payload"]["editor"] == editor
        }
    };
    mcp.notification(gave_back(1)).await;
    mcp.notification(gave_back(2)).await;
    let said: Vec<String> = editor
        .events
        .iter()
        .map(|e| {
            e.body_or_empty()["output"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert!(
        said.iter().any(|o| o.contains("debug.unexpose")),
        "{said:?}"
    );
    endpoint_closed(&address).await;
    let still = mcp
        .ok("debug_wait", json!({"session_id": id, "timeout": 1}))
        .await;
    assert_eq!(still["state"], "stopped", "{still}");
    mcp.ok("debug_terminate", json!({"session_id": id})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_an_editor_reads_the_stop_and_its_evaluations_are_gated_as_the_agents() {
    let mcp =
        McpClient::start_all_tools(&["--allow", "debug.evaluate"], Elicitation::Unsupported).await;
    let binary = c_binary().display().to_string();
    let source = program("c/average.c").display().to_string();
    let (id, line) = stopped_at(&mcp, &binary, &source, "double mean = sum / count").await;
    let (address, token) = expose(&mcp, &id, false).await;
    let mut editor = Editor::connect(&address).await;
    assert!(editor.join(&token).await.success);
    let thread = editor.event("stopped").await.body_or_empty()["threadId"].clone();
    let (frame, locals) = top_frame_and_locals(&mut editor, &thread).await;
    assert_eq!(frame["line"], line, "{frame}");
    let sum = locals.iter().find(|v| v["name"] == "sum").expect("sum");
    let watched = editor
        .request(
            "evaluate",
            json!({"expression": "sum", "frameId": frame["id"], "context": "watch"}),
        )
        .await;
    assert!(watched.success, "{watched:?}");
    assert_eq!(watched.body_or_empty()["result"], sum["value"]);
    // lldb-dap's console runs lldb commands on the host: `--allow debug.evaluate`
    // does not grant that to the agent, nor to the editor.
    let console = editor
        .request(
            "evaluate",
            json!({"expression": "platform shell id", "frameId": frame["id"], "context": "repl"}),
        )
        .await;
    let why = refused(&console);
    assert!(why.contains("host"), "{why}");
    let moved = editor.request("stepIn", json!({"threadId": thread})).await;
    assert!(refused(&moved).contains("read-only"), "{moved:?}");
    mcp.ok("debug_terminate", json!({"session_id": id})).await;
    editor.until_closed().await;
}
