//! The protocol beyond the basics against a real debugpy: what it advertises,
//! exception breakpoints with options and exceptionInfo, setVariable, setExpression
//! and completions, goto, step-in targets, modules, the text of generated code, a
//! custom request, variables asked for in pages (debugpy answers every child), and
//! the refusals of what debugpy does not advertise. (Restarts and the graceful end:
//! protocol_debugpy_lifecycle.rs.)

mod common;
mod protocol_support;

use common::*;
use dapvisor::wire::types::{
    ExceptionBreakMode, ExceptionFilterOptions, SetExceptionBreakpointsArguments,
    SteppingGranularity,
};
use dapvisor::ErrorCode;
use dapvisor::{RunTicket, Runtime, RuntimeConfig, StepKind};
use protocol_support::debugpy::*;
use protocol_support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_advertises_what_docs_protocol_md_records() {
    let (runtime, session) = stopped_at(&discount(), "total += discounted").await;
    assert_advertises_as_recorded(&session, "debugpy").await;
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_options_stop_on_a_caught_exception_and_exception_info_tells_it() {
    let (runtime, session) = stopped_at(&scores(), "scores, skipped = read_scores(LINES)").await;

    // Options for one exception type: the ValueError that read_scores catches.
    session
        .set_exception_breakpoints_with(always_on("ValueError"))
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "exception");
    assert_eq!(top_frame(&session).await.name, "parse_line");
    let info = session.exception_info(None).await.unwrap();
    assert_eq!(info.exception_id, "ValueError");
    assert_eq!(info.break_mode, ExceptionBreakMode::Always);
    assert!(
        info.description
            .as_deref()
            .unwrap()
            .contains("invalid literal"),
        "{info:?}"
    );
    let details = info.details.unwrap();
    assert_eq!(details.type_name.as_deref(), Some("ValueError"));
    assert!(details.stack_trace.unwrap().contains("in parse_line"));

    // Conditions on filters need a capability debugpy does not advertise.
    let conditional = SetExceptionBreakpointsArguments {
        filters: vec![],
        filter_options: Some(vec![ExceptionFilterOptions {
            filter_id: "raised".into(),
            condition: Some("True".into()),
            mode: None,
        }]),
        exception_options: None,
    };
    assert_unsupported(
        session.set_exception_breakpoints_with(conditional).await,
        "supportsExceptionFilterOptions",
    );

    // Back to a plain filter: only the uncaught KeyError stops.
    let plain = SetExceptionBreakpointsArguments {
        filters: vec!["uncaught".into()],
        ..Default::default()
    };
    session.set_exception_breakpoints_with(plain).await.unwrap();
    session.set_breakpoints(scores(), vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "exception");
    let info = session.exception_info(stop.thread_id).await.unwrap();
    assert!(info.exception_id.starts_with("KeyError"), "{info:?}");
    assert_eq!(info.break_mode, ExceptionBreakMode::Unhandled);
    assert_eq!(info.description.as_deref(), Some("'ADA'"));
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(1));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_variable_set_expression_and_completions_fix_the_lookup() {
    let (runtime, session) = stopped_at(&scores(), "return winner, scores[winner.upper()]").await;
    let frame = top_frame(&session).await;

    let names = session.completions("sco", 4, Some(frame.id)).await.unwrap();
    assert!(names.iter().any(|c| c.label == "scores"), "{names:?}");

    let locals = session.scopes(frame.id).await.unwrap()[0].variables_reference;
    let winner = session
        .set_variable(locals, "winner", "'cy'")
        .await
        .unwrap();
    assert_eq!(winner.value, "'cy'");
    let entry = session
        .set_expression("scores['CY']", "27", Some(frame.id))
        .await
        .unwrap();
    assert_eq!(entry.value, "27");
    let now = session
        .evaluate("scores", Some(frame.id), None)
        .await
        .unwrap();
    assert_eq!(now.result, "{'ada': 31, 'cy': 27, 'CY': 27}");

    session.set_breakpoints(scores(), vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(0));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("best: cy with 27"), "{out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn goto_skips_the_rest_of_the_loop() {
    let (runtime, session) = stopped_at(&discount(), "total += discounted").await;
    let target_line = line_of(discount(), "return total");
    let targets = session
        .goto_targets(discount(), target_line, None)
        .await
        .unwrap();
    assert_eq!(targets.len(), 1, "{targets:?}");
    assert_eq!(targets[0].line, target_line);

    let ticket = session.goto(None, targets[0].id).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "goto");
    assert_eq!(top_frame(&session).await.line, target_line);
    assert_eq!(local(&session, "total").await, "0");

    session.set_breakpoints(discount(), vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(3));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("Order total: 0.00"), "{out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_into_a_chosen_call_and_lists_modules_in_pages() {
    let (runtime, session) = stopped_at(&scores(), "scores, skipped = read_scores(LINES)").await;
    let frame = top_frame(&session).await;
    let targets = session.step_in_targets(frame.id).await.unwrap();
    let read = targets
        .iter()
        .find(|t| t.label == "read_scores(LINES)")
        .unwrap_or_else(|| panic!("no read_scores among {targets:?}"));
    let ticket = session.step_in_target(None, read.id).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(top_frame(&session).await.name, "read_scores");

    let all = session.modules(None, None).await.unwrap();
    let main = all.modules.iter().find(|m| m.name == "__main__").unwrap();
    assert_eq!(main.path.as_deref(), Some(scores().to_str().unwrap()));
    let first = session.modules(Some(0), Some(1)).await.unwrap();
    assert_eq!(first.modules.len(), 1);
    assert_eq!(first.modules[0], all.modules[0]);
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_text_of_generated_code_comes_from_the_source_request() {
    let dir = root().join("target/protocol-programs");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("generated-{}.py", std::process::id()));
    std::fs::write(
        &file,
        "CODE = \"def f(x):\\n    y = x * 2\\n    raise RuntimeError('made at run time %d' % y)\\n\"\n\
         ns = {}\n\
         exec(compile(CODE, '<generated>', 'exec'), ns)\n\
         try:\n    ns['f'](21)  # call\nexcept RuntimeError:\n    pass\n",
    )
    .unwrap();
    let (runtime, session) = stopped_at(&file, "# call").await;
    session
        .set_exception_breakpoints_with(always_on("RuntimeError"))
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let top = top_frame(&session).await;
    assert_eq!(top.name, "f");
    let source = top.source.unwrap();
    assert_eq!(source.path.as_deref(), Some("<generated>"));
    let reference = source.source_reference.unwrap();
    assert!(reference > 0, "{source:?}");
    let text = session.source(reference).await.unwrap();
    assert!(
        text.content.contains("'made at run time %d'"),
        "{}",
        text.content
    );
    assert_eq!(session.source(0).await.unwrap_err().code(), 400);
    runtime.shutdown().await;
    std::fs::remove_file(&file).unwrap();
}

/// The debuggee's pid, as debugpy reports it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_requests_reach_debugpy_by_name() {
    let (runtime, session) = stopped_at(&discount(), "total += discounted").await;
    let info = session
        .custom_request("pydevdSystemInfo", None)
        .await
        .unwrap();
    assert!(info["process"]["pid"].as_i64().unwrap() > 0, "{info}");
    assert!(info["python"]["version"].is_string(), "{info}");
    let why = assert_adapter_refused(
        session.custom_request("noSuchCommand", None).await,
        "noSuchCommand",
    );
    assert!(why.contains("noSuchCommand"), "{why}");
    // `locations` has no capability flag: it goes out, and debugpy does not know it.
    assert_adapter_refused(session.locations(1).await, "locations");
    assert_eq!(local(&session, "total").await, "0");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_debugpy_does_not_advertise_is_refused_naming_it() {
    let (runtime, session) = stopped_at(&discount(), "total += discounted").await;
    let frame = top_frame(&session).await.id;
    let line = line_of(discount(), "total += discounted");

    assert_unsupported(
        session.terminate_threads(vec![1]).await,
        "supportsTerminateThreadsRequest",
    );
    assert_unsupported(
        session.loaded_sources().await,
        "supportsLoadedSourcesRequest",
    );
    assert_unsupported(session.step_back(None, None).await, "supportsStepBack");
    assert_unsupported(session.reverse_continue(None).await, "supportsStepBack");
    assert_unsupported(session.restart_frame(frame).await, "supportsRestartFrame");
    assert_unsupported(session.cancel(Some(1), None).await, "supportsCancelRequest");
    assert_unsupported(
        session.breakpoint_locations(discount(), line, None).await,
        "supportsBreakpointLocationsRequest",
    );
    assert_unsupported(
        session.disassemble(Some("0x1000"), None, None, 4).await,
        "supportsDisassembleRequest",
    );
    assert_unsupported(
        session.read_memory("0x1000", None, 4).await,
        "supportsReadMemoryRequest",
    );
    assert_unsupported(
        session.write_memory("0x1000", None, "AA==", false).await,
        "supportsWriteMemoryRequest",
    );
    assert_unsupported(
        session.set_instruction_breakpoints(vec![]).await,
        "supportsInstructionBreakpoints",
    );
    assert_unsupported(
        session.set_data_breakpoints(vec![]).await,
        "supportsDataBreakpoints",
    );
    assert_unsupported(
        session
            .data_breakpoint_info(dapvisor::wire::types::DataBreakpointInfoArguments {
                name: "total".into(),
                frame_id: Some(frame),
                ..Default::default()
            })
            .await,
        "supportsDataBreakpoints",
    );
    assert_unsupported(
        session
            .step_with(StepKind::Over, None, Some(SteppingGranularity::Line), false)
            .await,
        "supportsSteppingGranularity",
    );
    assert_unsupported(
        session
            .step(StepKind::In, None, SteppingGranularity::Instruction)
            .await,
        "supportsSteppingGranularity",
    );
    assert_unsupported(
        session.continue_single_thread(None).await,
        "supportsSingleThreadExecutionRequests",
    );
    assert_eq!(local(&session, "total").await, "0");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_events_debugpy_sends_are_published() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut events = runtime.subscribe();
    let example = discount_example();
    let session = runtime.launch(example.spec.clone()).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    // debugpy announces a module when a stack trace first shows code from it.
    session.stack_trace(None, None).await.unwrap();
    session.set_breakpoints(discount(), vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(example.exit_code));
    expect_signals(
        &mut events,
        &[
            "dap_process",
            "dap_thread",
            "dap_module",
            "dap_stopped",
            "dap_continued",
            "dap_output",
            "dap_exited",
            "dap_terminated",
            "dap_debugpySockets",
        ],
    )
    .await;
    runtime.shutdown().await;
}

/// A program that notes in `marker` whether it got to clean up, and says `ready`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_answers_a_page_of_variables_with_every_child() {
    let (runtime, session) = stopped_at(&discount(), "total += discounted").await;
    let frame = top_frame(&session).await;
    let locals = session.scopes(frame.id).await.unwrap()[0].variables_reference;
    let items = session
        .variables(locals)
        .await
        .unwrap()
        .into_iter()
        .find(|v| v.name == "items")
        .expect("local items");
    let all = session.variables(items.variables_reference).await.unwrap();
    let page = session
        .variables_page(items.variables_reference, Some("indexed"), Some(1), Some(1))
        .await
        .unwrap();
    // debugpy gives no counts of children and ignores `filter`, `start` and `count`:
    // asked for one indexed child from index 1, it answers every child.
    assert_eq!(
        (items.indexed_variables, items.named_variables),
        (None, None)
    );
    let names = |vars: &[dapvisor::wire::types::Variable]| -> Vec<String> {
        vars.iter().map(|v| v.name.clone()).collect()
    };
    assert_eq!(
        names(&all),
        [
            "special variables",
            "function variables",
            "0",
            "1",
            "2",
            "len()"
        ]
    );
    assert_eq!(names(&page), names(&all));
    runtime.shutdown().await;
}
