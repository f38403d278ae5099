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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_in_over_and_out_of_apply_discount() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let call = line_of(&file, "discounted = apply_discount(line_cents)");
    let session = runtime
        .launch(LaunchSpec::new(&file).breakpoint(&file, call))
        .await
        .unwrap();

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("order_total", call)
    );
    let depth = frames.len();

    // Step in: the first line of apply_discount, called from the call line.
    let ticket = session.step_in(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "step");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(frames[0].name, "apply_discount");
    assert_eq!(
        frames[0].line,
        line_of(&file, "percent = discount_percent(amount)")
    );
    assert_eq!(
        (frames[1].name.as_str(), frames[1].line),
        ("order_total", call)
    );
    assert_eq!(frames.len(), depth + 1);
    assert_eq!(local(&session, "amount").await, "1000");

    // Step over: one line down, over the call of discount_percent.
    let ticket = session.next(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "step");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(frames[0].name, "apply_discount");
    assert_eq!(
        frames[0].line,
        line_of(&file, "return amount * (100 - percent) // 100")
    );
    assert_eq!(local(&session, "percent").await, "0");

    // Step out: debugpy stops back in order_total on the call line itself (the
    // assignment of the returned value is still to run), not on the next line.
    let ticket = session.step_out(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "step");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("order_total", call)
    );
    assert_eq!(frames.len(), depth);

    // One more step over finishes the assignment: the value came back.
    let ticket = session.next(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(frames[0].line, line_of(&file, "total += discounted"));
    assert_eq!(local(&session, "discounted").await, "1000");

    session.remove_breakpoint(&file, call).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(3));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_on_entry_stops_before_any_breakpoint() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let line = line_of(&file, "total += discounted");
    let mut spec = LaunchSpec::new(&file).breakpoint(&file, line);
    spec.stop_on_entry = true;
    let session = runtime.launch(spec).await.unwrap();

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "entry");
    assert_eq!(stop.epoch, 1, "the entry stop is the session's first");
    let frames = session.stack_trace(None, None).await.unwrap();
    // The module's first line (its docstring), before anything of it has run.
    assert_eq!((frames[0].name.as_str(), frames[0].line), ("<module>", 1));
    assert_eq!(session.output(0, 1 << 20).await.unwrap().text(), "");

    // The breakpoint still holds once the program runs on.
    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "breakpoint");
    assert_eq!(stop.epoch, 2);
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("order_total", line)
    );

    session.remove_breakpoint(&file, line).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(3));
    runtime.shutdown().await;
}
