//! The DAP requests the session handle sends with typed arguments and reads with a
//! typed answer: each a marker type naming its command's description
//! ([`DapCommand`]), its arguments and its response body.
//!
//! ```
//! use dapvisor_actors::wire::typed_requests::{StackTrace, TypedRequest};
//! assert_eq!(<StackTrace as TypedRequest>::COMMAND.name(), "stackTrace");
//! ```

use serde::de::DeserializeOwned;
use serde::{Serialize, Serializer};

use crate::wire::commands::DapCommand;
use crate::wire::types::*;

/// A DAP request with typed arguments and answer.
pub trait TypedRequest {
    /// The command, whose description gates and classifies the request.
    const COMMAND: DapCommand;
    /// What the request takes.
    type Arguments: Serialize;
    /// What its successful answer carries.
    type Body: DeserializeOwned;
}

/// The arguments of a request that takes none: sent as `{}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoArguments;

impl Serialize for NoArguments {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        serializer.serialize_map(Some(0))?.end()
    }
}

/// The body of an answer whose content does not matter (or that has none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
pub struct AnyBody {}

macro_rules! typed_request {
    ($($(#[$doc:meta])* $marker:ident: $arguments:ty => $body:ty;)*) => {$(
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $marker {}

        impl TypedRequest for $marker {
            const COMMAND: DapCommand = DapCommand::$marker;
            type Arguments = $arguments;
            type Body = $body;
        }
    )*};
}

typed_request! {
    /// The debuggee's threads.
    Threads: NoArguments => ThreadsResponseBody;
    /// A thread's call stack.
    StackTrace: StackTraceArguments => StackTraceResponseBody;
    /// A frame's scopes.
    Scopes: ScopesArguments => ScopesResponseBody;
    /// The children of a variables reference.
    Variables: VariablesArguments => VariablesResponseBody;
    /// An expression's value.
    Evaluate: EvaluateArguments => EvaluateResponseBody;
    /// A variable given a new value.
    SetVariable: SetVariableArguments => SetVariableResponseBody;
    /// An assignable expression given a new value.
    SetExpression: SetExpressionArguments => SetExpressionResponseBody;
    /// Completions of a partly typed expression.
    Completions: CompletionsArguments => CompletionsResponseBody;
    /// The exception a thread stopped on.
    ExceptionInfo: ExceptionInfoArguments => ExceptionInfoResponseBody;
    /// The text of a source the adapter holds.
    Source: SourceArguments => SourceResponseBody;
    /// The modules the debuggee has loaded.
    Modules: ModulesArguments => ModulesResponseBody;
    /// The sources the debuggee has loaded.
    LoadedSources: NoArguments => LoadedSourcesResponseBody;
    /// Where a location reference points.
    Locations: LocationsArguments => LocationsResponseBody;
    /// Where breakpoints can go in a range of lines.
    BreakpointLocations: BreakpointLocationsArguments => BreakpointLocationsResponseBody;
    /// Every instruction breakpoint, replaced.
    SetInstructionBreakpoints: SetInstructionBreakpointsArguments => BreakpointsResponseBody;
    /// Whether and how a data breakpoint can watch something.
    DataBreakpointInfo: DataBreakpointInfoArguments => DataBreakpointInfoResponseBody;
    /// Every data breakpoint, replaced.
    SetDataBreakpoints: SetDataBreakpointsArguments => BreakpointsResponseBody;
    /// The calls a step in could enter.
    StepInTargets: StepInTargetsArguments => StepInTargetsResponseBody;
    /// Where execution could jump to at a line.
    GotoTargets: GotoTargetsArguments => GotoTargetsResponseBody;
    /// Memory read.
    ReadMemory: ReadMemoryArguments => ReadMemoryResponseBody;
    /// Memory written.
    WriteMemory: WriteMemoryArguments => WriteMemoryResponseBody;
    /// Instructions disassembled.
    Disassemble: DisassembleArguments => DisassembleResponseBody;
    /// A request or progress cancelled.
    Cancel: CancelArguments => AnyBody;
    /// Threads ended.
    TerminateThreads: TerminateThreadsArguments => AnyBody;
    /// Resume.
    Continue: ContinueArguments => AnyBody;
    /// Step over.
    Next: NextArguments => AnyBody;
    /// Step into.
    StepIn: StepInArguments => AnyBody;
    /// Step out.
    StepOut: StepOutArguments => AnyBody;
    /// Step backwards.
    StepBack: StepBackArguments => AnyBody;
    /// Run backwards.
    ReverseContinue: ReverseContinueArguments => AnyBody;
    /// Jump to a goto target.
    Goto: GotoArguments => AnyBody;
    /// Run a frame again from its start.
    RestartFrame: RestartFrameArguments => AnyBody;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_arguments_are_sent_as_an_empty_object() {
        assert_eq!(
            serde_json::to_value(NoArguments).unwrap(),
            serde_json::json!({})
        );
    }

    #[test]
    fn optional_arguments_left_out_are_not_sent() {
        let args = StackTraceArguments {
            thread_id: 1,
            start_frame: Some(0),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_value(args).unwrap(),
            serde_json::json!({ "threadId": 1, "startFrame": 0 })
        );
    }
}
