//! The breakpoints a launch or attach sets before the program runs: by `file` and
//! `line` (or `statement`, the text of the line), or by `function`.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::wire::types::FunctionBreakpoint;
use crate::InitialBreakpoint;

use crate::tools::breakpoints::bound_lines::check_within_file;
use crate::tools::breakpoints::statement::LineChoice;
use crate::tools::breakpoints::statement_marks::StatementMark;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;

// A breakpoint set when the program starts. (Not a doc comment: schemars would repeat
// it in launch's and attach's schemas, which every agent reads.)
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartBreakpoint {
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
    /// Or a function name (Go: `main.add`).
    function: Option<String>,
    /// Stop only when this expression is true.
    condition: Option<String>,
    /// Stop only when the hit count satisfies this (such as `>= 3`).
    hit_condition: Option<String>,
    /// Log this instead of stopping; `{expr}` is interpolated.
    log_message: Option<String>,
    /// Record these at each hit instead of stopping (debug.trace).
    collect: Option<Vec<String>>,
}

/// The breakpoints of a start request, paths resolved.
pub(crate) struct StartBreakpoints {
    /// Source breakpoints.
    pub sources: Vec<InitialBreakpoint>,
    /// Plain function names.
    pub functions: Vec<String>,
    /// Function breakpoints with a condition or hit condition.
    pub conditional: Vec<FunctionBreakpoint>,
    /// The source breakpoints given by statement, to bind again after an edit.
    pub statements: Vec<StatementMark>,
}

impl StartBreakpoints {
    /// Whether any of them stops the program (a tracepoint records and goes on), so
    /// that a start waits for the first stop.
    pub(crate) fn stop(&self) -> bool {
        self.sources.iter().any(|bp| bp.collect.is_empty())
            || !self.functions.is_empty()
            || !self.conditional.is_empty()
    }
}

/// Source and function breakpoints from a start request, paths resolved; a marked
/// remote path (`remote:/usr/lib/a.py`) is taken when the session started is a debug
/// server's (`remote_target`, see `remote_file.rs`).
pub(crate) fn split_breakpoints(
    ctx: &Context,
    list: Vec<StartBreakpoint>,
    remote_target: bool,
) -> Result<StartBreakpoints, ToolError> {
    let mut sources = Vec::new();
    let mut functions = Vec::new();
    let mut conditional = Vec::new();
    let mut statements = Vec::new();
    for (i, bp) in list.into_iter().enumerate() {
        let choice = LineChoice {
            line: bp.line,
            statement: bp.statement.as_deref(),
            near_line: bp.near_line,
            expected_text: bp.expected_text.as_deref(),
        };
        match (bp.file, choice.is_given(), bp.function) {
            (Some(file), true, None) => {
                let file = super::remote_file::start_file(ctx, &file, remote_target)?;
                let line = choice
                    .resolve(&file)
                    .and_then(|line| check_within_file(&file, line).map(|()| line))
                    .map_err(|mut e| {
                        e.error = format!("breakpoints[{i}]: {}", e.error);
                        e
                    })?;
                let collect = bp.collect.unwrap_or_default();
                if !collect.is_empty() && bp.log_message.is_some() {
                    return Err(ToolError::invalid(
                        format!("breakpoints[{i}]: give `collect` or `log_message`, not both"),
                        "a tracepoint (`collect`) records values; a logpoint \
                         (`log_message`) prints a message",
                    ));
                }
                if let Some(statement) = bp.statement {
                    statements.push(StatementMark {
                        file: file.clone(),
                        statement,
                        near_line: bp.near_line,
                        line,
                    });
                }
                let mut initial = InitialBreakpoint::new(file, line);
                initial.condition = bp.condition;
                initial.hit_condition = bp.hit_condition;
                initial.log_message = bp.log_message;
                initial.collect = collect;
                sources.push(initial);
            }
            (None, false, Some(function)) => {
                if bp.log_message.is_some() || bp.collect.is_some_and(|c| !c.is_empty()) {
                    return Err(ToolError::invalid(
                        format!(
                            "breakpoints[{i}]: a function breakpoint cannot log a message \
                             or collect values (DAP's function breakpoints have no \
                             logMessage)"
                        ),
                        "put it on a source breakpoint ({\"file\", \"line\"}) at the \
                         function's first line instead",
                    ));
                }
                if bp.condition.is_some() || bp.hit_condition.is_some() {
                    conditional.push(FunctionBreakpoint {
                        name: function,
                        condition: bp.condition,
                        hit_condition: bp.hit_condition,
                    });
                } else {
                    functions.push(function);
                }
            }
            _ => {
                return Err(ToolError::invalid(
                    format!(
                        "breakpoints[{i}] needs `file` and `line` (or `statement`), or `function` alone"
                    ),
                    "write each breakpoint as {\"file\": \"x.py\", \"line\": 12} or {\"function\": \"main\"}",
                ))
            }
        }
    }
    Ok(StartBreakpoints {
        sources,
        functions,
        conditional,
        statements,
    })
}
