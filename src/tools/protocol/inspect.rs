//! Inspection beyond threads, stacks, scopes and variables: `debug.completions`,
//! `debug.exception_info`, `debug.source`, `debug.loaded_sources`, `debug.modules`
//! and `debug.locations` (changing values is in `modify.rs`).

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::permission::{Adds, Effect};
use crate::wire::types::{ExceptionBreakMode, Source};
use crate::Operation;

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::inspect::ids::AgentIds;
use crate::tools::results::bounds::{adapter_int, cut_chars, page_size};
use crate::tools::results::render::cut_value;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.completions",
            "What could complete `text` at `column` (1-based; default: its end) in \
             `frame_id` (default: the top frame): names of variables, functions, members. \
             Each has a `label` and the `text` to insert.",
            ToolAnnotations::READ_ONLY,
            completions,
        )
        .effect(Effect::Read)
        .adds(Adds::Completions)
        .asks(Operation::Inspect),
        tool(
            "debug.exception_info",
            "The exception a thread (default: the stopped one) stopped on: \
             `exception_id`, `description`, `break_mode`, and `details` with the message, \
             the type and the stack trace where it was raised.",
            ToolAnnotations::READ_ONLY,
            exception_info,
        )
        .effect(Effect::Read)
        .asks(Operation::Inspect),
        tool(
            "debug.source",
            "The text of a source that is not a file on disk (generated code, \
             decompiled or disassembled code): by `source_reference`, or the source of \
             `frame_id`. At most {max_output} per call: pass `offset` (characters) for more.",
            ToolAnnotations::READ_ONLY,
            source,
        )
        .effect(Effect::Read)
        .asks(Operation::Query),
        tool(
            "debug.loaded_sources",
            "Every source the program has loaded (`name`, `path`, `source_reference`): \
             `count` from `offset` (default and at most 100 per call); when `truncated`, \
             pass `offset` = the returned `next_offset` for more.",
            ToolAnnotations::READ_ONLY,
            loaded_sources,
        )
        .effect(Effect::Read)
        .asks(Operation::Query),
        tool(
            "debug.modules",
            "The modules (executables, shared libraries, Python modules) the program has \
             loaded. A page is `count` from `offset` (at most 100); when `truncated`, pass \
             `offset` = `next_offset`.",
            ToolAnnotations::READ_ONLY,
            modules,
        )
        .effect(Effect::Read)
        .asks(Operation::Query),
        tool(
            "debug.locations",
            "Where a location reference points (a variable's \
             `declaration_location_reference` or `value_location_reference` from the \
             adapter): `file`, `line`, `column`. Only references the adapter gave are valid.",
            ToolAnnotations::READ_ONLY,
            locations,
        )
        .effect(Effect::Read)
        .asks(Operation::Inspect),
    ]
}

/// Arguments of `debug.completions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CompletionsArgs {
    session_id: String,
    /// The text typed so far.
    text: String,
    /// Where the cursor is in `text`, 1-based in characters; the end by default.
    column: Option<i64>,
    /// The frame; the top frame of the stopped thread by default.
    frame_id: Option<i64>,
}

/// Arguments of `debug.exception_info`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExceptionInfoArgs {
    session_id: String,
    /// The thread; the last stopped thread by default.
    thread_id: Option<i64>,
}

/// Arguments of `debug.source`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SourceArgs {
    session_id: String,
    /// A `source_reference` above 0 (from a frame or debug.loaded_sources).
    source_reference: Option<i64>,
    /// Or the frame whose source to show.
    frame_id: Option<i64>,
    /// Characters to skip (to read past the first {max_output}).
    #[serde(default)]
    offset: usize,
}

/// Arguments of the paged lists (`debug.loaded_sources`, `debug.modules`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PageArgs {
    session_id: String,
    /// Entries to skip (to read past the first page).
    #[serde(default)]
    offset: usize,
    /// Entries in this page (default and at most {max_items}).
    count: Option<usize>,
}

/// Arguments of `debug.locations`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct LocationsArgs {
    session_id: String,
    /// A location reference the adapter gave.
    location_reference: i64,
}

async fn completions(ctx: Arc<Context>, args: CompletionsArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    ctx.bounds.check_expression("the text", &args.text)?;
    let end = args.text.chars().count() as i64 + 1;
    let column = args.column.unwrap_or(end);
    if !(1..=end).contains(&column) {
        return Err(ToolError::invalid(
            format!("column {column} is outside the text (1 to {end})"),
            "leave column out to complete at the end of the text",
        ));
    }
    let frame_id = ctx.frame_or_top(&session, args.frame_id).await?;
    let items = session
        .completions(&args.text, column, Some(frame_id))
        .await
        .ids(&[("frame_id", args.frame_id)])?;
    let total = items.len();
    let list: Vec<Value> = items
        .iter()
        .take(ctx.bounds.max_items)
        .map(|c| {
            json!({
                "label": c.label,
                "text": c.text.clone().unwrap_or_else(|| c.label.clone()),
                "type": c.type_,
                "start": c.start,
                "length": c.length,
            })
        })
        .collect();
    let mut text = format!("{total} completion(s) of `{}`:", args.text);
    for c in &list {
        let _ = write!(text, "\n  {}", c["label"].as_str().unwrap_or(""));
    }
    Ok(Reply::new(
        json!({ "targets": list, "total": total, "truncated": total > list.len() }),
        text,
    ))
}

async fn exception_info(ctx: Arc<Context>, args: ExceptionInfoArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let thread = ctx.thread(&session, args.thread_id).await?;
    let info = session
        .exception_info(Some(thread))
        .await
        .ids(&[("thread_id", args.thread_id)])?;
    let chars = ctx.bounds.max_value_chars;
    let cut = |s: &Option<String>, max: usize| s.as_deref().map(|s| cut_value(s, max).0);
    let details = info.details.as_ref().map(|d| {
        json!({
            "message": cut(&d.message, chars),
            "type_name": d.type_name,
            "full_type_name": d.full_type_name,
            "evaluate_name": d.evaluate_name,
            "stack_trace": cut(&d.stack_trace, ctx.bounds.max_output_bytes),
        })
    });
    let mode = match info.break_mode {
        ExceptionBreakMode::Never => "never",
        ExceptionBreakMode::Always => "always",
        ExceptionBreakMode::Unhandled => "unhandled",
        ExceptionBreakMode::UserUnhandled => "user_unhandled",
    };
    let description = cut(&info.description, chars);
    let mut text = format!("thread {thread}: {}", info.exception_id);
    if let Some(d) = &description {
        let _ = write!(text, ": {d}");
    }
    let _ = write!(text, " (break mode {mode})");
    if let Some(trace) = details.as_ref().and_then(|d| d["stack_trace"].as_str()) {
        let _ = write!(text, "\n{trace}");
    }
    Ok(Reply::new(
        json!({
            "thread_id": thread,
            "exception_id": info.exception_id,
            "description": description,
            "break_mode": mode,
            "details": details,
        }),
        text.trim_end(),
    ))
}

async fn source(ctx: Arc<Context>, args: SourceArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let reference = match (args.source_reference, args.frame_id) {
        (Some(r), None) => r,
        (None, Some(frame)) => {
            let thread = ctx.thread(&session, None).await?;
            let frames = session.stack_trace(Some(thread), None).await?;
            let found = frames.iter().find(|f| f.id == frame).ok_or_else(|| {
                ToolError::invalid(
                    format!("no frame {frame} on the stopped thread"),
                    "pass a frame_id from debug.stack_trace",
                )
            })?;
            let source = found.source.clone().unwrap_or_default();
            match source.source_reference.filter(|r| *r > 0) {
                Some(r) => r,
                None => {
                    return Err(ToolError::invalid(
                        format!(
                            "frame {frame}'s source is a file ({}), not held by the adapter",
                            source.path.as_deref().unwrap_or("no path")
                        ),
                        "read the file itself; debug.source is for sources without a file",
                    ))
                }
            }
        }
        _ => {
            return Err(ToolError::invalid(
                "pass `source_reference` or `frame_id`, not both and not neither",
                "frames from debug.stack_trace name their source",
            ))
        }
    };
    let body = session
        .source(reference)
        .await
        .ids(&[("source_reference", args.source_reference)])?;
    let rest: String = body.content.chars().skip(args.offset).collect();
    let (shown, more) = cut_chars(&rest, ctx.bounds.max_output_bytes);
    let mut json = json!({
        "source_reference": reference,
        "content": shown,
        "mime_type": body.mime_type,
        "offset": args.offset,
        "truncated": more > 0,
    });
    let mut text = shown.clone();
    if more > 0 {
        let next = args.offset.saturating_add(shown.chars().count());
        json["next_offset"] = json!(next);
        let _ = write!(text, "\n… {more} more characters: pass offset {next}");
    }
    Ok(Reply::new(json, text))
}

async fn loaded_sources(ctx: Arc<Context>, args: PageArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let count = page_size(args.count, ctx.bounds.max_items)?;
    let sources = session.loaded_sources().await?;
    let page: Vec<Value> = sources
        .iter()
        .skip(args.offset)
        .take(count)
        .map(source_json)
        .collect();
    let more = args.offset.saturating_add(page.len()) < sources.len();
    let mut text = String::new();
    for s in &page {
        let _ = writeln!(
            text,
            "  {}",
            s["path"].as_str().or(s["name"].as_str()).unwrap_or("?")
        );
    }
    let count = args.count.map(|_| count);
    Ok(paged_reply(
        "sources",
        page,
        (args.offset, count),
        (Some(sources.len()), more),
        text,
    ))
}

async fn modules(ctx: Arc<Context>, args: PageArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let count = page_size(args.count, ctx.bounds.max_items)?;
    // One more than the page tells, without the adapter's total, whether there is more.
    let body = session
        .modules(
            Some(adapter_int(args.offset, "offset")?),
            Some(adapter_int(count.saturating_add(1), "count")?),
        )
        .await?;
    let total = body.total_modules.and_then(|t| usize::try_from(t).ok());
    let more =
        body.modules.len() > count || total.is_some_and(|t| args.offset.saturating_add(count) < t);
    let page: Vec<Value> = body
        .modules
        .iter()
        .take(count)
        .map(|m| {
            json!({
                "id": m.id.to_string(),
                "name": m.name,
                "path": m.path,
                "version": m.version,
                "symbol_status": m.symbol_status,
                "is_optimized": m.is_optimized,
                "is_user_code": m.is_user_code,
                "address_range": m.address_range,
            })
        })
        .collect();
    let mut text = String::new();
    for m in &page {
        let _ = writeln!(
            text,
            "  {} {}",
            m["name"].as_str().unwrap_or("?"),
            m["path"].as_str().unwrap_or("")
        );
    }
    let count = args.count.map(|_| count);
    Ok(paged_reply(
        "modules",
        page,
        (args.offset, count),
        (total, more),
        text,
    ))
}

async fn locations(ctx: Arc<Context>, args: LocationsArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let at = session
        .locations(args.location_reference)
        .await
        .ids(&[("location_reference", Some(args.location_reference))])?;
    let source = source_json(&at.source);
    let place = source["path"]
        .as_str()
        .or(source["name"].as_str())
        .unwrap_or("?")
        .to_string();
    Ok(Reply::new(
        json!({
            "file": source["path"],
            "source": source,
            "line": at.line,
            "column": at.column,
            "end_line": at.end_line,
            "end_column": at.end_column,
        }),
        format!("{place}:{}", at.line),
    ))
}

fn source_json(source: &Source) -> Value {
    json!({
        "name": source.name,
        "path": source.path,
        "source_reference": source.source_reference.unwrap_or(0),
    })
}

/// A page of a list from `offset` (with the `count` the call gave, if it gave one),
/// out of `total` where known, `truncated` when more follow; the text says how to
/// read on.
fn paged_reply(
    what: &str,
    page: Vec<Value>,
    (offset, count): (usize, Option<usize>),
    (total, truncated): (Option<usize>, bool),
    lines: String,
) -> Reply {
    let end = offset.saturating_add(page.len());
    let mut text = match total {
        Some(t) => format!("{what} {offset}..{end} of {t}:\n{lines}"),
        None => format!("{what} {offset}..{end}:\n{lines}"),
    };
    let mut json = json!({ what: page, "offset": offset, "total": total, "truncated": truncated });
    if truncated {
        json["next_offset"] = json!(end);
        match count {
            Some(n) => {
                let _ = write!(text, "… more: pass offset {end} and count {n}");
            }
            None => {
                let _ = write!(text, "… more: pass offset {end}");
            }
        }
    }
    Reply::new(json, text.trim_end())
}
