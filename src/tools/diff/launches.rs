//! The two launches of a `debug.diff`, as `debug.launch` calls: each side's launch
//! with the diff's `calls` and `collect` added, the same to both. The catalogue passes
//! each through the permission gate as the `debug.launch` call it is ([`parts`]), and
//! the diff starts exactly those.

use serde_json::{json, Map, Value};

use crate::tools::catalogue::spec::ToolError;

/// The fields of a side's launch that the diff sets for both sides alike.
const SET_BY_THE_DIFF: &[&str] = &["calls", "core"];

/// Each side's `debug.launch` arguments (`a`, then `b`), or why the diff's arguments
/// make none. A paging call (`diff_id`) launches nothing.
pub(crate) fn launch_arguments(arguments: &Value) -> Result<Vec<(&'static str, Value)>, ToolError> {
    if arguments.get("diff_id").is_some_and(|v| !v.is_null()) {
        return Ok(Vec::new());
    }
    let calls = arguments.get("calls").cloned().unwrap_or(json!([]));
    let collect = match arguments.get("collect") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(points)) => points.iter().map(tracepoint).collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(ToolError::invalid(
                format!("`collect` must be a list, not {other}"),
                "pass [{\"file\": F, \"line\": N, \"expressions\": [\"x\"]}, ...]",
            ))
        }
    };
    let mut sides = Vec::new();
    for side in ["a", "b"] {
        let Some(Value::Object(launch)) = arguments.get(side) else {
            return Err(ToolError::invalid(
                format!("debug.diff needs `{side}`: the launch of one run"),
                "pass `a` and `b`, each what debug.launch takes (a `program` with its \
                 `args`, or a `test`), or `diff_id` to read more of a diff made before",
            ));
        };
        let mut launch: Map<String, Value> = launch.clone();
        if let Some(field) = SET_BY_THE_DIFF.iter().find(|f| launch.contains_key(**f)) {
            return Err(ToolError::invalid(
                format!("`{side}` sets `{field}`, which a diff sets for both runs"),
                "pass `calls` (and `collect`) beside `a` and `b`, so that both runs record \
                 the same; a core dump cannot run, so it has no diff",
            ));
        }
        launch.insert("calls".into(), calls.clone());
        if !collect.is_empty() {
            let breakpoints = launch
                .entry("breakpoints")
                .or_insert_with(|| Value::Array(Vec::new()));
            match breakpoints.as_array_mut() {
                Some(list) => list.extend(collect.iter().cloned()),
                None => {
                    return Err(ToolError::invalid(
                        format!("`{side}.breakpoints` must be a list"),
                        "pass breakpoints as debug.launch takes them",
                    ))
                }
            }
        }
        sides.push((side, Value::Object(launch)));
    }
    Ok(sides)
}

/// A `collect` entry as the tracepoint breakpoint a launch takes.
fn tracepoint(point: &Value) -> Result<Value, ToolError> {
    let bad = || {
        ToolError::invalid(
            format!(
                "a `collect` entry must be {{\"file\", \"line\", \"expressions\"}}, not {point}"
            ),
            "pass each tracepoint as {\"file\": F, \"line\": N, \"expressions\": [\"x\", ...]}",
        )
    };
    let object = point.as_object().ok_or_else(bad)?;
    if object
        .keys()
        .any(|k| !["file", "line", "expressions"].contains(&k.as_str()))
    {
        return Err(bad());
    }
    let (Some(file), Some(line), Some(expressions)) = (
        object.get("file"),
        object.get("line"),
        object.get("expressions"),
    ) else {
        return Err(bad());
    };
    Ok(json!({ "file": file, "line": line, "collect": expressions }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_gets_the_same_calls_and_tracepoints() {
        let args = json!({
            "a": { "program": "p.py", "args": ["1"] },
            "b": { "program": "p.py", "args": ["2"], "breakpoints": [{ "file": "p.py", "line": 3 }] },
            "calls": ["price"],
            "collect": [{ "file": "p.py", "line": 7, "expressions": ["total"] }],
        });
        let sides = launch_arguments(&args).unwrap();
        assert_eq!(sides.len(), 2);
        assert_eq!(sides[0].1["calls"], json!(["price"]));
        assert_eq!(
            sides[0].1["breakpoints"],
            json!([{ "file": "p.py", "line": 7, "collect": ["total"] }])
        );
        assert_eq!(sides[1].1["breakpoints"].as_array().unwrap().len(), 2);
        assert_eq!(sides[1].1["args"], json!(["2"]));
    }

    #[test]
    fn a_side_that_sets_its_own_calls_or_lacks_a_launch_is_refused() {
        let own = json!({ "a": { "program": "p", "calls": ["f"] }, "b": { "program": "p" } });
        let err = launch_arguments(&own).unwrap_err();
        assert!(err.error.contains("`a` sets `calls`"), "{err:?}");
        let missing = json!({ "a": { "program": "p" } });
        assert!(launch_arguments(&missing)
            .unwrap_err()
            .error
            .contains("`b`"));
        let odd = json!({ "a": {}, "b": {}, "collect": [{ "file": "p", "line": 1, "expr": [] }] });
        assert!(launch_arguments(&odd).is_err());
    }

    #[test]
    fn a_page_of_a_diff_made_before_launches_nothing() {
        assert!(launch_arguments(&json!({ "diff_id": "d1" }))
            .unwrap()
            .is_empty());
    }
}
