//! Source, function and instruction breakpoints, the adapter's [`Breakpoint`] answer,
//! and `breakpointLocations`.

use serde::{Deserialize, Serialize};

use super::Source;

/// A breakpoint or logpoint in a source, as passed to `setBreakpoints`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceBreakpoint {
    /// The source line.
    pub line: i64,
    /// The start column within the line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// Break only when this expression is true (`supportsConditionalBreakpoints`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Expression controlling how many hits are ignored
    /// (`supportsHitConditionalBreakpoints`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
    /// If set and non-empty, log this message (with `{expr}` interpolated) instead of
    /// stopping (`supportsLogPoints`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_message: Option<String>,
    /// One of the adapter's `breakpointModes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

/// Arguments of the `setBreakpoints` request: the complete list for one source.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetBreakpointsArguments {
    /// The source; `path` or `source_reference` must be set.
    pub source: Source,
    /// The breakpoints; an empty list clears the source's breakpoints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breakpoints: Option<Vec<SourceBreakpoint>>,
    /// Deprecated: the breakpoints' lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<i64>>,
    /// The source was modified, which moves breakpoint locations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_modified: Option<bool>,
}

/// Body of the responses that answer with a list of breakpoints:
/// `setFunctionBreakpoints`, `setInstructionBreakpoints`, `setDataBreakpoints` and
/// `setExceptionBreakpoints` (and `setBreakpoints`, as [`SetBreakpointsResponseBody`]).
/// The list is in the order of the request's list.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BreakpointsResponseBody {
    /// What the adapter made of each requested breakpoint.
    #[serde(default)]
    pub breakpoints: Vec<Breakpoint>,
}

/// Body of the `setBreakpoints` response: one [`Breakpoint`] per requested breakpoint,
/// in the same order.
pub type SetBreakpointsResponseBody = BreakpointsResponseBody;

/// A breakpoint as the adapter set it (or failed to): the answer to the set-breakpoint
/// requests, and the subject of `breakpoint` events.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Breakpoint {
    /// The adapter's ID for the breakpoint, used by `breakpoint` events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// Whether the breakpoint could be set (not necessarily where asked).
    #[serde(default)]
    pub verified: bool,
    /// Why the breakpoint is not verified, or other news about it, for the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The source the breakpoint is in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// The start line of the actual location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<i64>,
    /// The start column of the actual location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// The end line of the actual location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// The end column of the actual location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
    /// A memory reference to where the breakpoint is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction_reference: Option<String>,
    /// Offset from `instruction_reference`, in bytes; may be negative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
    /// Why an unverified breakpoint is unverified: `pending` (may verify later) or
    /// `failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A breakpoint on a function name, as passed to `setFunctionBreakpoints`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionBreakpoint {
    /// The name of the function.
    pub name: String,
    /// Break only when this expression is true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Expression controlling how many hits are ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
}

/// Arguments of the `setFunctionBreakpoints` request: the complete list.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetFunctionBreakpointsArguments {
    /// The function breakpoints; an empty list clears them all.
    pub breakpoints: Vec<FunctionBreakpoint>,
}

/// A breakpoint on an instruction, as passed to `setInstructionBreakpoints`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InstructionBreakpoint {
    /// A memory or instruction pointer reference, from a stack frame, variable,
    /// evaluate result, goto target or breakpoint.
    pub instruction_reference: String,
    /// Offset from the reference, in bytes; may be negative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
    /// Break only when this expression is true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Expression controlling how many hits are ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
    /// One of the adapter's `breakpointModes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

/// Arguments of the `setInstructionBreakpoints` request: the complete list.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetInstructionBreakpointsArguments {
    /// The instruction breakpoints; an empty list clears them all.
    pub breakpoints: Vec<InstructionBreakpoint>,
}

/// Arguments of the `breakpointLocations` request: a range of a source to search.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BreakpointLocationsArguments {
    /// The source; `path` or `source_reference` must be set.
    pub source: Source,
    /// The start line of the range.
    pub line: i64,
    /// The start column (the line's first position if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// The end line (the start line if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// The end column (the end line's last position if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
}

/// Body of the `breakpointLocations` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BreakpointLocationsResponseBody {
    /// The possible breakpoint locations, sorted.
    #[serde(default)]
    pub breakpoints: Vec<BreakpointLocation>,
}

/// A place where a source breakpoint can be set.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BreakpointLocation {
    /// The start line.
    #[serde(default)]
    pub line: i64,
    /// The start column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// The end line, if the location is a range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// The end column, if the location is a range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
}
