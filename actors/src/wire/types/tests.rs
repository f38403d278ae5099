//! Parsing shapes real adapters send, and the wire names of what we send.

use serde_json::{json, Value};

use super::*;

fn parse<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("parses")
}

#[test]
fn debugpy_initialize_body_keeps_unknown_capabilities() {
    let body = json!({
        "supportsCompletionsRequest": true,
        "supportsConditionalBreakpoints": true,
        "supportsConfigurationDoneRequest": true,
        "supportsDebuggerProperties": true,
        "supportsDelayedStackTraceLoading": true,
        "supportsEvaluateForHovers": true,
        "supportsExceptionInfoRequest": true,
        "supportsExceptionOptions": true,
        "supportsFunctionBreakpoints": true,
        "supportsHitConditionalBreakpoints": true,
        "supportsLogPoints": true,
        "supportsModulesRequest": true,
        "supportsSetExpression": true,
        "supportsSetVariable": true,
        "supportsValueFormattingOptions": true,
        "supportsTerminateRequest": true,
        "supportsGotoTargetsRequest": true,
        "supportsClipboardContext": true,
        "supportsStepInTargetsRequest": true,
        "exceptionBreakpointFilters": [
            {"filter": "raised", "label": "Raised Exceptions", "default": false,
             "description": "Break whenever any exception is raised."},
            {"filter": "uncaught", "label": "Uncaught Exceptions", "default": true,
             "description": "Break when the process is exiting due to an exception."},
            {"filter": "userUnhandled", "label": "User Uncaught Exceptions", "default": false,
             "supportsCondition": true}
        ]
    });
    let caps: Capabilities = parse(body.clone());
    assert_eq!(caps.supports_configuration_done_request, Some(true));
    assert_eq!(caps.supports_log_points, Some(true));
    assert_eq!(caps.supports_step_back, None);
    assert_eq!(
        caps.other.get("supportsDebuggerProperties"),
        Some(&json!(true))
    );
    assert_eq!(caps.other.len(), 1, "only unknown keys land in `other`");
    let filters = caps.exception_breakpoint_filters.as_ref().unwrap();
    assert_eq!(filters.len(), 3);
    assert_eq!(filters[1].filter, "uncaught");
    assert_eq!(filters[1].default, Some(true));
    assert_eq!(filters[2].supports_condition, Some(true));
    // Nothing is lost on the way back out.
    assert_eq!(serde_json::to_value(&caps).unwrap(), body);
}

#[test]
fn lldb_dap_capabilities_with_new_fields() {
    let caps: Capabilities = parse(json!({
        "supportsANSIStyling": true,
        "supportsDataBreakpointBytes": true,
        "supportTerminateDebuggee": true,
        "breakpointModes": [{"mode": "hardware", "label": "Hardware", "appliesTo": ["source"]}],
        "additionalModuleColumns": [{"attributeName": "uuid", "label": "UUID", "type": "string"}],
        "supportedChecksumAlgorithms": ["MD5", "SHA512"]
    }));
    assert_eq!(caps.supports_ansi_styling, Some(true));
    assert_eq!(caps.supports_data_breakpoint_bytes, Some(true));
    assert_eq!(caps.support_terminate_debuggee, Some(true));
    assert_eq!(caps.breakpoint_modes.unwrap()[0].applies_to, vec!["source"]);
    let columns = caps.additional_module_columns.unwrap();
    assert_eq!(columns[0].type_.as_deref(), Some("string"));
    assert_eq!(caps.supported_checksum_algorithms.unwrap()[1], "SHA512");
    assert!(caps.other.is_empty());
}

#[test]
fn capabilities_merge_overwrites_only_what_is_set() {
    let mut caps: Capabilities = parse(json!({
        "supportsStepBack": false,
        "supportsSetVariable": true,
        "exceptionBreakpointFilters": [{"filter": "all", "label": "All"}],
        "customOne": 1
    }));
    let update: Capabilities = parse(json!({
        "supportsStepBack": true,
        "supportsModulesRequest": true,
        "customOne": 2,
        "customTwo": "x"
    }));
    caps.merge(update);
    assert_eq!(caps.supports_step_back, Some(true));
    assert_eq!(caps.supports_set_variable, Some(true));
    assert_eq!(caps.supports_modules_request, Some(true));
    assert_eq!(caps.exception_breakpoint_filters.as_ref().unwrap().len(), 1);
    assert_eq!(caps.other.get("customOne"), Some(&json!(2)));
    assert_eq!(caps.other.get("customTwo"), Some(&json!("x")));

    let event: CapabilitiesEventBody =
        parse(json!({"capabilities": {"supportsSetVariable": false}}));
    caps.merge(event.capabilities);
    assert_eq!(caps.supports_set_variable, Some(false));
    assert_eq!(caps.supports_step_back, Some(true));
}

#[test]
fn stopped_event_with_hit_breakpoint_ids() {
    let body: StoppedEventBody = parse(json!({
        "reason": "breakpoint", "threadId": 1, "allThreadsStopped": true,
        "preserveFocusHint": false, "hitBreakpointIds": [3, 7],
        "description": "Paused on breakpoint"
    }));
    assert_eq!(body.reason, "breakpoint");
    assert_eq!(body.thread_id, Some(1));
    assert_eq!(body.all_threads_stopped, Some(true));
    assert_eq!(body.hit_breakpoint_ids, Some(vec![3, 7]));
    assert_eq!(body.text, None);

    let odd: StoppedEventBody = parse(json!({"reason": "signal", "text": "SIGSEGV"}));
    assert_eq!(odd.reason, "signal");
    assert_eq!(odd.thread_id, None);
}

#[test]
fn lldb_dap_stack_trace_with_large_ids() {
    let body: StackTraceResponseBody = parse(json!({
        "stackFrames": [
            {"id": 524288, "name": "main", "line": 4, "column": 5,
             "instructionPointerReference": "0x100003F6C",
             "moduleId": "8E6E8A1C-2A1B-3C9D-9F00-0123456789AB",
             "source": {"name": "main.c", "path": "/tmp/demo/main.c"}},
            {"id": 524289, "name": "start", "line": 0, "column": 0,
             "instructionPointerReference": "0x18F4E0274",
             "presentationHint": "subtle",
             "source": {"name": "start", "sourceReference": 2,
                        "presentationHint": "deemphasize"}}
        ],
        "totalFrames": 2
    }));
    assert_eq!(body.total_frames, Some(2));
    let [main, start] = &body.stack_frames[..] else {
        panic!("two frames")
    };
    assert_eq!(main.id, 524288);
    assert_eq!(
        main.instruction_pointer_reference.as_deref(),
        Some("0x100003F6C")
    );
    assert_eq!(
        main.module_id,
        Some(ModuleId::String(
            "8E6E8A1C-2A1B-3C9D-9F00-0123456789AB".into()
        ))
    );
    assert_eq!(
        main.source.as_ref().unwrap().path.as_deref(),
        Some("/tmp/demo/main.c")
    );
    assert_eq!(start.id, 524289);
    assert_eq!(start.presentation_hint.as_deref(), Some("subtle"));
    assert_eq!(start.source.as_ref().unwrap().source_reference, Some(2));
}

#[test]
fn modules_with_string_and_numeric_ids() {
    let lldb: ModulesResponseBody = parse(json!({
        "modules": [{"id": "8E6E8A1C-2A1B-3C9D-9F00-0123456789AB", "name": "demo",
                     "path": "/tmp/demo/demo", "symbolStatus": "Symbols loaded.",
                     "addressRange": "0x100000000", "debugInfoSize": "12.0KB"}],
        "totalModules": 1
    }));
    let module = &lldb.modules[0];
    assert_eq!(
        module.id,
        ModuleId::String("8E6E8A1C-2A1B-3C9D-9F00-0123456789AB".into())
    );
    assert_eq!(module.symbol_status.as_deref(), Some("Symbols loaded."));
    assert_eq!(module.other.get("debugInfoSize"), Some(&json!("12.0KB")));
    assert_eq!(lldb.total_modules, Some(1));

    let numeric: ModulesResponseBody = parse(json!({
        "modules": [{"id": 42, "name": "os", "path": "/usr/lib/python3.12/os.py"}]
    }));
    assert_eq!(numeric.modules[0].id, ModuleId::Number(42));
    assert_eq!(numeric.modules[0].id.to_string(), "42");
    assert_eq!(
        serde_json::to_value(&numeric.modules[0]).unwrap()["id"],
        json!(42)
    );

    let event: ModuleEventBody = parse(json!({"reason": "removed", "module": {"id": 7}}));
    assert_eq!(event.module.id, ModuleId::Number(7));
    assert_eq!(event.module.name, "");
}

#[test]
fn missing_required_fields_cost_only_themselves() {
    let threads: ThreadsResponseBody = parse(json!({}));
    assert!(threads.threads.is_empty());
    let frames: StackTraceResponseBody = parse(json!({"totalFrames": 0}));
    assert!(frames.stack_frames.is_empty());
    let vars: VariablesResponseBody = parse(json!({}));
    assert!(vars.variables.is_empty());
    let bps: SetBreakpointsResponseBody = parse(json!({}));
    assert!(bps.breakpoints.is_empty());
    let bp: Breakpoint = parse(json!({"id": 1, "line": 10}));
    assert!(!bp.verified);
    let exited: ExitedEventBody = parse(json!({}));
    assert_eq!(exited.exit_code, 0);
    let output: OutputEventBody = parse(json!({"category": "stderr"}));
    assert_eq!(output.output, "");
    let info: ExceptionInfoResponseBody = parse(json!({"exceptionId": "ValueError"}));
    assert_eq!(info.break_mode, ExceptionBreakMode::Always);
    // dlv 1.20 sends an empty mode after a panic: read as if left out.
    let info: ExceptionInfoResponseBody = parse(json!({"exceptionId": "panic", "breakMode": ""}));
    assert_eq!(info.break_mode, ExceptionBreakMode::Always);
    let info: ExceptionInfoResponseBody =
        parse(json!({"exceptionId": "E", "breakMode": "userUnhandled"}));
    assert_eq!(info.break_mode, ExceptionBreakMode::UserUnhandled);
    // js-debug 1.112 names its filter instead of a mode.
    let info: ExceptionInfoResponseBody =
        parse(json!({"exceptionId": "TypeError", "breakMode": "all"}));
    assert_eq!(info.break_mode, ExceptionBreakMode::Always);
    let info: ExceptionInfoResponseBody =
        parse(json!({"exceptionId": "TypeError", "breakMode": "uncaught"}));
    assert_eq!(info.break_mode, ExceptionBreakMode::Unhandled);
    let bad = serde_json::from_value::<ExceptionInfoResponseBody>(
        json!({"exceptionId": "E", "breakMode": "sometimes"}),
    );
    assert!(bad.is_err(), "{bad:?}");
}

#[test]
fn absent_body_parses_as_an_empty_body() {
    // Adapters leave out bodies the spec has; `parse_body` treats that as `{}`.
    let response = crate::wire::Response::new(2, "threads", Ok(None));
    let body: ThreadsResponseBody = response.parse_body().unwrap();
    assert!(body.threads.is_empty());
}

#[test]
fn variable_round_trips_with_type() {
    let raw = json!({
        "name": "count", "value": "3", "type": "int", "evaluateName": "count",
        "variablesReference": 0,
        "presentationHint": {"kind": "data", "attributes": ["readOnly"], "lazy": false},
        "declarationLocationReference": 12
    });
    let var: Variable = parse(raw.clone());
    assert_eq!(var.type_.as_deref(), Some("int"));
    assert_eq!(var.declaration_location_reference, Some(12));
    assert_eq!(
        var.presentation_hint.as_ref().unwrap().attributes,
        Some(vec!["readOnly".to_string()])
    );
    assert_eq!(serde_json::to_value(&var).unwrap(), raw);

    let eval: EvaluateResponseBody = parse(json!({"result": "3", "type": "int"}));
    assert_eq!(
        (eval.type_.as_deref(), eval.variables_reference),
        (Some("int"), 0)
    );
}

#[test]
fn arguments_use_wire_names_and_leave_out_nones() {
    let init = InitializeRequestArguments {
        client_id: Some("dapvisor".into()),
        adapter_id: "debugpy".into(),
        lines_start_at1: Some(true),
        columns_start_at1: Some(true),
        supports_ansi_styling: Some(false),
        supports_run_in_terminal_request: Some(true),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&init).unwrap(),
        json!({"clientID": "dapvisor", "adapterID": "debugpy", "linesStartAt1": true,
               "columnsStartAt1": true, "supportsANSIStyling": false,
               "supportsRunInTerminalRequest": true})
    );

    let args = SetBreakpointsArguments {
        source: Source {
            path: Some("/tmp/a.py".into()),
            ..Default::default()
        },
        breakpoints: Some(vec![SourceBreakpoint {
            line: 3,
            hit_condition: Some("2".into()),
            ..Default::default()
        }]),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&args).unwrap(),
        json!({"source": {"path": "/tmp/a.py"},
               "breakpoints": [{"line": 3, "hitCondition": "2"}]})
    );

    let step = NextArguments {
        thread_id: 1,
        granularity: Some(SteppingGranularity::Instruction),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&step).unwrap(),
        json!({"threadId": 1, "granularity": "instruction"})
    );

    let exc = SetExceptionBreakpointsArguments {
        filters: vec!["uncaught".into()],
        exception_options: Some(vec![ExceptionOptions {
            path: None,
            break_mode: ExceptionBreakMode::UserUnhandled,
        }]),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&exc).unwrap(),
        json!({"filters": ["uncaught"], "exceptionOptions": [{"breakMode": "userUnhandled"}]})
    );
}

#[test]
fn data_breakpoint_info_keeps_null_data_id() {
    let none: DataBreakpointInfoResponseBody =
        parse(json!({"dataId": null, "description": "not available"}));
    assert_eq!(none.data_id, None);
    assert_eq!(serde_json::to_value(&none).unwrap()["dataId"], Value::Null);

    let some: DataBreakpointInfoResponseBody = parse(json!({
        "dataId": "0x7ffe/4", "description": "x",
        "accessTypes": ["read", "write", "readWrite"], "canPersist": false
    }));
    assert_eq!(
        some.access_types,
        Some(vec![
            DataBreakpointAccessType::Read,
            DataBreakpointAccessType::Write,
            DataBreakpointAccessType::ReadWrite
        ])
    );
}

#[test]
fn run_in_terminal_env_can_remove_variables() {
    let args: RunInTerminalRequestArguments = parse(json!({
        "kind": "integrated", "title": "Python Debug Console", "cwd": "/tmp",
        "args": ["/usr/bin/python3", "app.py"],
        "env": {"PYTHONUNBUFFERED": "1", "PYTHONPATH": null}
    }));
    let env = args.env.unwrap();
    assert_eq!(env["PYTHONUNBUFFERED"].as_deref(), Some("1"));
    assert_eq!(env["PYTHONPATH"], None);
    assert_eq!(args.args.len(), 2);

    let start: StartDebuggingRequestArguments =
        parse(json!({"request": "attach", "configuration": {"subProcessId": 4242}}));
    assert_eq!(start.request, "attach");
    assert_eq!(start.configuration["subProcessId"], json!(4242));
}
