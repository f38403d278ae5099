//! The runtime against a real CodeLLDB, which dials back to a loopback port the
//! runtime listens on: C, C++ and Rust programs built with debug info, their stops,
//! steps, locals, evaluations, exit codes and output; its launch arguments (program
//! arguments, working directory, stop on entry); exception filters (C++ throw, Rust
//! panic); Rust values shown as Rust; and how its `evaluate` reads expressions.

mod common;

use common::*;
use dapvisor::wire::types::SourceBreakpoint;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle};

/// The top frame's function name and line.
async fn top(session: &SessionHandle) -> (String, i64) {
    let frame = session.stack_trace(None, Some(1)).await.unwrap().remove(0);
    (frame.name, frame.line)
}

/// Evaluate `expression` in the top frame, in the default context.
async fn eval(session: &SessionHandle, expression: &str) -> String {
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    session
        .evaluate(expression, Some(frame), None)
        .await
        .unwrap_or_else(|e| panic!("`{expression}`: {e}"))
        .result
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_program_stops_steps_in_out_and_over_and_exits_with_its_code() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("c/average.c");
    let call = line_of(&source, "s.mean = mean_of(s.sum, s.count);");
    let session = runtime
        .launch(
            LaunchSpec::new(c_binary())
                .adapter("codelldb")
                .breakpoint(&source, call),
        )
        .await
        .unwrap();
    assert_eq!(
        session.snapshot().await.unwrap().adapter.as_deref(),
        Some("codelldb")
    );
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("compute_stats", call)
    );
    assert_eq!(frames[1].name, "main");

    let ticket = session.step_in(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let bug = line_of(&source, "double mean = sum / count;");
    assert_eq!(top(&session).await, ("mean_of".to_string(), bug));
    assert_eq!(local(&session, "sum").await, "426");
    // CodeLLDB's default evaluator (`simple`) does its arithmetic as Python does:
    // `/` divides exactly. `/nat ` hands the expression to lldb's C compiler, which
    // divides as the program does: the bug itself.
    let exact = eval(&session, "sum / count").await;
    assert!(exact.starts_with("85.2"), "{exact}");
    assert_eq!(eval(&session, "/nat sum / count").await, "85");

    let ticket = session.next(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "step");
    assert_eq!(
        top(&session).await,
        ("mean_of".to_string(), line_of(&source, "return mean;"))
    );
    assert_eq!(local(&session, "mean").await, "85");
    let ticket = session.step_out(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(top(&session).await, ("compute_stats".to_string(), call));

    session
        .set_breakpoints(&source, Vec::<SourceBreakpoint>::new())
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("average of 5 scores: 85.00"), "{out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpp_program_with_its_arguments_working_directory_and_a_throw() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("cpp/shelf.cpp");
    let binary = build_cpp("shelf");
    let line = line_of(&source, "return missing;");
    let cwd = std::env::temp_dir();
    let mut spec = LaunchSpec::new(&binary)
        .adapter("codelldb")
        .breakpoint(&source, line);
    spec.cwd = Some(cwd.clone());
    let session = runtime.launch(spec).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let (function, at) = top(&session).await;
    assert!(function.contains("Shelf::units_to_order"), "{function}");
    assert_eq!(at, line);
    assert_eq!(local(&session, "missing").await, "3");
    // Fields of a struct through a reference, and the working directory asked for.
    assert_eq!(eval(&session, "item.capacity - item.stock").await, "18");
    assert_eq!(eval(&session, "item.sku").await, "\"flour\"");
    let adapter = session.adapter_pid().expect("CodeLLDB runs");
    let debuggee = descendants(adapter)
        .into_iter()
        .find(|&pid| cmdline(pid).starts_with(&*binary.to_string_lossy()))
        .expect("the program runs under the adapter");
    let runs_in = std::fs::read_link(format!("/proc/{debuggee}/cwd")).unwrap();
    assert_eq!(runs_in, cwd.canonicalize().unwrap());
    let ticket = session.step_out(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert!(top(&session).await.0.contains("Shelf::reorder"));
    session
        .set_breakpoints(&source, Vec::<SourceBreakpoint>::new())
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(10));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("ordered 3 units of 2 items"), "{out:?}");

    // With its argument, the program looks up a sku it lacks: the throw stops it.
    let mut spec = LaunchSpec::new(&binary)
        .adapter("codelldb")
        .args(["lookup"]);
    spec.exception_filters = vec!["cpp_throw".into()];
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    let frames = session.stack_trace(None, None).await.unwrap();
    // CodeLLDB says `breakpoint`; the stop is the throw's.
    assert_eq!(stop.reason, "exception", "{stop:?}");
    assert_eq!(frames[0].name, "__cxa_throw");
    assert!(
        frames.iter().any(|f| f.name.contains("Shelf::stock_of")),
        "{frames:#?}"
    );
    session.terminate().await.unwrap();
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_values_read_as_rust_and_a_panic_stops() {
    let (runtime, session, source, line) = orders_stopped_at_total("codelldb").await;
    assert_eq!(top(&session).await, ("orders::main".to_string(), line));

    // Values, not addresses or C++-looking internals.
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    assert_orders_locals_read_as_rust(&session, frame).await;
    assert_eq!(eval(&session, "items[1]").await, "\"honey\"");
    assert_eq!(eval(&session, "coupon").await, "Some(15)");

    // Into order_total, and over its loop.
    let ticket = session.step_in(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(
        top(&session).await,
        (
            "orders::order_total".to_string(),
            line_of(&source, "let mut total = 0;")
        )
    );
    session
        .set_breakpoints(&source, Vec::<SourceBreakpoint>::new())
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(11));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("2 items, Pickup, total 1634 cents"), "{out:?}");

    // A panic, with CodeLLDB's filter for it.
    let mut spec = LaunchSpec::new(build_rust("orders"))
        .adapter("codelldb")
        .args(["panic"]);
    spec.exception_filters = vec!["rust_panic".into()];
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(stop.reason, "exception", "{stop:?}");
    assert!(frames[0].name.contains("rust_panic"), "{frames:#?}");
    assert!(
        frames.iter().any(|f| f.name == "orders::main"),
        "{frames:#?}"
    );
    session.terminate().await.unwrap();
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_on_entry_and_lldb_commands_through_evaluate() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("c/average.c");
    let mut spec = LaunchSpec::new(c_binary())
        .adapter("codelldb")
        .breakpoint(&source, line_of(&source, "double mean = sum / count;"));
    spec.stop_on_entry = true;
    let session = runtime.launch(spec).await.unwrap();
    // lldb halts the new process with SIGSTOP, which CodeLLDB reports as such.
    let entry = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(entry.reason, "exception");
    assert_eq!(entry.description.as_deref(), Some("signal SIGSTOP"));
    let ticket = session.continue_(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(top(&session).await.0, "mean_of");

    // Its console evaluates expressions; `/cmd ` runs an lldb command instead, on the
    // machine the adapter runs on, its output going to the session's output.
    let marker = format!("dapvisor-{}", std::process::id());
    let mut events = session.subscribe();
    let answer = eval(&session, &format!("/cmd platform shell echo {marker}")).await;
    assert_eq!(answer, "");
    // The command's output comes as an `output` event, around the answer.
    let printed = async {
        while let Some(received) = events.recv().await {
            if let dapvisor::Received::Event(event) = received {
                if let dapvisor::EventKind::Output { output, .. } = &event.kind {
                    if output.contains(&marker) {
                        return;
                    }
                }
            }
        }
        panic!("the session's events ended");
    };
    tokio::time::timeout(STOP_WAIT, printed)
        .await
        .expect("the command's output comes");
    // `/py ` runs Python inside the adapter, in any context.
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    let pid = session
        .evaluate("/py __import__('os').getpid()", Some(frame), Some("watch"))
        .await
        .unwrap();
    assert_eq!(pid.result, session.adapter_pid().unwrap().to_string());
    session.terminate().await.unwrap();
    runtime.shutdown().await;
}
