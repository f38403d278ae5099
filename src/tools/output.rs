//! `debug.output`: what the program printed, read by cursor, a bounded slice at a time.

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::context::Context;
use super::def::{tool, Outcome, Reply, ToolDef};
use super::spec::ToolAnnotations;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![tool(
        "debug.output",
        "What the program printed (stdout, stderr and debugger console), from cursor `since` \
         (0: the start). At most 16 KiB per call: when `truncated` is true, call again with \
         `since` set to the returned `next`. Works in every state, also after the program \
         ended.",
        ToolAnnotations::READ_ONLY,
        output,
    )]
}

/// Arguments of `debug.output`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OutputArgs {
    /// The session.
    session_id: String,
    /// Cursor to read from: 0 for the start, else a `next` from an earlier call.
    #[serde(default)]
    since: u64,
    /// Bytes to read at most (default and maximum 16 KiB).
    max_bytes: Option<usize>,
}

async fn output(ctx: Arc<Context>, args: OutputArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let limit = ctx.bounds.max_output_bytes;
    let max_bytes = args.max_bytes.unwrap_or(limit).clamp(1, limit);
    let slice = session.output(args.since, max_bytes).await?;
    let text_out = slice.text();
    let truncated = slice.more;
    let mut text = text_out.clone();
    if slice.missed_bytes > 0 {
        text.insert_str(
            0,
            &format!(
                "[{} earlier bytes were dropped from the session's buffer]\n",
                slice.missed_bytes
            ),
        );
    }
    if truncated {
        let _ = write!(
            text,
            "\n[truncated: more output waits; call debug.output with since={}]",
            slice.next
        );
    } else if text_out.is_empty() {
        text.push_str("(no new output)");
    }
    Ok(Reply::new(
        json!({
            "output": text_out,
            "next": slice.next,
            "truncated": truncated,
            "missed_bytes": slice.missed_bytes,
        }),
        text,
    ))
}
