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

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> CallSite {
        CallSite {
            file: PathBuf::from("/p/parcels.py"),
            line: 19,
            thread: 1,
        }
    }

    fn record(call: u64, event: CallEvent) -> CallRecord {
        CallRecord {
            call,
            event,
            function: "layers".into(),
            depth: 0,
            returned: (event == CallEvent::Return).then(|| "2".into()),
            unknown: None,
            pair: None,
        }
    }

    #[test]
    fn a_call_row_and_its_return_row_name_each_other() {
        let mut log = TraceLog::new(10);
        let arguments = vec![("box".to_string(), "[[]]".to_string())];
        let call = log.push_call(site(), record(1, CallEvent::Call), arguments);
        log.push_return(call, site(), record(1, CallEvent::Return));
        let rows = log.read_since(0, 10).rows;
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].call.as_ref().unwrap().pair, Some(1));
        assert_eq!(rows[1].call.as_ref().unwrap().pair, Some(0));
        assert_eq!((rows[0].hit, rows[0].values[0].value.as_str()), (1, "[[]]"));
        assert_eq!(
            rows[1].call.as_ref().unwrap().returned.as_deref(),
            Some("2")
        );
    }

    #[test]
    fn a_return_whose_call_row_was_dropped_still_names_it_and_a_long_value_is_cut() {
        let mut log = TraceLog::new(1);
        let call = log.push_call(site(), record(1, CallEvent::Call), Vec::new());
        let mut back = record(1, CallEvent::Return);
        back.returned = Some("x".repeat(limits::MAX_TRACE_VALUE_BYTES + 10));
        log.push_return(call, site(), back);
        let slice = log.read_since(0, 10);
        assert_eq!((slice.dropped, slice.rows.len()), (1, 1));
        let kept = slice.rows[0].call.as_ref().unwrap();
        assert_eq!(kept.pair, Some(0));
        assert!(kept.returned.as_ref().unwrap().ends_with('…'));
    }
}
