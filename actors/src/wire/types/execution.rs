//! Execution control: continue, step, pause, goto, restart a frame, end threads and
//! end the session.

use serde::{Deserialize, Serialize};

use super::Source;

/// The size of one step of `next`, `stepIn`, `stepOut` and `stepBack`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SteppingGranularity {
    /// Run until the current statement has finished (`statement`); what a statement is
    /// is up to the adapter. The spec's default.
    #[default]
    Statement,
    /// Run until the current source line has finished (`line`).
    Line,
    /// Run one instruction (`instruction`).
    Instruction,
}

/// Arguments of the `continue` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContinueArguments {
    /// The active thread; the only one resumed if `single_thread` is true.
    pub thread_id: i64,
    /// Resume only `thread_id` (`supportsSingleThreadExecutionRequests`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_thread: Option<bool>,
}

/// Body of the `continue` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContinueResponseBody {
    /// `false` if not all threads were resumed; absent or `true` means all were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_threads_continued: Option<bool>,
}

/// Arguments of the `reverseContinue` request (`supportsStepBack`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReverseContinueArguments {
    /// The active thread; the only one resumed if `single_thread` is true.
    pub thread_id: i64,
    /// Resume only `thread_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_thread: Option<bool>,
}

/// Arguments of the `next` (step over) request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NextArguments {
    /// The thread to step.
    pub thread_id: i64,
    /// Keep the other suspended threads suspended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_thread: Option<bool>,
    /// The step's size (`statement` if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub granularity: Option<SteppingGranularity>,
}

/// Arguments of the `stepIn` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepInArguments {
    /// The thread to step.
    pub thread_id: i64,
    /// Keep the other suspended threads suspended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_thread: Option<bool>,
    /// The target to step into, from `stepInTargets`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_id: Option<i64>,
    /// The step's size (`statement` if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub granularity: Option<SteppingGranularity>,
}

/// Arguments of the `stepOut` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepOutArguments {
    /// The thread to step.
    pub thread_id: i64,
    /// Keep the other suspended threads suspended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_thread: Option<bool>,
    /// The step's size (`statement` if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub granularity: Option<SteppingGranularity>,
}

/// Arguments of the `stepBack` request (`supportsStepBack`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepBackArguments {
    /// The thread to step.
    pub thread_id: i64,
    /// Keep the other suspended threads suspended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_thread: Option<bool>,
    /// The step's size (`statement` if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub granularity: Option<SteppingGranularity>,
}

/// Arguments of the `pause` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PauseArguments {
    /// The thread to pause.
    pub thread_id: i64,
}

/// Arguments of the `goto` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GotoArguments {
    /// The thread to move.
    pub thread_id: i64,
    /// Where to continue, from `gotoTargets`.
    pub target_id: i64,
}

/// Arguments of the `restartFrame` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RestartFrameArguments {
    /// The frame to restart, from the current stop.
    pub frame_id: i64,
}

/// Arguments of the `terminateThreads` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TerminateThreadsArguments {
    /// The threads to terminate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_ids: Option<Vec<i64>>,
}

/// Arguments of the `disconnect` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DisconnectArguments {
    /// This disconnect is part of a restart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart: Option<bool>,
    /// Whether to terminate the debuggee (`supportTerminateDebuggee`); if absent the
    /// adapter decides (launched debuggees usually end, attached ones do not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminate_debuggee: Option<bool>,
    /// Whether to leave the debuggee suspended (`supportSuspendDebuggee`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend_debuggee: Option<bool>,
}

/// Arguments of the `terminate` request (`supportsTerminateRequest`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TerminateArguments {
    /// This terminate is part of a restart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart: Option<bool>,
}

/// Arguments of the `cancel` request (`supportsCancelRequest`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelArguments {
    /// The `seq` of the request to cancel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<i64>,
    /// The ID of the progress to cancel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress_id: Option<String>,
}

/// Arguments of the `stepInTargets` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepInTargetsArguments {
    /// The frame whose step-in targets to list.
    pub frame_id: i64,
}

/// Body of the `stepInTargets` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepInTargetsResponseBody {
    /// The possible step-in targets.
    #[serde(default)]
    pub targets: Vec<StepInTarget>,
}

/// A target `stepIn` can step into (one of several calls on a line).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepInTarget {
    /// The target's ID, passed as `target_id` to `stepIn`.
    #[serde(default)]
    pub id: i64,
    /// The target's name.
    #[serde(default)]
    pub label: String,
    /// The target's line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<i64>,
    /// The target's start column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// The target's end line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// The target's end column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
}

/// Arguments of the `gotoTargets` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GotoTargetsArguments {
    /// The source of the location.
    pub source: Source,
    /// The line of the location.
    pub line: i64,
    /// The column of the location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
}

/// Body of the `gotoTargets` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GotoTargetsResponseBody {
    /// The possible goto targets.
    #[serde(default)]
    pub targets: Vec<GotoTarget>,
}

/// A location `goto` can move execution to.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GotoTarget {
    /// The target's ID, passed as `target_id` to `goto`.
    #[serde(default)]
    pub id: i64,
    /// The target's name.
    #[serde(default)]
    pub label: String,
    /// The target's line.
    #[serde(default)]
    pub line: i64,
    /// The target's column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// The target's end line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// The target's end column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
    /// A memory reference for the instruction pointer at this target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction_pointer_reference: Option<String>,
}
