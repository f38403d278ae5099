//! The result of `debug.output`, the one home of its shape: serialized as the
//! structured content and described by the tool's output schema.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

/// What `debug.output` answers: a slice of what the program printed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct OutputResult {
    /// The text of the slice, of the categories asked for.
    pub output: String,
    /// The cursor to read on from (`since` of the next call).
    pub next: u64,
    /// Whether more output waits past `next`.
    pub truncated: bool,
    /// Bytes dropped from the session's buffer before they were read.
    pub missed_bytes: u64,
    /// The bytes of the slice in each category, kept or left out.
    pub categories: BTreeMap<String, usize>,
    /// The bytes of the slice that `categories` left out.
    pub left_out_bytes: usize,
}
