//! Where a second run of one side stops to be at a difference (`debug.diff`'s `keep`),
//! the pure part: a breakpoint of the diff's own and a hit count read from the first
//! run's rows. A call or a return stops at the entry of that call (the n-th call of
//! its function); a tracepoint's row at the n-th pass of its line; a side that lacks
//! the row stops at the entry of the innermost call of the difference's path it made
//! (where the two runs parted). The hit count is digits alone: no expression of the
//! agent's runs in it.

use serde_json::{json, Value};

use crate::tools::diff::align::{keyed, Difference, Key, Side, What};
use crate::{CallEvent, TraceRow};

/// A breakpoint that stops a second run where the first was at the difference.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StopPoint {
    /// As `debug.launch` takes it: a `function` or `file` and `line`, with the
    /// `hit_condition` of the n-th hit.
    pub breakpoint: Value,
    /// `the 2nd call of quote`, `the 3rd pass of prog.py:7`.
    pub says: String,
}

/// Where `side`'s second run stops to be at `difference`, from its first run's `rows`
/// (every row kept: a run with rows dropped cannot be counted in); `None` when it has
/// no call there (a top-level row it lacks).
pub(crate) fn stop_point(
    difference: &Difference,
    side: Side,
    rows: &[TraceRow],
) -> Option<StopPoint> {
    let own = match side {
        Side::A => difference.a.as_ref(),
        Side::B => difference.b.as_ref(),
    };
    let at = match own {
        Some(row) => position(rows, row.index)?,
        None => parting_call(&difference.key, rows)?,
    };
    let row = &rows[at];
    match &row.call {
        Some(call) => {
            let entry = match call.event {
                CallEvent::Call => at,
                CallEvent::Return => position(rows, call.pair?)?,
            };
            let function = &rows[entry].call.as_ref()?.function;
            let n = rows[..=entry]
                .iter()
                .filter(|r| {
                    r.call
                        .as_ref()
                        .is_some_and(|c| c.event == CallEvent::Call && &c.function == function)
                })
                .count();
            Some(StopPoint {
                breakpoint: json!({ "function": function, "hit_condition": n.to_string() }),
                says: format!("the {} call of {function}", nth(n)),
            })
        }
        None => {
            let n = rows[..=at]
                .iter()
                .filter(|r| r.call.is_none() && r.file == row.file && r.line == row.line)
                .count();
            let name = row.file.file_name().map_or_else(
                || row.file.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            Some(StopPoint {
                breakpoint: json!({ "file": row.file, "line": row.line,
                                    "hit_condition": n.to_string() }),
                says: format!("the {} pass of {name}:{}", nth(n), row.line),
            })
        }
    }
}

fn position(rows: &[TraceRow], index: u64) -> Option<usize> {
    rows.iter().position(|r| r.index == index)
}

/// The call row of the innermost call on `key`'s path that this run made.
fn parting_call(key: &Key, rows: &[TraceRow]) -> Option<usize> {
    let keys = keyed(rows);
    let longest = match key.what {
        What::Point { .. } => key.path.len(),
        What::Call | What::Return => key.path.len().saturating_sub(1),
    };
    (1..=longest).rev().find_map(|len| {
        let call = Key {
            path: key.path[..len].to_vec(),
            what: What::Call,
        };
        keys.iter().position(|k| *k == call)
    })
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
fn nth(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
#[path = "stop_there_tests.rs"]
mod tests;
