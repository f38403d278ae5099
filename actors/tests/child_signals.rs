//! Processes dapvisor starts begin with every signal at its default disposition and
//! none blocked, even when dapvisor itself ignores SIGINT and SIGQUIT (as a background
//! job of a non-interactive shell does) or blocks a signal. Read from each child's
//! `/proc/PID/status` (`SigIgn`, `SigBlk`) while it runs.
//!
//! This binary ignores SIGINT and SIGQUIT for its whole process: nothing else runs in it.

use dapvisor_actors::testing::clean_start;
use dapvisor_actors::testing::{run_in_terminal, spawn_adapter, Terminal};
use dapvisor_actors::wire::Request;
use serde_json::json;

/// Ignore SIGINT and SIGQUIT in this process, and block SIGUSR1 in this thread (the
/// one that spawns, under a current-thread runtime).
fn inherit_ignored_and_blocked_signals() {
    // SAFETY: plain calls on this process's own dispositions and this thread's mask.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGQUIT, libc::SIG_IGN);
        let mut blocked: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut blocked);
        libc::sigaddset(&mut blocked, libc::SIGUSR1);
        libc::pthread_sigmask(libc::SIG_BLOCK, &blocked, std::ptr::null_mut());
    }
}

/// The `SigIgn` and `SigBlk` masks of process `pid`.
fn ignored_and_blocked(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let mask = |name: &str| {
        let line = status
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in the status of {pid}"));
        u64::from_str_radix(line[name.len()..].trim(), 16).unwrap()
    };
    (mask("SigIgn:"), mask("SigBlk:"))
}

fn bit(signal: libc::c_int) -> u64 {
    1 << (signal - 1)
}

/// The signals the C library keeps for its threads (32 up to SIGRTMIN): no program
/// sets them, and the C library refuses to change them, so they are left as found.
fn reserved() -> u64 {
    (32..libc::SIGRTMIN()).map(bit).sum()
}

/// Check the child `pid` starts clean. Spawning returns once the child has run
/// `exec` (the standard library waits for it), so its status is its own.
fn assert_clean(pid: u32, what: &str) {
    let (ignored, blocked) = ignored_and_blocked(pid);
    assert_eq!(ignored & bit(libc::SIGINT), 0, "{what} ignores SIGINT");
    assert_eq!(ignored & bit(libc::SIGQUIT), 0, "{what} ignores SIGQUIT");
    let ignored = ignored & !reserved();
    assert_eq!(ignored, 0, "{what} ignores signals: {ignored:#x}");
    assert_eq!(blocked, 0, "{what} blocks signals: {blocked:#x}");
}

#[tokio::test]
async fn adapters_run_in_terminal_commands_and_probes_start_with_default_signals() {
    inherit_ignored_and_blocked_signals();
    let (ignored, _) = ignored_and_blocked(std::process::id());
    assert_ne!(ignored & bit(libc::SIGINT), 0, "this test ignores SIGINT");

    // An adapter.
    let piped = std::process::Stdio::piped();
    let mut adapter =
        spawn_adapter("sleep".as_ref(), &["30".into()], None, "test-tree", piped).unwrap();
    assert_clean(adapter.id().unwrap(), "the adapter");
    adapter.kill().await.unwrap();

    // A runInTerminal command.
    let request = Request::new(
        "runInTerminal",
        Some(json!({ "kind": "integrated", "cwd": "", "args": ["sleep", "30"] })),
    );
    let places = std::sync::Arc::new(tokio::sync::Semaphore::new(1));
    let plain = Terminal::default();
    let started = run_in_terminal(
        &request,
        None,
        "test-tree",
        &plain,
        places,
        |_, _| {},
        |_| {},
    );
    let (mut terminal, _) = started.unwrap();
    assert_clean(terminal.id().unwrap(), "the runInTerminal command");
    terminal.kill().await.unwrap();

    // A blocking probe (adapter detection, the debugpy install).
    let mut probe = clean_start::std_command("sleep").arg("30").spawn().unwrap();
    assert_clean(probe.id(), "a probe");
    probe.kill().unwrap();
    probe.wait().unwrap();
}
