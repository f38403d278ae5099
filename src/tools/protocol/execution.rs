//! Execution beyond continue and the three steps: `debug.step` (granularity, a chosen
//! call, one thread), `debug.continue_thread`, `debug.step_in_targets`,
//! `debug.step_back`, `debug.reverse_continue`, `debug.goto_targets`, `debug.goto`,
//! and `debug.restart_frame` (`debug.restart` and `debug.terminate_threads` are in
//! `restarts.rs`). Whatever moves the program waits for where it stops, like the
//! control actions.

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::permission::Effect;
use crate::tools::catalogue::profile::Stage;
use crate::wire::types::SteppingGranularity;
use crate::Operation;
use crate::{RunTicket, SessionHandle, StepKind};

use crate::tools::breakpoints::remote_file::breakpoint_file;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::inspect::ids::AgentIds;
use crate::tools::results::render;
use crate::tools::start::session::check_line;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.step",
            concat!(
                "Step `over` the current line, `in` to the call on it, or `out` of the \
                 function (`kind`).",
                waits!(short)
            ),
            ToolAnnotations::CONTROL,
            step,
        )
        .effect(Effect::Control)
        .asks(Operation::Next)
        .core(
            Stage::Run,
            &["granularity", "target_id", "single_thread", "thread_id"],
        ),
        tool(
            "debug.continue_thread",
            concat!(
                "Resume only one thread (`thread_id`, the stopped one by default), leaving \
                 the others stopped (adapters with supportsSingleThreadExecutionRequests).",
                waits!(short)
            ),
            ToolAnnotations::CONTROL,
            continue_thread,
        )
        .effect(Effect::Control)
        .asks(Operation::Continue),
        tool(
            "debug.step_in_targets",
            "The calls debug.step can enter from a frame (default: the top frame), when a \
             line has several: `id` (a target_id) and `label` of each.",
            ToolAnnotations::READ_ONLY,
            step_in_targets,
        )
        .effect(Effect::Read)
        .asks(Operation::Inspect),
        tool(
            "debug.step_back",
            concat!(
                "Step backwards one step (adapters that record execution).",
                waits!(short)
            ),
            ToolAnnotations::CONTROL,
            step_back,
        )
        .effect(Effect::Control)
        .asks(Operation::Navigate),
        tool(
            "debug.reverse_continue",
            concat!(
                "Run backwards to the previous breakpoint (adapters that record execution).",
                waits!(short)
            ),
            ToolAnnotations::CONTROL,
            reverse_continue,
        )
        .effect(Effect::Control)
        .asks(Operation::Navigate),
        tool(
            "debug.goto_targets",
            "Where execution can jump to at `file`:`line` in the stopped program: `id` (a \
             target_id for debug.goto), `label` and `line` of each.",
            ToolAnnotations::READ_ONLY,
            goto_targets,
        )
        .effect(Effect::Read)
        .asks(Operation::Inspect),
        tool(
            "debug.goto",
            concat!(
                "Jump to `file`:`line` (or a `target_id` from debug.goto_targets) in the \
                 current function without running the code in between: skip or repeat lines.",
                waits!(short)
            ),
            ToolAnnotations::CONTROL,
            goto,
        )
        .effect(Effect::Control)
        .asks(Operation::Navigate),
        tool(
            "debug.restart_frame",
            concat!(
                "Run a frame (`frame_id` from debug.stack_trace) again from its start.",
                waits!(short)
            ),
            ToolAnnotations::CONTROL,
            restart_frame,
        )
        .effect(Effect::Control)
        .asks(Operation::Navigate),
    ]
}

/// Which way `debug.step` goes.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Kind {
    // No docs on the variants: the tool's description says each, and the schema
    // stays a plain `enum`.
    Over,
    In,
    Out,
}

/// How much one step runs.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Granularity {
    /// One statement (the default).
    Statement,
    /// One source line.
    Line,
    /// One machine instruction.
    Instruction,
}

impl From<Granularity> for SteppingGranularity {
    fn from(g: Granularity) -> Self {
        match g {
            Granularity::Statement => SteppingGranularity::Statement,
            Granularity::Line => SteppingGranularity::Line,
            Granularity::Instruction => SteppingGranularity::Instruction,
        }
    }
}

/// Arguments of `debug.step`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StepArgs {
    session_id: String,
    /// Which way.
    kind: Kind,
    /// How much to run.
    granularity: Option<Granularity>,
    /// With `in`: the call to enter, from debug.step_in_targets.
    target_id: Option<i64>,
    /// Leave the other threads stopped.
    #[serde(default)]
    single_thread: bool,
    /// The thread; the last stopped thread by default.
    thread_id: Option<i64>,
    /// Seconds to wait (default {wait}, at most {max_wait}).
    timeout: Option<f64>,
}

/// Arguments of the tools that move one thread.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ThreadArgs {
    session_id: String,
    /// The thread; the last stopped thread by default.
    thread_id: Option<i64>,
    /// How much one step back runs (debug.step_back only).
    granularity: Option<Granularity>,
    /// Seconds to wait (default {wait}, at most {max_wait}).
    timeout: Option<f64>,
}

/// Arguments of `debug.step_in_targets`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FrameArgs {
    session_id: String,
    /// The frame; the top frame of the stopped thread by default.
    frame_id: Option<i64>,
}

/// Arguments of `debug.goto_targets`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GotoTargetsArgs {
    session_id: String,
    /// The source file.
    file: String,
    /// The line (1-based).
    line: i64,
}

/// Arguments of `debug.goto`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GotoArgs {
    session_id: String,
    /// A target from debug.goto_targets.
    target_id: Option<i64>,
    /// Or the place: a source file (with `line`).
    file: Option<String>,
    /// The line in `file` (1-based).
    line: Option<i64>,
    /// The thread; the last stopped thread by default.
    thread_id: Option<i64>,
    /// Seconds to wait (default {wait}, at most {max_wait}).
    timeout: Option<f64>,
}

/// Arguments of `debug.restart_frame`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RestartFrameArgs {
    session_id: String,
    /// The frame to run again.
    frame_id: i64,
    /// Seconds to wait (default {wait}, at most {max_wait}).
    timeout: Option<f64>,
}

async fn step(ctx: Arc<Context>, args: StepArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let kind = match args.kind {
        Kind::Over => StepKind::Over,
        Kind::In => StepKind::In,
        Kind::Out => StepKind::Out,
    };
    let granularity = args.granularity.map(SteppingGranularity::from);
    let ticket = match (args.target_id, kind) {
        (Some(target), StepKind::In) if granularity.is_none() && !args.single_thread => session
            .step_in_target(args.thread_id, target)
            .await
            .ids(&[("thread_id", args.thread_id), ("target_id", Some(target))])?,
        (Some(_), _) => {
            return Err(ToolError::invalid(
                "`target_id` goes with kind `in` alone (no granularity, no single_thread)",
                "pass {\"kind\": \"in\", \"target_id\": N} with N from debug.step_in_targets",
            ))
        }
        (None, _) => {
            session
                .step_with(kind, args.thread_id, granularity, args.single_thread)
                .await?
        }
    };
    settle(&ctx, &session, ticket, args.timeout).await
}

async fn continue_thread(ctx: Arc<Context>, args: ThreadArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let ticket = session
        .continue_single_thread(args.thread_id)
        .await
        .ids(&[("thread_id", args.thread_id)])?;
    settle(&ctx, &session, ticket, args.timeout).await
}

async fn step_in_targets(ctx: Arc<Context>, args: FrameArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let frame_id = ctx.frame_or_top(&session, args.frame_id).await?;
    let targets = session
        .step_in_targets(frame_id)
        .await
        .ids(&[("frame_id", args.frame_id)])?;
    let list: Vec<Value> = targets
        .iter()
        .take(ctx.bounds.max_items)
        .map(|t| json!({ "id": t.id, "label": t.label, "line": t.line }))
        .collect();
    Ok(targets_reply(
        &format!("calls to step into from frame {frame_id}"),
        list,
        targets.len(),
    ))
}

async fn step_back(ctx: Arc<Context>, args: ThreadArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let granularity = args.granularity.map(SteppingGranularity::from);
    let ticket = session
        .step_back(args.thread_id, granularity)
        .await
        .ids(&[("thread_id", args.thread_id)])?;
    settle(&ctx, &session, ticket, args.timeout).await
}

async fn reverse_continue(ctx: Arc<Context>, args: ThreadArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let ticket = session
        .reverse_continue(args.thread_id)
        .await
        .ids(&[("thread_id", args.thread_id)])?;
    settle(&ctx, &session, ticket, args.timeout).await
}

async fn goto_targets(ctx: Arc<Context>, args: GotoTargetsArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    // A remote target's file no mapping covers is named as its stack showed it.
    let file = breakpoint_file(&ctx, &session, &args.file).await?;
    let line = check_line(args.line)?;
    let targets = session.goto_targets(&file, line, None).await?;
    let list: Vec<Value> = targets
        .iter()
        .take(ctx.bounds.max_items)
        .map(|t| json!({ "id": t.id, "label": t.label, "line": t.line }))
        .collect();
    Ok(targets_reply(
        &format!("places to jump to at {}:{line}", file.display()),
        list,
        targets.len(),
    ))
}

async fn goto(ctx: Arc<Context>, args: GotoArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let (target, chosen) = match (args.target_id, args.file, args.line) {
        (Some(t), None, None) => (t, None),
        (None, Some(file), Some(line)) => {
            let file = breakpoint_file(&ctx, &session, &file).await?;
            let line = check_line(line)?;
            let targets = session.goto_targets(&file, line, None).await?;
            // The target on the line asked for; else the adapter's first (the nearest
            // line with code, for adapters that move a blank line's target).
            let picked = targets
                .iter()
                .find(|t| t.line == line)
                .or_else(|| targets.first());
            match picked {
                Some(t) => (
                    t.id,
                    Some(json!({ "id": t.id, "label": t.label, "line": t.line })),
                ),
                None => {
                    return Err(ToolError::invalid(
                        format!("the adapter cannot jump to {}:{line}", file.display()),
                        "pick a line with code in the current function",
                    ))
                }
            }
        }
        _ => {
            return Err(ToolError::invalid(
                "name the place by `target_id`, or by `file` and `line`",
                "pass {\"file\": \"x.py\", \"line\": 12}",
            ))
        }
    };
    let ticket = session
        .goto(args.thread_id, target)
        .await
        .ids(&[("thread_id", args.thread_id), ("target_id", args.target_id)])?;
    let mut reply = settle(&ctx, &session, ticket, args.timeout).await?;
    if let Some(chosen) = chosen {
        reply.text = format!(
            "jumped to target {} ({}, line {})\n{}",
            chosen["id"],
            chosen["label"].as_str().unwrap_or(""),
            chosen["line"],
            reply.text
        );
        reply.structured["goto_target"] = chosen;
    }
    Ok(reply)
}

async fn restart_frame(ctx: Arc<Context>, args: RestartFrameArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let ticket = session
        .restart_frame(args.frame_id)
        .await
        .ids(&[("frame_id", Some(args.frame_id))])?;
    settle(&ctx, &session, ticket, args.timeout).await
}

/// Wait for the stop (or end) a moving request causes, and answer like the control
/// actions do.
pub(in crate::tools) async fn settle(
    ctx: &Context,
    session: &SessionHandle,
    ticket: RunTicket,
    timeout: Option<f64>,
) -> Outcome {
    let wait = ctx.bounds.wait_for(timeout);
    let outcome = session.wait_for_stop(ticket, wait).await?;
    let (mut json, text) = render::outcome(ctx, session, outcome, wait).await;
    json["session_id"] = json!(session.id().to_string());
    Ok(Reply::new(json, text))
}

fn targets_reply(what: &str, list: Vec<Value>, total: usize) -> Reply {
    let mut text = format!("{total} {what}");
    for t in &list {
        let _ = write!(
            text,
            "\n  target_id {}: {}",
            t["id"],
            t["label"].as_str().unwrap_or("")
        );
    }
    if total > list.len() {
        let _ = write!(
            text,
            "\n  … {} more not shown (the catalogue's max_items bound)",
            total - list.len()
        );
    }
    let truncated = total > list.len();
    Reply::new(
        json!({ "targets": list, "total": total, "truncated": truncated }),
        text,
    )
}
