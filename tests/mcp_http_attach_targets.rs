//! One debugger per attach target, over MCP's streamable HTTP with two clients: a
//! process or debug server that one client's session holds is not attached to again,
//! by the other client or by the same one, and the refusal names the session and its
//! owner. Nor is the server's own process attached to. Real adapters: debugpy (a debug server by port, and a launched debuggee by
//! pid) and lldb-dap (a C program attached to by pid).

mod agent;
mod common;
mod http_support;

use std::process::{Child, Command, Stdio};

use agent::*;
use http_support::HttpServer;
use serde_json::{json, Value};

/// A process the test started, killed when the test ends.
struct Target(Child);

impl Drop for Target {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The Python the tests run debugpy with (`DAPVISOR_PYTHON`, as the README says).
fn python() -> String {
    std::env::var("DAPVISOR_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// A Python serving debugpy on a port it picks and running the ticker; the port.
fn debug_server() -> (Target, u16) {
    let script = format!(
        "import debugpy, runpy\n\
         host, port = debugpy.listen(('127.0.0.1', 0))\n\
         print(port, flush=True)\n\
         runpy.run_path({:?}, run_name='__main__')\n",
        program("python/ticker.py").display().to_string()
    );
    let mut child = Command::new(python())
        .args(["-c", &script])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the debug server starts");
    let mut line = String::new();
    let stdout = child.stdout.take().unwrap();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    let port = line.trim().parse().expect("the debug server says its port");
    (Target(child), port)
}

/// `refused` is a refusal for a target that session `session` of client `owner` holds.
fn names_the_holder(refused: &Value, session: &str, owner: &str) {
    assert_eq!(refused["kind"], "target_held", "{refused}");
    let error = refused["error"].as_str().unwrap();
    assert!(
        error.contains(&format!(
            "held by session {session}, which belongs to client {owner}"
        )),
        "{refused}"
    );
    assert!(
        refused["hint"]
            .as_str()
            .unwrap()
            .contains(&format!("use session {session}")),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debug_server_one_client_attached_to_is_refused_to_every_other_attach() {
    let (_server_process, port) = debug_server();
    let server = HttpServer::start_with(&["--tools", "all"]).await;
    let a = server.initialize().await;
    let b = server.initialize().await;

    let attached = server
        .call(&a, 2, "debug_attach", json!({ "port": port }))
        .await;
    let s1 = attached["session_id"].as_str().unwrap().to_string();
    assert_eq!(attached["owner"], "c1", "{attached}");

    // The other client, by any name of the host; and its owner again.
    for (client, call, host) in [(&b, 2, "127.0.0.1"), (&b, 3, "localhost"), (&a, 3, "::1")] {
        let refused = server
            .refused(
                client,
                call,
                "debug_attach",
                json!({ "host": host, "port": port }),
            )
            .await;
        names_the_holder(&refused, &s1, "c1");
    }
    let listed = server.call(&b, 4, "debug_sessions", json!({})).await;
    assert_eq!(listed["sessions"].as_array().unwrap().len(), 1, "{listed}");

    // Once A lets go, B may attach.
    server
        .call(&a, 4, "debug_disconnect", json!({ "session_id": s1 }))
        .await;
    let again = server
        .call(&b, 5, "debug_attach", json!({ "port": port }))
        .await;
    assert_eq!(again["owner"], "c2", "{again}");
    let id = again["session_id"].as_str().unwrap();
    server
        .call(&b, 6, "debug_disconnect", json!({ "session_id": id }))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_one_client_attached_to_or_launched_is_refused_to_the_other() {
    let server = HttpServer::start_with(&["--tools", "all"]).await;
    let a = server.initialize().await;
    let b = server.initialize().await;

    // A attaches to a C program by pid with lldb-dap; B may not.
    let binary = common::build_c("ticker");
    let ticker = Target(
        Command::new(&binary)
            .stdout(Stdio::null())
            .spawn()
            .expect("the ticker starts"),
    );
    let pid = ticker.0.id();
    let by_pid = json!({ "pid": pid, "adapter": "lldb-dap", "program": binary });
    let attached = server.call(&a, 2, "debug_attach", by_pid.clone()).await;
    let s1 = attached["session_id"].as_str().unwrap().to_string();
    let refused = server.refused(&b, 2, "debug_attach", by_pid).await;
    names_the_holder(&refused, &s1, "c1");

    // A launches the Python ticker under debugpy, stopped in it; B may not attach to
    // the debuggee by its pid.
    let file = program("python/ticker.py");
    let line = line_of(&file, "next = count + 1");
    let launched = server
        .call(
            &a,
            3,
            "debug_launch",
            json!({ "program": file, "breakpoints": [{ "file": file, "line": line }] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    let s2 = launched["session_id"].as_str().unwrap().to_string();
    let listed = server.call(&a, 4, "debug_sessions", json!({})).await;
    let adapter = listed["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session_id"] == s2)
        .and_then(|s| s["adapter_pid"].as_u64())
        .expect("the session names its adapter's pid") as u32;
    let debuggee = common::procs::descendants(adapter)
        .into_iter()
        .find(|p| common::procs::cmdline(*p).ends_with("ticker.py"))
        .expect("the debuggee runs under its adapter");
    let refused = server
        .refused(
            &b,
            3,
            "debug_attach",
            json!({ "pid": debuggee, "adapter": "debugpy" }),
        )
        .await;
    names_the_holder(&refused, &s2, "c1");

    for (call, id) in [(5, &s1), (6, &s2)] {
        server
            .call(&a, call, "debug_terminate", json!({ "session_id": id }))
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_does_not_attach_to_itself() {
    let server = HttpServer::start_with(&["--tools", "all"]).await;
    let a = server.initialize().await;
    let own = server.child.id().expect("the server runs");
    let binary = env!("CARGO_BIN_EXE_dapvisor");
    let refused = server
        .refused(
            &a,
            2,
            "debug_attach",
            json!({ "pid": own, "adapter": "lldb-dap", "program": binary }),
        )
        .await;
    assert_eq!(refused["code"], 400, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("dapvisor's own process"),
        "{refused}"
    );
    let listed = server.call(&a, 3, "debug_sessions", json!({})).await;
    assert_eq!(listed["sessions"], json!([]), "{listed}");
}
