//! Breakpoints beyond source and function ones: `debug.breakpoint_locations`,
//! `debug.set_instruction_breakpoints`, `debug.data_breakpoint_info`,
//! `debug.set_data_breakpoints`, and the exception options of
//! `debug.set_exception_breakpoints` (see [`set_exception_options`]).

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::permission::{Adds, Effect};
use crate::wire::types::{
    Breakpoint, DataBreakpoint, DataBreakpointAccessType, DataBreakpointInfoArguments,
    ExceptionBreakMode, ExceptionFilterOptions, ExceptionOptions, ExceptionPathSegment,
    InstructionBreakpoint, SetExceptionBreakpointsArguments,
};
use crate::Operation;
use crate::SessionHandle;

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::inspect::ids::AgentIds;
use crate::tools::inspect::locals::scope_reference;
use crate::tools::start::session::check_line;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.breakpoint_locations",
            "Where breakpoints can go in `file` from `line` to `end_line` (default: that \
             line alone): `line` and `column` of each place the adapter can stop.",
            ToolAnnotations::READ_ONLY,
            breakpoint_locations,
        )
        .effect(Effect::Read)
        .asks(Operation::Query),
        tool(
            "debug.set_instruction_breakpoints",
            "Replace every instruction breakpoint: each at an `instruction_reference` (an \
             address, such as the `address` of a debug.disassemble line) plus `offset` \
             bytes, optionally with a `condition` or `hit_condition`. An empty list removes \
             them all. The program must run or be stopped.",
            ToolAnnotations::SETTING,
            set_instruction_breakpoints,
        )
        .effect(Effect::Control)
        .adds(Adds::InstructionReferences)
        .asks(Operation::SetBreakpoints),
        tool(
            "debug.data_breakpoint_info",
            "Whether a variable can be watched by a data breakpoint: `name` under \
             `variables_reference` (or a `scope`), or an expression in `frame_id`. Returns \
             `data_id` for debug.set_data_breakpoints and its `access_types`. WARNING: an \
             expression is evaluated (it can run code).",
            // The worst case: a name without a container is an expression.
            ToolAnnotations::ARBITRARY_CODE,
            data_breakpoint_info,
        )
        .effect(Effect::Read)
        .adds(Adds::DataBreakpointName)
        .asks(Operation::Inspect),
        tool(
            "debug.set_data_breakpoints",
            "Replace every data breakpoint (watchpoint): each a `data_id` from \
             debug.data_breakpoint_info with an `access_type` (`read`, `write`, \
             `read_write`), optionally a `condition` or `hit_condition`. The program stops \
             when the data is accessed so. An empty list removes them all.",
            ToolAnnotations::SETTING,
            set_data_breakpoints,
        )
        .effect(Effect::Control)
        .asks(Operation::SetBreakpoints),
    ]
}

/// Arguments of `debug.breakpoint_locations`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct LocationsArgs {
    session_id: String,
    /// The source file.
    file: String,
    /// The first line to look at (1-based).
    line: i64,
    /// The last line to look at; `line` by default.
    end_line: Option<i64>,
}

/// One instruction breakpoint.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct InstructionArgs {
    /// An address or memory reference (from debug.disassemble or a frame).
    instruction_reference: String,
    /// Bytes from `instruction_reference` (may be negative).
    offset: Option<i64>,
    /// Stop only when this expression is true.
    condition: Option<String>,
    /// Stop only when the hit count satisfies this.
    hit_condition: Option<String>,
}

/// Arguments of `debug.set_instruction_breakpoints`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetInstructionArgs {
    session_id: String,
    /// The whole list; empty removes every instruction breakpoint.
    #[serde(default)]
    breakpoints: Vec<InstructionArgs>,
}

/// Arguments of `debug.data_breakpoint_info`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DataInfoArgs {
    session_id: String,
    /// The variable's name in its container, or an expression.
    name: String,
    /// The container: a `variables_reference` from a scope or a structured value.
    variables_reference: Option<i64>,
    /// A scope of the frame instead, by name (such as "Locals").
    scope: Option<String>,
    /// The frame (for a scope or an expression); the top frame by default.
    frame_id: Option<i64>,
}

/// How a data breakpoint is triggered.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum AccessType {
    /// When the data is read.
    Read,
    /// When the data is written.
    Write,
    /// When the data is read or written.
    ReadWrite,
}

/// One data breakpoint.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DataArgs {
    /// The `data_id` from debug.data_breakpoint_info.
    data_id: String,
    /// The access that stops (default: the adapter's, usually `write`).
    access_type: Option<AccessType>,
    /// Stop only when this expression is true.
    condition: Option<String>,
    /// Stop only when the hit count satisfies this.
    hit_condition: Option<String>,
}

/// Arguments of `debug.set_data_breakpoints`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetDataArgs {
    session_id: String,
    /// The whole list; empty removes every data breakpoint.
    #[serde(default)]
    breakpoints: Vec<DataArgs>,
}

/// An exception filter with a condition.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FilterOption {
    /// One of the adapter's filter ids.
    filter_id: String,
    /// Stop only when this expression is true.
    condition: Option<String>,
}

/// When an exception stops.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum BreakMode {
    /// Never.
    Never,
    /// Whenever it is raised, caught or not.
    Always,
    /// When nothing catches it.
    Unhandled,
    /// When the user's code does not catch it.
    UserUnhandled,
}

/// Break options for the exceptions a path selects.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExceptionOption {
    /// Names per level of the adapter's exception tree, the category first: for
    /// debugpy `[["Python Exceptions"], ["ValueError"]]`. Empty: every exception.
    #[serde(default)]
    path: Vec<Vec<String>>,
    /// When the selected exceptions stop.
    break_mode: BreakMode,
}

/// The options part of `debug.set_exception_breakpoints`' arguments.
#[derive(Debug, Default)]
pub(crate) struct ExceptionOptionArgs {
    /// Filters with conditions (adapters with `supportsExceptionFilterOptions`).
    pub filter_options: Option<Vec<FilterOption>>,
    /// Break modes for chosen exceptions (adapters with `supportsExceptionOptions`).
    pub exception_options: Option<Vec<ExceptionOption>>,
}

async fn breakpoint_locations(ctx: Arc<Context>, args: LocationsArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let file =
        crate::tools::breakpoints::remote_file::breakpoint_file(&ctx, &session, &args.file).await?;
    let line = check_line(args.line)?;
    let end = args.end_line.map(check_line).transpose()?;
    let places = session.breakpoint_locations(&file, line, end).await?;
    let total = places.len();
    let shown: Vec<Value> = places
        .iter()
        .take(ctx.bounds.max_items)
        .map(|p| json!({ "line": p.line, "column": p.column, "end_line": p.end_line }))
        .collect();
    let mut text = format!("{total} place(s) for a breakpoint in {}", file.display());
    for p in &shown {
        let _ = write!(text, "\n  line {} column {}", p["line"], p["column"]);
    }
    Ok(Reply::new(
        json!({ "file": file.display().to_string(), "locations": shown,
                "total": total, "truncated": total > shown.len() }),
        text,
    ))
}

async fn set_instruction_breakpoints(ctx: Arc<Context>, args: SetInstructionArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let list: Vec<InstructionBreakpoint> = args
        .breakpoints
        .into_iter()
        .map(|b| InstructionBreakpoint {
            instruction_reference: b.instruction_reference,
            offset: b.offset,
            condition: b.condition,
            hit_condition: b.hit_condition,
            mode: None,
        })
        .collect();
    let asked: Vec<String> = list
        .iter()
        .map(|b| b.instruction_reference.clone())
        .collect();
    let answer = session.set_instruction_breakpoints(list).await?;
    Ok(breakpoints_reply("instruction", &asked, &answer))
}

async fn data_breakpoint_info(ctx: Arc<Context>, args: DataInfoArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let (variables_reference, frame_id) = match (args.variables_reference, &args.scope) {
        (Some(r), None) => (Some(r), None),
        (None, Some(scope)) => (
            Some(scope_reference(&ctx, &session, scope, args.frame_id, &args.name).await?),
            None,
        ),
        (None, None) => {
            let frame = ctx.frame_or_top(&session, args.frame_id).await?;
            (None, Some(frame))
        }
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid(
                "pass `variables_reference` or `scope`, not both",
                "scope: \"Locals\" names the top frame's locals",
            ))
        }
    };
    let info = session
        .data_breakpoint_info(DataBreakpointInfoArguments {
            variables_reference,
            name: args.name.clone(),
            frame_id,
            ..DataBreakpointInfoArguments::default()
        })
        .await
        .ids(&[
            ("variables_reference", args.variables_reference),
            ("frame_id", args.frame_id),
        ])?;
    let access: Vec<&str> = info
        .access_types
        .iter()
        .flatten()
        .map(|a| access_name(*a))
        .collect();
    let text = match &info.data_id {
        Some(id) => format!(
            "`{}` can be watched: data_id {id} ({}); access types: {}",
            args.name,
            info.description,
            access.join(", ")
        ),
        None => format!("`{}` cannot be watched: {}", args.name, info.description),
    };
    Ok(Reply::new(
        json!({
            "name": args.name,
            "data_id": info.data_id,
            "description": info.description,
            "access_types": access,
        }),
        text,
    ))
}

async fn set_data_breakpoints(ctx: Arc<Context>, args: SetDataArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let list: Vec<DataBreakpoint> = args
        .breakpoints
        .into_iter()
        .map(|b| DataBreakpoint {
            data_id: b.data_id,
            access_type: b.access_type.map(|a| match a {
                AccessType::Read => DataBreakpointAccessType::Read,
                AccessType::Write => DataBreakpointAccessType::Write,
                AccessType::ReadWrite => DataBreakpointAccessType::ReadWrite,
            }),
            condition: b.condition,
            hit_condition: b.hit_condition,
        })
        .collect();
    let asked: Vec<String> = list.iter().map(|b| b.data_id.clone()).collect();
    let answer = session.set_data_breakpoints(list).await?;
    Ok(breakpoints_reply("data", &asked, &answer))
}

/// The exception options of `debug.set_exception_breakpoints`: sent with `filters`,
/// refused (501) where the adapter lacks the capability they need.
pub(crate) async fn set_exception_options(
    session: &SessionHandle,
    filters: Vec<String>,
    options: ExceptionOptionArgs,
) -> Result<Vec<Breakpoint>, ToolError> {
    let filter_options = options.filter_options.map(|list| {
        list.into_iter()
            .map(|f| ExceptionFilterOptions {
                filter_id: f.filter_id,
                condition: f.condition,
                mode: None,
            })
            .collect()
    });
    let exception_options = options.exception_options.map(|list| {
        list.into_iter()
            .map(|o| ExceptionOptions {
                path: (!o.path.is_empty()).then(|| {
                    o.path
                        .into_iter()
                        .map(|names| ExceptionPathSegment {
                            negate: None,
                            names,
                        })
                        .collect()
                }),
                break_mode: match o.break_mode {
                    BreakMode::Never => ExceptionBreakMode::Never,
                    BreakMode::Always => ExceptionBreakMode::Always,
                    BreakMode::Unhandled => ExceptionBreakMode::Unhandled,
                    BreakMode::UserUnhandled => ExceptionBreakMode::UserUnhandled,
                },
            })
            .collect()
    });
    Ok(session
        .set_exception_breakpoints_with(SetExceptionBreakpointsArguments {
            filters,
            filter_options,
            exception_options,
        })
        .await?)
}

fn access_name(access: DataBreakpointAccessType) -> &'static str {
    match access {
        DataBreakpointAccessType::Read => "read",
        DataBreakpointAccessType::Write => "write",
        DataBreakpointAccessType::ReadWrite => "read_write",
    }
}

/// The adapter's verdict on each breakpoint of a replaced list, in the list's order.
fn breakpoints_reply(kind: &str, asked: &[String], answer: &[Breakpoint]) -> Reply {
    let list: Vec<Value> = asked
        .iter()
        .enumerate()
        .map(|(i, at)| {
            let bp = answer.get(i);
            json!({
                "at": at,
                "id": bp.and_then(|b| b.id),
                "verified": bp.is_some_and(|b| b.verified),
                "message": bp.and_then(|b| b.message.clone()),
                "line": bp.and_then(|b| b.line),
            })
        })
        .collect();
    let mut text = format!("{} {kind} breakpoint(s)", list.len());
    for bp in &list {
        let verified = if bp["verified"] == json!(true) {
            "verified"
        } else {
            "NOT verified"
        };
        let _ = write!(text, "\n  {}: {verified}", bp["at"].as_str().unwrap_or(""));
        if let Some(m) = bp["message"].as_str() {
            let _ = write!(text, " ({m})");
        }
    }
    Reply::new(json!({ "breakpoints": list }), text)
}
