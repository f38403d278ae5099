//! Who may open which core dump, over MCP: a dump is the program's memory, so its
//! path is held to `--root` like the program's (outside it, or through a link that
//! leads out, it is refused before any adapter sees it), and opening one is a
//! `read` for the permission gate: a server in `plan_only` mode, which only reads,
//! opens a dump, and still refuses to run the program.

mod agent;
mod common;
mod core_support;

use std::path::PathBuf;

use agent::mcp_client::{Elicitation, McpClient};
use common::*;
use serde_json::json;

/// A root holding the crashing program, and a dump of it made outside the root;
/// removed when dropped.
struct Tree {
    root: PathBuf,
    outside_core: PathBuf,
    _dump: core_support::Dump,
}

impl Tree {
    fn new(name: &str) -> Self {
        let binary = core_support::parcels_binary();
        let dump = core_support::dump_of(&binary, &[], &[]);
        let root =
            std::env::temp_dir().join(format!("dapvisor-core-root-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        std::fs::copy(&binary, root.join("parcels")).unwrap();
        Self {
            root: std::fs::canonicalize(&root).unwrap(),
            outside_core: dump.core.clone(),
            _dump: dump,
        }
    }

    fn path(&self, name: &str) -> String {
        self.root.join(name).display().to_string()
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// `core` refused as outside the root, before anything starts.
async fn refused(client: &McpClient, arguments: serde_json::Value, says: &str) {
    let err = client.fails("debug_launch", arguments.clone(), 500).await;
    assert_eq!(err["kind"], "forbidden", "{arguments}: {err}");
    let text = format!("{} {}", err["error"], err["hint"]);
    assert!(text.contains(says), "{arguments}: {err}");
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"], json!([]), "{arguments}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_core_outside_the_root_is_refused_and_one_inside_opens() {
    let tree = Tree::new("rooted");
    let root = tree.root.display().to_string();
    let flags = ["--permission-mode", "bypass_all", "--root", root.as_str()];
    let client = McpClient::start_all_tools(&flags, Elicitation::Unsupported).await;
    let program = tree.path("parcels");
    let outside = tree.outside_core.display().to_string();

    // Named directly, and through a link inside the root that leads out.
    refused(
        &client,
        json!({ "program": program, "core": outside }),
        "outside the root",
    )
    .await;
    std::os::unix::fs::symlink(&tree.outside_core, tree.root.join("core.link")).unwrap();
    refused(
        &client,
        json!({ "program": program, "core": "core.link" }),
        "outside the root",
    )
    .await;
    // The adapters' own spellings of a dump are not taken under a root.
    std::fs::copy(&tree.outside_core, tree.root.join("core")).unwrap();
    for own in [
        json!({ "coreFile": outside }),
        json!({ "coreFilePath": outside }),
        json!({ "targetCreateCommands": [format!("target create -c {outside}")] }),
    ] {
        refused(
            &client,
            json!({ "program": program, "core": "core", "launch_args": own }),
            "not one this server takes under its root",
        )
        .await;
    }

    // Inside the root, it opens.
    let opened = client
        .ok(
            "debug_launch",
            json!({ "program": "parcels", "core": "core", "timeout": 120 }),
        )
        .await;
    assert_eq!(opened["stop"]["kind"], "core", "{opened}");
    assert_eq!(opened["stop"]["core_file"], tree.path("core"), "{opened}");
    let pid = client.pid();
    assert!(client.close().await.success());
    assert_eq!(left_behind_by(pid).await, Vec::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_core_is_a_read_that_plan_only_allows_and_running_it_is_not() {
    let tree = Tree::new("plan");
    let flags = ["--permission-mode", "plan_only"];
    let client = McpClient::start_all_tools(&flags, Elicitation::Unsupported).await;
    let program = tree.path("parcels");
    let opened = client
        .ok(
            "debug_launch",
            json!({ "program": program, "core": tree.outside_core, "timeout": 120 }),
        )
        .await;
    assert_eq!(opened["stop"]["kind"], "core", "{opened}");
    assert_eq!(opened["stop"]["signal"], "SIGSEGV", "{opened}");
    let run = client
        .call("debug_launch", json!({ "program": program }))
        .await;
    assert_eq!(run["isError"], true, "running it is a start: {run}");
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"].as_array().unwrap().len(), 1);
    let pid = client.pid();
    assert!(client.close().await.success());
    assert_eq!(left_behind_by(pid).await, Vec::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_cannot_open_a_core_is_refused_saying_why() {
    let tree = Tree::new("refusals");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let program = tree.path("parcels");
    let core = tree.outside_core.display().to_string();
    let said = |err: &serde_json::Value| format!("{} {}", err["error"], err["hint"]);

    // An adapter that cannot: the error names those that can.
    let script = tree.path("tool.py");
    std::fs::write(&script, "print(1)\n").unwrap();
    let err = client
        .fails(
            "debug_launch",
            json!({ "program": script, "core": core }),
            400,
        )
        .await;
    let text = said(&err);
    assert!(text.contains("debugpy cannot open a core dump"), "{text}");
    for able in ["lldb-dap", "dlv", "codelldb"] {
        assert!(text.contains(able), "{able}: {text}");
    }
    let err = client
        .fails(
            "debug_launch",
            json!({ "program": program, "core": core, "adapter": "gdb" }),
            400,
        )
        .await;
    assert!(said(&err).contains("gdb cannot open a core dump"), "{err}");

    // Not a dump; a source instead of its binary; what only a run takes.
    let err = client
        .fails(
            "debug_launch",
            json!({ "program": program, "core": program }),
            400,
        )
        .await;
    assert!(said(&err).contains("is not a core dump"), "{err}");
    let source = program_source();
    let err = client
        .fails(
            "debug_launch",
            json!({ "program": source, "core": core }),
            400,
        )
        .await;
    assert!(said(&err).contains("is a source file"), "{err}");
    let err = client
        .fails(
            "debug_launch",
            json!({ "program": program, "core": core, "args": ["x"], "stdin": "y",
                    "breakpoints": [{ "file": source, "line": 3 }] }),
            400,
        )
        .await;
    assert!(
        said(&err).contains("takes no args, breakpoints, stdin"),
        "{err}"
    );
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"], json!([]));
    assert!(client.close().await.success());
}

/// The C program's source.
fn program_source() -> String {
    program("c/parcels.c").display().to_string()
}
