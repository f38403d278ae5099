//! What a session is doing ([`SessionState`]), what an agent can ask of it
//! ([`Operation`]), and which operations each state allows. The vocabulary the session
//! core's state machine, its errors and its events share; the core's refusal
//! (`core/state.rs`) applies it.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::wire::commands::DapCommand;

/// Where a debug session is in its life.
///
/// ```text
/// NotStarted --launch/attach--> Initializing --initialized event--> Configured
/// Configured --configurationDone answered--> Running <--continue/step-- Stopped
/// Running --stopped event--> Stopped
/// Running | Stopped --exited/terminated event, terminate, disconnect--> Terminated
/// Terminated --launch/attach--> Initializing   (a new adapter, same session)
/// Initializing .. Stopped --adapter crashed--> AdapterRestarting --restart--> Initializing
/// AdapterRestarting --restart budget spent--> Failed
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SessionState {
    /// Created; no adapter yet.
    NotStarted,
    /// The adapter is starting: `initialize` and `launch`/`attach` are under way.
    Initializing,
    /// The adapter sent `initialized`; breakpoints and `configurationDone` are being sent.
    Configured,
    /// The debuggee runs.
    Running,
    /// The debuggee is stopped (breakpoint, step, pause, exception, entry).
    Stopped,
    /// The debuggee ended or the session was ended; a new launch may follow.
    Terminated,
    /// The adapter crashed; the supervisor starts a new one with the same
    /// configuration and breakpoints after a backoff.
    AdapterRestarting,
    /// The adapter crashed more often than the restart budget allows; the session's
    /// snapshot says why, and every request is refused with that reason.
    Failed,
}

/// An operation an agent can ask a session for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Operation {
    /// Start the program under the adapter.
    Launch,
    /// Attach to a running process or debug server.
    Attach,
    /// Set, add or remove source or function breakpoints.
    SetBreakpoints,
    /// Set exception breakpoint filters.
    SetExceptionBreakpoints,
    /// Resume execution.
    Continue,
    /// Step over.
    Next,
    /// Step into.
    StepIn,
    /// Step out.
    StepOut,
    /// Interrupt a running debuggee.
    Pause,
    /// List threads.
    Threads,
    /// Read a thread's call stack.
    StackTrace,
    /// Read a frame's scopes.
    Scopes,
    /// Read variables.
    Variables,
    /// Evaluate an expression.
    Evaluate,
    /// Send any DAP request by name.
    CustomRequest,
    /// End the debuggee and the adapter.
    Terminate,
    /// Detach from the debuggee (or end it) and stop the adapter.
    Disconnect,
    /// Read more of a stopped program: exception info, completions, step-in and goto
    /// targets, disassembly, memory, locations, data breakpoint info.
    Inspect,
    /// Change a stopped program: set a variable or expression, write memory.
    Modify,
    /// Move a stopped program elsewhere: goto, restart a frame, step back, reverse
    /// continue.
    Navigate,
    /// Ask about the program while it runs or is stopped: modules, loaded sources,
    /// source text, breakpoint locations, cancel, terminate threads.
    Query,
    /// Restart the debuggee (the adapter's `restart`, or terminate and launch again).
    Restart,
}

impl Operation {
    /// The operation's name: its variant in snake_case, as it serializes (`next`,
    /// `stack_trace`). It names the runtime's operation, not a tool: the agent
    /// surface says which of its tools an operation is.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Launch => "launch",
            Operation::Attach => "attach",
            Operation::SetBreakpoints => "set_breakpoints",
            Operation::SetExceptionBreakpoints => "set_exception_breakpoints",
            Operation::Continue => "continue",
            Operation::Next => "next",
            Operation::StepIn => "step_in",
            Operation::StepOut => "step_out",
            Operation::Pause => "pause",
            Operation::Threads => "threads",
            Operation::StackTrace => "stack_trace",
            Operation::Scopes => "scopes",
            Operation::Variables => "variables",
            Operation::Evaluate => "evaluate",
            Operation::CustomRequest => "custom_request",
            Operation::Terminate => "terminate",
            Operation::Disconnect => "disconnect",
            Operation::Inspect => "inspect",
            Operation::Modify => "modify",
            Operation::Navigate => "navigate",
            Operation::Query => "query",
            Operation::Restart => "restart",
        }
    }

    /// The operation the DAP request `command` carries out, by which the session's
    /// state allows it or not; `None` for a command this runtime does not know (an
    /// adapter's own), which is a [`Operation::CustomRequest`].
    pub fn of_command(command: &str) -> Option<Operation> {
        DapCommand::from_name(command).map(Operation::of)
    }

    /// The operation a known DAP command carries out.
    pub fn of(command: DapCommand) -> Operation {
        use DapCommand as C;
        use Operation as O;
        match command {
            C::Initialize | C::Launch | C::ConfigurationDone => O::Launch,
            C::Attach => O::Attach,
            C::SetBreakpoints
            | C::SetFunctionBreakpoints
            | C::SetDataBreakpoints
            | C::SetInstructionBreakpoints => O::SetBreakpoints,
            C::SetExceptionBreakpoints => O::SetExceptionBreakpoints,
            C::Continue => O::Continue,
            C::Next => O::Next,
            C::StepIn => O::StepIn,
            C::StepOut => O::StepOut,
            C::Pause => O::Pause,
            C::Threads => O::Threads,
            C::StackTrace => O::StackTrace,
            C::Scopes => O::Scopes,
            C::Variables => O::Variables,
            C::Evaluate => O::Evaluate,
            C::Terminate => O::Terminate,
            C::Disconnect => O::Disconnect,
            C::Restart => O::Restart,
            C::ExceptionInfo
            | C::Completions
            | C::StepInTargets
            | C::GotoTargets
            | C::Disassemble
            | C::ReadMemory
            | C::Locations
            | C::DataBreakpointInfo => O::Inspect,
            C::SetVariable | C::SetExpression | C::WriteMemory => O::Modify,
            C::Goto | C::RestartFrame | C::StepBack | C::ReverseContinue => O::Navigate,
            C::Modules
            | C::LoadedSources
            | C::Source
            | C::BreakpointLocations
            | C::Cancel
            | C::TerminateThreads => O::Query,
        }
    }

    /// Every operation, in a stable order.
    pub const ALL: [Operation; 22] = [
        Operation::Launch,
        Operation::Attach,
        Operation::SetBreakpoints,
        Operation::SetExceptionBreakpoints,
        Operation::Continue,
        Operation::Next,
        Operation::StepIn,
        Operation::StepOut,
        Operation::Pause,
        Operation::Threads,
        Operation::StackTrace,
        Operation::Scopes,
        Operation::Variables,
        Operation::Evaluate,
        Operation::CustomRequest,
        Operation::Terminate,
        Operation::Disconnect,
        Operation::Inspect,
        Operation::Modify,
        Operation::Navigate,
        Operation::Query,
        Operation::Restart,
    ];
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl SessionState {
    /// The state's name: its variant in snake_case, as it serializes.
    pub fn name(self) -> &'static str {
        match self {
            SessionState::NotStarted => "not_started",
            SessionState::Initializing => "initializing",
            SessionState::Configured => "configured",
            SessionState::Running => "running",
            SessionState::Stopped => "stopped",
            SessionState::Terminated => "terminated",
            SessionState::AdapterRestarting => "adapter_restarting",
            SessionState::Failed => "failed",
        }
    }

    /// Whether the session is under way: an adapter is live (or being restarted) and
    /// the debuggee has not ended.
    pub fn is_live(self) -> bool {
        matches!(
            self,
            SessionState::Initializing
                | SessionState::Configured
                | SessionState::Running
                | SessionState::Stopped
                | SessionState::AdapterRestarting
        )
    }

    /// Whether this state allows `op`.
    ///
    /// Breakpoints may be edited in every state: before the adapter is configured they
    /// are cached and sent during configuration, so a program cannot run past them.
    /// Inspection needs a stopped debuggee; `threads` also works while it runs. While
    /// restarting, only breakpoints (replayed on the new adapter) and ending the
    /// session are allowed; a failed session allows nothing.
    pub fn allows(self, op: Operation) -> bool {
        use Operation as O;
        use SessionState as S;
        if self == S::Failed {
            return false;
        }
        match op {
            O::SetBreakpoints | O::SetExceptionBreakpoints => true,
            O::Launch | O::Attach => matches!(self, S::NotStarted | S::Terminated),
            O::Continue | O::Next | O::StepIn | O::StepOut => self == S::Stopped,
            O::Pause => self == S::Running,
            O::Threads | O::CustomRequest => matches!(self, S::Running | S::Stopped),
            O::StackTrace | O::Scopes | O::Variables | O::Evaluate => self == S::Stopped,
            O::Inspect | O::Modify | O::Navigate => self == S::Stopped,
            O::Query => matches!(self, S::Running | S::Stopped),
            O::Restart => matches!(self, S::Running | S::Stopped),
            O::Terminate | O::Disconnect => self.is_live(),
        }
    }

    /// The operations this state allows, in a stable order.
    pub fn allowed_operations(self) -> Vec<Operation> {
        Operation::ALL
            .into_iter()
            .filter(|op| self.allows(*op))
            .collect()
    }
}

impl fmt::Display for SessionState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Operation as O;
    use SessionState as S;

    #[test]
    fn not_started_allows_only_start_and_breakpoints() {
        assert_eq!(
            S::NotStarted.allowed_operations(),
            vec![
                O::Launch,
                O::Attach,
                O::SetBreakpoints,
                O::SetExceptionBreakpoints
            ]
        );
    }

    // The seed: while the adapter starts "no tools are functional", Configured is
    // transient, Stopped has every tool, a terminated session only starts again.
    // Beyond it, by design: breakpoints are cached in every live state (sent during
    // configuration, replayed on a restarted adapter), and an agent can always end a
    // live session. AdapterRestarting is like a start under way; Failed allows nothing.

    /// Breakpoints (cached for the adapter to come) and ending the session.
    fn breakpoints_and_ending() -> Vec<Operation> {
        vec![
            O::SetBreakpoints,
            O::SetExceptionBreakpoints,
            O::Terminate,
            O::Disconnect,
        ]
    }

    #[test]
    fn initializing_configured_and_restarting_allow_only_breakpoints_and_ending() {
        for state in [S::Initializing, S::Configured, S::AdapterRestarting] {
            assert_eq!(
                state.allowed_operations(),
                breakpoints_and_ending(),
                "{state}"
            );
        }
    }

    #[test]
    fn stopped_allows_every_tool_but_a_new_start_and_pause() {
        assert_eq!(
            S::Stopped.allowed_operations(),
            vec![
                O::SetBreakpoints,
                O::SetExceptionBreakpoints,
                O::Continue,
                O::Next,
                O::StepIn,
                O::StepOut,
                O::Threads,
                O::StackTrace,
                O::Scopes,
                O::Variables,
                O::Evaluate,
                O::CustomRequest,
                O::Terminate,
                O::Disconnect,
                O::Inspect,
                O::Modify,
                O::Navigate,
                O::Query,
                O::Restart
            ]
        );
    }

    #[test]
    fn failed_allows_nothing() {
        assert_eq!(S::Failed.allowed_operations(), Vec::<Operation>::new());
    }

    #[test]
    fn running_allows_pause_threads_and_breakpoints_but_no_inspection() {
        assert_eq!(
            S::Running.allowed_operations(),
            vec![
                O::SetBreakpoints,
                O::SetExceptionBreakpoints,
                O::Pause,
                O::Threads,
                O::CustomRequest,
                O::Terminate,
                O::Disconnect,
                O::Query,
                O::Restart
            ]
        );
    }

    #[test]
    fn terminated_allows_a_new_start() {
        assert_eq!(
            S::Terminated.allowed_operations(),
            vec![
                O::Launch,
                O::Attach,
                O::SetBreakpoints,
                O::SetExceptionBreakpoints
            ]
        );
    }
}
