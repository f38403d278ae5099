//! Bodies of the events about the adapter's own work and views: progress reporting,
//! invalidated data and changed memory.

use serde::{Deserialize, Serialize};

/// Body of the `progressStart` event: a long operation began.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressStartEventBody {
    /// The progress's ID, unique in the session, used by the update and end events.
    #[serde(default)]
    pub progress_id: String,
    /// A short title for the operation.
    #[serde(default)]
    pub title: String,
    /// The request this progress belongs to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<i64>,
    /// The operation can be cancelled with a `cancel` request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancellable: Option<bool>,
    /// A more detailed message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Percentage done, 0 to 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentage: Option<f64>,
}

/// Body of the `progressUpdate` event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressUpdateEventBody {
    /// The ID from `progressStart`.
    #[serde(default)]
    pub progress_id: String,
    /// A new message (the previous one stays if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Percentage done, 0 to 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentage: Option<f64>,
}

/// Body of the `progressEnd` event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressEndEventBody {
    /// The ID from `progressStart`.
    #[serde(default)]
    pub progress_id: String,
    /// A final message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Body of the `invalidated` event: data fetched earlier is stale and should be
/// fetched again.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidatedEventBody {
    /// What is stale: `all`, `stacks`, `threads`, `variables`, or other values; absent,
    /// empty or unknown means `all`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub areas: Option<Vec<String>>,
    /// Only data of this thread is stale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<i64>,
    /// Only data of this stack frame is stale (`thread_id` is then ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack_frame_id: Option<i64>,
}

/// Body of the `memory` event: a memory range changed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoryEventBody {
    /// Memory reference of the range.
    #[serde(default)]
    pub memory_reference: String,
    /// Offset in bytes where the change starts; may be negative.
    #[serde(default)]
    pub offset: i64,
    /// Number of bytes changed.
    #[serde(default)]
    pub count: i64,
}
