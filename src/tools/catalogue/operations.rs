//! The session's operations (what a state allows) as the tools an agent calls for
//! them: a refusal says "allowed now: debug.continue, debug.step_over, ..." rather
//! than the runtime's operation names (`query`, `navigate`), which no tool is called.

use crate::{Operation, SessionState};

/// Tools that work in every state: they read (or set) what the session keeps, or who
/// may drive it.
const ALWAYS: [&str; 6] = [
    "debug.output",
    "debug.trace",
    "debug.watch",
    "debug.wait",
    "debug.sessions",
    "debug.share",
];

/// The tools that ask a session for `op`.
pub(crate) fn tools_for(op: Operation) -> &'static [&'static str] {
    use Operation as O;
    match op {
        O::Launch => &["debug.launch"],
        O::Attach => &["debug.attach"],
        O::SetBreakpoints => &[
            "debug.set_breakpoints",
            "debug.set_breakpoint",
            "debug.remove_breakpoint",
            "debug.set_instruction_breakpoints",
            "debug.set_data_breakpoints",
        ],
        O::SetExceptionBreakpoints => &["debug.set_exception_breakpoints"],
        O::Continue => &["debug.continue", "debug.continue_thread"],
        O::Next => &["debug.step_over", "debug.step"],
        O::StepIn => &["debug.step_in"],
        O::StepOut => &["debug.step_out"],
        O::Pause => &["debug.pause"],
        O::Threads => &["debug.threads"],
        O::StackTrace => &["debug.stack_trace"],
        O::Scopes => &["debug.scopes"],
        O::Variables => &["debug.variables"],
        O::Evaluate => &["debug.evaluate"],
        O::CustomRequest => &["debug.custom_request"],
        O::Terminate => &["debug.terminate"],
        O::Disconnect => &["debug.disconnect"],
        O::Inspect => &[
            "debug.exception_info",
            "debug.completions",
            "debug.step_in_targets",
            "debug.goto_targets",
            "debug.disassemble",
            "debug.read_memory",
            "debug.locations",
            "debug.data_breakpoint_info",
        ],
        O::Modify => &[
            "debug.set_variable",
            "debug.set_expression",
            "debug.write_memory",
        ],
        O::Navigate => &[
            "debug.goto",
            "debug.restart_frame",
            "debug.step_back",
            "debug.reverse_continue",
        ],
        O::Query => &[
            "debug.modules",
            "debug.loaded_sources",
            "debug.source",
            "debug.breakpoint_locations",
            "debug.cancel",
            "debug.terminate_threads",
        ],
        O::Restart => &["debug.restart"],
        // An operation newer than this surface has no tool yet.
        _ => &[],
    }
}

/// The tools an agent can call on a session in `state`, comma-separated: those for
/// the operations it allows, then those that work in every state.
pub(crate) fn allowed_tools(state: SessionState) -> Vec<&'static str> {
    let mut tools: Vec<&'static str> = state
        .allowed_operations()
        .into_iter()
        .flat_map(|op| tools_for(op).iter().copied())
        .collect();
    tools.extend(ALWAYS);
    tools
}

/// What a refused operation is, in tool names (`debug.step_over, debug.step`).
pub(crate) fn tools_named(op: Operation) -> String {
    tools_for(op).join(" or ")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Every tool the catalogue has, by name.
    fn catalogue_names() -> BTreeSet<&'static str> {
        crate::tools::all_tools()
            .into_iter()
            .map(|t| t.spec.name)
            .collect()
    }

    #[test]
    fn every_named_tool_exists_and_every_tool_is_named_once() {
        let catalogue = catalogue_names();
        let mut named: Vec<&str> = Operation::ALL
            .into_iter()
            .flat_map(|op| tools_for(op).iter().copied())
            .chain(ALWAYS)
            .collect();
        for name in &named {
            assert!(catalogue.contains(name), "{name} is no tool");
        }
        named.sort();
        let unique: BTreeSet<&str> = named.iter().copied().collect();
        assert_eq!(unique.len(), named.len(), "a tool named twice");
        assert_eq!(unique, catalogue, "every tool belongs somewhere");
    }

    #[test]
    fn a_refused_raw_request_names_the_tools_for_its_operations() {
        let err = crate::SessionError::ReservedCommand {
            command: "disconnect".into(),
            why: "it lets the adapter go",
            instead: "detach with SessionHandle::disconnect",
            operations: vec![Operation::Disconnect, Operation::Terminate],
        };
        let tool = crate::tools::catalogue::spec::ToolError::from(err);
        assert_eq!(
            tool.error,
            "`disconnect` cannot be sent as a raw request: it lets the adapter go; instead, \
             use debug.disconnect, debug.terminate"
        );
        assert_eq!((tool.code, tool.kind.as_str()), (400, "invalid_argument"));
    }

    #[test]
    fn a_running_program_allows_pause_and_reading_but_not_stepping() {
        let tools = allowed_tools(SessionState::Running);
        assert!(tools.contains(&"debug.pause") && tools.contains(&"debug.modules"));
        assert!(!tools.contains(&"debug.step_over") && !tools.contains(&"debug.variables"));
        assert!(tools.iter().all(|t| t.starts_with("debug.")));
    }
}
