//! The runtime against a real dlv (DAP over TCP: dlv dials a port of ours) on the Go
//! example, both as a prebuilt binary and built from source by dlv.

mod common;

use common::*;
use dapvisor::wire::types::SourceBreakpoint;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finds_the_restock_bug_with_a_conditional_breakpoint() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("go/inventory/main.go");
    let line = line_of(&source, "return item.Stock < item.Threshold");
    // No adapter named: a Go binary is recognised by its build-info section.
    let mut spec = LaunchSpec::new(go_binary());
    spec.breakpoints.push({
        let mut value = dapvisor::InitialBreakpoint::new(source.clone(), line);
        value.condition = Some("item.Name == \"nuts\"".into());
        value
    });
    let session = runtime.launch(spec).await.unwrap();
    assert_eq!(
        session.snapshot().await.unwrap().adapter.as_deref(),
        Some("dlv")
    );

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(frames[0].name, "main.needsRestock");
    assert_eq!(frames[0].line, line);
    assert_eq!(frames[1].name, "main.restock");
    let eval = session
        .evaluate("item.Stock", Some(frames[0].id), None)
        .await
        .unwrap();
    assert_eq!(eval.result, "20");
    let eval = session
        .evaluate("item.Stock <= item.Threshold", Some(frames[0].id), None)
        .await
        .unwrap();
    assert_eq!(eval.result, "true");

    let ticket = session.step_out(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(frames[0].name, "main.restock");
    assert_eq!(
        frames[0].line,
        line_of(&source, "due := needsRestock(item)")
    );

    session
        .set_breakpoints(&source, Vec::<SourceBreakpoint>::new())
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(5));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(
        out.contains("ordered 73 units across 2 items"),
        "output was {out:?}"
    );
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn builds_from_source_in_debug_mode_and_steps_in_out_and_over_lines() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("go/inventory/main.go");
    let line = line_of(&source, "due := needsRestock(item)");
    let session = runtime
        .launch(LaunchSpec::new(program("go/inventory")).breakpoint(&source, line))
        .await
        .unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    // Into the call: dlv lands on the function's own line (its prologue).
    let ticket = session.step_in(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        (
            "main.needsRestock",
            line_of(&source, "func needsRestock(item Item) bool {")
        )
    );
    // Back out onto the calling line, whose assignment is still to finish.
    let ticket = session.step_out(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("main.restock", line)
    );

    // Line by line: the test of `due`, then (bolts is below its threshold) the
    // quantity, not the `continue`.
    for next in ["if !due {", "qty := item.Target - item.Stock"] {
        let ticket = session.next(None).await.unwrap();
        let stop = expect_stop(&session, ticket).await;
        assert_eq!(stop.reason, "step");
        let frames = session.stack_trace(None, Some(1)).await.unwrap();
        assert_eq!(
            (frames[0].name.as_str(), frames[0].line),
            ("main.restock", line_of(&source, next))
        );
    }
    assert_eq!(local(&session, "due").await, "true");
    session.terminate().await.unwrap();
    runtime.shutdown().await;
}

/// Issue 27, item 12: dlv refused dapvisor's connection now and then on a loaded
/// machine (its same-user check of each accepted loopback connection reads
/// `/proc/net/tcp`, and races). dlv is started with `--client-addr` and dials us: it
/// has no listening socket at all, so nothing of it accepts a connection to check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_dials_dapvisor_and_listens_on_no_port() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("go/inventory/main.go");
    let line = line_of(&source, "due := needsRestock(item)");
    let session = runtime
        .launch(LaunchSpec::new(go_binary()).breakpoint(&source, line))
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let dlv = session.adapter_pid().expect("dlv runs");
    assert!(cmdline(dlv).contains("--client-addr"), "{}", cmdline(dlv));
    assert_eq!(listening_sockets(dlv), Vec::<String>::new());
    // It is connected all the same: the session reads through it.
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("main.restock", line)
    );
    session.terminate().await.unwrap();
    runtime.shutdown().await;
}

/// The TCP sockets of process `pid` that listen (state `0A` in `/proc/net/tcp*`).
fn listening_sockets(pid: u32) -> Vec<String> {
    let inodes: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter_map(|link| {
            let link = link.to_string_lossy().into_owned();
            let inode = link.strip_prefix("socket:[")?.strip_suffix(']')?;
            Some(inode.to_string())
        })
        .collect();
    let mut listening = Vec::new();
    for table in ["tcp", "tcp6"] {
        let text = std::fs::read_to_string(format!("/proc/{pid}/net/{table}")).unwrap();
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
            if fields.get(3) == Some(&"0A")
                && fields.get(9).is_some_and(|i| inodes.iter().any(|n| n == i))
            {
                listening.push(format!("{table} {}", fields[1]));
            }
        }
    }
    listening
}
