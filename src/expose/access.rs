//! What an editor on an exposed session may ask, command by command: an allowlist
//! keyed by [`DapCommand`], read against the runtime's own table of what each command
//! does (whether it moves the program, what it does to a stop's reads). A command the
//! runtime does not know (an adapter's own) can do anything, and is refused.

use dapvisor_actors::wire::DapCommand;

/// How the endpoint treats one command from an editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdeAccess {
    /// The editor's own handshake, answered by the endpoint: the session's adapter
    /// never sees it (`initialize`, `attach`, `configurationDone`, `disconnect`).
    Handshake,
    /// Reads the stopped program: sent to the session at once, in either mode.
    Read,
    /// Evaluates an expression: sent to the session in either mode once the
    /// permission gate passes it as it would the session's own `debug.evaluate`.
    Evaluate,
    /// Moves or changes the program: only with `control: true`, and each one is
    /// made known to the agent.
    Drive,
    /// The session's own to send (its breakpoint lists, the launch, restart): refused
    /// in both modes; the agent does these.
    AgentOnly,
}

impl IdeAccess {
    /// Whether an editor may send it in a read-only exposure.
    pub fn read_only(self) -> bool {
        matches!(
            self,
            IdeAccess::Handshake | IdeAccess::Read | IdeAccess::Evaluate
        )
    }
}

/// How the endpoint treats `command`. Exhaustive on purpose: a command added to the
/// runtime's table must be placed here before it builds.
pub fn access_of(command: DapCommand) -> IdeAccess {
    use DapCommand as C;
    match command {
        C::Initialize | C::Attach | C::ConfigurationDone | C::Disconnect => IdeAccess::Handshake,
        // The stop's reads and what leaves a stopped program as it is (the table's
        // `Kept` and `Harmless`), but for setting breakpoints, which is harmless to
        // the reads and still changes where the program stops, and
        // `dataBreakpointInfo`, whose name an adapter may evaluate.
        C::Threads
        | C::StackTrace
        | C::Scopes
        | C::Variables
        | C::Source
        | C::LoadedSources
        | C::Modules
        | C::ExceptionInfo
        | C::Disassemble
        | C::ReadMemory
        | C::Locations
        | C::BreakpointLocations
        | C::GotoTargets
        | C::StepInTargets => IdeAccess::Read,
        C::Evaluate => IdeAccess::Evaluate,
        C::Continue
        | C::Next
        | C::StepIn
        | C::StepOut
        | C::StepBack
        | C::ReverseContinue
        | C::Goto
        | C::RestartFrame
        | C::Pause
        | C::SetVariable
        | C::SetExpression
        | C::WriteMemory
        | C::SetExceptionBreakpoints
        | C::SetDataBreakpoints
        | C::SetInstructionBreakpoints
        | C::DataBreakpointInfo
        | C::Completions
        | C::Cancel
        | C::TerminateThreads
        | C::Terminate => IdeAccess::Drive,
        // A file's list replaces the agent's own for that file; the launch and restart
        // are the session's.
        C::Launch | C::SetBreakpoints | C::SetFunctionBreakpoints | C::Restart => {
            IdeAccess::AgentOnly
        }
    }
}

/// Why a request of `command` is refused from an editor, or `None` when it may go
/// ahead. `owner` names who owns the session (`client c1`, or `the host`).
pub fn refusal(command: &str, control: bool, owner: &str) -> Option<String> {
    let Some(known) = DapCommand::from_name(command) else {
        return Some(format!(
            "`{command}` is not a request dapvisor knows, and an editor watching session \
             through dapvisor may send only those it knows"
        ));
    };
    match access_of(known) {
        access if access.read_only() => None,
        IdeAccess::Drive if control => None,
        IdeAccess::Drive => Some(format!(
            "this session is shown read-only: `{command}` would move or change the \
             program, which only its owner ({owner}) does; the owner can expose it again \
             with `control: true` to let you drive it"
        )),
        _ => Some(format!(
            "`{command}` is the session's own to send (its breakpoint lists, its launch \
             and restart are kept by dapvisor for {owner}); ask the agent to do it"
        )),
    }
}

/// The adapter's capabilities (its `initialize` answer) as an editor on the
/// endpoint is told them: each capability that only gates a request the editor may
/// not send here is turned off, so that the editor offers no button that is bound to
/// fail (a read-only editor is offered no exception filters either, which it would
/// set); and `configurationDone`, which the endpoint answers itself, is on.
pub fn capabilities_for_editor(
    mut adapter: serde_json::Map<String, serde_json::Value>,
    control: bool,
) -> serde_json::Map<String, serde_json::Value> {
    for command in DapCommand::ALL {
        let Some(capability) = command.spec().capability else {
            continue;
        };
        let access = access_of(command);
        let allowed = access.read_only() || (control && access == IdeAccess::Drive);
        if !allowed {
            adapter.insert(capability.to_string(), false.into());
        }
    }
    if !control {
        // An editor sends `setExceptionBreakpoints` for each filter it is offered.
        adapter.remove("exceptionBreakpointFilters");
    }
    adapter.insert("supportsConfigurationDoneRequest".into(), true.into());
    adapter
}

#[cfg(test)]
mod tests {
    use super::*;
    use dapvisor_actors::wire::StopCacheRule;

    /// Whether the runtime's table says `command` leaves a stopped program as it is.
    fn leaves_program_as_is(command: DapCommand) -> bool {
        let spec = command.spec();
        !spec.moves_program && spec.stop_cache != StopCacheRule::Invalidates
    }

    #[test]
    fn every_read_leaves_the_program_as_is_by_the_runtimes_table() {
        for command in DapCommand::ALL {
            if access_of(command) == IdeAccess::Read {
                assert!(leaves_program_as_is(command), "{command} is no read");
            }
        }
    }

    #[test]
    fn every_command_that_moves_the_program_needs_control() {
        for command in DapCommand::ALL {
            if command.spec().moves_program {
                let access = access_of(command);
                assert!(!access.read_only(), "{command} moves the program");
            }
        }
        // And what invalidates a stop's reads is no read either, evaluate aside
        // (which the gate rates).
        for command in DapCommand::ALL {
            let spec = command.spec();
            if spec.stop_cache == StopCacheRule::Invalidates
                && access_of(command) == IdeAccess::Read
            {
                panic!("{command} invalidates the stop and is taken for a read");
            }
        }
    }

    #[test]
    fn a_move_is_refused_read_only_naming_the_owner_and_allowed_with_control() {
        let refused = refusal("next", false, "client c1").unwrap();
        assert!(refused.contains("read-only"), "{refused}");
        assert!(refused.contains("client c1"), "{refused}");
        assert_eq!(refusal("next", true, "client c1"), None);
        for read in [
            "threads",
            "stackTrace",
            "scopes",
            "variables",
            "evaluate",
            "source",
        ] {
            assert_eq!(refusal(read, false, "client c1"), None, "{read}");
        }
        for set in ["setVariable", "setExpression", "pause", "terminate", "goto"] {
            assert!(refusal(set, false, "c1").is_some(), "{set}");
        }
    }

    #[test]
    fn the_sessions_own_requests_and_unknown_ones_are_refused_even_with_control() {
        for own in [
            "setBreakpoints",
            "setFunctionBreakpoints",
            "launch",
            "restart",
        ] {
            let refused = refusal(own, true, "client c1").unwrap();
            assert!(refused.contains("session's own"), "{refused}");
        }
        let unknown = refusal("pydevdSystemInfo", true, "client c1").unwrap();
        assert!(
            unknown.contains("not a request dapvisor knows"),
            "{unknown}"
        );
        // Spelt otherwise, a known command is not that command.
        assert!(refusal("Continue", true, "client c1").is_some());
    }

    #[test]
    fn an_editor_is_told_only_the_capabilities_it_may_use() {
        let adapter = serde_json::json!({
            "supportsSetVariable": true,
            "supportsModulesRequest": true,
            "supportsRestartRequest": true,
            "supportsStepBack": true,
            "exceptionBreakpointFilters": [{"filter": "raised", "label": "Raised"}],
        });
        let adapter = adapter.as_object().unwrap().clone();
        let watching = capabilities_for_editor(adapter.clone(), false);
        assert_eq!(watching["supportsSetVariable"], false);
        assert_eq!(watching["supportsStepBack"], false);
        assert_eq!(watching["supportsModulesRequest"], true);
        assert_eq!(watching["supportsConfigurationDoneRequest"], true);
        assert!(watching.get("exceptionBreakpointFilters").is_none());
        let driving = capabilities_for_editor(adapter, true);
        assert_eq!(driving["supportsSetVariable"], true);
        assert_eq!(driving["supportsStepBack"], true);
        assert_eq!(driving["supportsRestartRequest"], false);
        assert!(driving.get("exceptionBreakpointFilters").is_some());
    }
}
