//! Which capability a DAP request needs, and which its arguments need, so that a
//! request the adapter cannot serve is refused with the capability's name instead of
//! reaching the adapter and coming back as a confusing adapter error, or worse, being
//! served as a different request (an adapter without `supportsSteppingGranularity`
//! ignores `granularity`, so an instruction step would silently step a line).
//!
//! The session core applies both to every request it builds, whichever way it came
//! (a typed method, a control action, a request sent by name): the one place.

use serde_json::Value;

use crate::wire::types::Capabilities;
use crate::wire::DapCommand;

/// The capability flag (its wire name) that `command` needs, per the DAP
/// specification (its [`DapCommand`] description); `None` for requests every adapter
/// must serve, and for commands this runtime does not know.
pub fn required_capability(command: &str) -> Option<&'static str> {
    DapCommand::from_name(command).and_then(|c| c.spec().capability)
}

/// What the arguments of `command` use that needs a capability of its own, per the
/// DAP specification: each as (the flag's wire name, what uses it). Empty when the
/// arguments use nothing optional, or the command is not one this runtime knows.
pub fn argument_requirements(command: &str, arguments: &Value) -> Vec<(&'static str, String)> {
    use DapCommand as C;
    let mut needs = Vec::new();
    let Some(known) = DapCommand::from_name(command) else {
        return needs;
    };
    let mut need =
        |flag: &'static str, what: &str| needs.push((flag, format!("`{command}` with {what}")));
    let present = |key: &str| arguments.get(key).is_some_and(|v| !v.is_null());
    let non_empty = |key: &str| {
        arguments
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
    };
    if matches!(known, C::Next | C::StepIn | C::StepOut | C::StepBack)
        && arguments
            .get("granularity")
            .and_then(Value::as_str)
            // `statement` is what a step without a granularity does anyway.
            .is_some_and(|g| g != "statement")
    {
        need("supportsSteppingGranularity", "a granularity");
    }
    if matches!(
        known,
        C::Continue | C::Next | C::StepIn | C::StepOut | C::StepBack | C::ReverseContinue
    ) && arguments.get("singleThread") == Some(&Value::Bool(true))
    {
        need("supportsSingleThreadExecutionRequests", "singleThread");
    }
    if known == C::StepIn && present("targetId") {
        need("supportsStepInTargetsRequest", "a targetId");
    }
    if known == C::SetExceptionBreakpoints {
        if non_empty("filterOptions") {
            need("supportsExceptionFilterOptions", "filterOptions");
        }
        if non_empty("exceptionOptions") {
            need("supportsExceptionOptions", "exceptionOptions");
        }
    }
    if known == C::DataBreakpointInfo && (present("bytes") || present("asAddress")) {
        need("supportsDataBreakpointBytes", "bytes or asAddress");
    }
    if matches!(
        known,
        C::SetBreakpoints
            | C::SetFunctionBreakpoints
            | C::SetInstructionBreakpoints
            | C::SetDataBreakpoints
    ) {
        let list = arguments
            .get("breakpoints")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let any = |key: &str| {
            list.iter()
                .any(|b| b.get(key).is_some_and(|v| !v.is_null()))
        };
        if any("condition") {
            need("supportsConditionalBreakpoints", "a condition");
        }
        if any("hitCondition") {
            need("supportsHitConditionalBreakpoints", "a hitCondition");
        }
        if any("logMessage") {
            need("supportsLogPoints", "a logMessage (a logpoint)");
        }
    }
    if matches!(
        known,
        C::Evaluate | C::Variables | C::StackTrace | C::SetVariable | C::SetExpression
    ) && present("format")
    {
        need("supportsValueFormattingOptions", "a format");
    }
    if known == C::Evaluate && arguments.get("context").and_then(Value::as_str) == Some("clipboard")
    {
        need("supportsClipboardContext", "the clipboard context");
    }
    if known == C::Disconnect && arguments.get("suspendDebuggee") == Some(&Value::Bool(true)) {
        need("supportSuspendDebuggee", "suspendDebuggee");
    }
    needs
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

    fn flags(command: &str, arguments: Value) -> Vec<&'static str> {
        argument_requirements(command, &arguments)
            .into_iter()
            .map(|(flag, _)| flag)
            .collect()
    }

    #[test]
    fn a_granularity_other_than_statement_needs_stepping_granularity() {
        for command in ["next", "stepIn", "stepOut", "stepBack"] {
            assert_eq!(
                flags(
                    command,
                    json!({ "threadId": 1, "granularity": "instruction" })
                ),
                ["supportsSteppingGranularity"],
                "{command}"
            );
            assert!(flags(
                command,
                json!({ "threadId": 1, "granularity": "statement" })
            )
            .is_empty());
            assert!(flags(command, json!({ "threadId": 1 })).is_empty());
        }
        let (_, what) = argument_requirements("next", &json!({ "granularity": "line" }))
            .pop()
            .unwrap();
        assert_eq!(what, "`next` with a granularity");
    }

    #[test]
    fn breakpoint_conditions_need_their_capabilities_on_every_kind() {
        for command in [
            "setBreakpoints",
            "setFunctionBreakpoints",
            "setInstructionBreakpoints",
            "setDataBreakpoints",
        ] {
            let args = json!({ "breakpoints": [
                { "condition": "x > 1" },
                { "hitCondition": "3" },
            ] });
            assert_eq!(
                flags(command, args),
                [
                    "supportsConditionalBreakpoints",
                    "supportsHitConditionalBreakpoints"
                ],
                "{command}"
            );
            assert!(flags(command, json!({ "breakpoints": [{ "condition": null }] })).is_empty());
        }
        assert_eq!(
            flags(
                "setBreakpoints",
                json!({ "breakpoints": [{ "logMessage": "x={x}" }] })
            ),
            ["supportsLogPoints"]
        );
    }

    #[test]
    fn the_other_optional_arguments_name_their_flags() {
        assert_eq!(
            flags("continue", json!({ "singleThread": true })),
            ["supportsSingleThreadExecutionRequests"]
        );
        assert!(flags("continue", json!({ "singleThread": false })).is_empty());
        assert_eq!(
            flags("stepIn", json!({ "targetId": 3 })),
            ["supportsStepInTargetsRequest"]
        );
        assert_eq!(
            flags(
                "setExceptionBreakpoints",
                json!({ "filters": [], "filterOptions": [{ "filterId": "raised" }],
                        "exceptionOptions": [{ "breakMode": "always" }] })
            ),
            ["supportsExceptionFilterOptions", "supportsExceptionOptions"]
        );
        assert!(flags(
            "setExceptionBreakpoints",
            json!({ "filters": ["raised"], "filterOptions": [] })
        )
        .is_empty());
        assert_eq!(
            flags(
                "dataBreakpointInfo",
                json!({ "name": "0x10", "asAddress": true })
            ),
            ["supportsDataBreakpointBytes"]
        );
        assert_eq!(
            flags(
                "evaluate",
                json!({ "expression": "x", "context": "clipboard" })
            ),
            ["supportsClipboardContext"]
        );
        assert_eq!(
            flags(
                "variables",
                json!({ "variablesReference": 1, "format": { "hex": true } })
            ),
            ["supportsValueFormattingOptions"]
        );
        assert_eq!(
            flags("disconnect", json!({ "suspendDebuggee": true })),
            ["supportSuspendDebuggee"]
        );
        assert!(flags("evaluate", json!({ "expression": "x", "context": "watch" })).is_empty());
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
