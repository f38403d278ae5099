//! Remote and container targets through the MCP server: each adapter's debug server
//! runs a copy of the program from another folder tree (a temporary `srv/app`), and
//! the agent attaches over loopback with `path_mappings` while naming its own files.
//! Breakpoints by local path bind in the remote files; every path the agent reads
//! (the stop, the stack, the breakpoints, the session list) is its own, or marked
//! `remote:` where no mapping covers it. A target that drops the connection ends the
//! session as `target_gone`; a port nothing listens on is a clear error; the server
//! leaves no process behind. Real debugpy, dlv, lldb-dap, js-debug and CodeLLDB.

mod agent;
mod common;
mod remote_support;

use agent::mcp_client::{Elicitation, McpClient};
use agent::session_ends::{assert_target_gone, close_leaving_nothing, ended_entry};
use common::*;
use remote_support::*;
use serde_json::{json, Value};

async fn client() -> McpClient {
    McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await
}

/// The `file` of each frame of the stopped thread.
async fn stack_files(client: &McpClient, id: &str) -> Vec<String> {
    let stack = client
        .ok("debug_stack_trace", json!({ "session_id": id }))
        .await;
    stack["frames"]
        .as_array()
        .unwrap_or_else(|| panic!("{stack}"))
        .iter()
        .map(|f| f["file"].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_listen_in_another_tree_maps_every_path_and_ends_as_target_gone() {
    let local = program("python/ticker.py");
    let tree = RemoteTree::new("debugpy");
    let remote = tree.copy(&local);
    let (_target, server_port) = debugpy_server(&python(), &remote).await;
    // Through a tunnel, as to a container or a host elsewhere.
    let tunnel = Tunnel::open(server_port).await;
    let port = tunnel.port;
    let client = client().await;
    let line = line_of(&local, "return next");
    let attached = client
        .ok(
            "debug_attach",
            json!({ "host": "127.0.0.1", "port": port, "timeout": 60,
                    "path_mappings": [{ "local": local.parent().unwrap(), "remote": tree.app() }],
                    "breakpoints": [{ "file": local, "line": line }] }),
        )
        .await;
    assert_eq!(attached["adapter"], "debugpy", "{attached}");
    assert_eq!(attached["state"], "stopped", "{attached}");
    assert_eq!(attached["stop"]["line"], line, "{attached}");
    assert_eq!(attached["stop"]["file"], json!(local), "{attached}");
    let id = attached["session_id"].as_str().unwrap().to_string();

    let files = stack_files(&client, &id).await;
    assert_eq!(files[0], local.display().to_string(), "{files:?}");
    // runpy's frames are the target's Python's, which no mapping covers.
    assert!(
        files
            .iter()
            .any(|f| f.starts_with("remote:/") && f.ends_with("runpy.py")),
        "{files:?}"
    );
    assert!(
        !files.iter().any(|f| f.contains("srv/app")),
        "no unmapped remote path of the app: {files:?}"
    );
    // A breakpoint added by local path binds in the remote file, and its report
    // names the local one.
    let main_line = line_of(&local, "count = tick(count)");
    let set = client
        .ok(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": local, "line": main_line }),
        )
        .await;
    assert!(!set.to_string().contains("srv/app"), "{set}");
    assert!(
        set.to_string().contains(&local.display().to_string()),
        "{set}"
    );
    let next = client
        .ok("debug_continue", json!({ "session_id": id, "timeout": 60 }))
        .await;
    assert_eq!(next["stop"]["line"], main_line, "{next}");
    assert_eq!(next["stop"]["file"], json!(local), "{next}");

    // The program is the remote copy: its frame's `__file__` says so.
    let file = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "__file__" }),
        )
        .await;
    assert!(file.to_string().contains("srv/app/ticker.py"), "{file}");

    // The tunnel's far end goes: the connection drops, and the tunnel still accepts.
    tunnel.cut();
    let entry = ended_entry(&client, &id, 60).await;
    assert_target_gone(&entry);
    let failure = entry["failure"].as_str().unwrap();
    assert!(failure.contains(&format!("127.0.0.1:{port}")), "{entry}");
    close_leaving_nothing(client).await;
}

/// Attach `adapter` through a tunnel to the debug server at `port`, whose program
/// runs from `tree` and is `local` here, with a breakpoint at `needle` in `local`;
/// check that everything the agent reads names `local`, that a breakpoint added by
/// local path binds, that frames outside the mapping are marked `remote:` where
/// `marked` names one (a file of the target's runtime), and that a cut tunnel ends
/// the session as `target_gone` when `gone_on_cut`.
async fn attach_and_check(
    adapter: &str,
    port: u16,
    tree: &RemoteTree,
    local: &std::path::Path,
    needles: (&str, &str),
    extra: Value,
) -> (McpClient, String) {
    let client = client().await;
    let line = line_of(local, needles.0);
    let mut arguments = json!({ "host": "127.0.0.1", "port": port, "timeout": 60,
            "adapter": adapter,
            "path_mappings": [{ "local": local.parent().unwrap(), "remote": tree.app() }],
            "breakpoints": [{ "file": local, "line": line }] });
    for (key, value) in extra.as_object().unwrap() {
        arguments[key] = value.clone();
    }
    let mut attached = client.ok("debug_attach", arguments).await;
    assert_eq!(attached["adapter"], adapter, "{attached}");
    if adapter == "lldb-dap" || adapter == "codelldb" {
        // lldb-server holds the program at its entry: that stop comes first (lldb-dap
        // reports it as the signal that holds it, `pause`, and as `entry`).
        let reason = attached["stop"]["reason"].as_str().unwrap_or("");
        assert!(["pause", "entry"].contains(&reason), "{attached}");
        let id = attached["session_id"].clone();
        attached = client
            .ok("debug_continue", json!({ "session_id": id, "timeout": 60 }))
            .await;
        attached["session_id"] = id;
    }
    assert_eq!(attached["state"], "stopped", "{attached}");
    assert_eq!(attached["stop"]["line"], line, "{attached}");
    assert_eq!(attached["stop"]["file"], json!(local), "{attached}");
    let id = attached["session_id"].as_str().unwrap().to_string();
    let files = stack_files(&client, &id).await;
    assert_eq!(files[0], local.display().to_string(), "{files:?}");
    let app = tree.app().display().to_string();
    assert!(!files.iter().any(|f| f.contains(&app)), "{files:?}");

    let next_line = line_of(local, needles.1);
    let set = client
        .ok(
            "debug_set_breakpoint",
            json!({ "session_id": id, "file": local, "line": next_line }),
        )
        .await;
    assert!(!set.to_string().contains(&app), "{set}");
    let next = client
        .ok("debug_continue", json!({ "session_id": id, "timeout": 60 }))
        .await;
    assert_eq!(next["stop"]["line"], next_line, "{next}");
    assert_eq!(next["stop"]["file"], json!(local), "{next}");
    (client, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_headless_in_another_tree_maps_every_path_and_ends_as_target_gone() {
    let source = program("go/ticker");
    let local = source.join("main.go");
    let tree = RemoteTree::new("dlv");
    tree.copy_folder(&source);
    let binary = tree.build_go("ticker");
    let (_target, server_port) = dlv_server(&binary).await;
    let tunnel = Tunnel::open(server_port).await;
    let (client, id) = attach_and_check(
        "dlv",
        tunnel.port,
        &tree,
        &local,
        ("return next", "count = tick(count)"),
        json!({}),
    )
    .await;
    // Go's runtime frames are the target's toolchain's, which no mapping covers.
    let files = stack_files(&client, &id).await;
    assert!(
        files
            .iter()
            .any(|f| f.starts_with("remote:/") && f.ends_with("proc.go")),
        "{files:?}"
    );
    tunnel.cut();
    let entry = ended_entry(&client, &id, 60).await;
    assert_target_gone(&entry);
    close_leaving_nothing(client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_against_lldb_server_in_another_tree_maps_every_path_and_ends_as_target_gone() {
    let local = program("c/ticker.c");
    let tree = RemoteTree::new("lldb-dap");
    tree.copy(&local);
    let binary = tree.build_c("ticker.c", "ticker");
    let (_target, server_port) = lldb_server(&binary).await;
    let tunnel = Tunnel::open(server_port).await;
    let (client, id) = attach_and_check(
        "lldb-dap",
        tunnel.port,
        &tree,
        &local,
        ("return next", "count = tick(count)"),
        json!({ "program": binary }),
    )
    .await;
    // The modules' files too: the program's under the agent's folder, the target's
    // libraries marked as the target's (a name that is no path, `[vdso]`, as it is).
    let modules = client
        .ok("debug_modules", json!({ "session_id": id }))
        .await;
    let paths: Vec<&str> = modules["modules"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["path"].as_str())
        .collect();
    let own = local.parent().unwrap().join("ticker").display().to_string();
    assert!(paths.contains(&own.as_str()), "{modules}");
    assert!(
        paths
            .iter()
            .all(|p| *p == own || p.starts_with("remote:") || !p.starts_with('/')),
        "{modules}"
    );
    tunnel.cut();
    let moved = client
        .call("debug_continue", json!({ "session_id": id, "timeout": 30 }))
        .await;
    // lldb notices once it next speaks to the server: the continue fails with it.
    assert_eq!(moved["isError"], true, "{moved}");
    let entry = ended_entry(&client, &id, 60).await;
    assert_target_gone(&entry);
    close_leaving_nothing(client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn js_debug_against_node_inspect_in_another_tree_maps_every_path_and_ends_with_it() {
    let local = program("javascript/ticker.js");
    let tree = RemoteTree::new("js-debug");
    let remote = tree.copy(&local);
    let (_target, server_port) = node_inspect(&remote).await;
    let tunnel = Tunnel::open(server_port).await;
    let (client, id) = attach_and_check(
        "js-debug",
        tunnel.port,
        &tree,
        &local,
        ("ticks += 1;", "console.log(`tick ${ticks}`);"),
        json!({}),
    )
    .await;
    // Node's own frames (`<node_internals>/internal/timers`) are no files: they stay.
    let files = stack_files(&client, &id).await;
    assert!(
        files.iter().any(|f| f.starts_with("<node_internals>/")),
        "{files:?}"
    );
    // js-debug cannot tell a cut inspector connection from a program that ended (it
    // sees the socket close either way): the session ends as terminated, and is not
    // restarted.
    tunnel.cut();
    client
        .call("debug_continue", json!({ "session_id": id, "timeout": 30 }))
        .await;
    let entry = ended_entry(&client, &id, 60).await;
    assert_eq!(entry["state"], "terminated", "{entry}");
    assert_eq!(entry["restarts"], 0, "{entry}");
    close_leaving_nothing(client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_against_lldb_server_in_another_tree_maps_every_path_and_ends_as_target_gone() {
    let local = program("c/ticker.c");
    let tree = RemoteTree::new("codelldb");
    tree.copy(&local);
    let binary = tree.build_c("ticker.c", "ticker");
    let (_target, server_port) = lldb_server(&binary).await;
    let tunnel = Tunnel::open(server_port).await;
    let (client, id) = attach_and_check(
        "codelldb",
        tunnel.port,
        &tree,
        &local,
        ("return next", "count = tick(count)"),
        json!({ "program": binary }),
    )
    .await;
    tunnel.cut();
    let moved = client
        .call("debug_continue", json!({ "session_id": id, "timeout": 30 }))
        .await;
    assert_eq!(moved["isError"], true, "{moved}");
    let entry = ended_entry(&client, &id, 60).await;
    assert_target_gone(&entry);
    close_leaving_nothing(client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_port_or_a_refused_handshake_is_an_error_naming_host_port_and_adapter() {
    let client = client().await;
    // A port that was free a moment ago: nothing listens on it now.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // A server that takes the connection and closes it: a refused handshake.
    let refusing = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let refusing_port = refusing.local_addr().unwrap().port();
    let closer = tokio::spawn(async move {
        while let Ok((stream, _)) = refusing.accept().await {
            drop(stream);
        }
    });
    for port in [port, refusing_port] {
        for adapter in ["debugpy", "dlv", "lldb-dap", "js-debug", "codelldb"] {
            // CodeLLDB attaches only with the binary (below without it).
            let program = (adapter == "codelldb").then(c_binary);
            let result = client
                .call(
                    "debug_attach",
                    json!({ "host": "127.0.0.1", "port": port, "adapter": adapter,
                            "program": program, "timeout": 30 }),
                )
                .await;
            let text = result["structuredContent"]["error"].as_str().unwrap_or("");
            assert_eq!(result["isError"], true, "{adapter}: {result}");
            assert!(
                text.contains(&format!("127.0.0.1:{port}")),
                "{adapter}: {text}"
            );
            assert!(text.contains(adapter), "{adapter}: {text}");
        }
    }
    closer.abort();
    let without = client
        .fails(
            "debug_attach",
            json!({ "host": "127.0.0.1", "port": port, "adapter": "codelldb" }),
            400,
        )
        .await;
    assert!(
        without["error"]
            .as_str()
            .unwrap()
            .contains("pass `program`"),
        "{without}"
    );
    close_leaving_nothing(client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn path_mappings_that_cannot_be_applied_exactly_are_refused() {
    let client = client().await;
    let cases = [
        (
            json!([{ "local": "app", "remote": "/srv/app" }]),
            "not absolute",
        ),
        (
            json!([{ "local": "/w/a", "remote": "/srv" }, { "local": "/w/b", "remote": "/srv" }]),
            "mapped twice",
        ),
        (
            json!([{ "local": "/srv/app", "remote": "/srv" }]),
            "overlap",
        ),
    ];
    for (mappings, why) in cases {
        let err = client
            .fails(
                "debug_attach",
                json!({ "port": 1, "adapter": "debugpy", "path_mappings": mappings }),
                400,
            )
            .await;
        assert!(err["error"].as_str().unwrap().contains(why), "{err}");
    }
    close_leaving_nothing(client).await;

    // Under a root, a local folder outside it is refused as a breakpoint's file is.
    let root = program("python");
    let root = root.to_str().unwrap();
    let rooted = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all", "--root", root],
        Elicitation::Unsupported,
    )
    .await;
    let outside = program("go");
    let err = rooted
        .fails(
            "debug_attach",
            json!({ "port": 1, "adapter": "debugpy",
                    "path_mappings": [{ "local": outside, "remote": "/app" }] }),
            500,
        )
        .await;
    assert_eq!(err["kind"], "forbidden", "{err}");
    assert!(
        err["error"].as_str().unwrap().contains("outside the root"),
        "{err}"
    );
    close_leaving_nothing(rooted).await;
}
