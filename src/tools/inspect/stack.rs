//! Inspection of a stopped program: `debug.threads`, `debug.stack_trace`,
//! `debug.scopes` and `debug.variables` (`debug.evaluate`, which can run code, is in
//! `evaluate.rs`).

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::permission::Effect;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{typed_tool, ToolDef, Typed};
use crate::tools::catalogue::profile::Stage;
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::inspect::ids::{AgentIds, FRESH_IDS};
use crate::tools::inspect::results::{
    FrameEntry, ScopeEntry, ScopesResult, StackTraceResult, ThreadEntry, ThreadsResult,
    VariableEntry, VariablesResult,
};
use crate::tools::results::bounds::{adapter_int, page_size};
use crate::tools::results::render::variables_text;
use crate::Operation;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        typed_tool(
            "debug.threads",
            "List the program's threads (`id`, `name`), at most {max_threads} per call (a Go \
             program's goroutines can number thousands): pass `offset` for the next ones.",
            ToolAnnotations::READ_ONLY,
            threads,
        )
        .effect(Effect::Read)
        .asks(Operation::Threads),
        typed_tool(
            "debug.stack_trace",
            "The call stack of the stopped thread (or `thread_id`), innermost first: `id` (a \
             frame_id), `name`, `file`, `line`; {max_frames} frames unless `levels` says. \
             When `truncated`, pass `start_frame` = `next_start_frame`.",
            ToolAnnotations::READ_ONLY,
            stack_trace,
        )
        .effect(Effect::Read)
        .asks(Operation::StackTrace)
        .core(Stage::Inspect, &[]),
        typed_tool(
            "debug.scopes",
            "The scopes of a frame (default: the top frame of the stopped thread), such as \
             Locals and Globals, each with the `variables_reference` to read it with \
             debug.variables.",
            ToolAnnotations::READ_ONLY,
            scopes,
        )
        .effect(Effect::Read)
        .asks(Operation::Scopes),
        typed_tool(
            "debug.variables",
            "Variables of a `scope` (\"Locals\"; in `frame_id` or the top frame) or a \
             value's members (`variables_reference`), {max_variables} a page: when \
             `truncated`, pass `offset` = `next_offset`.",
            ToolAnnotations::READ_ONLY,
            variables,
        )
        .effect(Effect::Read)
        .asks(Operation::Variables)
        .core(Stage::Inspect, &["filter", "max_chars"]),
    ]
}

/// Arguments of `debug.threads`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ThreadsArgs {
    session_id: String,
    /// Skip this many threads (to read past the first {max_threads}).
    #[serde(default)]
    offset: usize,
}

/// Arguments of `debug.stack_trace`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StackArgs {
    session_id: String,
    /// The thread; the last stopped thread by default.
    thread_id: Option<i64>,
    /// How many frames (default {max_frames}, at most {max_frames_per_call} per call).
    levels: Option<usize>,
    /// The first frame to return, from the innermost (0).
    #[serde(default)]
    start_frame: usize,
}

/// Arguments of `debug.scopes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScopesArgs {
    session_id: String,
    /// The frame (an `id` from debug.stack_trace); the top frame by default.
    frame_id: Option<i64>,
}

/// A scope named by its variables reference or its name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum ScopeRef {
    // No docs on the variants: the field's description says both, once.
    Id(i64),
    Name(String),
}

/// Arguments of `debug.variables`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct VariablesArgs {
    session_id: String,
    /// A `variables_reference` from a scope, a variable or an evaluation.
    variables_reference: Option<i64>,
    /// A scope instead: its name (`Locals`, `Globals`, ..., any case) or its id.
    scope: Option<ScopeRef>,
    /// The frame whose scope is named; the top frame by default.
    frame_id: Option<i64>,
    /// Only `named` members or only `indexed` elements (of arrays, lists, slices).
    filter: Option<ChildFilter>,
    /// Skip this many variables (to read past the first page).
    #[serde(default)]
    offset: usize,
    /// Variables in this page (default and at most {max_variables}).
    count: Option<usize>,
    /// Characters kept of each value (default {max_value_chars}).
    max_chars: Option<usize>,
}

/// Which children of a structured value `debug.variables` lists.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ChildFilter {
    /// Members with names.
    Named,
    /// Elements with indices.
    Indexed,
}

async fn threads(ctx: Arc<Context>, args: ThreadsArgs) -> Result<Typed<ThreadsResult>, ToolError> {
    let session = ctx.session(&args.session_id)?;
    // DAP's `threads` has no paging: the adapter's whole list, cut here.
    let threads = session.threads().await?;
    let total = threads.len();
    let list: Vec<ThreadEntry> = threads
        .iter()
        .skip(args.offset)
        .take(ctx.bounds.max_threads)
        .map(ThreadEntry::from)
        .collect();
    let end = args.offset.saturating_add(list.len());
    let truncated = end < total;
    let mut text = format!("threads {}..{end} of {total}", args.offset);
    for t in &list {
        let _ = write!(text, "\n  {} {}", t.id, t.name);
    }
    if truncated {
        let _ = write!(text, "\n  … {} more: pass offset {end}", total - end);
    }
    let result = ThreadsResult {
        threads: list,
        total,
        offset: args.offset,
        truncated,
        next_offset: truncated.then_some(end),
    };
    Ok(Typed::new(result, text))
}

async fn stack_trace(
    ctx: Arc<Context>,
    args: StackArgs,
) -> Result<Typed<StackTraceResult>, ToolError> {
    let session = ctx.session(&args.session_id)?;
    let thread = ctx.thread(&session, args.thread_id).await?;
    let wanted = match args.levels {
        Some(0) | None => ctx.bounds.max_frames,
        Some(n) => n,
    };
    let cap = ctx.bounds.max_frames_per_call;
    let limit = wanted.min(cap);
    let start = args.start_frame;
    // One frame more than shown tells whether there are more (by default, the stop
    // summary's page: `Bounds::default_stack_levels`).
    let asked = adapter_int(limit.saturating_add(1), "levels")?;
    let first = adapter_int(start, "start_frame")?;
    let body = session
        .stack_trace_page(Some(thread), first, Some(asked))
        .await
        .ids(&[("thread_id", args.thread_id)])?;
    let mut frames = body.stack_frames;
    let total = body.total_frames.and_then(|t| usize::try_from(t).ok());
    if frames.is_empty() && args.thread_id.is_some() && start == 0 {
        // lldb-dap answers an unknown thread with no frames rather than an error.
        return Err(ToolError::invalid(
            format!("the adapter has no frames for thread_id {thread}"),
            FRESH_IDS,
        ));
    }
    let truncated = frames.len() > limit;
    frames.truncate(limit);
    let end = start.saturating_add(frames.len());
    let mut text = format!("thread {thread}:");
    if frames.is_empty() && start > 0 {
        let _ = write!(
            text,
            "\n  no frames from start_frame {start}: the stack is {}",
            total.map_or("shallower than that".to_string(), |t| format!("{t} deep"))
        );
    }
    for (i, f) in frames.iter().enumerate() {
        let file = crate::tools::results::render::frame_file(f);
        let _ = write!(
            text,
            "\n  #{} {} at {}:{} (frame_id {})",
            start + i,
            f.name,
            file.as_deref().unwrap_or("?"),
            f.line,
            f.id
        );
    }
    if truncated {
        let of = total.map_or(String::new(), |t| format!(" of {t}"));
        if wanted > cap {
            let _ = write!(
                text,
                "\n  … frames {start}..{end}{of} shown ({cap} per call at most, whatever \
                 `levels` asks): pass start_frame {end} for the next ones"
            );
        } else {
            let _ = write!(
                text,
                "\n  … frames {start}..{end}{of} shown: pass start_frame {end} for the next \
                 ones (or a larger `levels`, up to {cap})"
            );
        }
    }
    let result = StackTraceResult {
        thread_id: thread,
        frames: frames.iter().map(FrameEntry::from).collect(),
        start_frame: start,
        truncated,
        total_frames: total,
        next_start_frame: truncated.then_some(end),
    };
    Ok(Typed::new(result, text))
}

async fn scopes(ctx: Arc<Context>, args: ScopesArgs) -> Result<Typed<ScopesResult>, ToolError> {
    let session = ctx.session(&args.session_id)?;
    let frame_id = ctx.frame_or_top(&session, args.frame_id).await?;
    let scopes = session
        .scopes(frame_id)
        .await
        .ids(&[("frame_id", args.frame_id)])?;
    let mut text = format!("scopes of frame {frame_id}:");
    for s in &scopes {
        let _ = write!(
            text,
            "\n  {} (variables_reference {}{})",
            s.name,
            s.variables_reference,
            if s.expensive { ", expensive" } else { "" }
        );
    }
    let result = ScopesResult {
        frame_id,
        scopes: scopes.iter().map(ScopeEntry::from).collect(),
    };
    Ok(Typed::new(result, text))
}

async fn variables(
    ctx: Arc<Context>,
    args: VariablesArgs,
) -> Result<Typed<VariablesResult>, ToolError> {
    let session = ctx.session(&args.session_id)?;
    let scope_id = match args.scope {
        Some(ScopeRef::Id(r)) => Some(r),
        _ => None,
    };
    // The locals when they span several scopes (js-debug), gathered as one list.
    let (reference, gathered) = match (args.variables_reference, args.scope) {
        (Some(r), None) | (None, Some(ScopeRef::Id(r))) => (r, None),
        (None, Some(ScopeRef::Name(name))) => {
            crate::tools::inspect::locals::scope_variables(&ctx, &session, &name, args.frame_id)
                .await?
        }
        (Some(_), Some(_)) | (None, None) => {
            return Err(ToolError::invalid(
                "pass `variables_reference` or `scope`, not both and not neither",
                "use scope: \"Locals\" for the top frame's locals",
            ))
        }
    };
    if reference <= 0 {
        return Err(ToolError::invalid(
            format!("variables_reference {reference} has no variables"),
            "only values with a variables_reference above 0 can be expanded",
        ));
    }
    // A reference the agent passed (itself, or a scope's by id), not one looked up.
    let given = [("variables_reference", args.variables_reference.or(scope_id))];
    let max_chars = value_chars(&ctx, args.max_chars);
    let max = page_size(args.count, ctx.bounds.max_variables)?;
    // `all` holds the children from index `first` on.
    let (all, first) = match (args.filter, gathered) {
        (None, Some(all)) => (all, 0),
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid(
                "a `filter` picks one value's members, and this frame's locals span scopes",
                "leave out `filter`, or name one scope (debug.scopes lists them)",
            ))
        }
        (None, None) => (session.variables(reference).await.ids(&given)?, 0),
        // An adapter that pages indexed children is asked for the page and one more
        // (to know whether there is more), from where it begins.
        (Some(ChildFilter::Indexed), None) if session.snapshot().await?.pages_variables => {
            let start = adapter_int(args.offset, "offset")?;
            let count = adapter_int(max.saturating_add(1), "the variables bound")?;
            let children = session
                .variables_page(reference, Some("indexed"), Some(start), Some(count))
                .await
                .ids(&given)?;
            (children, args.offset)
        }
        // Otherwise from the first child to one past the page: right whether the
        // adapter pages or not (and dlv lists no elements at all without a count).
        (Some(filter), None) => {
            let filter = match filter {
                ChildFilter::Named => "named",
                ChildFilter::Indexed => "indexed",
            };
            let count = adapter_int(args.offset.saturating_add(max).saturating_add(1), "offset")?;
            let children = session
                .variables_page(reference, Some(filter), Some(0), Some(count))
                .await
                .ids(&given)?;
            (children, 0)
        }
    };
    // A filtered answer cut at `count` does not tell how many there are in all.
    let held = first.saturating_add(all.len());
    let total_known = args.filter.is_none() || held <= args.offset.saturating_add(max);
    let total = held;
    // The page, ended early when its values reach the characters budget (but never
    // empty, so that reading on always moves).
    let budget = ctx.bounds.max_variables_chars;
    let mut used = 0usize;
    let mut budget_reached = false;
    let mut page: Vec<VariableEntry> = Vec::new();
    for v in all.iter().skip(args.offset - first).take(max) {
        let entry = VariableEntry::cut(v, max_chars);
        let chars = entry.value.chars().count();
        if !page.is_empty() && used.saturating_add(chars) > budget {
            budget_reached = true;
            break;
        }
        used = used.saturating_add(chars);
        page.push(entry);
    }
    let end = args.offset.saturating_add(page.len());
    // A page the budget ended holds back a variable, so it is truncated too.
    let truncated = end < total;
    let of = if total_known {
        total.to_string()
    } else {
        "more".to_string()
    };
    let mut text = format!(
        "variables {}..{end} of {of} (variables_reference {reference}):\n",
        args.offset
    );
    text.push_str(&variables_text(&page));
    let again = match args.count {
        Some(_) => format!(" and count {max}"),
        None => String::new(),
    };
    if budget_reached {
        let _ = write!(
            text,
            "… page ended at {budget} characters of values: pass offset {end}{again} for \
             the next ones, or a smaller max_chars"
        );
    } else if truncated && total_known {
        let _ = write!(text, "… {} more: pass offset {end}{again}", total - end);
    } else if truncated {
        let _ = write!(text, "… more: pass offset {end}{again}");
    }
    let result = VariablesResult {
        variables_reference: reference,
        variables: page,
        total: total_known.then_some(total),
        offset: args.offset,
        count: max,
        truncated,
        budget_reached: budget_reached.then_some(true),
        next_offset: truncated.then_some(end),
    };
    Ok(Typed::new(result, text.trim_end()))
}

/// Characters kept per value: the call's `max_chars` (at most the output bound), or
/// the default.
pub(in crate::tools) fn value_chars(ctx: &Context, asked: Option<usize>) -> usize {
    match asked {
        Some(n) => n.clamp(1, ctx.bounds.max_output_bytes),
        None => ctx.bounds.max_value_chars,
    }
}
