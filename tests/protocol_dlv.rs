//! The protocol beyond the basics against a real dlv 1.20 on the Go example: what it
//! advertises, function breakpoints and goroutine threads, instruction breakpoints
//! (set, hit, removed), disassembly and a step of one instruction, variables in
//! pages, setVariable, restart by relaunch, the refusals of what dlv 1.20 does not
//! advertise, and exceptionInfo after a panic (examples/programs/go/shelves).

mod common;
mod protocol_support;

use common::*;
use dapvisor::wire::types::{FunctionBreakpoint, InstructionBreakpoint, SteppingGranularity};
use dapvisor::ErrorCode;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle, StepKind};
use protocol_support::*;

fn main_go() -> std::path::PathBuf {
    program("go/inventory/main.go")
}

/// The inventory under dlv, stopped at the first call of `needsRestock` (item
/// "bolts"), by a breakpoint on its only line.
async fn stopped_in_needs_restock() -> (Runtime, SessionHandle, i64) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let line = line_of(main_go(), "return item.Stock < item.Threshold");
    let session = runtime
        .launch(LaunchSpec::new(go_binary()).breakpoint(main_go(), line))
        .await
        .unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    (runtime, session, line)
}

async fn item_name(session: &SessionHandle) -> String {
    session
        .evaluate("item.Name", None, None)
        .await
        .unwrap()
        .result
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_advertises_what_docs_protocol_md_records() {
    let (runtime, session, _) = stopped_in_needs_restock().await;
    assert_advertises_as_recorded(&session, "dlv").await;
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn function_breakpoints_stop_and_goroutines_are_threads() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut spec = LaunchSpec::new(go_binary());
    spec.function_breakpoints = vec!["main.needsRestock".into()];
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "function breakpoint");
    let top = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    assert_eq!(top.name, "main.needsRestock");
    assert_eq!(item_name(&session).await, "\"bolts\"");

    // Every goroutine is a thread; the stopped one is where the program is.
    let threads = session.threads().await.unwrap();
    assert!(threads.len() > 1, "goroutines: {threads:?}");
    assert!(
        threads.iter().all(|t| t.name.contains("[Go ")),
        "{threads:?}"
    );
    let stopped = threads
        .iter()
        .find(|t| Some(t.id) == stop.thread_id)
        .unwrap();
    assert!(stopped.name.contains("main.needsRestock"), "{stopped:?}");

    let ticket = session.continue_(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(item_name(&session).await, "\"nuts\"");

    // Replaced by one on another function, then removed: the program runs out.
    let set = session
        .set_function_breakpoints(vec![FunctionBreakpoint {
            name: "main.main".into(),
            ..Default::default()
        }])
        .await
        .unwrap();
    assert!(set[0].verified, "{set:?}");
    assert!(session
        .set_function_breakpoints(vec![])
        .await
        .unwrap()
        .is_empty());
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(5));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instruction_breakpoints_are_set_hit_and_removed() {
    let (runtime, session, line) = stopped_in_needs_restock().await;
    let ip = session.instruction_pointer().await.unwrap();
    session.remove_breakpoint(main_go(), line).await.unwrap();

    let set = session
        .set_instruction_breakpoints(vec![InstructionBreakpoint {
            instruction_reference: ip.clone(),
            ..Default::default()
        }])
        .await
        .unwrap();
    assert_eq!(set.len(), 1);
    assert!(set[0].verified, "{set:?}");
    assert_eq!(set[0].line, Some(line));

    // The next call of needsRestock stops at that instruction.
    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "instruction breakpoint");
    assert_eq!(stop.hit_breakpoint_ids, vec![set[0].id.unwrap()]);
    assert_eq!(session.instruction_pointer().await.unwrap(), ip);
    assert_eq!(item_name(&session).await, "\"nuts\"");

    assert!(session
        .set_instruction_breakpoints(vec![])
        .await
        .unwrap()
        .is_empty());
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(5));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disassembles_and_steps_one_instruction() {
    let (runtime, session, line) = stopped_in_needs_restock().await;
    let ip = session.instruction_pointer().await.unwrap();
    let here = session.disassemble(None, None, None, 3).await.unwrap();
    assert_eq!(address(&here[0].address), address(&ip));
    assert_eq!(here[0].line, Some(line));
    assert!(here[0].instruction.contains("MOVQ"), "{here:?}");
    let on = session
        .disassemble(Some(&ip), None, Some(1), 2)
        .await
        .unwrap();
    assert_eq!(on[0].address, here[1].address);

    // One instruction: the pointer moves to the next one, on the same line.
    let ticket = session
        .step_with(
            StepKind::Over,
            None,
            Some(SteppingGranularity::Instruction),
            false,
        )
        .await
        .unwrap();
    assert_eq!(expect_stop(&session, ticket).await.reason, "step");
    let moved = session.instruction_pointer().await.unwrap();
    assert_eq!(address(&moved), address(&here[1].address));
    let top = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    assert_eq!(top.line, line);
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variables_in_pages_and_set_variable_fixes_the_bug_at_run_time() {
    let (runtime, session, _) = stopped_in_needs_restock().await;
    let ticket = session.continue_(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(item_name(&session).await, "\"nuts\"");
    let frames = session.stack_trace(None, Some(2)).await.unwrap();
    let locals = session.scopes(frames[0].id).await.unwrap()[0].variables_reference;
    let item = session
        .variables(locals)
        .await
        .unwrap()
        .into_iter()
        .find(|v| v.name == "item")
        .unwrap();
    let fields = session.variables(item.variables_reference).await.unwrap();
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Name", "Stock", "Threshold", "Target"]);

    // The caller's slice, two elements from index 1.
    let caller = session.scopes(frames[1].id).await.unwrap()[0].variables_reference;
    let items = session
        .variables(caller)
        .await
        .unwrap()
        .into_iter()
        .find(|v| v.name == "items")
        .unwrap();
    assert_eq!(items.indexed_variables, Some(4));
    let page = session
        .variables_page(items.variables_reference, Some("indexed"), Some(1), Some(2))
        .await
        .unwrap();
    let names: Vec<&str> = page.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["[1]", "[2]"]);
    assert!(page[0].value.contains("\"nuts\""), "{page:?}");
    assert!(page[1].value.contains("\"washers\""), "{page:?}");
    let bad = session
        .variables_page(items.variables_reference, Some("sorted"), None, None)
        .await
        .unwrap_err();
    assert_eq!(bad.code(), 400);

    // Nuts' threshold one higher: it is reordered, and the order is right.
    let set = session
        .set_variable(item.variables_reference, "Threshold", "21")
        .await
        .unwrap();
    assert_eq!(set.value, "21");
    session.set_breakpoints(main_go(), vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(0));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("ordered 113 units across 3 items"), "{out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_dlv_does_not_advertise_is_refused_naming_it() {
    let (runtime, session, line) = stopped_in_needs_restock().await;
    let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
    let ip = session.instruction_pointer().await.unwrap();

    assert_unsupported(
        session.completions("it", 3, Some(frame)).await,
        "supportsCompletionsRequest",
    );
    assert_unsupported(session.modules(None, None).await, "supportsModulesRequest");
    assert_unsupported(
        session.set_expression("item.Stock", "1", Some(frame)).await,
        "supportsSetExpression",
    );
    assert_unsupported(
        session.step_in_targets(frame).await,
        "supportsStepInTargetsRequest",
    );
    assert_unsupported(
        session.goto_targets(main_go(), line, None).await,
        "supportsGotoTargetsRequest",
    );
    assert_unsupported(session.goto(None, 1).await, "supportsGotoTargetsRequest");
    // Instruction breakpoints are advertised, hit conditions are not: one on an
    // instruction breakpoint is refused, not silently dropped.
    let counted = InstructionBreakpoint {
        instruction_reference: ip.clone(),
        hit_condition: Some("2".into()),
        ..Default::default()
    };
    assert_unsupported(
        session.set_instruction_breakpoints(vec![counted]).await,
        "supportsHitConditionalBreakpoints",
    );
    assert_unsupported(session.restart_frame(frame).await, "supportsRestartFrame");
    assert_unsupported(session.step_back(None, None).await, "supportsStepBack");
    assert_unsupported(session.reverse_continue(None).await, "supportsStepBack");
    assert_unsupported(session.cancel(Some(1), None).await, "supportsCancelRequest");
    assert_unsupported(
        session.read_memory(&ip, None, 8).await,
        "supportsReadMemoryRequest",
    );
    assert_unsupported(
        session.write_memory(&ip, None, "kA==", false).await,
        "supportsWriteMemoryRequest",
    );
    assert_unsupported(
        session
            .data_breakpoint_info(dapvisor::wire::types::DataBreakpointInfoArguments {
                name: "item".into(),
                frame_id: Some(frame),
                ..Default::default()
            })
            .await,
        "supportsDataBreakpoints",
    );
    assert_unsupported(
        session.set_data_breakpoints(vec![]).await,
        "supportsDataBreakpoints",
    );
    assert_unsupported(
        session.breakpoint_locations(main_go(), line, None).await,
        "supportsBreakpointLocationsRequest",
    );
    assert_unsupported(
        session.loaded_sources().await,
        "supportsLoadedSourcesRequest",
    );
    assert_unsupported(
        session.terminate_threads(vec![2]).await,
        "supportsTerminateThreadsRequest",
    );
    assert_unsupported(
        session.continue_single_thread(None).await,
        "supportsSingleThreadExecutionRequests",
    );

    // A command with no capability flag goes out, and dlv answers it with an error:
    // `locations` and a made-up name alike.
    let why = assert_adapter_refused(session.locations(1).await, "locations");
    assert!(why.contains("'locations' is not supported"), "{why}");
    let why = assert_adapter_refused(
        session.custom_request("madeUpCommand", None).await,
        "madeUpCommand",
    );
    assert!(why.contains("'madeUpCommand' is not supported"), "{why}");

    // exceptionInfo is advertised and reaches dlv, which has no panic to describe.
    let why = assert_adapter_refused(session.exception_info(None).await, "exceptionInfo");
    assert!(why.contains("no runtime error"), "{why}");
    assert_eq!(item_name(&session).await, "\"bolts\"");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_relaunches_under_a_new_dlv_with_the_breakpoints() {
    let (runtime, session, line) = stopped_in_needs_restock().await;
    let ticket = session.continue_(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(item_name(&session).await, "\"nuts\"");
    let old_adapter = session.adapter_pid().unwrap();

    // dlv has no `restart` request: the debuggee and dlv end, and the plan runs again.
    let ticket = session.restart().await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "breakpoint");
    let top = session.stack_trace(None, Some(1)).await.unwrap()[0].clone();
    assert_eq!((top.name.as_str(), top.line), ("main.needsRestock", line));
    assert_eq!(
        item_name(&session).await,
        "\"bolts\"",
        "from the first item again"
    );
    assert_ne!(session.adapter_pid(), Some(old_adapter), "a fresh dlv");
    assert_eq!(wait_gone(vec![old_adapter]).await, Vec::<u32>::new());
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_events_dlv_sends_are_published() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut events = runtime.subscribe();
    let example = inventory_example();
    let session = runtime.launch(example.spec.clone()).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    session.set_breakpoints(main_go(), vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(example.exit_code));
    // dlv sends no `exited` (the runtime reads the status from its console line),
    // and no `continued` for a `continue` it was asked for.
    expect_signals(
        &mut events,
        &["dap_stopped", "dap_output", "dap_exited", "dap_terminated"],
    )
    .await;
    runtime.shutdown().await;
}

/// examples/programs/go/shelves: indexes past the end of a slice on its third order.
fn shelves_go() -> std::path::PathBuf {
    program("go/shelves/main.go")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_stops_the_program_and_exception_info_names_it() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let session = runtime
        .launch(LaunchSpec::new(build_go("shelves")))
        .await
        .unwrap();

    // No breakpoint set: dlv stops on the unrecovered panic by itself.
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    let panic_text = "runtime error: index out of range [3] with length 3";
    assert_eq!(
        (stop.reason.as_str(), stop.description.as_deref()),
        ("exception", Some("panic")),
        "{stop:?}"
    );
    assert!(
        stop.text.as_deref().unwrap_or("").contains(panic_text),
        "{stop:?}"
    );
    // Stopped inside the runtime's panic, called from the indexing line.
    let frames = session.stack_trace(None, Some(20)).await.unwrap();
    let shelf_for = frames
        .iter()
        .find(|f| f.name == "main.shelfFor")
        .unwrap_or_else(|| panic!("no main.shelfFor in {frames:?}"));
    assert_eq!(
        shelf_for.line,
        line_of(shelves_go(), "return shelves[position]")
    );
    assert!(frames[0].name.starts_with("runtime."), "{:?}", frames[0]);

    // dlv answers exceptionInfo with the panic (and an empty `breakMode`, read as if
    // left out).
    let info = session.exception_info(None).await.unwrap();
    assert_eq!(info.exception_id, "panic", "{info:?}");
    assert!(
        info.description
            .as_deref()
            .unwrap_or("")
            .contains(panic_text),
        "{info:?}"
    );
    let trace = info
        .details
        .as_ref()
        .and_then(|d| d.stack_trace.clone())
        .unwrap_or_default();
    assert!(trace.contains("main.shelfFor"), "{info:?}");

    // Continued, the panic ends the program with Go's status for it.
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(2));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("picking 2: washers"), "{out:?}");
    assert!(!out.contains("all orders picked"), "{out:?}");
    runtime.shutdown().await;
}
