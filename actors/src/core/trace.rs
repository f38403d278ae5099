//! Tracepoints: breakpoints that do not stop, but record the values of expressions
//! at each hit, read back as rows with a cursor (like output).
//!
//! A tracepoint is an adapter's log point whose message is a template of this
//! session's own: marks that carry a nonce (random per session, so a program's own
//! output cannot pass for a row) around each expression, `{expr}` to be interpolated.
//! The adapter prints one line per hit as output; the session takes those lines out
//! of the output and keeps each as a row. Values can hold any text (newlines, marks of
//! another session) and are still read back whole: only this session's nonce ends one.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::SessionError;
use crate::limits;

/// What starts every mark: a template holding it is a tracepoint's.
const MARK: &str = "@@dvt-";

/// A tracepoint as an agent asks for it: where, when, and what to record.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Tracepoint {
    /// 1-based line.
    pub line: i64,
    /// Record only when this expression is true.
    #[serde(default)]
    pub condition: Option<String>,
    /// Record only when the hit count satisfies this (adapter syntax).
    #[serde(default)]
    pub hit_condition: Option<String>,
    /// The expressions whose values each hit records.
    pub collect: Vec<String>,
}

/// One expression's value at a hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceValue {
    /// The expression, as given.
    pub expression: String,
    /// Its value as the adapter printed it (cut to [`limits::MAX_TRACE_VALUE_BYTES`],
    /// ending in `…` when cut).
    pub value: String,
}

/// One hit of a tracepoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceRow {
    /// The row's cursor: rows are numbered from 0 in the order they came.
    pub index: u64,
    /// Which hit of its tracepoint this is, from 1.
    pub hit: u64,
    /// The tracepoint's file.
    pub file: PathBuf,
    /// The tracepoint's line (as asked for).
    pub line: i64,
    /// The thread, where the route that recorded it knows it (a log point does not).
    pub thread: Option<i64>,
    /// How the row was recorded.
    pub route: TraceRoute,
    /// Each expression's value, in the order given; a call row's arguments, by name.
    pub values: Vec<TraceValue>,
    /// What a call trace's row says of its call (`None` for a tracepoint's row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<CallRecord>,
}

/// How a tracepoint's row was recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceRoute {
    /// The adapter's log point printed it; the program did not stop.
    LogPoint,
    /// The adapter has no log points: the program stopped, the session evaluated
    /// each expression in the top frame and continued.
    Stop,
}

/// The answer to [`SessionHandle::trace`](crate::SessionHandle::trace).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceSlice {
    /// The rows read, oldest first.
    pub rows: Vec<TraceRow>,
    /// The cursor to pass next time.
    pub next: u64,
    /// Rows between the cursor asked for and the oldest kept that were dropped to
    /// the bound before this reader got them.
    pub missed: u64,
    /// Rows dropped to the bound in the whole session.
    pub dropped: u64,
    /// Whether more rows wait after these.
    pub more: bool,
    /// Calls the call trace left unrecorded in the whole session: they came faster
    /// than its rate ([`limits::DEFAULT_MAX_CALLS_PER_SECOND`]).
    pub calls_dropped: u64,
}

/// A tracepoint's identity in its template, and what it records.
#[derive(Debug, Clone, PartialEq)]
struct Registered {
    file: PathBuf,
    line: i64,
    collect: Vec<String>,
    hits: u64,
}

/// The session's tracepoints and the rows their hits recorded.
#[derive(Debug, Clone)]
pub struct TraceLog {
    nonce: String,
    tracepoints: Vec<Registered>,
    rows: VecDeque<TraceRow>,
    /// The cursor of the next row to come.
    next_index: u64,
    dropped: u64,
    capacity: usize,
    /// Per output category, a row whose start came and whose end has not.
    partial: HashMap<String, String>,
}

impl TraceLog {
    /// A log keeping the newest `capacity` rows, with a fresh nonce.
    pub fn new(capacity: usize) -> Self {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        Self {
            nonce: format!("{:016x}", hasher.finish()),
            tracepoints: Vec::new(),
            rows: VecDeque::new(),
            next_index: 0,
            dropped: 0,
            capacity: capacity.max(1),
            partial: HashMap::new(),
        }
    }

    /// The log message that makes a log point at `file:line` record `collect`: its
    /// template. Refused with the reason when an expression cannot go in a template.
    pub fn template(
        &mut self,
        file: PathBuf,
        line: i64,
        collect: &[String],
    ) -> Result<String, SessionError> {
        check_collect(collect)?;
        let registered = Registered {
            file,
            line,
            collect: collect.to_vec(),
            hits: 0,
        };
        let id = match self.tracepoints.iter().position(|t| {
            (t.file.as_path(), t.line, &t.collect)
                == (registered.file.as_path(), line, &registered.collect)
        }) {
            Some(known) => known,
            None => {
                self.tracepoints.push(registered);
                self.tracepoints.len() - 1
            }
        };
        let mut template = format!("{}{id}@@", self.start());
        for (i, expression) in collect.iter().enumerate() {
            if i > 0 {
                template.push_str(&self.separator());
            }
            template.push('{');
            template.push_str(expression.trim());
            template.push('}');
        }
        template.push_str(&self.end());
        Ok(template)
    }

    /// What starts a row of this session's: the mark, the nonce, then the id.
    fn start(&self) -> String {
        format!("{MARK}{}-", self.nonce)
    }

    fn separator(&self) -> String {
        format!("{MARK}{}|@@", self.nonce)
    }

    fn end(&self) -> String {
        format!("{MARK}{}.@@", self.nonce)
    }

    /// Take this session's rows out of a piece of output in `category`: the text
    /// that is the program's (or the adapter's) own stays, and each row is kept (a
    /// row split across pieces waits for its end, up to
    /// [`limits::MAX_TRACE_PENDING_BYTES`]). Returns the text left and where each row
    /// found was hit (file and line), in order.
    pub fn take_rows(&mut self, category: &str, text: &str) -> (String, Vec<(PathBuf, i64)>) {
        let start = self.start();
        let held = self.partial.remove(category).unwrap_or_default();
        if held.is_empty() && !text.contains(&start) && marker_begun(text, &start) == 0 {
            return (text.to_string(), Vec::new()); // the usual case: no row at all
        }
        let mut rest = held + text;
        let mut left = String::new();
        let mut hits = Vec::new();
        while let Some(at) = rest.find(&start) {
            left.push_str(&rest[..at]);
            let end = self.end();
            let Some(end_at) = rest[at..].find(&end).map(|e| at + e) else {
                if rest.len() - at > limits::MAX_TRACE_PENDING_BYTES {
                    // No end in sight: it is text after all.
                    left.push_str(&rest[at..]);
                } else if let Some(text) = self.hold(category, rest[at..].to_string()) {
                    left.push_str(&text);
                }
                return (left, hits);
            };
            let body = &rest[at + start.len()..end_at];
            if let Some(hit) = self.record(body) {
                hits.push(hit);
            }
            let mut after = end_at + end.len();
            for newline in ["\r\n", "\n"] {
                if rest[after..].starts_with(newline) {
                    after += newline.len();
                    break;
                }
            }
            rest = rest.split_off(after);
        }
        left.push_str(&rest);
        // A row whose start a read's edge split (output through pipes comes in
        // pieces of any size) waits for the rest of its start.
        let begun = marker_begun(&left, &start);
        if begun > 0 {
            let tail = left.split_off(left.len() - begun);
            if let Some(text) = self.hold(category, tail) {
                left.push_str(&text);
            }
        }
        (left, hits)
    }

    /// Hold `pending`, the start of a row in `category`, for its end; given back as
    /// text when [`limits::MAX_TRACE_PENDING_CATEGORIES`] other categories already
    /// hold one (the categories are the adapter's to name: they are bounded).
    fn hold(&mut self, category: &str, pending: String) -> Option<String> {
        let full = self.partial.len() >= limits::MAX_TRACE_PENDING_CATEGORIES;
        if full && !self.partial.contains_key(category) {
            return Some(pending);
        }
        self.partial.insert(category.to_string(), pending);
        None
    }

    /// Keep the row whose template body (`ID@@v1SEPv2...`) is `body`.
    fn record(&mut self, body: &str) -> Option<(PathBuf, i64)> {
        let (id, values) = body.split_once("@@")?;
        let separator = self.separator();
        let values: Vec<&str> = values.split(separator.as_str()).collect();
        self.keep(id.parse().ok()?, None, TraceRoute::LogPoint, &values)
    }

    /// Keep a row read at a stop on thread `thread` at the tracepoint whose template is
    /// `template`, with the values evaluated there, in order.
    pub fn record_stop(
        &mut self,
        template: &str,
        thread: i64,
        values: Vec<String>,
    ) -> Option<(PathBuf, i64)> {
        let start = self.start();
        let (id, _) = template.strip_prefix(&start)?.split_once("@@")?;
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        self.keep(id.parse().ok()?, Some(thread), TraceRoute::Stop, &values)
    }

    fn keep(
        &mut self,
        id: usize,
        thread: Option<i64>,
        route: TraceRoute,
        values: &[&str],
    ) -> Option<(PathBuf, i64)> {
        let tracepoint = self.tracepoints.get_mut(id)?;
        tracepoint.hits += 1;
        let row = TraceRow {
            index: self.next_index,
            hit: tracepoint.hits,
            file: tracepoint.file.clone(),
            line: tracepoint.line,
            thread,
            route,
            call: None,
            values: tracepoint
                .collect
                .iter()
                .zip(values.iter().chain(std::iter::repeat(&"")))
                .map(|(expression, value)| TraceValue {
                    expression: expression.clone(),
                    value: cut(value, limits::MAX_TRACE_VALUE_BYTES),
                })
                .collect(),
        };
        let hit = (row.file.clone(), row.line);
        self.push(row);
        Some(hit)
    }

    fn push(&mut self, row: TraceRow) {
        self.next_index += 1;
        if self.rows.len() == self.capacity {
            self.rows.pop_front();
            self.dropped += 1;
        }
        self.rows.push_back(row);
    }

    /// At most `max_rows` rows from cursor `since` (0 for the first), and at least one
    /// where one waits: a `max_rows` of 0 is read as 1, so a reader that reads while
    /// `more` always moves on.
    pub fn read_since(&self, since: u64, max_rows: usize) -> TraceSlice {
        let oldest = self.next_index - self.rows.len() as u64;
        let from = since.clamp(oldest, self.next_index);
        let skip = usize::try_from(from - oldest).unwrap_or(usize::MAX);
        let rows: Vec<TraceRow> = self
            .rows
            .iter()
            .skip(skip)
            .take(max_rows.max(1))
            .cloned()
            .collect();
        let next = from + rows.len() as u64;
        TraceSlice {
            more: next < self.next_index,
            missed: oldest.saturating_sub(since),
            dropped: self.dropped,
            calls_dropped: 0,
            next,
            rows,
        }
    }

    #[cfg(test)]
    /// Rows recorded in the whole session (kept or dropped).
    pub fn total(&self) -> u64 {
        self.next_index
    }
}

/// The expressions a tracepoint's template records, if `log_message` is one.
pub fn collected(log_message: &str) -> Option<Vec<String>> {
    let rest = log_message.strip_prefix(MARK)?;
    let (_, rest) = rest.split_once("@@")?;
    let expressions = rest
        .split('{')
        .skip(1)
        .filter_map(|piece| piece.split_once('}').map(|(e, _)| e.to_string()))
        .collect();
    Some(expressions)
}

/// The expressions of a tracepoint can go in a template: some, not too many, none
/// empty, none with a brace (a template's own syntax, with no escape in DAP).
fn check_collect(collect: &[String]) -> Result<(), SessionError> {
    let invalid = |why: String| Err(SessionError::InvalidArgument(why));
    if collect.is_empty() {
        return invalid("a tracepoint collects at least one expression".into());
    }
    if collect.len() > limits::MAX_TRACE_EXPRESSIONS {
        return invalid(format!(
            "a tracepoint collects at most {} expressions; it was given {}",
            limits::MAX_TRACE_EXPRESSIONS,
            collect.len()
        ));
    }
    if let Some(bad) = collect
        .iter()
        .find(|e| e.trim().is_empty() || e.contains(['{', '}']) || e.contains(MARK))
    {
        return invalid(format!(
            "the tracepoint expression {bad:?} cannot be collected: expressions must be \
             non-empty and hold no `{{` or `}}` (evaluate it at a breakpoint instead)"
        ));
    }
    Ok(())
}

/// `text` cut to at most `max` bytes on a character boundary, with `…` when cut.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// How many bytes at the end of `text` begin `marker` (without being all of it): the
/// start of a marker the piece of output was cut in.
fn marker_begun(text: &str, marker: &str) -> usize {
    (1..marker.len().min(text.len() + 1))
        .rev()
        .find(|&n| {
            let at = text.len() - n;
            text.is_char_boundary(at) && marker.starts_with(&text[at..])
        })
        .unwrap_or(0)
}

#[path = "trace_calls.rs"]
mod trace_calls;
pub(crate) use trace_calls::CallSite;
pub use trace_calls::{CallEvent, CallRecord};

#[cfg(test)]
#[path = "tests/trace_unit.rs"]
mod tests;
