//! Where the program is: threads, stack traces and scopes.

use serde::{Deserialize, Serialize};

use super::{ModuleId, Source};

/// A thread.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Thread {
    /// The thread's ID.
    #[serde(default)]
    pub id: i64,
    /// The thread's name.
    #[serde(default)]
    pub name: String,
}

/// Body of the `threads` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadsResponseBody {
    /// All threads.
    #[serde(default)]
    pub threads: Vec<Thread>,
}

/// How to format a value.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValueFormat {
    /// Show the value in hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<bool>,
}

/// How to format stack frames (the fields of [`ValueFormat`] plus frame options).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StackFrameFormat {
    /// Show values in hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<bool>,
    /// Show the frame's parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<bool>,
    /// Show the parameters' types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_types: Option<bool>,
    /// Show the parameters' names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_names: Option<bool>,
    /// Show the parameters' values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_values: Option<bool>,
    /// Show the frame's line number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<bool>,
    /// Show the frame's module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<bool>,
    /// Include frames the adapter would otherwise hide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_all: Option<bool>,
}

/// Arguments of the `stackTrace` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StackTraceArguments {
    /// The thread whose stack to return.
    pub thread_id: i64,
    /// Index of the first frame to return (0 if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_frame: Option<i64>,
    /// Most frames to return; all if absent or 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levels: Option<i64>,
    /// How to format the frames (`supportsValueFormattingOptions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<StackFrameFormat>,
}

/// Body of the `stackTrace` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StackTraceResponseBody {
    /// The frames, innermost first; empty if no location is known.
    #[serde(default)]
    pub stack_frames: Vec<StackFrame>,
    /// The total number of frames, if the adapter knows it. Fewer frames than asked
    /// for also marks the end of the stack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_frames: Option<i64>,
}

/// A stack frame.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StackFrame {
    /// The frame's ID, unique across threads; used by `scopes`, `evaluate` and
    /// `restartFrame`. Valid until execution resumes.
    #[serde(default)]
    pub id: i64,
    /// The frame's name, typically a function name.
    #[serde(default)]
    pub name: String,
    /// The frame's source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// The line in `source`; 0 (to be ignored) if there is no source.
    #[serde(default)]
    pub line: i64,
    /// The column in `line`; 0 (to be ignored) if there is no source.
    #[serde(default)]
    pub column: i64,
    /// The end line of the frame's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// The end column of the frame's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
    /// Whether `restartFrame` can restart this frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_restart: Option<bool>,
    /// A memory reference for the frame's current instruction pointer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction_pointer_reference: Option<String>,
    /// The module of the frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module_id: Option<ModuleId>,
    /// How to present the frame: `normal`, `label` (an artificial separator),
    /// `subtle` or `deemphasize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presentation_hint: Option<String>,
}

/// Arguments of the `scopes` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScopesArguments {
    /// The frame whose scopes to return, from the current stop.
    pub frame_id: i64,
}

/// Body of the `scopes` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScopesResponseBody {
    /// The frame's scopes.
    #[serde(default)]
    pub scopes: Vec<Scope>,
}

/// A named container of variables, such as `Locals` or `Registers`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scope {
    /// The scope's name, as shown to the user.
    #[serde(default)]
    pub name: String,
    /// What the scope holds: `arguments`, `locals`, `registers`, or other values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presentation_hint: Option<String>,
    /// Pass to `variables` to list the scope's variables.
    #[serde(default)]
    pub variables_reference: i64,
    /// The number of named variables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named_variables: Option<i64>,
    /// The number of indexed variables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_variables: Option<i64>,
    /// The scope is large or expensive to list.
    #[serde(default)]
    pub expensive: bool,
    /// The source of the scope's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// The start line of the scope's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<i64>,
    /// The start column of the scope's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// The end line of the scope's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// The end column of the scope's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
}
