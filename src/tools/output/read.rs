//! `debug.output`: what the program printed, read by cursor, a bounded slice at a time,
//! optionally only some output categories.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::permission::Effect;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{typed_tool, ToolDef, Typed};
use crate::tools::catalogue::profile::Stage;
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};
use crate::tools::output::result::OutputResult;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![typed_tool(
        "debug.output",
        "What the program printed, from cursor `since` (0: the start), at most {max_output} a \
         call: when `truncated`, call again with `since` = `next`. Works in every state, also after the end.",
        ToolAnnotations::READ_ONLY,
        output,
    ).effect(Effect::Read).core(Stage::Read, &["max_bytes"])]
}

/// Arguments of `debug.output`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OutputArgs {
    session_id: String,
    /// Cursor: 0 for the start, or a `next` from an earlier call.
    #[serde(default)]
    since: u64,
    /// Bytes to read at most (default and maximum {max_output}).
    max_bytes: Option<usize>,
    /// Only these categories (`stdout`, `stderr`, `console`, ...); all by default.
    categories: Option<Vec<String>>,
}

async fn output(ctx: Arc<Context>, args: OutputArgs) -> Result<Typed<OutputResult>, ToolError> {
    let session = ctx.session(&args.session_id)?;
    if args.categories.as_ref().is_some_and(|c| c.is_empty()) {
        return Err(ToolError::invalid(
            "`categories` is empty, so nothing would be kept",
            "leave `categories` out for all output, or name some, such as [\"stdout\", \"stderr\"]",
        ));
    }
    let limit = ctx.bounds.max_output_bytes;
    let max_bytes = args.max_bytes.unwrap_or(limit).clamp(1, limit);
    let mut slice = session.output(args.since, max_bytes).await?;
    if slice.more {
        hold_back_split_token(&mut slice);
    }
    let wanted = |category: &str| {
        args.categories
            .as_ref()
            .is_none_or(|list| list.iter().any(|c| c == category))
    };
    let mut present: BTreeMap<&str, usize> = BTreeMap::new();
    let mut left_out = 0usize;
    let mut text_out = String::new();
    for entry in &slice.entries {
        *present.entry(entry.category.as_str()).or_default() += entry.text.len();
        if wanted(&entry.category) {
            text_out.push_str(&entry.text);
        } else {
            left_out += entry.text.len();
        }
    }
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
    if left_out > 0 {
        let skipped: Vec<String> = present
            .iter()
            .filter(|(c, _)| !wanted(c))
            .map(|(c, n)| format!("{n} bytes of {c}"))
            .collect();
        let _ = write!(
            text,
            "{}[left out by `categories`: {}]",
            if text_out.is_empty() || text_out.ends_with('\n') {
                ""
            } else {
                "\n"
            },
            skipped.join(", ")
        );
    }
    if truncated {
        let _ = write!(
            text,
            "\n[truncated: more output waits; call {} with since={}]",
            ctx.tool("debug.output"),
            slice.next
        );
    } else if text_out.is_empty() && left_out == 0 {
        text.push_str("(no new output)");
    }
    let categories = present
        .into_iter()
        .map(|(category, bytes)| (category.to_string(), bytes))
        .collect();
    let result = OutputResult {
        output: text_out,
        next: slice.next,
        truncated,
        missed_bytes: slice.missed_bytes,
        categories,
        left_out_bytes: left_out,
    };
    Ok(Typed::new(result, text))
}

/// A read cut short by its bound ends before a token it would split (a key printed
/// across the cut), which the next read then starts with, whole: a secret in two
/// pieces is recognised in neither.
fn hold_back_split_token(slice: &mut crate::OutputSlice) {
    let Some(last) = slice.entries.last_mut() else {
        return;
    };
    let keep = crate::redact::end_before_token(&last.text, last.text.len());
    let held = (last.text.len() - keep) as u64;
    if held > 0 {
        last.text.truncate(keep);
        slice.next -= held;
    }
}
