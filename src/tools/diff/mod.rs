//! `debug.diff`: the first difference between two runs. Both launches start side by
//! side (each what `debug.launch` takes, a `test` included, with the same `calls` and
//! `collect` tracepoints added), run to their end, and their rows are aligned by
//! function and call order (`align.rs`); the answer is the first row where they
//! differ, with the call path that led there and how many rows matched before it, and
//! the rest by cursor (`page.rs`).
//!
//! Each launch passes the permission gate as the `debug.launch` call it is
//! ([`launches::launch_arguments`], which the catalogue gates part by part).

pub(crate) mod align;
mod keep;
mod launches;
pub(crate) mod page;
mod runs;
mod stop_there;
pub(crate) mod store;
#[cfg(test)]
mod test_rows;

use std::sync::Arc;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::permission::{Adds, Effect};
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::TraceRow;
use align::{align, Run};
use page::page;
use runs::{SideRun, Started};
use store::{KeptDiff, SideSummary};

pub use page::{MAX_DIFFERENCES_A_PAGE, MAX_DIFF_RESULT_BYTES};
pub use store::MAX_KEPT_DIFFS;

/// How long a diff waits for both runs to end, by default: 120 s (`timeout`).
pub const DEFAULT_DIFF_WAIT: Duration = Duration::from_secs(120);

/// The longest `timeout` a diff takes: 600 s.
pub const MAX_DIFF_WAIT: Duration = Duration::from_secs(600);

pub(crate) fn tools() -> Vec<ToolDef> {
    let mut def = tool(
        "debug.diff",
        "Run launches `a` and `b` (each as debug.launch takes) recording the same `calls` \
         and `collect` tracepoints; return the first difference of their rows, aligned by \
         call order: where, both values, the call path. More: `diff_id`, `cursor`.",
        ToolAnnotations::START,
        diff,
    )
    .effect(Effect::Start)
    .adds(Adds::DiffRuns)
    .gated_as(gated_launches);
    // Its code (tracepoint expressions) is the launches' own, rated with them.
    def.spec.code_arguments.clear();
    vec![def]
}

// A tracepoint both runs record (no doc comment: its schema says enough).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CollectPoint {
    file: String,
    line: i64,
    expressions: Vec<String>,
}

/// Arguments of `debug.diff`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DiffArgs {
    /// One run: what debug.launch takes.
    #[schemars(extend("type" = "object"))]
    a: Option<Value>,
    /// The other run.
    #[schemars(extend("type" = "object"))]
    b: Option<Value>,
    /// Functions whose calls both record (as debug.launch's `calls`).
    #[serde(default)]
    calls: Vec<String>,
    /// Tracepoints both record.
    #[serde(default)]
    collect: Vec<CollectPoint>,
    /// Leave both sessions to read instead of ending them.
    #[serde(default)]
    keep: bool,
    /// Seconds both runs may take (default 120, at most 600).
    timeout: Option<f64>,
    /// A diff made before, to read on.
    diff_id: Option<String>,
    /// The first difference to show (`next_cursor`).
    #[serde(default)]
    cursor: usize,
    /// Differences to show (default 1, at most 20).
    limit: Option<usize>,
}

async fn diff(ctx: Arc<Context>, args: DiffArgs) -> Outcome {
    let limit = args.limit.unwrap_or(1);
    if limit == 0 || limit > MAX_DIFFERENCES_A_PAGE {
        return Err(ToolError::invalid(
            format!("limit {limit} is out of range"),
            format!("pass a limit from 1 to {MAX_DIFFERENCES_A_PAGE}"),
        ));
    }
    if let Some(id) = &args.diff_id {
        let runs = args.a.is_some() || args.b.is_some() || !args.calls.is_empty();
        if runs || !args.collect.is_empty() || args.keep || args.timeout.is_some() {
            return Err(ToolError::invalid(
                "`diff_id` reads on a diff made before, which runs nothing: `a`, `b`, \
                 `calls`, `collect`, `keep` and `timeout` are for a new diff",
                "pass `diff_id` with `cursor` (and `limit`) alone to read on, or the launches \
                 without `diff_id` to make a new diff",
            ));
        }
        let kept = ctx.diffs.get(id, ctx.caller.as_ref())?;
        let (json, text) = page(&kept, args.cursor, limit, |t| ctx.tool(t));
        return Ok(Reply::new(json, text));
    }
    if args.calls.is_empty() && args.collect.is_empty() {
        return Err(ToolError::invalid(
            "a diff needs something to record",
            "pass `calls` (functions whose calls both runs record) and/or `collect` \
             (tracepoints: {file, line, expressions})",
        ));
    }
    let wait = wait_of(args.timeout)?;
    let launches = launches::launch_arguments(&json!({
        "a": args.a, "b": args.b, "calls": args.calls, "collect": args.collect,
    }))?;
    let started = Started::new(ctx.clone());
    let (a, b) = tokio::join!(
        runs::start(&ctx, &started, "a", launches[0].1.clone()),
        runs::start(&ctx, &started, "b", launches[1].1.clone())
    );
    let (a, b) = match (a, b) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            started.end().await;
            return Err(e);
        }
    };
    let (a, b) = match read_both(&ctx, &a, &b, wait).await {
        Ok(runs) => runs,
        Err(e) => {
            started.end().await;
            return Err(e);
        }
    };
    let alignment = {
        let gaps = |run: &SideRun| {
            (run.calls_dropped > 0).then(|| {
                format!(
                    "{} calls left unrecorded: they came faster than the session records them",
                    run.calls_dropped
                )
            })
        };
        let (gaps_a, gaps_b) = (gaps(&a), gaps(&b));
        let (cut_a, cut_b) = (a.end.cut_short(), b.end.cut_short());
        align(
            Run {
                rows: &a.rows,
                gaps: gaps_a.as_deref(),
                cut_short: cut_a.as_deref(),
            },
            Run {
                rows: &b.rows,
                gaps: gaps_b.as_deref(),
                cut_short: cut_b.as_deref(),
            },
        )
    };
    let stopped = match (args.keep, alignment.differences.first()) {
        (true, Some(first)) => {
            match keep::run_to_difference(&ctx, &launches, [&a, &b], first, wait).await {
                Ok(runs) => runs,
                Err(e) => {
                    started.end().await;
                    return Err(e);
                }
            }
        }
        _ => Vec::new(),
    };
    // The first runs have told what they had to: their rows are kept with the diff.
    started.end().await;
    let kept = ctx.diffs.keep(|id| KeptDiff {
        id,
        owner: ctx.caller.clone(),
        a: summary(&a),
        b: summary(&b),
        alignment,
        keep: args.keep,
        stopped,
    });
    let (json, text) = page(&kept, args.cursor, limit, |t| ctx.tool(t));
    Ok(Reply::new(json, text))
}

/// The launches a diff makes, for the gate: each names its session, when it is left
/// to the agent (`keep`), at `stopped.a` or `stopped.b` of the reply.
fn gated_launches(arguments: &Value) -> Result<Vec<(&'static str, Value)>, ToolError> {
    let launches = launches::launch_arguments(arguments)?;
    Ok(launches
        .into_iter()
        .map(|(side, launch)| {
            (
                if side == "a" {
                    "/stopped/a"
                } else {
                    "/stopped/b"
                },
                launch,
            )
        })
        .collect())
}

/// `timeout` as a wait, or why it is none.
fn wait_of(timeout: Option<f64>) -> Result<Duration, ToolError> {
    let Some(seconds) = timeout else {
        return Ok(DEFAULT_DIFF_WAIT);
    };
    if !(seconds > 0.0 && seconds <= MAX_DIFF_WAIT.as_secs_f64()) {
        return Err(ToolError::invalid(
            format!("timeout {seconds} is out of range"),
            format!(
                "pass the seconds both runs may take, more than 0 and at most {}",
                MAX_DIFF_WAIT.as_secs()
            ),
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Wait for both runs to end (or stop, or the deadline), then read their rows,
/// redacted as the agent will read them.
async fn read_both(
    ctx: &Context,
    a: &crate::SessionHandle,
    b: &crate::SessionHandle,
    wait: Duration,
) -> Result<(SideRun, SideRun), ToolError> {
    let deadline = tokio::time::Instant::now() + wait;
    let (end_a, end_b) = tokio::join!(
        runs::wait_end(ctx, a, deadline, wait),
        runs::wait_end(ctx, b, deadline, wait)
    );
    let mut sides = Vec::new();
    for (name, session, end) in [("a", a, end_a?), ("b", b, end_b?)] {
        let program = session.snapshot().await.ok().and_then(|s| s.program);
        let (mut rows, calls_dropped, rows_dropped) = runs::read_rows(session).await?;
        if rows_dropped > 0 {
            return Err(ToolError::new(
                413,
                format!(
                    "run {name} recorded more rows than a session keeps ({} were dropped): \
                     the runs cannot be aligned",
                    rows_dropped
                ),
                "record fewer rows: trace fewer functions (`calls`) or move a tracepoint \
                 out of a long loop (the cap is RuntimeConfig::max_trace_rows, 10,000 rows \
                 by default)",
            ));
        }
        redact(ctx, &mut rows);
        sides.push(SideRun {
            session: session.clone(),
            program,
            end,
            rows,
            calls_dropped,
        });
    }
    let (b, a) = (sides.pop().expect("two"), sides.pop().expect("two"));
    if a.rows.is_empty() && b.rows.is_empty() {
        return Err(ToolError::invalid(
            format!(
                "neither run recorded anything (a {}; b {})",
                a.end.text(),
                b.end.text()
            ),
            "check that `calls` name functions the runs call (debug.launch with `calls` \
             on one run shows what is recorded) and that the `collect` lines are reached",
        ));
    }
    Ok((a, b))
}

/// Each value as the agent would read it: secrets hidden, so that two runs' equal
/// hidden values compare equal and nothing compared reveals one.
fn redact(ctx: &Context, rows: &mut [TraceRow]) {
    if !ctx.redaction.is_on() {
        return;
    }
    for row in rows {
        let mut values: Map<String, Value> = Map::new();
        for value in &row.values {
            values.insert(value.expression.clone(), Value::String(value.value.clone()));
        }
        let mut values = Value::Object(values);
        ctx.redaction.json(&mut values);
        for value in &mut row.values {
            if let Some(hidden) = values[&value.expression].as_str() {
                value.value = hidden.to_string();
            }
        }
        if let Some(returned) = row.call.as_mut().and_then(|c| c.returned.as_mut()) {
            *returned = ctx.redaction.text(returned);
        }
    }
}

fn summary(run: &SideRun) -> SideSummary {
    SideSummary {
        session_id: run.session.id().to_string(),
        program: run.program.clone(),
        end: run.end.text(),
        rows: run.rows.len(),
        calls_dropped: run.calls_dropped,
    }
}
