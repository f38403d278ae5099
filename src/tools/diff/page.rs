//! A page of a diff's differences, as `debug.diff` answers it: both runs in a line
//! each, then the differences from a cursor, as many as `limit` asks and
//! [`MAX_DIFF_RESULT_BYTES`] holds (structured content and text together); every cut
//! says how to read the rest.

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use crate::tools::diff::align::{content, Difference, Kind, Side, What};
use crate::tools::diff::store::{KeptDiff, SideSummary};

/// The most bytes a `debug.diff` answer holds, its structured content and its text
/// together: 8 KiB. Past it, fewer differences are shown (the cursor reads on), and a
/// single difference's values are cut.
pub const MAX_DIFF_RESULT_BYTES: usize = 8 * 1024;

/// The most differences one answer shows, and the default: 20 and 1 (the first
/// difference is usually the one to read).
pub const MAX_DIFFERENCES_A_PAGE: usize = 20;

/// How much of a difference an answer shows: everything, or, when a difference alone
/// is over [`MAX_DIFF_RESULT_BYTES`], less and less until it fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    /// The characters each value (and name, and step of the path) keeps.
    cut: Option<usize>,
    /// Only the values that differ between the sides.
    only_differing: bool,
    /// The most values shown a side.
    max_values: Option<usize>,
}

/// The shapes tried, fullest first; the last always fits.
const SHAPES: [Shape; 5] = [
    Shape {
        cut: None,
        only_differing: false,
        max_values: None,
    },
    Shape {
        cut: Some(200),
        only_differing: false,
        max_values: None,
    },
    Shape {
        cut: Some(200),
        only_differing: true,
        max_values: None,
    },
    Shape {
        cut: Some(32),
        only_differing: true,
        max_values: Some(8),
    },
    Shape {
        cut: Some(32),
        only_differing: true,
        max_values: Some(0),
    },
];

/// The steps of a call path a shortened difference shows, its innermost: 8.
const SHORT_PATH_STEPS: usize = 8;

/// The page of `diff` from `cursor`, at most `limit` differences; `tool` names
/// `debug.diff` and `debug.trace` as the caller calls them.
pub(crate) fn page(
    diff: &KeptDiff,
    cursor: usize,
    limit: usize,
    tool: impl Fn(&str) -> String,
) -> (Value, String) {
    let total = diff.alignment.differences.len();
    let mut shown: Vec<Value> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    let mut shortened = false;
    let mut next = cursor.min(total);
    // Room for the heads and notes around the differences.
    let room = MAX_DIFF_RESULT_BYTES - 1536;
    let mut used = 0;
    while next < total && shown.len() < limit {
        let difference = &diff.alignment.differences[next];
        let size = |(json, text): &(Value, String)| json.to_string().len() + text.len();
        let mut this = one(next, difference, SHAPES[0]);
        if used + size(&this) > room {
            if !shown.is_empty() {
                break;
            }
            // Alone and too big: shortened until it fits (the last shape always does).
            for shape in &SHAPES[1..] {
                this = one(next, difference, *shape);
                if size(&this) <= room {
                    break;
                }
            }
            shortened = true;
        }
        used += size(&this);
        shown.push(this.0);
        texts.push(this.1);
        next += 1;
    }
    let more = next < total;
    let mut text = format!(
        "diff {}: a ({}) {}; b ({}) {}\n",
        diff.id,
        side_line(&diff.a),
        diff.a.end,
        side_line(&diff.b),
        diff.b.end
    );
    if total == 0 {
        let _ = writeln!(
            text,
            "no difference: the {} rows of both runs are equal, aligned by function and call order",
            diff.alignment.matched
        );
    }
    for (n, line) in texts.iter().enumerate() {
        if n == 0 && cursor == 0 {
            text.push_str("first difference: ");
        }
        text.push_str(line);
    }
    if shortened {
        let _ = writeln!(
            text,
            "[shortened to fit {} KiB (values cut, equal ones left out); whole, they are in \
             each run's own trace: launch it alone with {} and `calls`, and read {}; or \
             pass keep: true to stop both runs there and look]",
            MAX_DIFF_RESULT_BYTES / 1024,
            tool("debug.launch"),
            tool("debug.trace")
        );
    }
    if more {
        let _ = write!(
            text,
            "[{} of {total} differences shown: call {} with diff_id={}, cursor={next} for more]",
            next - cursor.min(total),
            tool("debug.diff"),
            diff.id
        );
    } else if total > 0 {
        let _ = write!(text, "[{total} differences in all]");
    }
    if total == 0 && diff.keep {
        text.push_str("\nnothing to stop at: both sessions ended");
    }
    let mut structured = json!({
        "diff_id": diff.id,
        "a": side_json(&diff.a),
        "b": side_json(&diff.b),
        "matched": diff.alignment.matched,
        "total": total,
        "cursor": cursor,
        "differences": shown,
    });
    if !diff.stopped.is_empty() {
        let mut stopped = Map::new();
        for run in &diff.stopped {
            stopped.insert(run.side.name().into(), run.json());
        }
        structured["stopped"] = Value::Object(stopped);
        let _ = write!(
            text,
            "\nkept, each run again to the first difference (end them with {}):",
            tool("debug.terminate")
        );
        for run in &diff.stopped {
            let _ = write!(text, "\n  {}", run.text());
        }
    }
    if more {
        structured["next_cursor"] = json!(next);
    }
    (structured, text.trim_end().to_string())
}

fn side_line(side: &SideSummary) -> String {
    format!(
        "{} {}, {} rows",
        side.session_id,
        side.program.as_deref().map_or("?", short),
        side.rows
    )
}

fn side_json(side: &SideSummary) -> Value {
    let mut json = json!({
        "session_id": side.session_id,
        "program": side.program,
        "end": side.end,
        "rows": side.rows,
    });
    if side.calls_dropped > 0 {
        json["calls_dropped"] = json!(side.calls_dropped);
    }
    json
}

/// One difference, in `shape`.
fn one(n: usize, d: &Difference, shape: Shape) -> (Value, String) {
    let row = d.row();
    let (event, function) = match (&d.key.what, &row.call) {
        (What::Call, Some(call)) => ("call", call.function.clone()),
        (What::Return, Some(call)) => ("return", call.function.clone()),
        _ => ("tracepoint", d.function().unwrap_or("").to_string()),
    };
    let function = cut_text(&function, shape.cut);
    let kind = match d.kind {
        Kind::Values => "values",
        Kind::OnlyIn(Side::A) => "only_in_a",
        Kind::OnlyIn(Side::B) => "only_in_b",
    };
    let (a_values, b_values) = (d.a.as_ref().map(content), d.b.as_ref().map(content));
    // The names whose values are shown: with `only_differing`, those whose values
    // differ between the sides (or that one side lacks).
    let differs = |name: &str| match (&a_values, &b_values) {
        (Some(a), Some(b)) => {
            let value = |of: &[(String, String)]| {
                of.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
            };
            value(a) != value(b)
        }
        _ => true,
    };
    let mut left_out = 0;
    let mut side = |name: &str,
                    row: Option<&crate::TraceRow>,
                    values: Option<Vec<(String, String)>>| match (row, values) {
        (Some(row), Some(values)) => {
            let total = values.len();
            let kept: Vec<(String, String)> = values
                .into_iter()
                .filter(|(k, _)| !shape.only_differing || differs(k))
                .take(shape.max_values.unwrap_or(usize::MAX))
                .collect();
            left_out = left_out.max(total - kept.len());
            let values: Map<String, Value> = kept
                .into_iter()
                .map(|(k, v)| {
                    (
                        cut_text(&k, shape.cut),
                        Value::String(cut_text(&v, shape.cut)),
                    )
                })
                .collect();
            let shown: Vec<String> = values
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{k}={}",
                        v.as_str().unwrap_or_default().replace('\n', "\\n")
                    )
                })
                .collect();
            let json = json!({ "row": row.index, "values": values });
            (json, format!("  {name}: {}\n", shown.join(", ")))
        }
        _ => (Value::Null, format!("  {name}: (no such row)\n")),
    };
    let (a, a_text) = side("a", d.a.as_ref(), a_values.clone());
    let (b, b_text) = side("b", d.b.as_ref(), b_values.clone());
    let path = match shape.cut {
        None => d.key.path_text(),
        Some(cut) => short_path_text(d, cut),
    };
    let place = format!("{}:{}", short_path(&row.file), row.line);
    let mut json = json!({
        "n": n,
        "kind": kind,
        "event": event,
        "function": function,
        "file": row.file,
        "line": row.line,
        "path": path,
        "matched_before": d.matched_before,
        "a": a,
        "b": b,
    });
    let what = match (d.kind, event) {
        (Kind::Values, "call") => format!("{function} was called with other arguments"),
        (Kind::Values, "return") => format!("{function} returned otherwise"),
        (Kind::Values, _) => "the tracepoint read otherwise".to_string(),
        (Kind::OnlyIn(s), _) => format!("only {} has this {event}", s.name()),
    };
    let mut text = format!(
        "#{n} after {} matching rows, at {} ({event} of {function}, {place}): {what}\n{a_text}{b_text}",
        d.matched_before,
        path,
    );
    if left_out > 0 {
        json["values_left_out"] = json!(left_out);
        let _ = writeln!(
            text,
            "  ({left_out} values left out: equal on both sides, or past the most shown)"
        );
    }
    if let Some(why) = &d.unsure {
        json["unsure"] = json!(why);
        let _ = writeln!(text, "  (maybe no real difference: {why})");
    }
    (json, text)
}

/// The innermost [`SHORT_PATH_STEPS`] steps of the difference's path, each function
/// name cut at `cut` chars: `… > quote#2 > band#1`.
fn short_path_text(d: &Difference, cut: usize) -> String {
    let path = &d.key.path;
    let from = path.len().saturating_sub(SHORT_PATH_STEPS);
    let mut steps: Vec<String> = path[from..]
        .iter()
        .map(|s| format!("{}#{}", cut_text(&s.function, Some(cut)), s.ordinal))
        .collect();
    if from > 0 {
        steps.insert(0, "…".into());
    }
    if steps.is_empty() {
        return "(top level)".into();
    }
    steps.join(" > ")
}

fn cut_text(value: &str, cut: Option<usize>) -> String {
    match cut {
        Some(chars) if value.chars().count() > chars => {
            let mut kept: String = value.chars().take(chars).collect();
            kept.push('…');
            kept
        }
        _ => value.to_string(),
    }
}

fn short(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn short_path(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
