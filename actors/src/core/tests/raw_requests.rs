//! Commands the session sends itself as part of an operation (the handshake, ending,
//! restarting, the breakpoint cache) are refused when an agent sends them by name,
//! naming the method to use and its operations (which the agent surface names as
//! tools); nothing reaches the adapter and the state stands. Others go as asked.

use serde_json::json;

use super::{request, Harness};
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;

#[test]
fn commands_the_session_sends_itself_are_refused_by_name_with_what_to_use() {
    use Operation as O;
    let cases: [(&str, &str, &[Operation]); 9] = [
        ("initialize", "Runtime::launch", &[O::Launch, O::Attach]),
        ("launch", "Runtime::attach", &[O::Launch, O::Attach]),
        ("attach", "SessionHandle::start", &[O::Launch, O::Attach]),
        (
            "configurationDone",
            "Runtime::launch",
            &[O::Launch, O::Attach],
        ),
        (
            "disconnect",
            "SessionHandle::disconnect",
            &[O::Disconnect, O::Terminate],
        ),
        ("terminate", "SessionHandle::terminate", &[O::Terminate]),
        ("restart", "SessionHandle::restart", &[O::Restart]),
        ("setBreakpoints", "add_breakpoint", &[O::SetBreakpoints]),
        (
            "setFunctionBreakpoints",
            "set_function_breakpoints",
            &[O::SetBreakpoints],
        ),
    ];
    for (command, method, ops) in cases {
        for operation in [Operation::CustomRequest, Operation::Query] {
            let mut h = Harness::stopped();
            let (token, out) = h.command(request(operation, command, json!({})));
            assert!(out.sends().is_empty(), "{command} was sent: {out:?}");
            let err = out.error(token);
            let text = err.to_string();
            match err {
                SessionError::ReservedCommand {
                    command: named,
                    instead,
                    operations,
                    ..
                } => {
                    assert_eq!(named.as_str(), command);
                    assert!(instead.contains(method), "{command}: {instead}");
                    assert_eq!(operations, ops, "{command}");
                }
                other => panic!("{command}: want a refusal, got {other:?}"),
            }
            assert!(
                text.starts_with(&format!("`{command}` cannot be sent as a raw request: ")),
                "{text}"
            );
            assert!(
                !text.contains("debug."),
                "a tool's name in the runtime: {text}"
            );
            assert_eq!(h.state(), SessionState::Stopped, "{command}");
        }
    }
}

#[test]
fn other_commands_still_go_to_the_adapter_as_asked() {
    for command in ["setExceptionBreakpoints", "pydevdSystemInfo", "threads"] {
        let mut h = Harness::stopped();
        let (_, out) = h.command(request(Operation::CustomRequest, command, json!({})));
        assert_eq!(out.commands(), [command]);
    }
}
