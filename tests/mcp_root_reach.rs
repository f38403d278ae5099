//! `--root` covers every path a launch hands an adapter or a test runner, over MCP with
//! real debugpy and pytest: a test id whose file lies outside the root (by an absolute
//! path, by `..` from a program inside it, through a link), the runner's arguments,
//! its configuration and conftest files above the root, `launch_args` that name a
//! program, a working directory or an interpreter outside it, a module that is not
//! the project's, and a restart whose program became a link out of the root. Each is
//! refused (`forbidden`) and none of the code outside runs; a test inside the root
//! runs, named relative to the root, whatever the server's own working directory.

mod agent;
mod common;

use std::path::{Path, PathBuf};

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::{json, Value};

/// A folder with the root in it and code outside it that leaves a mark when it runs;
/// removed when dropped.
struct Tree(PathBuf);

impl Tree {
    fn new(name: &str) -> Self {
        let top = std::env::temp_dir().join(format!("dapvisor-root-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&top);
        std::fs::create_dir_all(top.join("root")).unwrap();
        std::fs::create_dir_all(top.join("outside")).unwrap();
        let tree = Self(std::fs::canonicalize(&top).unwrap());
        let leaves = |what: &str| {
            format!(
                "open({:?}, 'a').write({what:?} + '\\n')\n",
                tree.mark_file().display().to_string()
            )
        };
        tree.write("root/test_ok.py", "def test_a():\n    assert True\n");
        tree.write("root/prog.py", "print('inside')\n");
        tree.write(
            "outside/test_evil.py",
            &format!(
                "{}def test_a():\n    pass\n",
                leaves("test outside the root")
            ),
        );
        tree.write("outside/evil_mod.py", &leaves("module outside the root"));
        tree.write(
            "outside/evil_plugin.py",
            &leaves("plugin named above the root"),
        );
        tree.write("conftest.py", &leaves("conftest above the root"));
        tree.write(
            "pytest.ini",
            "[pytest]\npythonpath = outside\naddopts = -p evil_plugin\n",
        );
        std::os::unix::fs::symlink(
            tree.0.join("outside/test_evil.py"),
            tree.root().join("link_evil.py"),
        )
        .unwrap();
        tree
    }

    fn root(&self) -> PathBuf {
        self.0.join("root")
    }

    fn outside(&self, file: &str) -> String {
        self.0.join("outside").join(file).display().to_string()
    }

    fn write(&self, file: &str, text: &str) {
        std::fs::write(self.0.join(file), text).unwrap();
    }

    /// Put a link to code outside the root in the program's place.
    fn link_program_outside(&self) {
        let program = self.root().join("prog.py");
        std::fs::remove_file(&program).unwrap();
        std::os::unix::fs::symlink(self.outside("test_evil.py"), &program).unwrap();
    }

    /// Where code outside the root writes when it runs.
    fn mark_file(&self) -> PathBuf {
        self.0.join("ran-outside")
    }

    /// What ran outside the root, if anything did.
    fn ran_outside(&self) -> Option<String> {
        std::fs::read_to_string(self.mark_file()).ok()
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn rooted_server(root: &Path) -> McpClient {
    let root = root.display().to_string();
    let flags = ["--permission-mode", "bypass_all", "--root", root.as_str()];
    McpClient::start_all_tools(&flags, Elicitation::Unsupported).await
}

/// The root's program launched and stopped at its entry; its session's id.
async fn stopped_at_entry(client: &McpClient) -> String {
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": "prog.py", "stop_on_entry": true }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    launched["session_id"].as_str().unwrap().to_string()
}

/// Insist that `arguments` launch nothing: refused by the root, saying `says`.
async fn refused(client: &McpClient, tree: &Tree, arguments: Value, says: &str) {
    let err = client.fails("debug_launch", arguments.clone(), 500).await;
    assert_eq!(err["kind"], "forbidden", "{arguments}: {err}");
    let text = format!("{} {}", err["error"], err["hint"]);
    assert!(text.contains(says), "{arguments}: {err}");
    assert_eq!(tree.ran_outside(), None, "{arguments}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rooted_launch_hands_its_runner_and_adapter_only_paths_inside_the_root() {
    let tree = Tree::new("launch");
    let client = rooted_server(&tree.root()).await;

    // The test's file: absolute, by `..` from the root, through a link.
    let evil = format!("{}::test_a", tree.outside("test_evil.py"));
    refused(
        &client,
        &tree,
        json!({ "test": evil }),
        "not under the root",
    )
    .await;
    let program = tree.root().display().to_string();
    let up = json!({ "test": "../outside/test_evil.py::test_a", "program": program });
    refused(&client, &tree, up, "not under the root").await;
    let linked = json!({ "test": "link_evil.py::test_a" });
    refused(&client, &tree, linked, "resolves to").await;
    // The runner's arguments, which could name that file (or a plugin, a config).
    let more = json!({ "test": "test_ok.py::test_a", "args": [tree.outside("test_evil.py")] });
    refused(&client, &tree, more, "no runner arguments").await;

    // The adapter's own arguments: a program, a working directory, an interpreter.
    let cases = [
        (
            json!({ "program": tree.outside("test_evil.py") }),
            "outside the root",
        ),
        (json!({ "cwd": tree.outside("") }), "outside the root"),
        (
            json!({ "python": "/usr/bin/python3" }),
            "not one this server takes",
        ),
        (
            json!({ "pythonArgs": ["-c", "0"] }),
            "not one this server takes",
        ),
        (json!({ "module": "evil_mod" }), "installed module"),
    ];
    for (launch_args, says) in cases {
        let arguments = json!({ "program": "prog.py", "launch_args": launch_args });
        refused(&client, &tree, arguments, says).await;
    }
    let module = json!({ "program": "prog.py", "module": "evil_mod", "cwd": "." });
    refused(&client, &tree, module, "installed module").await;

    // A test inside the root, named relative to it, runs under pytest with neither
    // the configuration nor the conftest above the root.
    let ran = client
        .ok(
            "debug_launch",
            json!({ "test": "test_ok.py::test_a", "timeout": 120 }),
        )
        .await;
    assert_eq!(ran["state"], "terminated", "{ran}");
    assert_eq!(ran["test"]["passed"], true, "{ran}");
    assert_eq!(tree.ran_outside(), None, "{ran}");
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_does_not_follow_a_link_put_in_the_programs_place() {
    let tree = Tree::new("restart");
    let client = rooted_server(&tree.root()).await;
    let id = stopped_at_entry(&client).await;

    tree.link_program_outside();
    let err = client
        .fails("debug_restart", json!({ "session_id": id }), 500)
        .await;
    assert_eq!(err["kind"], "forbidden", "{err}");
    assert_eq!(tree.ran_outside(), None);
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_restart_does_not_follow_a_link_put_in_the_programs_place() {
    let tree = Tree::new("crash");
    let client = rooted_server(&tree.root()).await;
    let id = stopped_at_entry(&client).await;
    let uri = format!("debugger://sessions/{id}");
    client.subscribe(&uri).await;
    let listed = client.ok("debug_sessions", json!({})).await["sessions"][0].clone();
    let adapter = listed["adapter_pid"].as_u64().unwrap() as i32;

    // The program becomes a link to code outside the root; then its adapter dies, and
    // the runtime would launch the program again on its own.
    tree.link_program_outside();
    unsafe { libc::kill(adapter, libc::SIGKILL) };
    let signal = |wanted: &'static str| {
        let uri = uri.clone();
        move |n: &Value| {
            n["params"]["uri"] == uri.as_str()
                && n["params"]["_meta"]["dapvisor/event"]["signal"] == wanted
        }
    };
    let failed = client.notification(signal("dap_session_failed")).await;
    let reason = failed["params"]["_meta"]["dapvisor/event"]["payload"].to_string();
    assert!(
        reason.contains("not started again") && reason.contains("prog.py"),
        "{failed}"
    );
    let restarted = client
        .notifications()
        .iter()
        .any(signal("dap_adapter_restarted"));
    assert!(
        !restarted,
        "the launch ran again: {:?}",
        client.notifications()
    );
    assert_eq!(tree.ran_outside(), None);
    assert!(client.close().await.success());
}
