//! Watch expressions: a session's standing list (`debug.watch`, or `watch` on launch),
//! evaluated in the top frame at every stop, each row saying whether the value changed
//! since the previous stop. A watch that fails says so in its row and does not fail the
//! stop. They run code in the program, so adding one passes the gate as evaluate does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::permission::{Adds, Effect};
use crate::tools::catalogue::profile::Stage;
use crate::{SessionHandle, SessionId};

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::def::{tool, Outcome, Reply, ToolDef};
use crate::tools::catalogue::spec::{ToolAnnotations, ToolError};

/// Watch expressions one session may hold: 20.
pub const MAX_WATCHES: usize = 20;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![tool(
        "debug.watch",
        "Add or remove watch expressions, which run at each stop: its result shows \
         their values and which changed.",
        ToolAnnotations::SETTING,
        watch,
    )
    .effect(Effect::Read)
    .adds(Adds::WatchExpression)
    .core(Stage::Read, &[])]
}

/// Arguments of `debug.watch`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct WatchArgs {
    session_id: String,
    /// Expressions to watch.
    #[serde(default)]
    add: Vec<String>,
    /// Expressions to stop watching.
    #[serde(default)]
    remove: Vec<String>,
}

/// Each session's watch list and the values seen at its last stop.
#[derive(Debug, Default)]
pub(crate) struct Watches(Mutex<HashMap<SessionId, WatchList>>);

#[derive(Debug, Default)]
struct WatchList {
    expressions: Vec<String>,
    last: HashMap<String, String>,
}

impl Watches {
    /// Add `expressions` to `id`'s list (each once); the list after, or why not.
    pub(crate) fn add(
        &self,
        id: SessionId,
        expressions: &[String],
        live: &[SessionId],
    ) -> Result<Vec<String>, ToolError> {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.retain(|id, _| live.contains(id));
        let list = all.entry(id).or_default();
        for expression in expressions {
            let expression = expression.trim();
            if expression.is_empty() || list.expressions.iter().any(|e| e == expression) {
                continue;
            }
            if list.expressions.len() >= MAX_WATCHES {
                return Err(ToolError::invalid(
                    format!("a session watches at most {MAX_WATCHES} expressions"),
                    "remove some with debug.watch `remove` first",
                )
                .with_kind("limit"));
            }
            list.expressions.push(expression.to_string());
        }
        Ok(list.expressions.clone())
    }

    fn remove(&self, id: SessionId, expressions: &[String]) -> Vec<String> {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let list = all.entry(id).or_default();
        list.expressions
            .retain(|e| !expressions.iter().any(|r| r.trim() == e));
        list.last
            .retain(|e, _| !expressions.iter().any(|r| r.trim() == e));
        list.expressions.clone()
    }

    fn list(&self, id: SessionId) -> Vec<String> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.get(&id)
            .map(|l| l.expressions.clone())
            .unwrap_or_default()
    }

    /// Remember `values` as the last seen; the previous ones.
    fn swap_last(&self, id: SessionId, values: HashMap<String, String>) -> HashMap<String, String> {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let list = all.entry(id).or_default();
        std::mem::replace(&mut list.last, values)
    }
}

async fn watch(ctx: Arc<Context>, args: WatchArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let id = session.id();
    ctx.watches.remove(id, &args.remove);
    let list = add(&ctx, &session, &args.add)?;
    let text = if list.is_empty() {
        "no watch expressions".to_string()
    } else {
        format!(
            "watching: {}; their values come with every stop",
            list.join(", ")
        )
    };
    Ok(Reply::new(json!({ "watches": list }), text))
}

/// Add `expressions` to `session`'s watch list.
pub(crate) fn add(
    ctx: &Context,
    session: &SessionHandle,
    expressions: &[String],
) -> Result<Vec<String>, ToolError> {
    for expression in expressions {
        if expression.chars().count() > ctx.bounds.max_expression_chars {
            return Err(ToolError::invalid(
                format!(
                    "a watch expression is longer than {} characters",
                    ctx.bounds.max_expression_chars
                ),
                "watch something shorter",
            ));
        }
    }
    let live: Vec<SessionId> = ctx.runtime.sessions().iter().map(|s| s.id()).collect();
    ctx.watches.add(session.id(), expressions, &live)
}

/// The watch rows at a stop in `frame_id`: `[{expression, value, changed, previous} |
/// {expression, error}]` and a line of text each; `None` without watches.
///
/// Each value is cut to the stop's value bound; rows are kept while they fit in `room`
/// bytes (as JSON and as text together), which is lowered by what they take, and those
/// left out are counted in a last row that says how to read them.
pub(crate) async fn at_stop(
    ctx: &Context,
    session: &SessionHandle,
    frame_id: i64,
    room: &mut usize,
) -> Option<(Value, String)> {
    let expressions = ctx.watches.list(session.id());
    if expressions.is_empty() {
        return None;
    }
    let mut now = HashMap::new();
    let mut rows = Vec::new();
    for expression in &expressions {
        match session
            .evaluate(expression, Some(frame_id), Some("watch"))
            .await
        {
            Ok(answer) => {
                let value = cut(&answer.result, ctx.bounds.stop_value_chars);
                now.insert(expression.clone(), value.clone());
                rows.push((expression, Ok(value)));
            }
            Err(err) => rows.push((expression, Err(err.to_string()))),
        }
    }
    let before = ctx.watches.swap_last(session.id(), now);
    let mut json = Vec::new();
    let mut text = String::from("watches:\n");
    let count = rows.len();
    for (shown, (expression, outcome)) in rows.into_iter().enumerate() {
        let (row, line) = match outcome {
            Ok(value) => {
                let previous = before.get(expression);
                let changed = previous.is_some_and(|p| *p != value);
                let line = match previous.filter(|_| changed) {
                    Some(p) => format!("  {expression} = {value} (was {p})\n"),
                    None => format!("  {expression} = {value}\n"),
                };
                let row = json!({ "expression": expression, "value": value,
                                  "changed": changed, "previous": previous });
                (row, line)
            }
            Err(error) => {
                let line = format!("  {expression}: error: {error}\n");
                (json!({ "expression": expression, "error": error }), line)
            }
        };
        // As JSON (a comma between rows) and as a text line.
        let bytes = row.to_string().len() + 1 + line.len();
        if bytes > *room {
            let left = count - shown;
            text.push_str(&format!(
                "  … {left} more not shown, for the result's size: {} them\n",
                ctx.tool("debug.evaluate")
            ));
            json.push(json!({ "not_shown": left }));
            break;
        }
        *room -= bytes;
        text.push_str(&line);
        json.push(row);
    }
    Some((Value::Array(json), text))
}

/// `value` cut to `max` characters, marked.
fn cut(value: &str, max: usize) -> String {
    match value.char_indices().nth(max) {
        Some((at, _)) => format!("{}… (cut)", &value[..at]),
        None => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_holds_each_expression_once_up_to_its_limit_and_forgets_removed_values() {
        let watches = Watches::default();
        let id: SessionId = "s1".parse().unwrap();
        let live = [id];
        let list = watches
            .add(id, &["total".into(), " total ".into(), "n".into()], &live)
            .unwrap();
        assert_eq!(list, ["total", "n"]);
        watches.swap_last(id, HashMap::from([("n".to_string(), "1".to_string())]));
        assert_eq!(watches.remove(id, &["n".into()]), ["total"]);
        assert!(
            watches.swap_last(id, HashMap::new()).is_empty(),
            "n's value went with it"
        );
        let many: Vec<String> = (0..MAX_WATCHES).map(|i| format!("x{i}")).collect();
        let err = watches.add(id, &many, &live).unwrap_err();
        assert_eq!(err.kind, "limit");
    }

    #[test]
    fn long_values_are_cut_and_marked() {
        assert_eq!(cut("abcdef", 3), "abc… (cut)");
        assert_eq!(cut("abc", 3), "abc");
    }
}
