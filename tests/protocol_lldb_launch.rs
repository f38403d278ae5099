//! How a real lldb-dap 22 runs average.c: `restart` runs the program again under the
//! same adapter, and a launch through the `runInTerminal` reverse request has dapvisor
//! start the debuggee in the adapter's process group.

mod common;

use common::*;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_runs_the_program_again_under_the_same_adapter() {
    let (runtime, session, line) = average_c_stopped_at("double mean = sum / count;").await;
    let adapter = session.adapter_pid().unwrap();
    let first = session.snapshot().await.unwrap().last_stop.unwrap();

    let ticket = session.restart().await.unwrap();
    let again = expect_stop(&session, ticket).await;
    assert_eq!(again.reason, "breakpoint");
    assert_ne!(again.thread_id, first.thread_id, "a new process");
    assert_eq!(session.adapter_pid(), Some(adapter), "the same adapter");
    let top = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    assert_eq!(top.line, line);
    assert_eq!(local(&session, "sum").await, "426");

    session
        .remove_breakpoint(program("c/average.c"), line)
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    runtime.shutdown().await;
}

/// The processes running `binary` (by the first word of their command line).
fn running(binary: &std::path::Path) -> Vec<u32> {
    let binary = binary.to_str().unwrap();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| cmdline(pid).split(' ').next() == Some(binary))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_in_terminal_starts_the_program_from_dapvisor() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("c/average.c");
    let line = line_of(&source, "double mean = sum / count;");
    // A copy of its own, so that the other tests' debuggees are not mistaken for it.
    let binary = c_binary().with_file_name(format!("average-in-terminal-{}", std::process::id()));
    std::fs::copy(c_binary(), &binary).unwrap();
    let mut spec = LaunchSpec::new(&binary).breakpoint(&source, line);
    spec.extra
        .insert("runInTerminal".into(), serde_json::Value::Bool(true));
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");

    // lldb-dap asked dapvisor to run the program's launch command: the debuggee is
    // this process's child, not the adapter's, and lldb-dap attached to it.
    let debuggees = running(&binary);
    assert_eq!(debuggees.len(), 1, "{debuggees:?}");
    let debuggee = debuggees[0];
    assert_eq!(parent(debuggee), Some(std::process::id()));
    assert_ne!(parent(debuggee), session.adapter_pid());
    // Each in a session of its own, with no terminal to take (ending the session
    // sweeps both).
    let adapter = session.adapter_pid().unwrap();
    assert_eq!(group_and_session(adapter), Some((adapter, adapter)));
    assert_eq!(group_and_session(debuggee), Some((debuggee, debuggee)));
    assert_eq!(stop.thread_id, Some(i64::from(debuggee)), "its main thread");
    assert_eq!(local(&session, "sum").await, "426");

    session.remove_breakpoint(&source, line).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    // Its output came through the pipes dapvisor gave it.
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("average of 5 scores: 85.00"), "{out:?}");
    assert_eq!(wait_gone(vec![debuggee]).await, Vec::<u32>::new());
    runtime.shutdown().await;
}
