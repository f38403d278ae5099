//! Which capability a DAP request needs, so that a request the adapter cannot serve is
//! refused with the capability's name instead of reaching the adapter and coming back
//! as a confusing adapter error.

use serde_json::Value;

use crate::wire::types::Capabilities;

/// The capability flag (its wire name) that `command` needs, per the DAP
/// specification; `None` for requests every adapter must serve.
pub fn required_capability(command: &str) -> Option<&'static str> {
    Some(match command {
        "setFunctionBreakpoints" => "supportsFunctionBreakpoints",
        "breakpointLocations" => "supportsBreakpointLocationsRequest",
        "setInstructionBreakpoints" => "supportsInstructionBreakpoints",
        "dataBreakpointInfo" | "setDataBreakpoints" => "supportsDataBreakpoints",
        "stepBack" | "reverseContinue" => "supportsStepBack",
        "stepInTargets" => "supportsStepInTargetsRequest",
        "goto" | "gotoTargets" => "supportsGotoTargetsRequest",
        "restartFrame" => "supportsRestartFrame",
        "restart" => "supportsRestartRequest",
        "terminateThreads" => "supportsTerminateThreadsRequest",
        "setVariable" => "supportsSetVariable",
        "setExpression" => "supportsSetExpression",
        "completions" => "supportsCompletionsRequest",
        "exceptionInfo" => "supportsExceptionInfoRequest",
        "loadedSources" => "supportsLoadedSourcesRequest",
        "modules" => "supportsModulesRequest",
        "disassemble" => "supportsDisassembleRequest",
        "readMemory" => "supportsReadMemoryRequest",
        "writeMemory" => "supportsWriteMemoryRequest",
        "cancel" => "supportsCancelRequest",
        "terminate" => "supportsTerminateRequest",
        _ => return None,
    })
}

/// Whether `capabilities` has `flag` set to true.
pub fn has_capability(capabilities: &Capabilities, flag: &str) -> bool {
    serde_json::to_value(capabilities)
        .ok()
        .and_then(|caps| caps.get(flag).cloned())
        == Some(Value::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn caps(value: Value) -> Capabilities {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn known_and_unknown_flags_are_read_by_their_wire_name() {
        let c = caps(json!({
            "supportsDisassembleRequest": true,
            "supportsStepBack": false,
            "supportsSomethingNew": true,
        }));
        assert!(has_capability(&c, "supportsDisassembleRequest"));
        assert!(!has_capability(&c, "supportsStepBack"));
        assert!(!has_capability(&c, "supportsReadMemoryRequest"));
        assert!(has_capability(&c, "supportsSomethingNew"));
    }

    #[test]
    fn basic_requests_need_no_capability() {
        for command in ["threads", "stackTrace", "evaluate", "source", "locations"] {
            assert_eq!(required_capability(command), None, "{command}");
        }
        assert_eq!(
            required_capability("readMemory"),
            Some("supportsReadMemoryRequest")
        );
    }
}
