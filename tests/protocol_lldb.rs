//! What a real lldb-dap 22 (22.1.8, Debian 12's `lldb-22`) advertises on average.c,
//! and what follows from it: the refusals of what it does not advertise (stepping back,
//! goto, ...) and of the commands outside its registry entry's served list, with the
//! session untouched; the events it sends, published. The requests it serves:
//! disassembly, modules in pages and step-in targets (protocol_lldb_code.rs), data
//! breakpoints and setVariable (protocol_lldb_variables.rs), `restart` and a launch
//! through `runInTerminal` (protocol_lldb_launch.rs); memory, instruction breakpoints,
//! breakpoint locations and instruction steps (protocol_lldb_memory.rs); exceptionInfo
//! and filter options on a C++ throw (protocol_lldb_exceptions.rs).

mod common;
mod protocol_support;

use common::*;
use dapvisor::wire::types::SteppingGranularity;
use dapvisor::{RunTicket, Runtime, RuntimeConfig, StepKind};
use protocol_support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_advertises_what_docs_protocol_md_records() {
    let (runtime, session, _) = average_c_stopped_at("double mean = sum / count;").await;
    let snapshot = session.snapshot().await.unwrap();
    // The `initialize` answer and the `capabilities` event lldb-dap 22 sends once the
    // program's target exists (supportsModuleSymbolsRequest, supportsRestartRequest,
    // supportsStepInTargetsRequest), merged. Gone since lldb-dap 19:
    // supportsExceptionOptions, supportsProgressReporting, supportsRunInTerminalRequest
    // (the last two are the client's capabilities in DAP, which 19 set in its answer).
    let (capabilities, filters) = recorded("lldb-dap");
    assert_eq!(advertised(&snapshot), capabilities);
    assert_eq!(exception_filters(&snapshot), filters);
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_lldb_dap_does_not_advertise_is_refused_naming_it() {
    let (runtime, session, line) = average_c_stopped_at("double mean = sum / count;").await;
    let source = program("c/average.c");
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;

    assert_unsupported(session.step_back(None, None).await, "supportsStepBack");
    assert_unsupported(session.reverse_continue(None).await, "supportsStepBack");
    assert_unsupported(session.restart_frame(frame).await, "supportsRestartFrame");
    assert_unsupported(
        session.goto_targets(&source, line + 1, None).await,
        "supportsGotoTargetsRequest",
    );
    assert_unsupported(session.goto(None, 1).await, "supportsGotoTargetsRequest");
    assert_unsupported(
        session.loaded_sources().await,
        "supportsLoadedSourcesRequest",
    );
    assert_unsupported(
        session.set_expression("sum", "1", Some(frame)).await,
        "supportsSetExpression",
    );
    assert_unsupported(
        session.terminate_threads(vec![1]).await,
        "supportsTerminateThreadsRequest",
    );
    assert_unsupported(
        session.step_with(StepKind::In, None, None, true).await,
        "supportsSingleThreadExecutionRequests",
    );
    // With a granularity (which lldb-dap 22 takes) the single thread is still refused.
    assert_unsupported(
        session
            .step_with(
                StepKind::Over,
                None,
                Some(SteppingGranularity::Instruction),
                true,
            )
            .await,
        "supportsSingleThreadExecutionRequests",
    );
    assert_unsupported(
        session.continue_single_thread(None).await,
        "supportsSingleThreadExecutionRequests",
    );

    // Nothing reached the adapter: the session is as it was, and custom requests work.
    assert_eq!(local(&session, "sum").await, "426");
    let top = session.stack_trace(None, Some(1)).await.unwrap().remove(0);
    assert_eq!(top.line, line);
    let threads = session.custom_request("threads", None).await.unwrap();
    assert_eq!(threads["threads"].as_array().unwrap().len(), 1);
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_lldb_dap_19_would_abort_on_are_refused_and_the_session_lives() {
    let (runtime, session, _) = average_c_stopped_at("double mean = sum / count;").await;
    let adapter = session.adapter_pid().unwrap();
    let reason = "lldb-dap 19 aborts on any command it does not serve";
    // Sent, each of these makes lldb-dap 19 abort (SIGABRT), and the session would
    // restart after a crash; the registry entry's served list (written for 19) refuses
    // them, and nothing reaches the adapter. (lldb-dap 22 neither aborts nor loses
    // requests: it answers a made-up command with "unknown request" and serves
    // `locations`; the list refuses them all the same.)
    assert_unsupported(session.locations(1).await, reason);
    assert_unsupported(session.custom_request("madeUpCommand", None).await, reason);
    assert_unsupported(
        session
            .custom_request(
                "locations",
                Some(serde_json::json!({ "locationReference": 1 })),
            )
            .await,
        "`locations`",
    );

    // The same adapter still serves the session, which never restarted.
    assert_eq!(session.adapter_pid(), Some(adapter));
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(snapshot.restarts, 0);
    assert_eq!(snapshot.state, dapvisor::SessionState::Stopped);
    assert_eq!(local(&session, "sum").await, "426");
    let units = session
        .custom_request(
            "compileUnits",
            Some(serde_json::json!({
                "moduleId": "average"
            })),
        )
        .await;
    assert!(
        units.is_ok(),
        "a command it serves still goes out: {units:?}"
    );
    assert!(crate::common::is_alive(adapter));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_events_lldb_dap_sends_are_published() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut events = runtime.subscribe();
    let example = average_example();
    let session = runtime.launch(example.spec.clone()).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    session
        .set_breakpoints(program("c/average.c"), vec![])
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(example.exit_code));
    // lldb-dap 22 also sends a `module` event per module loaded, a `capabilities` event
    // once the program's target exists, and a `breakpoint` event ("changed") when the
    // line's breakpoint is resolved in the launched program.
    expect_signals(
        &mut events,
        &[
            "dap_process",
            "dap_module",
            "dap_capabilities",
            "dap_breakpoint",
            "dap_stopped",
            "dap_continued",
            "dap_output",
            "dap_exited",
            "dap_terminated",
        ],
    )
    .await;
    runtime.shutdown().await;
}
