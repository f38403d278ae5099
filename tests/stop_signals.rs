//! `dapvisor mcp` and `dapvisor debug` asked to stop by a signal (SIGTERM from a
//! service manager, SIGINT from Ctrl-C) while sessions are live, on real debugpy and
//! lldb-dap: each ends every session in order and exits. The launched programs and
//! every adapter are gone; a program attached to runs on, untraced.

mod agent;
mod common;

use std::process::{Child, Command, Stdio};

use agent::mcp_client::{Elicitation, McpClient, ANSWER_WAIT};
use agent::*;
use common::procs::{descendants, is_alive, runs_untraced, wait_gone};
use serde_json::json;

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

/// examples/programs/c/ticker.c, built once per test binary.
fn ticker_binary() -> std::path::PathBuf {
    static BUILT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| common::build_c("ticker")).clone()
}

/// The ticker running on its own, killed when the test ends.
struct Ticker(Child);

impl Drop for Ticker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A server with a debugpy session stopped at a breakpoint and, with `ticker`, an
/// lldb-dap session attached to it and stopped there; returns the server and every
/// process under it.
async fn serving_live_sessions(ticker: Option<&Ticker>) -> (McpClient, Vec<u32>) {
    let client = McpClient::start(BYPASS, Elicitation::Unsupported).await;
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": file, "breakpoints": [{ "file": file, "line": line }] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    if let Some(ticker) = ticker {
        let source = program("c/ticker.c").display().to_string();
        let line = line_of(&source, "return next");
        let attached = client
            .ok(
                "debug_attach",
                json!({ "pid": ticker.0.id(), "adapter": "lldb-dap",
                        "program": ticker_binary(),
                        "breakpoints": [{ "file": source, "line": line }] }),
            )
            .await;
        assert_eq!(attached["stop"]["line"], line, "{attached}");
    }
    let mut under = descendants(client.pid());
    under.retain(|&p| p != client.pid() && ticker.is_none_or(|t| p != t.0.id()));
    assert!(
        under.len() >= 2,
        "an adapter and its program run under the server: {under:?}"
    );
    (client, under)
}

fn send(signal: libc::c_int, pid: u32) {
    // SAFETY: sends a signal to the server this test started.
    let sent = unsafe { libc::kill(pid as libc::pid_t, signal) };
    assert_eq!(sent, 0, "the signal was sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_every_session_and_detaches_from_an_attached_program() {
    let ticker = Ticker(
        Command::new(ticker_binary())
            .stdout(Stdio::null())
            .spawn()
            .expect("the ticker starts"),
    );
    let (client, under) = serving_live_sessions(Some(&ticker)).await;
    send(libc::SIGTERM, client.pid());
    let status = client.exited().await;
    assert!(
        status.success(),
        "a stop asked for is a clean exit: {status}"
    );
    assert!(
        wait_gone(under.clone()).await.is_empty(),
        "no adapter or launched program is left: {under:?}"
    );
    let pid = ticker.0.id();
    assert!(is_alive(pid), "the attached program runs on");
    assert!(runs_untraced(pid), "and is not left stopped or traced");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_ends_every_session_even_when_the_server_started_with_it_ignored() {
    // As a background job of a non-interactive shell starts it: SIGINT ignored,
    // inherited by the server. A SIGINT sent on purpose still stops it in order.
    // SAFETY: changes this test process's own disposition only.
    unsafe { libc::signal(libc::SIGINT, libc::SIG_IGN) };
    let (client, under) = serving_live_sessions(None).await;
    send(libc::SIGINT, client.pid());
    let status = client.exited().await;
    assert!(
        status.success(),
        "a stop asked for is a clean exit: {status}"
    );
    assert!(
        wait_gone(under.clone()).await.is_empty(),
        "no adapter or launched program is left: {under:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_debug_run_ends_its_program_and_exits_as_a_shell_says() {
    use tokio::io::AsyncBufReadExt;
    let ticker = program("python/ticker.py").display().to_string();
    let location = format!("{ticker}:{}", line_of(&ticker, "next = count + 1"));
    let mut run = tokio::process::Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(["debug", &ticker, "--break", &location])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let dapvisor = run.id().unwrap();
    // Its first stop printed: the program and its adapter run under it.
    let mut stdout = tokio::io::BufReader::new(run.stdout.take().unwrap()).lines();
    let first_stop = async {
        while let Some(line) = stdout.next_line().await.unwrap() {
            if line.contains("stopped") {
                return line;
            }
        }
        panic!("dapvisor debug ended before its first stop");
    };
    tokio::time::timeout(ANSWER_WAIT, first_stop)
        .await
        .expect("the ticker stops at its breakpoint");
    let mut under = descendants(dapvisor);
    under.retain(|&p| p != dapvisor);
    assert!(under.len() >= 2, "the adapter and the program: {under:?}");
    send(libc::SIGINT, dapvisor);
    let out = tokio::time::timeout(ANSWER_WAIT, run.wait_with_output())
        .await
        .expect("dapvisor debug exits")
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("SIGINT: ending the session"), "{stderr}");
    assert!(wait_gone(under.clone()).await.is_empty(), "left: {under:?}");
}
