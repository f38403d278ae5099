//! Processes dapvisor did not start, on a real lldb-dap and a C program the test runs
//! itself: attaching to one, and ending one that a session attached to, touch a
//! foreign process, which Default mode asks about. A refused attach leaves the process
//! untraced; a refused terminate leaves it running.

mod agent;
mod common;
mod permission_support;

use std::process::{Child, Command, Stdio};

use agent::*;
use common::procs::is_alive;
use dapvisor::permission::{PermissionGate, PermissionMode};
use permission_support::*;
use serde_json::json;

/// examples/programs/c/ticker.c, built once per test binary.
fn ticker_binary() -> std::path::PathBuf {
    static BUILT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| common::build_c("ticker")).clone()
}

/// The ticker running on its own, killed when the test ends.
struct Ticker(Child);

impl Ticker {
    fn start() -> Self {
        let child = Command::new(ticker_binary())
            .stdout(Stdio::null())
            .spawn()
            .expect("the ticker starts");
        Ticker(child)
    }

    fn pid(&self) -> u32 {
        self.0.id()
    }

    /// The pid of the process tracing it (0: none), from /proc.
    fn tracer(&self) -> u32 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("TracerPid:"))
            .map(|v| v.trim().parse().unwrap())
            .unwrap()
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn attach_args(ticker: &Ticker) -> serde_json::Value {
    json!({ "pid": ticker.pid(), "adapter": "lldb-dap",
            "program": ticker_binary() })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn default_mode_asks_before_attaching_to_a_process_it_did_not_start() {
    let ticker = Ticker::start();
    let reviewer = Recording::new(false);
    let tools =
        gated_catalogue(PermissionGate::new(PermissionMode::Default).approver(reviewer.clone()))
            .await;
    let r = refused(&tools, "debug.attach", attach_args(&ticker)).await;
    assert!(r.text.contains("the reviewer said no"), "{}", r.text);
    let asked = reviewer.asked();
    assert_eq!(asked.len(), 1);
    let question = asked[0].summary();
    assert!(
        question.contains(&format!(
            "touches a process dapvisor did not start (pid: {})",
            ticker.pid()
        )),
        "{question}"
    );
    assert!(tools.runtime().sessions().is_empty());
    assert_eq!(
        ticker.tracer(),
        0,
        "the refused attach left the process alone"
    );
    assert!(is_alive(ticker.pid()));

    // Approved, it attaches.
    let yes = Recording::new(true);
    let attached = tools
        .call_with_approver("debug.attach", attach_args(&ticker), yes.as_ref())
        .await;
    assert!(!attached.is_error, "{}", attached.text);
    assert_ne!(ticker.tracer(), 0, "attached");
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn default_mode_asks_before_ending_a_program_a_session_attached_to() {
    let ticker = Ticker::start();
    let reviewer = Recording::new(false);
    let gate = PermissionGate::new(PermissionMode::Default).approver(reviewer.clone());
    let (open, gated) = open_and_gated(gate).await;
    let attached = ok(&open, "debug.attach", attach_args(&ticker)).await;
    let id = attached["session_id"].as_str().unwrap().to_string();

    for tool in ["debug.terminate", "debug.restart"] {
        let r = refused(&gated, tool, json!({ "session_id": id })).await;
        assert!(
            r.text.contains("the reviewer said no"),
            "{tool}: {}",
            r.text
        );
        let question = reviewer.asked().last().unwrap().summary();
        assert!(
            question.contains("touches a process dapvisor did not start")
                && question.contains(&format!("pid {}", ticker.pid())),
            "{question}"
        );
        assert!(
            is_alive(ticker.pid()),
            "{tool} refused: the program runs on"
        );
        assert_eq!(open.runtime().sessions().len(), 1);
    }
    assert_eq!(reviewer.asked().len(), 2);

    // Detaching leaves it as it was: no question.
    ok(&gated, "debug.disconnect", json!({ "session_id": id })).await;
    assert_eq!(reviewer.asked().len(), 2);
    assert!(is_alive(ticker.pid()));
    open.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ending_a_program_dapvisor_launched_asks_nothing() {
    let reviewer = Recording::new(false);
    let gate = PermissionGate::new(PermissionMode::Default).approver(reviewer.clone());
    let (open, gated) = open_and_gated(gate).await;
    let launched = ok(
        &open,
        "debug.launch",
        json!({ "program": discount(), "stop_on_entry": true }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    ok(&gated, "debug.terminate", json!({ "session_id": id })).await;
    assert!(reviewer.asked().is_empty());
    open.runtime().shutdown().await;
}
