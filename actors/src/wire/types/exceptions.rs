//! Exceptions: what to break on (`setExceptionBreakpoints`) and what was thrown
//! (`exceptionInfo`).

use serde::{Deserialize, Serialize};

/// When a thrown exception breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ExceptionBreakMode {
    /// Never break (`never`).
    Never,
    /// Always break (`always`). The spec gives no default; this one exists so that a
    /// body that leaves the mode out still parses.
    #[default]
    Always,
    /// Break when the exception is unhandled (`unhandled`).
    Unhandled,
    /// Break when user code does not handle the exception (`userUnhandled`).
    UserUnhandled,
}

/// Arguments of the `setExceptionBreakpoints` request. `filters`, `filter_options` and
/// `exception_options` add up: an exception matching any of them stops.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetExceptionBreakpointsArguments {
    /// IDs of the adapter's `exceptionBreakpointFilters` to turn on.
    pub filters: Vec<String>,
    /// Filters with conditions (`supportsExceptionFilterOptions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter_options: Option<Vec<ExceptionFilterOptions>>,
    /// Options for selected exceptions (`supportsExceptionOptions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exception_options: Option<Vec<ExceptionOptions>>,
}

/// An exception filter with a condition.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionFilterOptions {
    /// ID of one of the adapter's `exceptionBreakpointFilters`.
    pub filter_id: String,
    /// Break only when this expression is true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// One of the adapter's `breakpointModes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

/// Break options for a set of exceptions.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionOptions {
    /// Selects exceptions in the exception tree; the whole tree if absent. The first
    /// segment is by convention a category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<ExceptionPathSegment>>,
    /// When a selected exception breaks.
    pub break_mode: ExceptionBreakMode,
}

/// One segment of an exception path: matches the given names, or (if `negate`)
/// anything but them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionPathSegment {
    /// If true, match anything except `names`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negate: Option<bool>,
    /// The names to match (or not match).
    pub names: Vec<String>,
}

/// Arguments of the `exceptionInfo` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionInfoArguments {
    /// The thread whose exception to describe.
    pub thread_id: i64,
}

/// Body of the `exceptionInfo` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionInfoResponseBody {
    /// ID of the exception that was thrown.
    #[serde(default)]
    pub exception_id: String,
    /// Text describing the exception.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The mode that made the exception break.
    #[serde(default, deserialize_with = "break_mode_or_default")]
    pub break_mode: ExceptionBreakMode,
    /// Details of the exception.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<ExceptionDetails>,
}

/// A `breakMode` as sent, an empty one read as if it were left out: dlv 1.20 answers
/// `exceptionInfo` after a panic with `"breakMode": ""`. js-debug 1.112 answers with
/// the name of its filter instead of a mode: `all` (caught ones too) reads as
/// `always`, `uncaught` as `unhandled`.
fn break_mode_or_default<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<ExceptionBreakMode, D::Error> {
    use serde::de::IntoDeserializer;
    match Option::<String>::deserialize(deserializer)?.as_deref() {
        None | Some("") => Ok(ExceptionBreakMode::default()),
        Some("all") => Ok(ExceptionBreakMode::Always),
        Some("uncaught") => Ok(ExceptionBreakMode::Unhandled),
        Some(mode) => {
            let mode: serde::de::value::StrDeserializer<'_, D::Error> = mode.into_deserializer();
            ExceptionBreakMode::deserialize(mode)
        }
    }
}

/// Details of an exception.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionDetails {
    /// The exception's message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Short type name of the exception object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_name: Option<String>,
    /// Fully qualified type name of the exception object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_type_name: Option<String>,
    /// An expression that evaluates to the exception object in the current scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluate_name: Option<String>,
    /// The stack trace when the exception was thrown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack_trace: Option<String>,
    /// Exceptions this one contains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inner_exception: Option<Vec<ExceptionDetails>>,
}
