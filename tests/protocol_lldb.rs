//! The protocol beyond the basics against a real lldb-dap 22 (22.1.8, Debian 12's
//! `lldb-22`) on average.c: what it advertises, disassembly at the instruction
//! pointer, data breakpoints (by a variable and by an address), setVariable, modules in
//! pages, step-in targets, the `restart` request (memory, instruction breakpoints,
//! breakpoint locations and instruction steps: protocol_lldb_memory.rs); the refusals of what
//! it does not advertise (stepping back, goto, ...) and of the commands outside its
//! registry entry's served list; a launch through the `runInTerminal` reverse request.
//! (exceptionInfo and filter options on a C++ throw: protocol_lldb_exceptions.rs.)

mod common;
mod protocol_support;

use common::*;
use dapvisor::wire::types::SteppingGranularity;
use dapvisor::wire::types::{
    DataBreakpoint, DataBreakpointAccessType, DataBreakpointInfoArguments,
};
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionError, StepKind};
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
    assert_eq!(
        advertised(&snapshot),
        [
            "supportTerminateDebuggee",
            "supportsBreakpointLocationsRequest",
            "supportsCancelRequest",
            "supportsClipboardContext",
            "supportsCompletionsRequest",
            "supportsConditionalBreakpoints",
            "supportsConfigurationDoneRequest",
            "supportsDataBreakpointBytes",
            "supportsDataBreakpoints",
            "supportsDelayedStackTraceLoading",
            "supportsDisassembleRequest",
            "supportsEvaluateForHovers",
            "supportsExceptionFilterOptions",
            "supportsExceptionInfoRequest",
            "supportsFunctionBreakpoints",
            "supportsHitConditionalBreakpoints",
            "supportsInstructionBreakpoints",
            "supportsLogPoints",
            "supportsModuleSymbolsRequest",
            "supportsModulesRequest",
            "supportsReadMemoryRequest",
            "supportsRestartRequest",
            "supportsSetVariable",
            "supportsStepInTargetsRequest",
            "supportsSteppingGranularity",
            "supportsValueFormattingOptions",
            "supportsWriteMemoryRequest",
        ]
    );
    assert_eq!(
        exception_filters(&snapshot),
        ["cpp_catch", "cpp_throw", "objc_catch", "objc_throw"]
    );
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disassembles_at_the_current_instruction_pointer() {
    let (runtime, session, line) = average_c_stopped_at("double mean = sum / count;").await;
    let ip = session.instruction_pointer().await.unwrap();

    // No reference: the top frame's instruction pointer, on the stopped line.
    let here = session.disassemble(None, None, None, 5).await.unwrap();
    assert_eq!(here.len(), 5);
    assert_eq!(address(&here[0].address), address(&ip));
    assert_eq!(here[0].line, Some(line));
    let path = here[0].location.as_ref().and_then(|s| s.path.clone());
    assert!(path.unwrap().ends_with("average.c"));
    assert!(here.iter().all(|i| !i.instruction.trim().is_empty()));
    let addresses: Vec<u64> = here.iter().map(|i| address(&i.address)).collect();
    assert!(addresses.windows(2).all(|w| w[0] < w[1]), "{addresses:x?}");

    // Counted in instructions and in bytes, both ways (lldb-dap 19 read
    // `instructionOffset` as bytes and ignored `offset`, so the runtime asks from the
    // byte address and counts instructions itself; lldb-dap 22 reads both as the spec
    // says, and the answers are the same).
    let later = session
        .disassemble(Some(&ip), None, Some(2), 3)
        .await
        .unwrap();
    assert_eq!(later[0].address, here[2].address);
    let first_size = (addresses[1] - addresses[0]) as i64;
    let by_bytes = session
        .disassemble(Some(&ip), Some(first_size), None, 1)
        .await
        .unwrap();
    assert_eq!(by_bytes[0].address, here[1].address);
    // Offsets no adapter can take are refused before anything is sent.
    for (offset, instructions) in [(None, Some(i64::MIN)), (Some(i64::MAX), None)] {
        let refused = session
            .disassemble(Some(&ip), offset, instructions, 3)
            .await;
        assert!(
            matches!(refused, Err(SessionError::InvalidArgument(ref m)) if m.contains("32-bit")),
            "{refused:?}"
        );
    }
    let before = session.disassemble(None, None, Some(-3), 4).await.unwrap();
    assert_eq!(before.len(), 4);
    assert_eq!(address(&before[3].address), address(&ip));
    let back_then_on = session
        .disassemble(Some(&ip), Some(first_size), Some(-1), 1)
        .await
        .unwrap();
    assert_eq!(address(&back_then_on[0].address), address(&ip));

    let none = session.disassemble(None, None, None, 0).await.unwrap_err();
    assert_eq!(none.code(), 400, "{none}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_data_breakpoint_stops_where_the_variable_is_written() {
    let (runtime, session, line) = average_c_stopped_at("s.sum += scores[i];").await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    let locals = session.scopes(frame.id).await.unwrap()[0].variables_reference;
    let s = session
        .variables(locals)
        .await
        .unwrap()
        .into_iter()
        .find(|v| v.name == "s")
        .expect("local s");

    let info = session
        .data_breakpoint_info(DataBreakpointInfoArguments {
            variables_reference: Some(s.variables_reference),
            name: "sum".into(),
            ..DataBreakpointInfoArguments::default()
        })
        .await
        .unwrap();
    let data_id = info.data_id.clone().expect("s.sum can be watched");
    assert!(info.description.contains("sum"), "{info:?}");
    let access = info.access_types.unwrap_or_default();
    assert!(
        access.contains(&DataBreakpointAccessType::Write),
        "{access:?}"
    );

    // lldb-dap 22 also takes an address and a size (supportsDataBreakpointBytes): s.sum's
    // own address, 4 bytes, names the same watch.
    let sum_at = session
        .variables(s.variables_reference)
        .await
        .unwrap()
        .into_iter()
        .find(|v| v.name == "sum")
        .and_then(|v| v.memory_reference)
        .expect("s.sum has a memory reference");
    let by_address = session
        .data_breakpoint_info(DataBreakpointInfoArguments {
            name: sum_at.clone(),
            as_address: Some(true),
            bytes: Some(4),
            ..DataBreakpointInfoArguments::default()
        })
        .await
        .unwrap();
    assert_eq!(by_address.data_id.as_deref(), Some(data_id.as_str()));
    assert_eq!(
        data_id,
        format!("{}/4", sum_at.trim_start_matches("0x")),
        "lldb-dap 22's data ids are ADDRESS/SIZE"
    );

    let set = session
        .set_data_breakpoints(vec![DataBreakpoint {
            data_id,
            access_type: Some(DataBreakpointAccessType::Write),
            ..DataBreakpoint::default()
        }])
        .await
        .unwrap();
    assert_eq!(set.len(), 1);
    assert!(set[0].verified, "{set:?}");
    let id = set[0].id.expect("the data breakpoint's id");
    session
        .remove_breakpoint(program("c/average.c"), line)
        .await
        .unwrap();

    // Each write to s.sum stops right after it, with the new value in place: a
    // `data breakpoint` stop on that breakpoint (lldb-dap 19 said "watchpoint").
    for expected in ["90", "175"] {
        let ticket = session.continue_(None).await.unwrap();
        let stop = expect_stop(&session, ticket).await;
        let description = format!("data breakpoint {id}");
        assert_eq!(
            (stop.reason.as_str(), stop.description.as_deref()),
            ("data breakpoint", Some(description.as_str())),
            "{stop:?}"
        );
        assert_eq!(stop.hit_breakpoint_ids, [id]);
        let top = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
        assert_eq!(top.line, line + 1, "stopped after the write");
        let sum = session.evaluate("s.sum", Some(top.id), None).await.unwrap();
        assert_eq!(sum.result, expected);
    }

    // Removed: the program runs to its end.
    assert!(session
        .set_data_breakpoints(vec![])
        .await
        .unwrap()
        .is_empty());
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_variable_changes_what_the_program_computes() {
    let (runtime, session, line) = average_c_stopped_at("double mean = sum / count;").await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    let locals = session.scopes(frame.id).await.unwrap()[0].variables_reference;

    // lldb-dap 19 answered with `result`, lldb-dap 22 with `value`; the typed answer
    // has the value either way.
    let set = session.set_variable(locals, "sum", "500").await.unwrap();
    assert_eq!(set.value, "500");
    assert_eq!(local(&session, "sum").await, "500");
    let mean = session
        .evaluate("sum / count", Some(frame.id), None)
        .await
        .unwrap();
    assert_eq!(mean.result, "100");

    let bad = session.set_variable(locals, "no_such_local", "1").await;
    assert_adapter_refused(bad, "setVariable");

    session
        .remove_breakpoint(program("c/average.c"), line)
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("average of 5 scores: 100.00"), "{out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modules_come_in_pages_even_where_lldb_dap_sends_them_all() {
    let (runtime, session, _) = average_c_stopped_at("double mean = sum / count;").await;
    let all = session.modules(None, None).await.unwrap();
    let binary = c_binary();
    let name = binary.file_name().unwrap().to_str().unwrap();
    let program = all
        .modules
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no module {name} in {:?}", all.modules));
    assert_eq!(
        program.path.as_deref(),
        Some(binary.to_str().unwrap()),
        "{program:?}"
    );
    assert_eq!(program.symbol_status.as_deref(), Some("Symbols loaded."));
    assert!(all.modules.len() >= 3, "the program, the loader, libc");

    let page = session.modules(Some(1), Some(2)).await.unwrap();
    assert_eq!(page.modules, all.modules[1..3].to_vec());
    assert_eq!(page.total_modules, Some(all.modules.len() as i64));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_into_a_chosen_call_and_completes_names() {
    let (runtime, session, _) = average_c_stopped_at("s.mean = mean_of(s.sum, s.count);").await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();

    let names = session.completions("sc", 3, Some(frame.id)).await.unwrap();
    assert!(
        names.iter().any(|c| c.label.starts_with("scores")),
        "{names:?}"
    );

    let targets = session.step_in_targets(frame.id).await.unwrap();
    let mean_of = targets
        .iter()
        .find(|t| t.label.contains("mean_of"))
        .unwrap_or_else(|| panic!("no mean_of among {targets:?}"));
    let ticket = session.step_in_target(None, mean_of.id).await.unwrap();
    expect_stop(&session, ticket).await;
    let top = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    assert!(top.name.contains("mean_of"), "{top:?}");
    assert_eq!(local(&session, "sum").await, "426");
    runtime.shutdown().await;
}

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
    // In the adapter's process group, so that ending the session ends it.
    let adapter = session.adapter_pid().unwrap();
    assert_eq!(group_and_session(adapter).map(|g| g.0), Some(adapter));
    assert_eq!(group_and_session(debuggee).map(|g| g.0), Some(adapter));
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
