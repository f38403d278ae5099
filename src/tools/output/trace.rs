//! `debug.trace`: the rows a session's tracepoints recorded (a breakpoint with
//! `collect` records its expressions at each hit instead of stopping), read by cursor
//! a bounded slice at a time, with the `routes` they came by (`log_point`, or `stop`
//! where the adapter has no log points); and the note a stop or end result carries
//! while rows wait to be read.

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::permission::Effect;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{typed_tool, ToolDef, Typed};
use crate::tools::catalogue::profile::Stage;
use crate::tools::catalogue::spec::ToolAnnotations;
use crate::tools::catalogue::spec::ToolError;
use crate::tools::output::trace_result::{TraceResult, TraceRowEntry};
use crate::{CallEvent, SessionHandle, TraceRoute, TraceRow};

/// The deepest a call row is indented in text (deeper ones say their depth anyway).
const MAX_INDENT: usize = 16;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![typed_tool(
        "debug.trace",
        "Rows recorded by tracepoints (breakpoints with `collect`) and `calls`: hit, file, line, values. \
         From cursor `since` (0: the first); when `more`, call again with `since` = `next`.",
        ToolAnnotations::READ_ONLY,
        trace,
    )
    .effect(Effect::Read)
    .core(Stage::Read, &["max_rows"])]
}

/// Arguments of `debug.trace`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TraceArgs {
    session_id: String,
    /// Cursor: 0 for the first row, or a `next` from an earlier call.
    #[serde(default)]
    since: u64,
    /// Rows to read at most (default and at most {max_items}).
    max_rows: Option<usize>,
}

async fn trace(ctx: Arc<Context>, args: TraceArgs) -> Result<Typed<TraceResult>, ToolError> {
    let session = ctx.session(&args.session_id)?;
    let limit = ctx.bounds.max_items;
    let max_rows = args.max_rows.unwrap_or(limit).clamp(1, limit);
    let slice = session.trace(args.since, max_rows).await?;
    // The rows that fit the output bound; the rest wait for the next call.
    let mut text = String::new();
    let mut rows = Vec::new();
    let mut next = slice.next;
    for row in &slice.rows {
        let line = row_text(row);
        if !rows.is_empty() && text.len() + line.len() > ctx.bounds.max_output_bytes {
            next = row.index;
            break;
        }
        text.push_str(&line);
        rows.push(TraceRowEntry::from(row));
    }
    let more = slice.more || next < slice.next;
    // How the rows were recorded: the adapter's log points, or stops read and continued.
    let mut routes: Vec<TraceRoute> = Vec::new();
    for row in slice.rows.iter().take(rows.len()) {
        if !routes.contains(&row.route) {
            routes.push(row.route);
        }
    }
    if slice.missed > 0 {
        text.insert_str(
            0,
            &format!(
                "[{} earlier rows were dropped: a session keeps its newest rows]\n",
                slice.missed
            ),
        );
    }
    if slice.calls_dropped > 0 {
        let _ = writeln!(
            text,
            "[{} calls were not recorded: they came faster than the session records them]",
            slice.calls_dropped
        );
    }
    if more {
        let _ = write!(
            text,
            "[more rows wait: call {} with since={next}]",
            ctx.tool("debug.trace")
        );
    } else if rows.is_empty() {
        text.push_str("(no new rows: a tracepoint records one each time the program passes it)");
    }
    let result = TraceResult {
        rows,
        next,
        more,
        missed: slice.missed,
        dropped: slice.dropped,
        routes,
        calls_dropped: slice.calls_dropped,
    };
    Ok(Typed::new(result, text.trim_end()))
}

/// `#3 loop.py:12 i=2 total=3`, one line; a call trace's rows indented by depth:
/// `-> fact(n=2) #2 prog.py:1`, then `<- fact #2 = 2`.
fn row_text(row: &TraceRow) -> String {
    if let Some(call) = &row.call {
        let indent = "  ".repeat(call.depth.min(MAX_INDENT));
        let line = match call.event {
            CallEvent::Call => {
                let arguments: Vec<String> = row
                    .values
                    .iter()
                    .map(|v| format!("{}={}", v.expression, v.value.replace('\n', "\\n")))
                    .collect();
                format!(
                    "{indent}-> {}({}) #{} {}:{}",
                    call.function,
                    arguments.join(", "),
                    call.call,
                    short(&row.file),
                    row.line
                )
            }
            CallEvent::Return => match (&call.returned, &call.unknown) {
                (Some(value), _) => format!(
                    "{indent}<- {} #{} = {}",
                    call.function,
                    call.call,
                    value.replace('\n', "\\n")
                ),
                (None, why) => format!(
                    "{indent}<- {} #{} (no value: {})",
                    call.function,
                    call.call,
                    why.as_deref().unwrap_or("none shown")
                ),
            },
        };
        return line + "\n";
    }
    let mut line = format!("#{} {}:{}", row.hit, short(&row.file), row.line);
    for value in &row.values {
        let _ = write!(
            line,
            " {}={}",
            value.expression,
            value.value.replace('\n', "\\n")
        );
    }
    line.push('\n');
    line
}

fn short(file: &std::path::Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// How many rows the session's tracepoints have recorded, when any: for a stop or end
/// result to point at them.
pub(crate) async fn recorded(session: &SessionHandle) -> Option<u64> {
    let total = session.trace(u64::MAX, 0).await.ok()?.next;
    (total > 0).then_some(total)
}
