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
use crate::{SessionHandle, TraceRoute, TraceRow};

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![typed_tool(
        "debug.trace",
        "Rows recorded by tracepoints (breakpoints with `collect`): hit, file, line, values. \
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
    };
    Ok(Typed::new(result, text.trim_end()))
}

/// `#3 loop.py:12 i=2 total=3`, one line.
fn row_text(row: &TraceRow) -> String {
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
