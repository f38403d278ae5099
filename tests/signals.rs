//! dapvisor started with SIGINT and SIGQUIT ignored (as a non-interactive shell starts
//! a background job: `bash -c 'dapvisor mcp & wait'`) starts its adapters and their
//! debuggees with both at their defaults, on debugpy, lldb-dap and dlv: each process
//! under the adapter is read from `/proc/PID/status` while the program is stopped.
//! debugpy's graceful terminate depends on it: it interrupts the program with SIGINT.
//!
//! This binary ignores SIGINT and SIGQUIT for its whole process.

mod common;

use common::*;
use dapvisor::{RunTicket, Runtime, RuntimeConfig};

fn ignore_interrupts() {
    // SAFETY: changes this process's own dispositions only.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGQUIT, libc::SIG_IGN);
    }
}

/// The signals process `pid` ignores (`SigIgn`). A process gone before it could be
/// read fails the test: it would otherwise pass as ignoring nothing.
fn ignored(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_else(|e| panic!("process {pid} cannot be read ({e}): it ended early"));
    let mask = status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .unwrap_or_else(|| panic!("process {pid}'s status has no SigIgn line"));
    u64::from_str_radix(mask.trim(), 16).unwrap()
}

const INTERRUPTS: u64 = (1 << (libc::SIGINT - 1)) | (1 << (libc::SIGQUIT - 1));

async fn adapter_and_debuggee_take_interrupts(example: Example) {
    ignore_interrupts();
    assert_ne!(ignored(std::process::id()) & INTERRUPTS, 0);
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let session = runtime.launch(example.spec.clone()).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let adapter = session.adapter_pid().expect("the adapter is a process");
    let mut processes = vec![adapter];
    processes.extend(descendants(adapter));
    let described: Vec<String> = processes
        .iter()
        .map(|&p| format!("{p} {:#x} {}", ignored(p), cmdline(p)))
        .collect();
    assert!(
        described[1..].iter().any(|d| d.contains(&example.debuggee)),
        "the debuggee runs under the adapter: {described:#?}"
    );
    for (pid, line) in processes.iter().zip(&described) {
        assert_eq!(
            ignored(*pid) & INTERRUPTS,
            0,
            "a process under the adapter ignores SIGINT or SIGQUIT: {described:#?} ({line})"
        );
    }
    runtime.shutdown().await;
}

#[tokio::test]
async fn debugpy_and_its_debuggee_start_with_default_signals() {
    adapter_and_debuggee_take_interrupts(discount_example()).await;
}

#[tokio::test]
async fn lldb_dap_and_its_debuggee_start_with_default_signals() {
    adapter_and_debuggee_take_interrupts(average_example()).await;
}

#[tokio::test]
async fn dlv_and_its_debuggee_start_with_default_signals() {
    adapter_and_debuggee_take_interrupts(inventory_example()).await;
}
