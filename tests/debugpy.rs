//! The runtime against a real debugpy: breakpoints, stack, variables, evaluate,
//! stepping, and running to the exit code with captured output.

mod common;

use common::*;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionState};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finds_the_discount_bug() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let line = line_of(&file, "total += discounted");
    let session = runtime
        .launch(LaunchSpec::new(&file).breakpoint(&file, line))
        .await
        .unwrap();

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(frames[0].name, "order_total");
    assert_eq!(frames[0].line, line);
    assert_eq!(frames[1].name, "main");
    assert_eq!(local(&session, "line_cents").await, "1000");
    assert_eq!(local(&session, "discounted").await, "1000");
    let eval = session
        .evaluate("qty * price", Some(frames[0].id), None)
        .await
        .unwrap();
    assert_eq!(eval.result, "1000");

    session.remove_breakpoint(&file, line).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(3));
    assert_eq!(session.state().await.unwrap(), SessionState::Terminated);
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("Order total: 55.25"), "output was {out:?}");
    runtime.shutdown().await;
}
