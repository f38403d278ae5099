//! The resources: `debugger://sessions` (every session, as `debug.sessions` lists them)
//! and `debugger://sessions/{id}` (one session: state, what it allows as operations
//! and as `allowed_tools`, breakpoints, last stop, capabilities, threads (at most the
//! catalogue's `max_threads`, with the total), exit code).

use serde_json::{json, Value};

use crate::tools::ToolError;
use crate::tools::{Bounds, SessionEntry};
use crate::{Owner, Runtime, SessionHandle, SessionId};

/// The URI of the session list.
pub const SESSIONS_URI: &str = "debugger://sessions";

/// The URI template of one session.
pub const SESSION_URI_TEMPLATE: &str = "debugger://sessions/{id}";

/// The URI of one session.
pub fn session_uri(id: SessionId) -> String {
    format!("{SESSIONS_URI}/{id}")
}

/// The content of `uri`, as JSON, within the catalogue's `bounds` (threads), as
/// `caller` sees it (whether it may drive each session; see
/// [`ToolCatalogue::for_client`](crate::tools::ToolCatalogue::for_client)).
pub async fn read(
    runtime: &Runtime,
    uri: &str,
    bounds: &Bounds,
    caller: Option<&Owner>,
) -> Result<Value, ToolError> {
    if uri == SESSIONS_URI {
        return Ok(json!({ "sessions": list(runtime, caller).await }));
    }
    let Some(id) = uri
        .strip_prefix(SESSIONS_URI)
        .and_then(|r| r.strip_prefix('/'))
    else {
        return Err(ToolError::new(
            404,
            format!("no resource `{uri}`"),
            format!("the resources are {SESSIONS_URI} and {SESSION_URI_TEMPLATE}"),
        ));
    };
    let parsed = id.parse::<SessionId>().map_err(|e| {
        ToolError::new(
            404,
            format!("no resource `{uri}`: {e}"),
            format!("read {SESSIONS_URI} for the live sessions"),
        )
    })?;
    // A reaped or failed session says how it ended, as tools do.
    let session = runtime.find(parsed).map_err(|err| {
        let mut err = ToolError::from(err);
        err.hint = format!("{}; read {SESSIONS_URI} for the live sessions", err.hint);
        err
    })?;
    detail(&session, bounds.max_threads, caller).await
}

/// Every live session, as `debug.sessions` lists them to `caller`.
pub async fn list(runtime: &Runtime, caller: Option<&Owner>) -> Vec<Value> {
    let mut out = Vec::new();
    for session in runtime.sessions() {
        if let Ok(snapshot) = session.snapshot().await {
            let entry = SessionEntry::of(&session, &snapshot).for_caller(&session, caller);
            out.push(json!(entry));
        }
    }
    out
}

async fn detail(
    session: &SessionHandle,
    max_threads: usize,
    caller: Option<&Owner>,
) -> Result<Value, ToolError> {
    let snapshot = session.snapshot().await?;
    let mut value = serde_json::to_value(&snapshot).map_err(|e| {
        ToolError::new(
            500,
            format!("the session's state is not JSON: {e}"),
            "try again",
        )
    })?;
    // The listing's fields (id, pid, idle time) and the snapshot's whole state, with
    // what it allows as the tools to call.
    let summary = json!(SessionEntry::of(session, &snapshot).for_caller(session, caller));
    if let (Some(object), Value::Object(summary)) = (value.as_object_mut(), summary) {
        object.extend(summary);
        object.insert(
            "allowed_tools".into(),
            json!(crate::tools::allowed_tools(snapshot.state)),
        );
        bound_threads(object, max_threads);
    }
    Ok(value)
}

/// Keep the first `max` threads of a session's detail (a Go program can have
/// thousands), saying how many there were and how to read the rest.
fn bound_threads(object: &mut serde_json::Map<String, Value>, max: usize) {
    let Some(Value::Array(threads)) = object.get_mut("threads") else {
        return;
    };
    let total = threads.len();
    if total <= max {
        return;
    }
    threads.truncate(max);
    object.insert("threads_total".into(), json!(total));
    object.insert("threads_truncated".into(), json!(true));
    object.insert(
        "threads_hint".into(),
        json!(format!(
            "{max} of {total} threads shown; call {} with an offset for the rest",
            crate::tools::mcp_name("debug.threads")
        )),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_thread_list_is_cut_and_says_so() {
        let threads: Vec<Value> = (1..=5).map(|id| json!({ "id": id })).collect();
        let mut object = json!({ "threads": threads }).as_object().unwrap().clone();
        bound_threads(&mut object, 3);
        assert_eq!(object["threads"].as_array().unwrap().len(), 3);
        assert_eq!(object["threads"][2]["id"], 3);
        assert_eq!(object["threads_total"], 5);
        assert_eq!(object["threads_truncated"], true);
        assert!(object["threads_hint"].as_str().unwrap().contains("offset"));
    }

    #[test]
    fn a_short_thread_list_is_left_whole() {
        let mut object = json!({ "threads": [{ "id": 1 }] })
            .as_object()
            .unwrap()
            .clone();
        bound_threads(&mut object, 3);
        assert_eq!(object["threads"].as_array().unwrap().len(), 1);
        assert!(!object.contains_key("threads_truncated"));
    }
}
