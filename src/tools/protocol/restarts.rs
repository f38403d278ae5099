//! Running a session's program again or ending part of it: `debug.restart` (the whole
//! program, with its breakpoints) and `debug.terminate_threads`.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::permission::{Adds, Effect};
use crate::Operation;
use crate::SessionError;

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::inspect::ids::AgentIds;
use crate::tools::protocol::execution::settle;

/// Ends part of the program: destructive, but nothing outside it.
const ENDS_THREADS: ToolAnnotations = ToolAnnotations {
    read_only: false,
    destructive: true,
    open_world: false,
    idempotent: true,
};

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.restart",
            concat!(
                "Restart the program in this session with its breakpoints: by the \
                 adapter's own restart (lldb-dap), else by launching again (debugpy, dlv); \
                 a source launched built is built again first; an attached session that \
                 cannot restart answers 501.",
                waits!(short)
            ),
            ToolAnnotations::START,
            restart,
        )
        .effect(Effect::Start)
        .adds(Adds::Restart)
        .asks(Operation::Restart),
        tool(
            "debug.terminate_threads",
            "End some threads (`thread_ids` from debug.threads) while the program goes on.",
            ENDS_THREADS,
            terminate_threads,
        )
        .effect(Effect::Control)
        .adds(Adds::Ending)
        .asks(Operation::Query),
    ]
}

/// Arguments of `debug.restart`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RestartArgs {
    session_id: String,
    /// Seconds to wait for the first stop (default {wait}, at most {max_wait}).
    timeout: Option<f64>,
}

/// Arguments of `debug.terminate_threads`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TerminateThreadsArgs {
    session_id: String,
    /// The threads to end.
    thread_ids: Vec<i64>,
}

async fn restart(ctx: Arc<Context>, args: RestartArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    // Its program is run again: under a root, only while it still resolves inside.
    crate::tools::start::rooted_launch::restart_inside(&ctx, &session).await?;
    // The source may have been edited: a source launched built is built again, and
    // breakpoints set by statement follow it.
    let rebuilt = crate::tools::start::source_launch::rebuild(&ctx, &session).await?;
    let rebound = crate::tools::breakpoints::statement_marks::rebind(&ctx, &session).await?;
    let ticket = session.restart().await.map_err(|err| match err {
        SessionError::Unsupported { .. } => ToolError::new(
            501,
            err.to_string(),
            "this session was attached and its adapter cannot restart the process: \
             call debug.disconnect, then debug.attach again",
        ),
        other => other.into(),
    })?;
    let mut reply = settle(&ctx, &session, ticket, args.timeout).await?;
    if !rebound.is_empty() {
        reply.text = format!("{}\n{}", rebound.join("\n"), reply.text);
        reply.structured["rebound"] = serde_json::json!(rebound);
    }
    if let Some((source, said)) = rebuilt {
        reply.text = format!("{said}\n{}", reply.text);
        reply.structured["rebuilt"] = serde_json::json!(source);
    }
    Ok(reply)
}

async fn terminate_threads(ctx: Arc<Context>, args: TerminateThreadsArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    if args.thread_ids.is_empty() {
        return Err(ToolError::invalid(
            "no thread_ids given",
            "pass the ids of the threads to end, from debug.threads",
        ));
    }
    session
        .terminate_threads(args.thread_ids.clone())
        .await
        .ids(&[("thread_id", args.thread_ids.first().copied())])?;
    Ok(Reply::new(
        json!({ "terminated_threads": args.thread_ids }),
        format!("asked the adapter to end threads {:?}", args.thread_ids),
    ))
}
