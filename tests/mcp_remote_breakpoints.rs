//! Breakpoints in a remote target's files that no path mapping covers, through the
//! MCP server: a stop there names the file `remote:/...`, and the agent passes that
//! path back to `debug_set_breakpoint`. It binds in the target's file, and the stop
//! it makes and the breakpoint list name it `remote:` again. `--root` is about this
//! machine's files: a remote path outside it is taken, a local one still refused; a
//! `remote:` path on a session that is not remote is refused, saying why. Real
//! debugpy and dlv debug servers over loopback, each running its program from a
//! folder tree no mapping covers.

mod agent;
mod common;
mod remote_support;

use agent::mcp_client::{Elicitation, McpClient};
use agent::session_ends::close_leaving_nothing;
use common::*;
use remote_support::*;
use serde_json::{json, Value};

/// A mapping that covers none of the target's files: every one of them is shown
/// marked as the target's.
fn mapping_elsewhere(local: &std::path::Path) -> Value {
    json!([{ "local": local, "remote": "/dapvisor-test-no-such-folder" }])
}

/// Attach with `arguments` (whose breakpoints stop the program in `remote_file`), and
/// check the stop names the file marked; returns the session id and the marked path,
/// as the agent read it.
async fn stopped_in_remote_file(
    client: &McpClient,
    arguments: Value,
    remote_file: &std::path::Path,
) -> (String, String) {
    let attached = client.ok("debug_attach", arguments).await;
    assert_eq!(attached["state"], "stopped", "{attached}");
    // A breakpoint in a marked file is not looked for on this machine.
    let unverified = attached["unverified_breakpoints"].to_string();
    assert!(!unverified.contains("no such file"), "{attached}");
    let marked = format!("remote:{}", remote_file.display());
    assert_eq!(attached["stop"]["file"], marked, "{attached}");
    // Its lines are the target's: none is read from this machine's files.
    assert!(attached["stop"].get("source").is_none(), "{attached}");
    let note = attached["stop"]["source_note"].as_str().unwrap_or("");
    assert!(note.contains("the remote target's file"), "{attached}");
    (attached["session_id"].as_str().unwrap().to_string(), marked)
}

/// Set a breakpoint at `line` of the marked path the agent read, continue to it, and
/// check that the breakpoint and the stop name that path.
async fn break_in_marked_file(client: &McpClient, id: &str, marked: &str, line: i64) {
    let set = client
        .ok(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": marked, "line": line }),
        )
        .await;
    assert_eq!(set["file"], marked, "{set}");
    let placed = set["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["requested_line"] == line)
        .unwrap_or_else(|| panic!("no breakpoint at line {line}: {set}"));
    assert_eq!(placed["verified"], true, "{set}");
    assert_eq!(placed["line"], line, "{set}");
    let next = client
        .ok("debug_continue", json!({ "session_id": id, "timeout": 60 }))
        .await;
    assert_eq!(next["stop"]["file"], marked, "{next}");
    assert_eq!(next["stop"]["line"], line, "{next}");
    // The session's resource lists it by the same path.
    let (_, session) = client
        .read(&format!("debugger://sessions/{id}"))
        .await
        .expect("the session's resource reads");
    assert!(
        session["breakpoints"].to_string().contains(marked),
        "{session}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_a_remote_file_no_mapping_covers_takes_breakpoints_by_its_marked_path() {
    let local = program("python/ticker.py");
    let tree = RemoteTree::new("debugpy-marked");
    let remote = tree.copy(&local);
    let (_target, port) = debugpy_server(&python(), &remote).await;
    // Under a root: the target's files are outside it, and are the target's to read.
    let root = program("python");
    let client = McpClient::start_all_tools(
        &[
            "--permission-mode",
            "bypass_all",
            "--root",
            root.to_str().unwrap(),
        ],
        Elicitation::Unsupported,
    )
    .await;
    // Stopped in `tick` (a function breakpoint: the agent has no file of the target's
    // to name yet), it reads the file marked, and passes it back.
    let arguments = json!({ "host": "127.0.0.1", "port": port, "timeout": 60,
                            "path_mappings": mapping_elsewhere(&root),
                            "breakpoints": [{ "function": "tick" }] });
    let (id, marked) = stopped_in_remote_file(&client, arguments, &remote).await;
    break_in_marked_file(
        &client,
        &id,
        &marked,
        line_of(&local, "count = tick(count)"),
    )
    .await;

    // The root still holds for this machine's files.
    let outside = program("go/ticker/main.go");
    let refused = client
        .fails(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": outside, "line": 3 }),
            500,
        )
        .await;
    assert_eq!(refused["kind"], "forbidden", "{refused}");
    // A marked path must be the target's absolute path.
    let refused = client
        .fails(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": "remote:ticker.py", "line": 3 }),
            400,
        )
        .await;
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("no absolute path"),
        "{refused}"
    );
    // A `statement` would need the file's text, which is the target's.
    let refused = client
        .fails(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": marked, "statement": "return next" }),
            400,
        )
        .await;
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("remote target's file"),
        "{refused}"
    );
    client
        .ok("debug_disconnect", json!({ "session_id": id }))
        .await;

    // A session whose program runs here has no remote files: not at its launch,
    // nor later.
    let discount = program("python/discount.py");
    let refused = client
        .fails(
            "debug_launch",
            json!({ "program": discount, "breakpoints": [{ "file": marked, "line": 3 }] }),
            400,
        )
        .await;
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("not attached to a remote target"),
        "{refused}"
    );
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": discount, "stop_on_entry": true }),
        )
        .await;
    let here = launched["session_id"].as_str().unwrap().to_string();
    let refused = client
        .fails(
            "debug_set_breakpoint",
            json!({ "session_id": here, "file": marked, "line": 3 }),
            400,
        )
        .await;
    let why = refused["error"].as_str().unwrap();
    assert!(why.contains("not attached to a remote target"), "{refused}");
    assert!(
        refused["hint"]
            .as_str()
            .unwrap()
            .contains("without `remote:`"),
        "{refused}"
    );
    client
        .ok("debug_terminate", json!({ "session_id": here }))
        .await;
    close_leaving_nothing(client).await;
}

/// `debug_goto_targets` and `debug_goto` name the place as the breakpoint tools do: a
/// remote target's file by its marked path, sent to debugpy as the target's own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_goto_takes_a_marked_remote_path() {
    let local = program("python/ticker.py");
    let tree = RemoteTree::new("debugpy-goto");
    let remote = tree.copy(&local);
    let (_target, port) = debugpy_server(&python(), &remote).await;
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let arguments = json!({ "host": "127.0.0.1", "port": port, "timeout": 60,
                            "path_mappings": mapping_elsewhere(&program("python")),
                            "breakpoints": [{ "function": "tick" }] });
    let (id, marked) = stopped_in_remote_file(&client, arguments, &remote).await;
    // debugpy jumps from a line's stop, not a function breakpoint's (a call): stop at
    // the function's first line first.
    let first = line_of(&local, "next = count + 1");
    client
        .ok(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": marked, "line": first }),
        )
        .await;
    let at_first = client
        .ok("debug_continue", json!({ "session_id": id, "timeout": 60 }))
        .await;
    assert_eq!(at_first["stop"]["line"], first, "{at_first}");
    let returns = line_of(&local, "return next");
    let targets = client
        .ok(
            "debug_goto_targets",
            json!({ "session_id": id, "file": marked, "line": returns }),
        )
        .await;
    let lines: Vec<&Value> = targets["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["line"])
        .collect();
    assert!(lines.contains(&&json!(returns)), "{targets}");
    let jumped = client
        .ok(
            "debug_goto",
            json!({ "session_id": id, "file": marked, "line": returns }),
        )
        .await;
    assert_eq!(jumped["goto_target"]["line"], returns, "{jumped}");
    // debugpy labels a target with the path it was sent: the target's own, unmarked.
    let label = jumped["goto_target"]["label"].as_str().unwrap();
    assert_eq!(label, format!("{}:{returns}", remote.display()), "{jumped}");
    assert_eq!(jumped["stop"]["file"], marked, "{jumped}");
    assert_eq!(jumped["stop"]["line"], returns, "{jumped}");
    assert_eq!(jumped["stop"]["reason"], "goto", "{jumped}");
    // A marked path must still be the target's absolute path.
    let refused = client
        .fails(
            "debug_goto",
            json!({ "session_id": id, "file": "remote:ticker.py", "line": returns }),
            400,
        )
        .await;
    let why = refused["error"].as_str().unwrap();
    assert!(why.contains("no absolute path"), "{refused}");
    client
        .ok("debug_disconnect", json!({ "session_id": id }))
        .await;
    close_leaving_nothing(client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_a_remote_file_no_mapping_covers_takes_breakpoints_by_its_marked_path() {
    let source = program("go/ticker");
    let local = source.join("main.go");
    let tree = RemoteTree::new("dlv-marked");
    tree.copy_folder(&source);
    let binary = tree.build_go("ticker");
    let (_target, port) = dlv_server(&binary).await;
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    // The attach's own breakpoints take a marked path too.
    let remote = tree.app().join("main.go");
    let in_tick = json!({ "file": format!("remote:{}", remote.display()),
                          "line": line_of(&local, "return next") });
    let arguments = json!({ "host": "127.0.0.1", "port": port, "timeout": 60,
                            "adapter": "dlv", "path_mappings": mapping_elsewhere(&source),
                            "breakpoints": [in_tick] });
    let (id, marked) = stopped_in_remote_file(&client, arguments, &remote).await;
    let in_main = line_of(&local, "count = tick(count)");
    break_in_marked_file(&client, &id, &marked, in_main).await;
    // Removed by the same path, one breakpoint goes; a file's whole list, replaced so.
    let removed = client
        .ok(
            "debug_remove_breakpoint",
            json!({ "session_id": id, "file": marked, "line": in_main }),
        )
        .await;
    assert_eq!(removed["file"], marked, "{removed}");
    assert_eq!(
        removed["breakpoints"].as_array().unwrap().len(),
        1,
        "{removed}"
    );
    let replaced = client
        .ok(
            "debug_set_breakpoints",
            json!({ "session_id": id, "file": marked, "lines": [in_main] }),
        )
        .await;
    assert_eq!(replaced["breakpoints"][0]["line"], in_main, "{replaced}");
    assert_eq!(
        replaced["breakpoints"].as_array().unwrap().len(),
        1,
        "{replaced}"
    );
    let next = client
        .ok("debug_continue", json!({ "session_id": id, "timeout": 60 }))
        .await;
    assert_eq!(next["stop"]["file"], marked, "{next}");
    assert_eq!(next["stop"]["line"], in_main, "{next}");
    client
        .ok("debug_disconnect", json!({ "session_id": id }))
        .await;
    close_leaving_nothing(client).await;
}
