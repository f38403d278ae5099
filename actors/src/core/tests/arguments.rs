//! Pure tests of the capability checks on arguments: whichever way a request reaches
//! the core (a control action, a typed request, a request by name, a breakpoint
//! command), an argument the adapter did not advertise is refused with 501 naming
//! the capability, and nothing is sent.

use serde_json::{json, Value};

use super::{plan, request, Harness};
use crate::core::command::{Command, ControlAction};
use crate::core::session::function_breakpoint;
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;
use crate::registry::{AdapterRegistry, ServedCommands};
use crate::wire::types::{FunctionBreakpoint, SteppingGranularity};

/// Stopped on thread 1, under an adapter that advertises `caps` (and
/// `configurationDone`).
fn stopped_with(caps: Value) -> Harness {
    let mut caps = caps;
    caps["supportsConfigurationDoneRequest"] = json!(true);
    let mut h = Harness::new();
    h.launch_with(plan(), caps);
    h.stop("breakpoint");
    assert_eq!(h.state(), SessionState::Stopped);
    h
}

/// The refusal's capability text; insists on an unsupported request.
fn refusal(err: &SessionError) -> String {
    assert!(matches!(err, SessionError::Unsupported { .. }), "{err}");
    match err {
        SessionError::Unsupported { capability, .. } => capability.clone(),
        other => panic!("want Unsupported, got {other:?}"),
    }
}

fn step(action: ControlAction, granularity: SteppingGranularity) -> Command {
    Command::Control {
        action,
        thread_id: None,
        granularity: Some(granularity),
    }
}

#[test]
fn an_instruction_step_is_refused_where_granularity_is_not_advertised() {
    let mut h = stopped_with(json!({}));
    for action in [
        ControlAction::Next,
        ControlAction::StepIn,
        ControlAction::StepOut,
    ] {
        let (token, out) = h.command(step(action, SteppingGranularity::Instruction));
        let text = refusal(out.error(token));
        assert_eq!(
            text,
            format!(
                "`{}` with a granularity (supportsSteppingGranularity)",
                action.command()
            )
        );
        assert!(out.sends().is_empty(), "nothing reaches the adapter");
        // Still stopped: the refused step did not count as a resume.
        assert_eq!(h.state(), SessionState::Stopped);
    }
}

#[test]
fn a_statement_step_needs_no_capability_and_an_advertised_one_is_sent() {
    let mut h = stopped_with(json!({}));
    let (_, out) = h.command(step(ControlAction::Next, SteppingGranularity::Statement));
    assert_eq!(out.args("next")["granularity"], "statement");

    let mut h = stopped_with(json!({ "supportsSteppingGranularity": true }));
    let (_, out) = h.command(step(
        ControlAction::StepIn,
        SteppingGranularity::Instruction,
    ));
    assert_eq!(out.args("stepIn")["granularity"], "instruction");
}

#[test]
fn step_back_with_a_granularity_needs_both_capabilities() {
    let args = json!({ "threadId": 1, "granularity": "instruction" });
    let mut h = stopped_with(json!({}));
    let (token, out) = h.command(request(Operation::Navigate, "stepBack", args.clone()));
    assert_eq!(refusal(out.error(token)), "`stepBack` (supportsStepBack)");

    let mut h = stopped_with(json!({ "supportsStepBack": true }));
    let (token, out) = h.command(request(Operation::Navigate, "stepBack", args.clone()));
    assert_eq!(
        refusal(out.error(token)),
        "`stepBack` with a granularity (supportsSteppingGranularity)"
    );
    assert!(out.sends().is_empty());

    let mut h = stopped_with(json!({
        "supportsStepBack": true, "supportsSteppingGranularity": true
    }));
    let (_, out) = h.command(request(Operation::Navigate, "stepBack", args));
    assert_eq!(out.args("stepBack")["granularity"], "instruction");
}

#[test]
fn a_step_sent_by_name_is_checked_like_a_typed_one() {
    let mut h = stopped_with(json!({}));
    let (token, out) = h.command(request(
        Operation::CustomRequest,
        "next",
        json!({ "threadId": 1, "granularity": "instruction" }),
    ));
    assert!(refusal(out.error(token)).contains("supportsSteppingGranularity"));
    let (token, out) = h.command(request(
        Operation::Continue,
        "continue",
        json!({ "threadId": 1, "singleThread": true }),
    ));
    assert!(refusal(out.error(token)).contains("supportsSingleThreadExecutionRequests"));
    assert!(out.sends().is_empty());
}

#[test]
fn conditions_on_instruction_and_data_breakpoints_need_their_capabilities() {
    let caps = json!({
        "supportsInstructionBreakpoints": true,
        "supportsDataBreakpoints": true,
    });
    let cases = [
        (
            "setInstructionBreakpoints",
            json!({ "instructionReference": "0x10", "condition": "x > 1" }),
            "`setInstructionBreakpoints` with a condition (supportsConditionalBreakpoints)",
        ),
        (
            "setInstructionBreakpoints",
            json!({ "instructionReference": "0x10", "hitCondition": "3" }),
            "`setInstructionBreakpoints` with a hitCondition (supportsHitConditionalBreakpoints)",
        ),
        (
            "setDataBreakpoints",
            json!({ "dataId": "d1", "condition": "x > 1" }),
            "`setDataBreakpoints` with a condition (supportsConditionalBreakpoints)",
        ),
        (
            "setDataBreakpoints",
            json!({ "dataId": "d1", "hitCondition": "3" }),
            "`setDataBreakpoints` with a hitCondition (supportsHitConditionalBreakpoints)",
        ),
    ];
    for (command, breakpoint, want) in cases {
        let mut h = stopped_with(caps.clone());
        let args = json!({ "breakpoints": [breakpoint] });
        let (token, out) = h.command(request(Operation::SetBreakpoints, command, args.clone()));
        assert_eq!(refusal(out.error(token)), want);
        assert!(out.sends().is_empty());

        // With the capabilities they go out as asked.
        let mut caps = caps.clone();
        caps["supportsConditionalBreakpoints"] = json!(true);
        caps["supportsHitConditionalBreakpoints"] = json!(true);
        let mut h = stopped_with(caps);
        let (_, out) = h.command(request(Operation::SetBreakpoints, command, args.clone()));
        assert_eq!(out.args(command), args);
    }
}

#[test]
fn a_conditional_function_breakpoint_needs_conditional_breakpoints() {
    let mut h = stopped_with(json!({ "supportsFunctionBreakpoints": true }));
    let conditional = FunctionBreakpoint {
        condition: Some("n > 2".into()),
        ..function_breakpoint("main")
    };
    let (token, out) = h.command(Command::AddFunctionBreakpoint(conditional.clone()));
    assert!(refusal(out.error(token)).contains("supportsConditionalBreakpoints"));
    assert!(out.sends().is_empty());
    assert!(h.core.snapshot().breakpoints.functions().is_empty());

    let counted = FunctionBreakpoint {
        hit_condition: Some("2".into()),
        ..function_breakpoint("main")
    };
    let (token, out) = h.command(Command::SetFunctionBreakpoints(vec![counted]));
    assert!(refusal(out.error(token)).contains("supportsHitConditionalBreakpoints"));

    let (_, out) = h.command(Command::AddFunctionBreakpoint(function_breakpoint("main")));
    assert_eq!(
        out.commands(),
        ["setFunctionBreakpoints"],
        "a plain one goes out"
    );
}

#[test]
fn exception_options_are_refused_before_the_filters_change() {
    let mut h = stopped_with(json!({ "supportsExceptionOptions": true }));
    h.command(Command::SetExceptionBreakpoints(vec!["uncaught".into()]));
    let (token, out) = h.command(request(
        Operation::SetExceptionBreakpoints,
        "setExceptionBreakpoints",
        json!({ "filters": ["raised"], "filterOptions": [{ "filterId": "raised" }] }),
    ));
    assert!(refusal(out.error(token)).contains("supportsExceptionFilterOptions"));
    assert!(out.sends().is_empty());
    assert_eq!(
        h.core.snapshot().breakpoints.exception_filters(),
        ["uncaught"]
    );

    // An advertised option goes out in one request, and its plain filters are
    // cached for a restarted adapter.
    let args = json!({
        "filters": ["raised"],
        "exceptionOptions": [{ "breakMode": "always" }],
    });
    let (_, out) = h.command(request(
        Operation::SetExceptionBreakpoints,
        "setExceptionBreakpoints",
        args.clone(),
    ));
    assert_eq!(out.commands(), ["setExceptionBreakpoints"]);
    assert_eq!(out.args("setExceptionBreakpoints"), args);
    assert_eq!(
        h.core.snapshot().breakpoints.exception_filters(),
        ["raised"]
    );
}

#[test]
fn data_breakpoint_info_by_address_needs_data_breakpoint_bytes() {
    let mut h = stopped_with(json!({ "supportsDataBreakpoints": true }));
    let (token, out) = h.command(request(
        Operation::Inspect,
        "dataBreakpointInfo",
        json!({ "name": "0x1000", "asAddress": true, "bytes": 4 }),
    ));
    assert_eq!(
        refusal(out.error(token)),
        "`dataBreakpointInfo` with bytes or asAddress (supportsDataBreakpointBytes)"
    );
    assert!(out.sends().is_empty());
}

#[test]
fn an_adapter_that_dies_on_unknown_commands_is_sent_none() {
    let mut plan = plan();
    plan.adapter.def.served_commands = Some(ServedCommands {
        commands: vec!["threads".into(), "evaluate".into()],
        reason: "it aborts on commands it does not serve".into(),
    });
    let mut h = Harness::new();
    h.launch_with(plan, json!({ "supportsConfigurationDoneRequest": true }));
    h.stop("breakpoint");
    for (operation, command) in [
        (Operation::Inspect, "locations"),
        (Operation::CustomRequest, "madeUpCommand"),
    ] {
        let (token, out) = h.command(request(operation, command, json!({})));
        assert_eq!(
            refusal(out.error(token)),
            format!("`{command}` (it aborts on commands it does not serve)")
        );
        assert!(out.sends().is_empty(), "`{command}` must not be sent");
    }
    // What it serves goes out; a request with a capability is judged by it.
    let (_, out) = h.command(request(Operation::Threads, "threads", json!({})));
    assert_eq!(out.commands(), ["threads"]);
    let (token, out) = h.command(request(Operation::Inspect, "readMemory", json!({})));
    assert!(refusal(out.error(token)).contains("supportsReadMemoryRequest"));
    assert_eq!(h.state(), SessionState::Stopped);
}

#[test]
fn an_advertised_capability_outweighs_the_list_of_served_commands() {
    let mut plan = plan();
    plan.adapter.def.served_commands = Some(ServedCommands {
        commands: vec!["threads".into()],
        reason: "it aborts".into(),
    });
    let mut h = Harness::new();
    h.launch_with(
        plan,
        json!({ "supportsConfigurationDoneRequest": true, "supportsReadMemoryRequest": true }),
    );
    h.stop("breakpoint");
    let (_, out) = h.command(request(
        Operation::Inspect,
        "readMemory",
        json!({ "memoryReference": "0x10", "count": 4 }),
    ));
    assert_eq!(out.commands(), ["readMemory"]);
}

#[test]
fn lldb_dap_is_registered_with_the_commands_it_serves() {
    let def = AdapterRegistry::builtin().get("lldb-dap").unwrap().clone();
    let served = def
        .served_commands
        .expect("lldb-dap 19 aborts on unknown commands");
    for command in ["launch", "stackTrace", "disassemble", "setDataBreakpoints"] {
        assert!(served.serves(command), "{command}");
    }
    for command in ["locations", "goto", "loadedSources", "madeUpCommand"] {
        assert!(!served.serves(command), "{command}");
    }
    let debugpy = AdapterRegistry::builtin().get("debugpy").unwrap().clone();
    assert!(debugpy.served_commands.is_none());
}
