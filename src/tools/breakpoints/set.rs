//! Breakpoints: `debug.set_breakpoints` (a file's whole list), `debug.set_breakpoint`
//! and `debug.remove_breakpoint` (one, the others kept), and
//! `debug.set_exception_breakpoints`.

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::permission::{Adds, Effect};
use crate::tools::catalogue::profile::Stage;
use crate::tracepoint_expressions as collected;
use crate::wire::types::{FunctionBreakpoint, SourceBreakpoint};
use crate::Operation;
use crate::{FunctionBreakpointRecord, SourceBreakpointRecord};
use crate::{SessionHandle, Tracepoint};

use crate::tools::breakpoints::bound_lines::{asked_line, check_within_file};
use crate::tools::breakpoints::remote_file::breakpoint_file;
use crate::tools::breakpoints::statement::LineChoice;
use crate::tools::breakpoints::statement_marks::{self, StatementMark};
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::start::session::check_line;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.set_breakpoints",
            "Replace every breakpoint of one file with `lines` and/or `breakpoints` (with \
             conditions); empty lists clear it. Works in any state. Returns each with \
             `verified`, and the adapter's `message` when it could not place one.",
            ToolAnnotations::SETTING,
            set_breakpoints,
        ).effect(Effect::Control).asks(Operation::SetBreakpoints),
        tool(
            "debug.set_breakpoint",
            "Add or change one breakpoint, keeping the others: `file` and `line` (or \
             `statement`), or `function`. A `log_message` prints and `collect` records \
             values (debug.trace) instead of stopping. Returns its file's (or the function) breakpoints.",
            ToolAnnotations::SETTING,
            set_breakpoint,
        ).effect(Effect::Control).asks(Operation::SetBreakpoints).core(Stage::Breakpoints, &["hit_condition", "expected_text", "near_line"]),
        tool(
            "debug.remove_breakpoint",
            "Remove one breakpoint (as debug.set_breakpoint names it), keeping the others.",
            ToolAnnotations::SETTING,
            remove_breakpoint,
        ).effect(Effect::Control).asks(Operation::SetBreakpoints).core(Stage::Breakpoints, &["near_line"]),
        tool(
            "debug.set_exception_breakpoints",
            "Stop when exceptions are raised: `filters` are the adapter's filter ids \
             (debugpy: `raised`, `uncaught`; the answer lists this adapter's); [] turns \
             them off. Where supported: `filter_options` (with a `condition`) and \
             `exception_options` (a `break_mode` for the exceptions a `path` selects).",
            ToolAnnotations::SETTING,
            set_exception_breakpoints,
        ).effect(Effect::Control).adds(Adds::ExceptionOptions).asks(Operation::SetExceptionBreakpoints),
    ]
}

/// One breakpoint in a file's list.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct LineBreakpoint {
    /// 1-based line.
    line: i64,
    /// Stop only when this expression is true.
    condition: Option<String>,
    /// Stop only when the hit count satisfies this (such as `>= 3`).
    hit_condition: Option<String>,
    /// Log this message instead of stopping; `{expr}` is interpolated.
    log_message: Option<String>,
}

/// Arguments of `debug.set_breakpoints`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetBreakpointsArgs {
    session_id: String,
    /// The source file.
    file: String,
    /// Lines to break at (plain breakpoints).
    #[serde(default)]
    lines: Vec<i64>,
    /// Breakpoints with conditions, hit conditions or log messages.
    #[serde(default)]
    breakpoints: Vec<LineBreakpoint>,
}

/// Arguments of `debug.set_breakpoint`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OneBreakpointArgs {
    session_id: String,
    /// Source file (with `line` or `statement`).
    file: Option<String>,
    /// 1-based line in `file`.
    line: Option<i64>,
    /// Or the line's text.
    statement: Option<String>,
    /// Picks among several `statement` lines.
    near_line: Option<i64>,
    /// Text `line` must hold.
    expected_text: Option<String>,
    /// A function name instead of `file` and `line`.
    function: Option<String>,
    /// Stop only when this expression is true.
    condition: Option<String>,
    /// Stop only when the hit count satisfies this (such as `>= 3`).
    hit_condition: Option<String>,
    /// Log this message instead of stopping; `{expr}` is interpolated.
    log_message: Option<String>,
    /// Record these expressions at each hit instead of stopping.
    collect: Option<Vec<String>>,
}

/// Arguments of `debug.remove_breakpoint`: where the breakpoint is, nothing of what
/// it does (so removing carries no code, and never needs approval).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RemoveBreakpointArgs {
    session_id: String,
    /// Source file (with `line` or `statement`).
    file: Option<String>,
    /// 1-based line in `file`.
    line: Option<i64>,
    /// Or the line's text.
    statement: Option<String>,
    /// Picks among several `statement` lines.
    near_line: Option<i64>,
    /// A function name instead of `file` and `line`.
    function: Option<String>,
}

/// Arguments of `debug.set_exception_breakpoints`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExceptionArgs {
    session_id: String,
    /// Exception filter ids; empty turns exception stops off.
    #[serde(default)]
    filters: Vec<String>,
    /// Filters with conditions (adapters with `supportsExceptionFilterOptions`).
    filter_options: Option<Vec<crate::tools::protocol::breakpoints::FilterOption>>,
    /// Break modes for chosen exceptions (adapters with `supportsExceptionOptions`).
    exception_options: Option<Vec<crate::tools::protocol::breakpoints::ExceptionOption>>,
}

/// Which breakpoint a one-breakpoint call names.
enum Target {
    Line(std::path::PathBuf, i64),
    Function(String),
}

async fn target(
    ctx: &Context,
    session: &SessionHandle,
    file: &Option<String>,
    choice: LineChoice<'_>,
    function: &Option<String>,
) -> Result<Target, ToolError> {
    match (file, choice.is_given(), function) {
        (Some(file), true, None) => {
            let file = breakpoint_file(ctx, session, file).await?;
            let line = choice.resolve(&file)?;
            Ok(Target::Line(file, line))
        }
        (None, false, Some(f)) if !f.trim().is_empty() => Ok(Target::Function(f.clone())),
        _ => Err(ToolError::invalid(
            "name the breakpoint by `file` and `line`, or by `function` alone",
            "pass {\"file\": \"x.py\", \"line\": 12} or {\"function\": \"main\"}",
        )),
    }
}

async fn set_breakpoints(ctx: Arc<Context>, args: SetBreakpointsArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let file = breakpoint_file(&ctx, &session, &args.file).await?;
    let mut list = Vec::with_capacity(args.lines.len() + args.breakpoints.len());
    let checked = |line| {
        let line = check_line(line)?;
        check_within_file(&file, line).map(|()| line)
    };
    for line in args.lines {
        list.push(SourceBreakpoint {
            line: checked(line)?,
            ..SourceBreakpoint::default()
        });
    }
    for bp in args.breakpoints {
        list.push(SourceBreakpoint {
            line: checked(bp.line)?,
            condition: bp.condition,
            hit_condition: bp.hit_condition,
            log_message: bp.log_message,
            ..SourceBreakpoint::default()
        });
    }
    let records = session.set_breakpoints(&file, list).await?;
    // The file's list is replaced by lines: none of it is bound by statement now.
    ctx.statements.forget(session.id(), &file, None);
    Ok(source_reply(&file, &records))
}

async fn set_breakpoint(ctx: Arc<Context>, args: OneBreakpointArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let choice = LineChoice {
        line: args.line,
        statement: args.statement.as_deref(),
        near_line: args.near_line,
        expected_text: args.expected_text.as_deref(),
    };
    let target = target(&ctx, &session, &args.file, choice, &args.function).await?;
    if let Target::Line(file, line) = &target {
        check_within_file(file, *line)?;
    }
    match target {
        Target::Line(file, line) if args.collect.as_ref().is_some_and(|c| !c.is_empty()) => {
            if args.log_message.is_some() {
                return Err(ToolError::invalid(
                    "give `collect` or `log_message`, not both",
                    "a tracepoint (`collect`) records values; a logpoint (`log_message`) \
                     prints a message",
                ));
            }
            let mut tracepoint = Tracepoint::default();
            tracepoint.line = line;
            tracepoint.condition = args.condition;
            tracepoint.hit_condition = args.hit_condition;
            tracepoint.collect = args.collect.unwrap_or_default();
            let records = session.add_tracepoint(&file, tracepoint).await?;
            remember_statement(&ctx, &session, &args.statement, args.near_line, &file, line);
            Ok(source_reply(&file, &records))
        }
        Target::Line(file, line) => {
            let bp = SourceBreakpoint {
                line,
                condition: args.condition,
                hit_condition: args.hit_condition,
                log_message: args.log_message,
                ..SourceBreakpoint::default()
            };
            let records = session.add_breakpoint(&file, bp).await?;
            remember_statement(&ctx, &session, &args.statement, args.near_line, &file, line);
            Ok(source_reply(&file, &records))
        }
        Target::Function(name) => {
            if args.log_message.is_some() || args.collect.is_some_and(|c| !c.is_empty()) {
                return Err(ToolError::invalid(
                    "function breakpoints cannot log messages or collect values",
                    "use a source breakpoint (file and line) for a logpoint or a tracepoint",
                ));
            }
            let bp = FunctionBreakpoint {
                name,
                condition: args.condition,
                hit_condition: args.hit_condition,
            };
            // One message to the session: concurrent calls cannot lose each other's.
            session.add_function_breakpoint(bp).await?;
            Ok(function_reply(&function_records(&session).await?))
        }
    }
}

async fn remove_breakpoint(ctx: Arc<Context>, args: RemoveBreakpointArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let choice = LineChoice {
        line: args.line,
        statement: args.statement.as_deref(),
        near_line: args.near_line,
        expected_text: None,
    };
    match target(&ctx, &session, &args.file, choice, &args.function).await? {
        Target::Line(file, line) => {
            // The line it was asked for, or the one the adapter bound it at.
            let line = asked_line(&session, &file, line).await?;
            let records = session.remove_breakpoint(&file, line).await?;
            ctx.statements.forget(session.id(), &file, Some(line));
            Ok(source_reply(&file, &records))
        }
        Target::Function(name) => {
            session.remove_function_breakpoint(&name).await?;
            Ok(function_reply(&function_records(&session).await?))
        }
    }
}

/// Remember a breakpoint set by `statement` (if it was), to bind it again after an edit.
fn remember_statement(
    ctx: &Context,
    session: &SessionHandle,
    statement: &Option<String>,
    near_line: Option<i64>,
    file: &std::path::Path,
    line: i64,
) {
    let mark = statement.as_ref().map(|statement| StatementMark {
        file: file.to_path_buf(),
        statement: statement.clone(),
        near_line,
        line,
    });
    statement_marks::remember(ctx, session, mark.into_iter().collect());
}

/// The session's function breakpoints, each with the adapter's verdict on it. The
/// session pairs each verdict with its function by name when the answer comes, so a
/// concurrent call that changed the list meanwhile cannot swap ids or verdicts here
/// (pairing the answer by position with a list read afterwards could).
async fn function_records(
    session: &SessionHandle,
) -> Result<Vec<FunctionBreakpointRecord>, ToolError> {
    let snapshot = session.snapshot().await?;
    Ok(snapshot.breakpoints.functions().to_vec())
}

async fn set_exception_breakpoints(ctx: Arc<Context>, args: ExceptionArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let snapshot = session.snapshot().await?;
    let offered: Vec<Value> = snapshot
        .capabilities
        .exception_breakpoint_filters
        .iter()
        .flatten()
        .map(|f| json!({ "filter": f.filter, "label": f.label }))
        .collect();
    // Once the adapter has said what it offers, refuse what it does not.
    if !offered.is_empty() {
        for filter in &args.filters {
            if !offered.iter().any(|o| o["filter"] == json!(filter)) {
                let ids: Vec<&str> = offered
                    .iter()
                    .filter_map(|o| o["filter"].as_str())
                    .collect();
                return Err(ToolError::invalid(
                    format!("the adapter has no exception filter `{filter}`"),
                    format!("filters this adapter offers: {}", ids.join(", ")),
                ));
            }
        }
    }
    let with_options = args.filter_options.is_some() || args.exception_options.is_some();
    if with_options {
        let options = crate::tools::protocol::breakpoints::ExceptionOptionArgs {
            filter_options: args.filter_options,
            exception_options: args.exception_options,
        };
        crate::tools::protocol::breakpoints::set_exception_options(
            &session,
            args.filters.clone(),
            options,
        )
        .await?;
    } else {
        session
            .set_exception_breakpoints(args.filters.clone())
            .await?;
    }
    let text = if with_options {
        format!(
            "stopping on exceptions as the options say, and on filters [{}]",
            args.filters.join(", ")
        )
    } else if args.filters.is_empty() {
        "exception stops are off".to_string()
    } else {
        format!("stopping on exceptions: {}", args.filters.join(", "))
    };
    Ok(Reply::new(
        json!({ "filters": args.filters, "available": offered }),
        text,
    ))
}

fn source_reply(file: &std::path::Path, records: &[SourceBreakpointRecord]) -> Reply {
    let list: Vec<Value> = records.iter().map(record_json).collect();
    let mut text = format!("{} breakpoint(s) in {}", list.len(), file.display());
    for bp in &list {
        let place = match (bp["line"].as_i64(), bp["requested_line"].as_i64()) {
            (Some(bound), Some(asked)) if bound != asked => {
                format!("asked line {asked}, bound at line {bound}")
            }
            _ => format!("line {}", bp["line"]),
        };
        describe(&mut text, bp, &place);
    }
    Reply::new(
        json!({ "file": file.display().to_string(), "breakpoints": list }),
        text,
    )
}

fn record_json(record: &SourceBreakpointRecord) -> Value {
    let actual = record.actual.as_ref();
    let mut json = json!({
        "id": actual.and_then(|a| a.id),
        "line": record.actual_line().unwrap_or(record.requested.line),
        "requested_line": record.requested.line,
        "verified": actual.is_some_and(|a| a.verified),
        "message": actual.and_then(|a| a.message.clone()).or_else(|| actual.is_none().then(||
            "not sent yet: it is set when the adapter is ready".to_string())),
        "condition": record.requested.condition,
        "hit_condition": record.requested.hit_condition,
        "log_message": record.requested.log_message,
    });
    // A tracepoint's log message is the session's template: what it collects says it.
    if let Some(collect) = record.requested.log_message.as_deref().and_then(collected) {
        json["collect"] = json!(collect);
        json["log_message"] = Value::Null;
        json["hits"] = json!(record.hits);
    }
    json
}

fn function_reply(records: &[FunctionBreakpointRecord]) -> Reply {
    let entries: Vec<Value> = records
        .iter()
        .map(|record| {
            let f = &record.requested;
            let actual = record.actual.as_ref();
            json!({
                "id": actual.and_then(|a| a.id),
                "function": f.name,
                "line": actual.and_then(|a| a.line),
                "verified": actual.is_some_and(|a| a.verified),
                "message": actual.and_then(|a| a.message.clone()).or_else(|| actual.is_none().then(||
                    "no verdict from the adapter yet: it comes once the adapter has the list".to_string())),
                "condition": f.condition,
                "hit_condition": f.hit_condition,
            })
        })
        .collect();
    let mut text = format!("{} function breakpoint(s)", entries.len());
    for bp in &entries {
        describe(
            &mut text,
            bp,
            &format!("function {}", bp["function"].as_str().unwrap_or("")),
        );
    }
    Reply::new(json!({ "breakpoints": entries }), text)
}

fn describe(text: &mut String, bp: &Value, place: &str) {
    let verified = if bp["verified"] == json!(true) {
        "verified"
    } else {
        "NOT verified"
    };
    let _ = write!(text, "\n  {place}: {verified}");
    if let Some(m) = bp["message"].as_str() {
        let _ = write!(text, " ({m})");
    }
    if let Some(c) = bp["condition"].as_str() {
        let _ = write!(text, " if {c}");
    }
}
