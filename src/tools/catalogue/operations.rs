//! The session's operations (what a state allows) as the tools an agent calls for
//! them: a refusal says "allowed now: debug.continue, debug.step_over, ..." rather
//! than the runtime's operation names (`query`, `navigate`), which no tool is called.

use crate::{Operation, SessionState};

/// What a tool asks of a session, which its state allows or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Asks {
    /// This operation.
    Operation(Operation),
    /// Nothing a state forbids: it reads (or sets) what the session keeps, or who may
    /// drive it.
    AnyState,
}

/// The tools that ask a session for `op`, in the catalogue's order.
pub(crate) fn tools_for(op: Operation) -> Vec<&'static str> {
    asking(Asks::Operation(op))
}

/// The tools that work in every state.
fn always() -> Vec<&'static str> {
    asking(Asks::AnyState)
}

fn asking(asks: Asks) -> Vec<&'static str> {
    crate::tools::catalogue_tools()
        .iter()
        .filter(|t| t.asks == asks)
        .map(|t| t.spec.name)
        .collect()
}

/// The tools an agent can call on a session in `state`, comma-separated: those for
/// the operations it allows, then those that work in every state.
pub(crate) fn allowed_tools(state: SessionState) -> Vec<&'static str> {
    let mut tools: Vec<&'static str> = state
        .allowed_operations()
        .into_iter()
        .flat_map(tools_for)
        .collect();
    tools.extend(always());
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
            .flat_map(tools_for)
            .chain(always())
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
