//! The first difference between two runs, the pure part: two runs' trace rows (call
//! rows, return rows, tracepoint rows) aligned by function and call order, not by time,
//! and the rows where they differ, in order.
//!
//! Each row gets a key: its call path (the calls it is inside, each named by its
//! function and its ordinal among the calls of that function by the same caller, so
//! that the 3rd call of `price` in a loop is `price#3` on both sides however long the
//! calls before it took) and what it is (the call, its return, or the n-th hit of a
//! tracepoint at that file name and line inside that call). Rows of the same key are
//! one row of both runs: they differ when their values do. A key one run has and the
//! other lacks is a row one side has alone. Recursion needs nothing more: each level
//! is a step of the path (`layers#1 > layers#1 > layers#1`).
//!
//! Rows one run may lack for other reasons are said so, not reported as certain
//! differences: calls left unrecorded past the rate cap (which shift the ordinals of
//! the calls after them), and the rows after a run was cut short (it stopped, or did
//! not end in time).

use std::collections::HashMap;
use std::path::Path;

use crate::{CallEvent, TraceRow};

/// One call of a call path: the function, the file it is in (by name alone, as a
/// tracepoint's: two copies of a program at different paths align), and which of its
/// caller's calls of that function it is (from 1; 0 for a return whose call row is not
/// there). Two functions of one name in two files are two functions, counted apart.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Step {
    pub function: String,
    pub file: String,
    pub ordinal: u32,
}

/// What a row is, at its call path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum What {
    Call,
    Return,
    /// The `ordinal`-th hit (from 1) of the tracepoint at `file` (its name) and `line`
    /// inside the path's innermost call.
    Point {
        file: String,
        line: i64,
        ordinal: u32,
    },
}

/// Where a row stands in its run, the same in both runs for the same row.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    /// The calls it is inside; for a call or return row, ending with its own call.
    pub path: Vec<Step>,
    pub what: What,
}

impl Key {
    /// `quote#2 > band#1`; `(top level)` for a tracepoint outside every traced call.
    /// The steps' files are left out: the difference's row names its file, and most
    /// paths have one function of a name.
    pub fn path_text(&self) -> String {
        if self.path.is_empty() {
            return "(top level)".into();
        }
        let steps: Vec<String> = self
            .path
            .iter()
            .map(|s| format!("{}#{}", s.function, s.ordinal))
            .collect();
        steps.join(" > ")
    }
}

/// One run as the aligner takes it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Run<'a> {
    pub rows: &'a [TraceRow],
    /// Why rows may be missing anywhere in this run (calls over the rate cap), if any.
    pub gaps: Option<&'a str>,
    /// Why this run has no rows past its last one (it stopped, or did not end in
    /// time), if it was cut short.
    pub cut_short: Option<&'a str>,
}

/// Which run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    A,
    B,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }
}

/// How two runs differ at one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Both have the row; its values differ.
    Values,
    /// Only this side has the row.
    OnlyIn(Side),
}

/// One difference, with both sides' rows (one of them absent for [`Kind::OnlyIn`]).
#[derive(Debug, Clone)]
pub(crate) struct Difference {
    pub kind: Kind,
    pub key: Key,
    pub a: Option<TraceRow>,
    pub b: Option<TraceRow>,
    /// Rows equal on both sides before this difference.
    pub matched_before: usize,
    /// Why this may not be a real difference (rows a run may lack), if it may not.
    pub unsure: Option<String>,
}

impl Difference {
    /// The row that says where: a's, else b's.
    pub fn row(&self) -> &TraceRow {
        self.a
            .as_ref()
            .or(self.b.as_ref())
            .expect("a difference has a row on at least one side")
    }

    /// The function the difference is in: its own call's, or the innermost call a
    /// tracepoint's row is inside.
    pub fn function(&self) -> Option<&str> {
        self.key.path.last().map(|s| s.function.as_str())
    }
}

/// The two runs aligned.
#[derive(Debug, Clone, Default)]
pub(crate) struct Alignment {
    /// Rows equal on both sides, in all.
    pub matched: usize,
    /// Every difference, first first.
    pub differences: Vec<Difference>,
}

/// What a row holds, compared between the runs: a call's arguments, a return's value
/// (or why there is none), a tracepoint's values.
pub(crate) fn content(row: &TraceRow) -> Vec<(String, String)> {
    match &row.call {
        Some(call) if call.event == CallEvent::Return => match (&call.returned, &call.unknown) {
            (Some(value), _) => vec![("returned".into(), value.clone())],
            (None, why) => vec![("unknown".into(), why.clone().unwrap_or_default())],
        },
        _ => row
            .values
            .iter()
            .map(|v| (v.expression.clone(), v.value.clone()))
            .collect(),
    }
}

/// How many calls of each function (by name and file name) and hits of each
/// tracepoint a caller has made.
#[derive(Debug, Default)]
struct Counts {
    calls: HashMap<(String, String), u32>,
    points: HashMap<(String, i64), u32>,
}

/// A call whose return row has not come yet.
#[derive(Debug)]
struct Open {
    call: u64,
    path: Vec<Step>,
    counts: Counts,
}

/// Each row of a run with its key, in the run's order.
pub(crate) fn keyed(rows: &[TraceRow]) -> Vec<Key> {
    let mut top = Counts::default();
    // Open calls per thread (a log point's row names no thread: it is taken to be
    // inside the calls of the thread that was seen last).
    let mut open: HashMap<Option<i64>, Vec<Open>> = HashMap::new();
    let mut last_thread = None;
    let mut keys = Vec::with_capacity(rows.len());
    for row in rows {
        let key = match &row.call {
            Some(call) => {
                let thread = row.thread;
                last_thread = thread;
                let stack = open.entry(thread).or_default();
                match call.event {
                    CallEvent::Call => {
                        let (base, counts) = match stack.last_mut() {
                            Some(caller) => (caller.path.clone(), &mut caller.counts),
                            None => (Vec::new(), &mut top),
                        };
                        let file = file_name(&row.file);
                        let entry = counts.calls.entry((call.function.clone(), file.clone()));
                        let ordinal = bump(entry);
                        let mut path = base;
                        path.push(Step {
                            function: call.function.clone(),
                            file,
                            ordinal,
                        });
                        stack.push(Open {
                            call: call.call,
                            path: path.clone(),
                            counts: Counts::default(),
                        });
                        Key {
                            path,
                            what: What::Call,
                        }
                    }
                    CallEvent::Return => {
                        let path = match stack.iter().rposition(|o| o.call == call.call) {
                            // Calls above it ended unseen with it.
                            Some(at) => stack.drain(at..).next().expect("at < len").path,
                            None => {
                                let mut path =
                                    stack.last().map(|o| o.path.clone()).unwrap_or_default();
                                path.push(Step {
                                    function: call.function.clone(),
                                    file: file_name(&row.file),
                                    ordinal: 0,
                                });
                                path
                            }
                        };
                        Key {
                            path,
                            what: What::Return,
                        }
                    }
                }
            }
            None => {
                let thread = row.thread.or(last_thread);
                let stack = open.entry(thread).or_default();
                let (path, counts) = match stack.last_mut() {
                    Some(caller) => (caller.path.clone(), &mut caller.counts),
                    None => (Vec::new(), &mut top),
                };
                let file = file_name(&row.file);
                let ordinal = bump(counts.points.entry((file.clone(), row.line)));
                Key {
                    path,
                    what: What::Point {
                        file,
                        line: row.line,
                        ordinal,
                    },
                }
            }
        };
        keys.push(key);
    }
    keys
}

fn bump<K>(entry: std::collections::hash_map::Entry<'_, K, u32>) -> u32 {
    let n = entry.or_insert(0);
    *n += 1;
    *n
}

/// A file's name alone: two copies of a program (before and after a change) have
/// their tracepoints at different paths.
fn file_name(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Align `a` and `b` and list every difference, first first: walking both runs in
/// order, a row of the same key on both sides is compared; a row whose key the other
/// side lacks is that side's alone; where both rows' keys come later on the other
/// side (the runs made the same calls in another order), a's row is compared with
/// its partner.
pub(crate) fn align(a: Run<'_>, b: Run<'_>) -> Alignment {
    let (keys_a, keys_b) = (keyed(a.rows), keyed(b.rows));
    let at_a = index(&keys_a);
    let at_b = index(&keys_b);
    let (mut used_a, mut used_b) = (vec![false; keys_a.len()], vec![false; keys_b.len()]);
    let (mut i, mut j) = (0, 0);
    let mut alignment = Alignment::default();
    let gaps = match (a.gaps, b.gaps) {
        (Some(x), Some(y)) => Some(format!("a: {x}; b: {y}")),
        (Some(x), None) => Some(format!("a: {x}")),
        (None, Some(y)) => Some(format!("b: {y}")),
        (None, None) => None,
    };
    loop {
        while i < keys_a.len() && used_a[i] {
            i += 1;
        }
        while j < keys_b.len() && used_b[j] {
            j += 1;
        }
        let (here_a, here_b) = (i < keys_a.len(), j < keys_b.len());
        // Which rows this step takes: (a's, b's).
        let pair = match (here_a, here_b) {
            (false, false) => break,
            (true, false) => (Some(i), partner(&at_b, &keys_a[i], &used_b)),
            (false, true) => (partner(&at_a, &keys_b[j], &used_a), Some(j)),
            (true, true) if keys_a[i] == keys_b[j] => (Some(i), Some(j)),
            (true, true) => match (
                partner(&at_b, &keys_a[i], &used_b),
                partner(&at_a, &keys_b[j], &used_a),
            ) {
                (None, _) => (Some(i), None),
                (Some(_), None) => (None, Some(j)),
                (Some(later), Some(_)) => (Some(i), Some(later)),
            },
        };
        if let Some(x) = pair.0 {
            used_a[x] = true;
        }
        if let Some(y) = pair.1 {
            used_b[y] = true;
        }
        let row_a = pair.0.map(|x| &a.rows[x]);
        let row_b = pair.1.map(|y| &b.rows[y]);
        let kind = match (row_a, row_b) {
            (Some(x), Some(y)) if content(x) == content(y) => {
                alignment.matched += 1;
                continue;
            }
            (Some(_), Some(_)) => Kind::Values,
            (Some(_), None) => Kind::OnlyIn(Side::A),
            (None, _) => Kind::OnlyIn(Side::B),
        };
        // A row one side has alone, past the end of the other side's rows when that
        // side was cut short, may simply not have come there.
        let cut = match kind {
            Kind::OnlyIn(Side::A) if !here_b => b.cut_short.map(|why| format!("b {why}")),
            Kind::OnlyIn(Side::B) if !here_a => a.cut_short.map(|why| format!("a {why}")),
            _ => None,
        };
        let key = match pair {
            (Some(x), _) => keys_a[x].clone(),
            (None, Some(y)) => keys_b[y].clone(),
            (None, None) => unreachable!("a step takes a row"),
        };
        alignment.differences.push(Difference {
            kind,
            key,
            a: row_a.cloned(),
            b: row_b.cloned(),
            matched_before: alignment.matched,
            unsure: cut.or_else(|| gaps.clone()),
        });
    }
    alignment
}

/// Each key's first row.
fn index(keys: &[Key]) -> HashMap<&Key, usize> {
    let mut at = HashMap::with_capacity(keys.len());
    for (n, key) in keys.iter().enumerate() {
        at.entry(key).or_insert(n);
    }
    at
}

/// The other side's row of `key`, if it has one not yet taken.
fn partner(at: &HashMap<&Key, usize>, key: &Key, used: &[bool]) -> Option<usize> {
    at.get(key).copied().filter(|&n| !used[n])
}

#[cfg(test)]
#[path = "align_tests.rs"]
mod tests;
