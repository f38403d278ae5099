//! Commands the session sends itself as part of an operation (the handshake, ending,
//! restarting, the breakpoint cache) are refused when an agent sends them by name,
//! naming the method and tool to use; nothing reaches the adapter and the state
//! stands. Others go as asked.

use serde_json::json;

use super::session_tests::{request, Harness};
use crate::core::state::{Operation, SessionState};
use crate::error::SessionError;

#[test]
fn commands_the_session_sends_itself_are_refused_by_name_with_what_to_use() {
    let cases = [
        ("initialize", "Runtime::launch"),
        ("launch", "debug.launch"),
        ("attach", "Runtime::attach"),
        ("configurationDone", "launch handshake"),
        (
            "disconnect",
            "SessionHandle::disconnect (tool debug.disconnect)",
        ),
        (
            "terminate",
            "SessionHandle::terminate (tool debug.terminate)",
        ),
        ("restart", "SessionHandle::restart (tool debug.restart)"),
        ("setBreakpoints", "debug.set_breakpoints"),
        ("setFunctionBreakpoints", "set_function_breakpoints"),
    ];
    for (command, instead) in cases {
        for operation in [Operation::CustomRequest, Operation::Query] {
            let mut h = Harness::stopped();
            let (token, out) = h.command(request(operation, command, json!({})));
            assert!(out.sends().is_empty(), "{command} was sent: {out:?}");
            match out.error(token) {
                SessionError::InvalidArgument(text) => {
                    assert!(
                        text.starts_with(&format!("`{command}` cannot be sent as a raw request")),
                        "{text}"
                    );
                    assert!(text.contains(instead), "{command}: {text}");
                }
                other => panic!("{command}: want a refusal, got {other:?}"),
            }
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
