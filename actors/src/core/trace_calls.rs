//! Call-trace rows in the trace log: a row at each call of a traced function (its
//! arguments as the row's values) and one when it returns (its return value). Both
//! carry the call's id; each names the other's row once both exist, so that a reader
//! (or a diff of two sessions, aligning by function and call order) can pair them.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{cut, TraceLog, TraceRoute, TraceRow, TraceValue};
use crate::limits;

/// Whether a row is a call or its return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallEvent {
    /// The function was entered: the row's values are its arguments.
    Call,
    /// It returned (or ended otherwise): the record says with what.
    Return,
}

/// What a call-trace row says of its call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallRecord {
    /// The call's id: the session's calls are numbered from 1 in the order they came.
    pub call: u64,
    /// Whether the row is the call or its return.
    pub event: CallEvent,
    /// The function, as the adapter names its frame.
    pub function: String,
    /// How many traced calls this one is inside, on its thread (0: outermost).
    pub depth: usize,
    /// The return value, on a return row where the adapter showed one (cut as values
    /// are).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returned: Option<String>,
    /// Why no return value is shown, on a return row without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknown: Option<String>,
    /// The other row of the pair: a call row's return row (once returned), a return
    /// row's call row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<u64>,
}

/// Where and how a call was seen.
#[derive(Debug, Clone)]
pub(crate) struct CallSite {
    pub file: PathBuf,
    pub line: i64,
    pub thread: i64,
}

impl TraceLog {
    /// Keep a call row with its arguments (name, value); its row index.
    pub(crate) fn push_call(
        &mut self,
        site: CallSite,
        record: CallRecord,
        arguments: Vec<(String, String)>,
    ) -> u64 {
        let index = self.next_index;
        let values = arguments
            .into_iter()
            .map(|(expression, value)| TraceValue {
                expression,
                value: cut(&value, limits::MAX_TRACE_VALUE_BYTES),
            })
            .collect();
        self.push(TraceRow {
            index,
            hit: record.call,
            file: site.file,
            line: site.line,
            thread: Some(site.thread),
            route: TraceRoute::Stop,
            values,
            call: Some(record),
        });
        index
    }

    /// Keep the return row of the call recorded at row `call_row`, and name it there
    /// (if that row is still kept).
    pub(crate) fn push_return(&mut self, call_row: u64, site: CallSite, mut record: CallRecord) {
        record.returned = record
            .returned
            .map(|v| cut(&v, limits::MAX_TRACE_VALUE_BYTES));
        record.pair = Some(call_row);
        let index = self.push_call(site, record, Vec::new());
        let oldest = self.next_index - self.rows.len() as u64;
        if let Some(row) = call_row
            .checked_sub(oldest)
            .and_then(|at| self.rows.get_mut(usize::try_from(at).ok()?))
        {
            if let Some(call) = row.call.as_mut() {
                call.pair = Some(index);
            }
        }
    }
}
