//! `debug.calls`: change which functions a session records the calls of (as
//! `debug.launch`'s `calls` set them at the start). Each call of a traced function
//! becomes a `debug.trace` row with its arguments, and its return another with the
//! return value, while the program runs on.

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::permission::Effect;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::ToolAnnotations;
use crate::tools::output::call_names;
use crate::Operation;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![tool(
        "debug.calls",
        "Change which functions' calls are recorded, with arguments and return values, \
         without stopping (read them with debug.trace): `add` and `remove` patterns \
         (`name`, `module.name`, `file:function`, `*` globs). Returns the patterns traced \
         now.",
        ToolAnnotations::SETTING,
        calls,
    )
    .effect(Effect::Control)
    .asks(Operation::SetBreakpoints)]
}

/// Arguments of `debug.calls`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CallsArgs {
    session_id: String,
    /// Patterns whose calls to record from now on.
    #[serde(default)]
    add: Vec<String>,
    /// Patterns (as given before) to record no more.
    #[serde(default)]
    remove: Vec<String>,
}

async fn calls(ctx: Arc<Context>, args: CallsArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let program = session.snapshot().await?.program;
    let folder = program.as_deref().map(std::path::Path::new).map(|p| {
        if p.is_dir() {
            p
        } else {
            p.parent().unwrap_or(p)
        }
    });
    let add = call_names::expand(args.add, folder, &ctx.paths)?;
    let remove = call_names::expand(args.remove, folder, &ctx.paths)?;
    let (traced, verdicts) = session.set_calls(add, remove).await?;
    let mut text = if traced.is_empty() {
        "no calls are traced now".to_string()
    } else {
        format!(
            "tracing the calls of {}; read them with {}",
            traced.join(", "),
            ctx.tool("debug.trace")
        )
    };
    for bp in verdicts.iter().filter(|bp| !bp.verified) {
        if let Some(message) = &bp.message {
            let _ = write!(text, "\nthe adapter could not place one: {message}");
        }
    }
    let structured = json!({ "calls": traced, "breakpoints": verdicts });
    Ok(Reply::new(structured, text))
}
