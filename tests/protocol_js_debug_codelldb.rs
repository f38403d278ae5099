//! The protocol beyond the basics against real js-debug and CodeLLDB: what each
//! advertises (docs/PROTOCOL.md records it), and the requests past stepping and
//! inspecting that each serves here.

mod common;
mod protocol_support;

use common::*;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle};
use protocol_support::*;

/// cart.js under js-debug, stopped in `lineCents` for the tea.
async fn js_stopped() -> (Runtime, SessionHandle) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("javascript/cart.js");
    let line = line_of(&file, "return line.qty * unit;");
    let session = runtime
        .launch(LaunchSpec::new(&file).breakpoint(&file, line))
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    (runtime, session)
}

/// average.c under CodeLLDB, stopped in `mean_of` on the bug.
async fn codelldb_stopped() -> (Runtime, SessionHandle) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("c/average.c");
    let line = line_of(&source, "double mean = sum / count;");
    let session = runtime
        .launch(
            LaunchSpec::new(c_binary())
                .adapter("codelldb")
                .breakpoint(&source, line),
        )
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    (runtime, session)
}

/// The top frame's id.
async fn frame(session: &SessionHandle) -> i64 {
    session.stack_trace(None, Some(1)).await.unwrap()[0].id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn js_debug_advertises_what_docs_protocol_md_records() {
    let (runtime, session) = js_stopped().await;
    // The program's own session's answer (the bootstrap's is the same).
    assert_advertises_as_recorded(&session, "js-debug").await;
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_advertises_what_docs_protocol_md_records() {
    let (runtime, session) = codelldb_stopped().await;
    let snapshot = session.snapshot().await.unwrap();
    let (capabilities, filters) = recorded("CodeLLDB");
    assert_eq!(advertised(&snapshot), capabilities);
    // For C and C++; a Rust program's `rust_panic` is not offered but is accepted
    // (codelldb.rs::rust_values_read_as_rust_and_a_panic_stops).
    assert_eq!(exception_filters(&snapshot), filters);
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn js_debug_sets_variables_completes_lists_sources_and_refuses_what_it_lacks() {
    let (runtime, session) = js_stopped().await;
    let top = frame(&session).await;
    // Change `unit` in lineCents: the line's amount follows.
    let scopes = session.scopes(top).await.unwrap();
    let mut changed = None;
    for scope in scopes.iter().filter(|s| !s.expensive) {
        let vars = session.variables(scope.variables_reference).await.unwrap();
        if vars.iter().any(|v| v.name == "unit") {
            changed = Some(
                session
                    .set_variable(scope.variables_reference, "unit", "100")
                    .await
                    .unwrap(),
            );
        }
    }
    assert_eq!(changed.expect("`unit` is a local").value, "100");
    let eval = session
        .evaluate("line.qty * unit", Some(top), None)
        .await
        .unwrap();
    assert_eq!(eval.result, "300");

    let completions = session.completions("DELIV", 6, Some(top)).await.unwrap();
    assert!(
        completions.iter().any(|c| c.label == "DELIVERY_CENTS"),
        "{completions:?}"
    );
    let sources = session.loaded_sources().await.unwrap();
    assert!(
        sources
            .iter()
            .any(|s| s.path.as_deref().is_some_and(|p| p.ends_with("cart.js"))),
        "{sources:?}"
    );
    // js-debug has no function breakpoints and no disassembly.
    assert_unsupported(
        session
            .set_function_breakpoints(vec![dapvisor::wire::types::FunctionBreakpoint {
                name: "cartTotal".into(),
                ..Default::default()
            }])
            .await,
        "supportsFunctionBreakpoints",
    );
    assert_unsupported(
        session.disassemble(Some("0x0"), None, None, 4).await,
        "supportsDisassembleRequest",
    );
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_reads_and_writes_memory_disassembles_and_breaks_on_functions() {
    let (runtime, session) = codelldb_stopped().await;
    let top = frame(&session).await;
    // `sum`'s bytes, read from the program's memory at its address.
    let address = session
        .evaluate("/nat &sum", Some(top), None)
        .await
        .unwrap()
        .memory_reference
        .expect("a pointer has a memory reference");
    let read = session.read_memory(&address, None, 4).await.unwrap();
    let bytes = dapvisor::wire::base64::decode(read.data.as_deref().unwrap()).unwrap();
    assert_eq!(i32::from_le_bytes(bytes.try_into().unwrap()), 426);
    // Written back as 500: the program sees it.
    let data = dapvisor::wire::base64::encode(&500i32.to_le_bytes());
    session
        .write_memory(&address, None, &data, false)
        .await
        .unwrap();
    assert_eq!(
        session
            .evaluate("sum", Some(top), None)
            .await
            .unwrap()
            .result,
        "500"
    );

    let ip = session.instruction_pointer().await.unwrap();
    let code = session.disassemble(Some(&ip), None, None, 4).await.unwrap();
    assert_eq!(code.len(), 4, "{code:?}");
    assert!(!code[0].instruction.is_empty(), "{code:?}");

    session.terminate().await.unwrap();

    // A function breakpoint, set before the program runs.
    let mut spec = LaunchSpec::new(c_binary()).adapter("codelldb");
    spec.function_breakpoints = vec!["mean_of".into()];
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    // CodeLLDB calls it a breakpoint, hitting the function breakpoint's id.
    assert_eq!(stop.reason, "breakpoint", "{stop:?}");
    let snapshot = session.snapshot().await.unwrap();
    let id = snapshot.breakpoints.functions()[0]
        .actual
        .as_ref()
        .and_then(|b| b.id);
    assert_eq!(stop.hit_breakpoint_ids, [id.expect("the breakpoint's id")]);
    let top = session.stack_trace(None, Some(1)).await.unwrap().remove(0);
    assert_eq!(top.name, "mean_of");
    assert_eq!(local(&session, "count").await, "5");
    runtime.shutdown().await;
}

/// js-debug's by relaunch (its own would ask for a new session), CodeLLDB's with its
/// `restart` request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_runs_the_program_again_under_the_same_session() {
    for (runtime, session) in [js_stopped().await, codelldb_stopped().await] {
        let first = session.snapshot().await.unwrap();
        let line = first.last_stop.as_ref().and_then(|s| s.thread_id);
        let top = session.stack_trace(line, Some(1)).await.unwrap().remove(0);
        let ticket = session.restart().await.unwrap();
        let again = expect_stop(&session, ticket).await;
        assert_eq!(again.reason, "breakpoint", "{again:?}");
        let now = session
            .stack_trace(again.thread_id, Some(1))
            .await
            .unwrap()
            .remove(0);
        assert_eq!((now.name, now.line), (top.name, top.line));
        assert_eq!(runtime.sessions().len(), 1, "the same session");
        runtime.shutdown().await;
    }
}
