//! Data breakpoints (watchpoints): `dataBreakpointInfo` and `setDataBreakpoints`.

use serde::{Deserialize, Serialize};

/// The kinds of access a data breakpoint can break on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DataBreakpointAccessType {
    /// Break on reads (`read`).
    Read,
    /// Break on writes (`write`).
    Write,
    /// Break on reads and writes (`readWrite`).
    ReadWrite,
}

/// Arguments of the `dataBreakpointInfo` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataBreakpointInfoArguments {
    /// The container of the variable named by `name`, if it is a child of one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables_reference: Option<i64>,
    /// The variable's name; an expression if `variables_reference` is absent, an
    /// address if `as_address` is true.
    pub name: String,
    /// The frame to evaluate `name` in, when it is an expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<i64>,
    /// Ask for a range of this many bytes from the address or variable
    /// (`supportsDataBreakpointBytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<i64>,
    /// `name` is a memory address (`supportsDataBreakpointBytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_address: Option<bool>,
    /// One of the adapter's `breakpointModes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

/// Body of the `dataBreakpointInfo` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataBreakpointInfoResponseBody {
    /// The ID to pass to `setDataBreakpoints`, or `None` (JSON `null`, which the spec
    /// requires be sent) if no data breakpoint is possible.
    #[serde(default)]
    pub data_id: Option<String>,
    /// What the breakpoint would be set on, or why none is possible.
    #[serde(default)]
    pub description: String,
    /// The access types a breakpoint here can use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_types: Option<Vec<DataBreakpointAccessType>>,
    /// Whether the breakpoint could persist across sessions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_persist: Option<bool>,
}

/// A data breakpoint, as passed to `setDataBreakpoints`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataBreakpoint {
    /// The data's ID, from `dataBreakpointInfo`.
    pub data_id: String,
    /// The access to break on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_type: Option<DataBreakpointAccessType>,
    /// Break only when this expression is true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Expression controlling how many hits are ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
}

/// Arguments of the `setDataBreakpoints` request: the complete list.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDataBreakpointsArguments {
    /// The data breakpoints; an empty list clears them all.
    pub breakpoints: Vec<DataBreakpoint>,
}
