//! The result of `debug.trace`, the one home of its shape: serialized as the
//! structured content and described by the tool's output schema.

use std::collections::BTreeMap;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::{CallRecord, TraceRoute, TraceRow};

/// What `debug.trace` answers: a slice of the rows the session's tracepoints recorded.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct TraceResult {
    /// The rows of this slice, oldest first.
    pub rows: Vec<TraceRowEntry>,
    /// The cursor to read on from (`since` of the next call).
    pub next: u64,
    /// Whether more rows wait past `next`.
    pub more: bool,
    /// Rows dropped before they were read (a session keeps its newest rows).
    pub missed: u64,
    /// Rows the session has dropped in all.
    pub dropped: u64,
    /// How this slice's rows were recorded: `log_point`, or `stop` where the adapter
    /// has no log points.
    #[schemars(with = "Vec<String>")]
    pub routes: Vec<TraceRoute>,
    /// Calls the call trace left unrecorded, coming faster than its rate.
    #[serde(skip_serializing_if = "is_zero")]
    pub calls_dropped: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One hit of a tracepoint, as `debug.trace` lists it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct TraceRowEntry {
    /// Which hit of its tracepoint this is, from 1.
    pub hit: u64,
    /// The tracepoint's file.
    pub file: PathBuf,
    /// The tracepoint's line.
    pub line: i64,
    /// Each collected expression's value, by expression.
    #[schemars(with = "BTreeMap<String, String>")]
    pub values: Map<String, Value>,
    /// The thread, where the route that recorded the row knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<i64>,
    /// A call trace's row (its `values` are the arguments): the call's id, `event`
    /// (`call` or `return`), `function`, `depth` among traced calls, on a return
    /// `returned` (or why `unknown`), and `pair`, the cursor of the other row. `file`
    /// and `line` are the function's entry, or where the call returned to.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<BTreeMap<String, Value>>")]
    pub call: Option<CallRecord>,
}

impl From<&TraceRow> for TraceRowEntry {
    fn from(row: &TraceRow) -> Self {
        Self {
            hit: row.hit,
            file: row.file.clone(),
            line: row.line,
            values: row
                .values
                .iter()
                .map(|v| (v.expression.clone(), Value::String(v.value.clone())))
                .collect(),
            thread: row.thread,
            call: row.call.clone(),
        }
    }
}
