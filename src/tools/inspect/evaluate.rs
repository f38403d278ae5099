//! `debug.evaluate`: an expression in the program's language, in a frame of the
//! stopped program (the top frame unless the agent names one). It can run code, so
//! the permission gate classifies each call (`permission/`).

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::permission::{Adds, Effect};
use crate::tools::catalogue::profile::Stage;
use crate::Operation;
use crate::SessionError;

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{typed_tool, ToolDef, Typed};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::inspect::ids::FRESH_IDS;
use crate::tools::inspect::results::EvaluateResult;
use crate::tools::inspect::stack::value_chars;
use crate::tools::results::render::cut_value;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![typed_tool(
        "debug.evaluate",
        "Evaluate an expression in the program's language, in `frame_id` (default: the \
             top frame). WARNING: can run arbitrary code; the `repl` context of lldb-dap \
             runs debugger commands on the host. Returns `result`, `type` and a \
             `variables_reference` to expand.",
        ToolAnnotations::ARBITRARY_CODE,
        evaluate,
    )
    .effect(Effect::Code)
    .adds(Adds::Evaluation)
    .asks(Operation::Evaluate)
    .core(Stage::Inspect, &["context", "max_chars"])]
}

/// The context an expression is evaluated in.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum EvalContext {
    /// As a watch expression: the plain value.
    Watch,
    /// As typed in a debug console (lldb-dap: a debugger command, run on the host).
    Repl,
    /// As a hover: a short value.
    Hover,
    /// For copying: the full value.
    Clipboard,
}

/// Arguments of `debug.evaluate`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EvaluateArgs {
    session_id: String,
    /// The expression, in the program's language.
    expression: String,
    /// The frame to evaluate in.
    frame_id: Option<i64>,
    /// How the adapter should treat the expression (default: the plain value).
    context: Option<EvalContext>,
    /// Characters kept of the result (default {max_value_chars}).
    max_chars: Option<usize>,
}

async fn evaluate(
    ctx: Arc<Context>,
    args: EvaluateArgs,
) -> Result<Typed<EvaluateResult>, ToolError> {
    let session = ctx.session(&args.session_id)?;
    if args.expression.trim().is_empty() {
        return Err(ToolError::invalid(
            "the expression is empty",
            "pass an expression in the program's language",
        ));
    }
    ctx.bounds
        .check_expression("the expression", &args.expression)?;
    let frame_id = ctx.frame_or_top(&session, args.frame_id).await?;
    let context = args.context.map(|c| match c {
        EvalContext::Watch => "watch",
        EvalContext::Repl => "repl",
        EvalContext::Hover => "hover",
        EvalContext::Clipboard => "clipboard",
    });
    let body = session
        .evaluate(&args.expression, Some(frame_id), context)
        .await
        .map_err(|err| match err {
            // The expression and the frame are both the agent's: a refusal is bad input.
            SessionError::Adapter { message, .. } => ToolError::invalid(
                format!(
                    "the adapter could not evaluate `{}`: {message}",
                    args.expression
                ),
                format!(
                    "check the expression (the program's own language and names); {}",
                    if args.frame_id.is_some() {
                        FRESH_IDS
                    } else {
                        "it was evaluated in the top frame of the stopped thread"
                    }
                ),
            ),
            other => other.into(),
        })?;
    let (result, cut) = cut_value(&body.result, value_chars(&ctx, args.max_chars));
    // A statement (`zz = 5` under debugpy) runs and has no value: said so, not
    // `zz = 5 = `.
    let mut text = if result.is_empty() && body.variables_reference == 0 {
        format!("ran `{}`: it has no value", args.expression)
    } else {
        format!("{} = {result}", args.expression)
    };
    if let Some(t) = body.type_.as_deref().filter(|t| !t.is_empty()) {
        let _ = write!(text, " ({t})");
    }
    if body.variables_reference > 0 {
        let _ = write!(
            text,
            " [+ variables_reference {}]",
            body.variables_reference
        );
    }
    let result = EvaluateResult {
        result,
        type_: body.type_,
        variables_reference: body.variables_reference,
        frame_id,
        memory_reference: body.memory_reference,
        truncated: (cut > 0).then_some(true),
        result_truncated_chars: (cut > 0).then_some(cut),
    };
    Ok(Typed::new(result, text))
}
