//! Rows of a run for the diff's unit tests, built call by call as a session records
//! them (call ids, depths, each return naming its call's row).

use std::path::PathBuf;

use crate::{CallEvent, CallRecord, TraceRoute, TraceRow, TraceValue};

/// Rows of one run, built call by call: call ids and depths kept as a session does.
#[derive(Default)]
pub(crate) struct Script {
    pub rows: Vec<TraceRow>,
    next_call: u64,
    /// Open calls: id, function, call row.
    open: Vec<(u64, String, u64)>,
}

impl Script {
    fn row(&mut self, call: Option<CallRecord>, file: &str, line: i64, values: &[(&str, &str)]) {
        let index = self.rows.len() as u64;
        self.rows.push(TraceRow {
            index,
            hit: 1,
            file: PathBuf::from(file),
            line,
            thread: call.as_ref().map(|_| 1),
            route: if call.is_some() {
                TraceRoute::Stop
            } else {
                TraceRoute::LogPoint
            },
            values: values
                .iter()
                .map(|(e, v)| TraceValue {
                    expression: e.to_string(),
                    value: v.to_string(),
                })
                .collect(),
            call,
        });
    }

    pub fn call(self, function: &str, args: &[(&str, &str)]) -> Self {
        self.call_in("/p/prog.py", function, args)
    }

    /// A call of `function` in `file` (a function of the same name may be in another).
    pub fn call_in(mut self, file: &str, function: &str, args: &[(&str, &str)]) -> Self {
        self.next_call += 1;
        let record = CallRecord {
            call: self.next_call,
            event: CallEvent::Call,
            function: function.into(),
            depth: self.open.len(),
            returned: None,
            unknown: None,
            pair: None,
        };
        self.open
            .push((self.next_call, function.into(), self.rows.len() as u64));
        self.row(Some(record), file, 10, args);
        self
    }

    pub fn ret(mut self, value: &str) -> Self {
        let (call, function, row) = self.open.pop().expect("a call is open");
        let record = CallRecord {
            call,
            event: CallEvent::Return,
            function,
            depth: self.open.len(),
            returned: Some(value.into()),
            unknown: None,
            pair: Some(row),
        };
        self.row(Some(record), "/p/prog.py", 20, &[]);
        self
    }

    pub fn point(mut self, file: &str, line: i64, values: &[(&str, &str)]) -> Self {
        self.row(None, file, line, values);
        self
    }

    /// `f(x)` returning `r`, with nothing inside.
    pub fn leaf(self, function: &str, x: &str, r: &str) -> Self {
        self.call(function, &[("x", x)]).ret(r)
    }
}
