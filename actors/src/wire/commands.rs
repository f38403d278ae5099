//! What the runtime knows of each DAP request, one description per command: its
//! wire name, the capability an adapter must advertise before it is sent, whether
//! it makes the program move, what it does to a stop's cached reads, and the field
//! its answer is nothing without. The session core's checks, the stop cache, the
//! raw-request rules and the handle's typed calls all read these descriptions; a
//! command's name is written here and nowhere else.
//!
//! A command the handle calls with typed arguments and answer also has a
//! [`TypedRequest`](crate::wire::typed_requests::TypedRequest), which names its
//! description and its argument and body types.

/// A DAP request this runtime knows. A command not here (an adapter's own) is sent by
/// name and treated as unknown: gated by nothing, and taken to change the program.
///
/// Deliberately exhaustive: whoever matches on it (the permission gate rates each
/// command an agent may send by name) must decide about a command added here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DapCommand {
    /// `initialize`.
    Initialize,
    /// `launch`.
    Launch,
    /// `attach`.
    Attach,
    /// `configurationDone`.
    ConfigurationDone,
    /// `setBreakpoints`.
    SetBreakpoints,
    /// `setFunctionBreakpoints`.
    SetFunctionBreakpoints,
    /// `setExceptionBreakpoints`.
    SetExceptionBreakpoints,
    /// `setDataBreakpoints`.
    SetDataBreakpoints,
    /// `setInstructionBreakpoints`.
    SetInstructionBreakpoints,
    /// `dataBreakpointInfo`.
    DataBreakpointInfo,
    /// `breakpointLocations`.
    BreakpointLocations,
    /// `continue`.
    Continue,
    /// `next`.
    Next,
    /// `stepIn`.
    StepIn,
    /// `stepOut`.
    StepOut,
    /// `stepBack`.
    StepBack,
    /// `reverseContinue`.
    ReverseContinue,
    /// `goto`.
    Goto,
    /// `gotoTargets`.
    GotoTargets,
    /// `stepInTargets`.
    StepInTargets,
    /// `restartFrame`.
    RestartFrame,
    /// `pause`.
    Pause,
    /// `threads`.
    Threads,
    /// `stackTrace`.
    StackTrace,
    /// `scopes`.
    Scopes,
    /// `variables`.
    Variables,
    /// `evaluate`.
    Evaluate,
    /// `setVariable`.
    SetVariable,
    /// `setExpression`.
    SetExpression,
    /// `completions`.
    Completions,
    /// `exceptionInfo`.
    ExceptionInfo,
    /// `source`.
    Source,
    /// `loadedSources`.
    LoadedSources,
    /// `modules`.
    Modules,
    /// `disassemble`.
    Disassemble,
    /// `readMemory`.
    ReadMemory,
    /// `writeMemory`.
    WriteMemory,
    /// `locations`.
    Locations,
    /// `cancel`.
    Cancel,
    /// `terminate`.
    Terminate,
    /// `terminateThreads`.
    TerminateThreads,
    /// `disconnect`.
    Disconnect,
    /// `restart`.
    Restart,
}

/// What a command's answer does to a stop's cached reads (see `core/stop_cache.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopCacheRule {
    /// A read the cache keeps while the program stays stopped.
    Kept,
    /// Leaves the stopped program's threads, stack, scopes and variables as they
    /// are, but is not kept.
    Harmless,
    /// May change the program (or runs code in it): everything cached is dropped.
    Invalidates,
}

/// The description of one DAP command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandSpec {
    /// The command as the wire spells it.
    pub name: &'static str,
    /// The capability flag (its wire name) the adapter must have advertised, per the
    /// DAP specification; `None` for requests every adapter must serve.
    pub capability: Option<&'static str>,
    /// Sending it makes the program run (a `stopped` event may follow).
    pub moves_program: bool,
    /// What it does to a stop's cached reads.
    pub stop_cache: StopCacheRule,
    /// The field the DAP specification requires in its answer, where the answer is
    /// nothing without it.
    pub answer_field: Option<&'static str>,
}

impl CommandSpec {
    /// A command every adapter serves, that leaves nothing cached and has no required
    /// answer field.
    const fn named(name: &'static str) -> Self {
        Self {
            name,
            capability: None,
            moves_program: false,
            stop_cache: StopCacheRule::Invalidates,
            answer_field: None,
        }
    }

    const fn gated(self, capability: &'static str) -> Self {
        Self {
            capability: Some(capability),
            ..self
        }
    }

    const fn moves(self) -> Self {
        Self {
            moves_program: true,
            ..self
        }
    }

    const fn kept(self) -> Self {
        Self {
            stop_cache: StopCacheRule::Kept,
            ..self
        }
    }

    const fn harmless(self) -> Self {
        Self {
            stop_cache: StopCacheRule::Harmless,
            ..self
        }
    }

    const fn answers(self, field: &'static str) -> Self {
        Self {
            answer_field: Some(field),
            ..self
        }
    }
}

impl DapCommand {
    /// Every command, in a stable order.
    pub const ALL: [DapCommand; 43] = {
        use DapCommand as C;
        [
            C::Initialize,
            C::Launch,
            C::Attach,
            C::ConfigurationDone,
            C::SetBreakpoints,
            C::SetFunctionBreakpoints,
            C::SetExceptionBreakpoints,
            C::SetDataBreakpoints,
            C::SetInstructionBreakpoints,
            C::DataBreakpointInfo,
            C::BreakpointLocations,
            C::Continue,
            C::Next,
            C::StepIn,
            C::StepOut,
            C::StepBack,
            C::ReverseContinue,
            C::Goto,
            C::GotoTargets,
            C::StepInTargets,
            C::RestartFrame,
            C::Pause,
            C::Threads,
            C::StackTrace,
            C::Scopes,
            C::Variables,
            C::Evaluate,
            C::SetVariable,
            C::SetExpression,
            C::Completions,
            C::ExceptionInfo,
            C::Source,
            C::LoadedSources,
            C::Modules,
            C::Disassemble,
            C::ReadMemory,
            C::WriteMemory,
            C::Locations,
            C::Cancel,
            C::Terminate,
            C::TerminateThreads,
            C::Disconnect,
            C::Restart,
        ]
    };

    /// This command's description.
    pub const fn spec(self) -> CommandSpec {
        use DapCommand as C;
        let named = CommandSpec::named;
        match self {
            C::Initialize => named("initialize"),
            C::Launch => named("launch"),
            C::Attach => named("attach"),
            C::ConfigurationDone => named("configurationDone"),
            C::SetBreakpoints => named("setBreakpoints").harmless(),
            C::SetFunctionBreakpoints => named("setFunctionBreakpoints")
                .gated("supportsFunctionBreakpoints")
                .harmless(),
            C::SetExceptionBreakpoints => named("setExceptionBreakpoints")
                .harmless()
                .answers("breakpoints"),
            C::SetDataBreakpoints => named("setDataBreakpoints")
                .gated("supportsDataBreakpoints")
                .harmless()
                .answers("breakpoints"),
            C::SetInstructionBreakpoints => named("setInstructionBreakpoints")
                .gated("supportsInstructionBreakpoints")
                .harmless()
                .answers("breakpoints"),
            C::DataBreakpointInfo => named("dataBreakpointInfo")
                .gated("supportsDataBreakpoints")
                .harmless()
                .answers("dataId"),
            C::BreakpointLocations => named("breakpointLocations")
                .gated("supportsBreakpointLocationsRequest")
                .harmless()
                .answers("breakpoints"),
            C::Continue => named("continue").moves(),
            C::Next => named("next").moves(),
            C::StepIn => named("stepIn").moves(),
            C::StepOut => named("stepOut").moves(),
            C::StepBack => named("stepBack").gated("supportsStepBack").moves(),
            C::ReverseContinue => named("reverseContinue").gated("supportsStepBack").moves(),
            C::Goto => named("goto").gated("supportsGotoTargetsRequest").moves(),
            C::GotoTargets => named("gotoTargets")
                .gated("supportsGotoTargetsRequest")
                .harmless()
                .answers("targets"),
            C::StepInTargets => named("stepInTargets")
                .gated("supportsStepInTargetsRequest")
                .harmless()
                .answers("targets"),
            C::RestartFrame => named("restartFrame").gated("supportsRestartFrame").moves(),
            C::Pause => named("pause"),
            C::Threads => named("threads").kept().answers("threads"),
            C::StackTrace => named("stackTrace").kept().answers("stackFrames"),
            C::Scopes => named("scopes").kept().answers("scopes"),
            C::Variables => named("variables").kept().answers("variables"),
            // An expression can call code on every adapter: it invalidates.
            C::Evaluate => named("evaluate").answers("result"),
            C::SetVariable => named("setVariable")
                .gated("supportsSetVariable")
                .answers("value"),
            C::SetExpression => named("setExpression")
                .gated("supportsSetExpression")
                .answers("value"),
            C::Completions => named("completions")
                .gated("supportsCompletionsRequest")
                .answers("targets"),
            C::ExceptionInfo => named("exceptionInfo")
                .gated("supportsExceptionInfoRequest")
                .harmless()
                .answers("exceptionId"),
            C::Source => named("source").harmless().answers("content"),
            C::LoadedSources => named("loadedSources")
                .gated("supportsLoadedSourcesRequest")
                .harmless()
                .answers("sources"),
            C::Modules => named("modules")
                .gated("supportsModulesRequest")
                .harmless()
                .answers("modules"),
            C::Disassemble => named("disassemble")
                .gated("supportsDisassembleRequest")
                .harmless()
                .answers("instructions"),
            C::ReadMemory => named("readMemory")
                .gated("supportsReadMemoryRequest")
                .harmless()
                .answers("address"),
            C::WriteMemory => named("writeMemory").gated("supportsWriteMemoryRequest"),
            C::Locations => named("locations").harmless().answers("source"),
            C::Cancel => named("cancel").gated("supportsCancelRequest"),
            C::Terminate => named("terminate").gated("supportsTerminateRequest"),
            C::TerminateThreads => {
                named("terminateThreads").gated("supportsTerminateThreadsRequest")
            }
            C::Disconnect => named("disconnect"),
            C::Restart => named("restart").gated("supportsRestartRequest"),
        }
    }

    /// The command as the wire spells it.
    pub const fn name(self) -> &'static str {
        self.spec().name
    }

    /// The command the wire name `name` is, if this runtime knows it.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl std::fmt::Display for DapCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_unique_and_reads_back() {
        let mut names: Vec<&str> = DapCommand::ALL.iter().map(|c| c.name()).collect();
        for command in DapCommand::ALL {
            assert_eq!(DapCommand::from_name(command.name()), Some(command));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), DapCommand::ALL.len());
        assert_eq!(DapCommand::from_name("pydevdSystemInfo"), None);
    }

    #[test]
    fn a_moving_command_is_never_kept_or_harmless() {
        for command in DapCommand::ALL {
            let spec = command.spec();
            if spec.moves_program {
                assert_eq!(spec.stop_cache, StopCacheRule::Invalidates, "{command}");
            }
        }
    }

    #[test]
    fn the_reads_a_stop_keeps_are_the_four_of_a_stopped_program() {
        let kept: Vec<&str> = DapCommand::ALL
            .iter()
            .filter(|c| c.spec().stop_cache == StopCacheRule::Kept)
            .map(|c| c.name())
            .collect();
        assert_eq!(kept, ["threads", "stackTrace", "scopes", "variables"]);
    }
}
