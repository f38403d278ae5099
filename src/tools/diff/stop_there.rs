//! Where a second run of one side stops to be at a difference (`debug.diff`'s `keep`),
//! the pure part: a breakpoint of the diff's own, the place whose stops count, and how
//! many of them to pass, read from the first run's rows. A call or a return stops at
//! the entry of that call (the n-th call of its function); a tracepoint's row at the
//! n-th pass of its line; a side that lacks the row stops at the entry of the
//! innermost call of the difference's path it made (where the two runs parted).
//!
//! A function is the function of that name in that file: a function breakpoint names
//! it alone, so it also stops in a function of the same name elsewhere (another
//! module's, a C `static` one), which the first run may not have traced. Hits are
//! therefore counted by dapvisor at each stop ([`StopPoint::counts`]), not by the
//! adapter's hit condition, which would count those too (and whose meaning differs
//! between adapters: gdb takes it for hits to ignore).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::tools::diff::align::{keyed, Difference, Key, Side, What};
use crate::{CallEvent, TraceRow};

/// A breakpoint that stops a second run where the first was at the difference.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StopPoint {
    /// As `debug.launch` takes it: a `function`, or a `file` and `line`.
    pub breakpoint: Value,
    /// Which of its stops count.
    pub place: Place,
    /// The counted stop to stay at (from 1).
    pub n: usize,
    /// `the 2nd call of quote`, `the 3rd pass of prog.py:7`.
    pub says: String,
}

/// Where a counted stop is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Place {
    /// The entry of the function so named in that file (as the adapter names both).
    Function { function: String, file: PathBuf },
    /// That line.
    Line { file: PathBuf, line: i64 },
}

impl StopPoint {
    /// Whether a stop at the breakpoint, in the frame `function` at `file`:`line`, is
    /// one of the stops counted.
    pub fn counts(&self, function: &str, file: Option<&Path>, line: i64) -> bool {
        let Some(file) = file else { return false };
        match &self.place {
            Place::Function {
                function: f,
                file: at,
            } => f == function && same_file(at, file),
            Place::Line { file: at, line: l } => *l == line && same_file(at, file),
        }
    }
}

/// The same file, as the adapter named it in both runs or once resolved.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(a), Ok(b)) if a == b
        )
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
            let file = &rows[entry].file;
            let n = rows[..=entry]
                .iter()
                .filter(|r| {
                    &r.file == file
                        && r.call
                            .as_ref()
                            .is_some_and(|c| c.event == CallEvent::Call && &c.function == function)
                })
                .count();
            Some(StopPoint {
                breakpoint: json!({ "function": function }),
                place: Place::Function {
                    function: function.clone(),
                    file: file.clone(),
                },
                n,
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
                breakpoint: json!({ "file": row.file, "line": row.line }),
                place: Place::Line {
                    file: row.file.clone(),
                    line: row.line,
                },
                n,
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
