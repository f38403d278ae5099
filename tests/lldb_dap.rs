//! The runtime against a real lldb-dap (lldb-dap-22 here) on a C program built with
//! `-g -O0`.

mod common;

use common::*;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finds_the_average_bug_and_steps() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("c/average.c");
    let line = line_of(&source, "double mean = sum / count;");
    let session = runtime
        .launch(LaunchSpec::new(c_binary()).breakpoint(&source, line))
        .await
        .unwrap();
    assert_eq!(
        session.snapshot().await.unwrap().adapter.as_deref(),
        Some("lldb-dap")
    );

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert!(
        frames[0].name.contains("mean_of"),
        "top frame {:?}",
        frames[0].name
    );
    assert_eq!(frames[0].line, line);
    assert!(
        frames[1].name.contains("compute_stats"),
        "caller {:?}",
        frames[1].name
    );
    assert_eq!(local(&session, "sum").await, "426");
    assert_eq!(local(&session, "count").await, "5");
    let eval = session
        .evaluate("sum / count", Some(frames[0].id), None)
        .await
        .unwrap();
    assert_eq!(eval.result, "85");

    // Step over the buggy line: the truncated mean is now visible.
    let ticket = session.next(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "step");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(frames[0].line, line_of(&source, "return mean;"));
    assert_eq!(local(&session, "mean").await, "85");

    // Step out lands back in the caller, on the line that called.
    let ticket = session.step_out(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert!(frames[0].name.contains("compute_stats"));
    assert_eq!(
        frames[0].line,
        line_of(&source, "s.mean = mean_of(s.sum, s.count);")
    );

    session.remove_breakpoint(&source, line).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(
        out.contains("average of 5 scores: 85.00"),
        "output was {out:?}"
    );
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_into_mean_of_and_over_its_lines() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("c/average.c");
    let call = line_of(&source, "s.mean = mean_of(s.sum, s.count);");
    let session = runtime
        .launch(LaunchSpec::new(c_binary()).breakpoint(&source, call))
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;

    // Into the call: past the prologue, on the function's first line, called from
    // the line that stopped.
    let ticket = session.step_in(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "step");
    let frames = session.stack_trace(None, Some(2)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("mean_of", line_of(&source, "double mean = sum / count;"))
    );
    assert_eq!(
        (frames[1].name.as_str(), frames[1].line),
        ("compute_stats", call)
    );
    assert_eq!(local(&session, "sum").await, "426");

    // Over the buggy line to the next one.
    let ticket = session.next(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("mean_of", line_of(&source, "return mean;"))
    );
    session.terminate().await.unwrap();
    runtime.shutdown().await;
}
