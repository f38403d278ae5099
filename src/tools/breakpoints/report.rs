//! Breakpoints said, not silent: a launch names each breakpoint the adapter did not
//! verify (or whose file does not exist), and the end of a run names each one that was
//! never hit, so that a run to completion past an unhit breakpoint does not read like
//! the answer the agent was waiting for.

use std::path::Path;

use serde_json::{json, Value};

use crate::tracepoint_expressions as collected;
use crate::SessionSnapshot;

/// The breakpoints of `snapshot` the adapter has not verified (its message says why),
/// or whose file does not exist: `[{file, line, message}]` (`[{function, message}]`
/// for a function breakpoint), and a line of text each.
pub(crate) fn unverified(snapshot: &SessionSnapshot) -> (Vec<Value>, String) {
    let mut list = Vec::new();
    let mut text = String::new();
    for (file, records) in snapshot.breakpoints.sources() {
        for record in records {
            let line = record.requested.line;
            let message = record.actual.as_ref().and_then(|a| a.message.as_deref());
            // A remote target's file (`remote:`) is not this machine's to look for.
            let why = if !file.exists() && !crate::path_map::is_remote(file) {
                Some("no such file".to_string())
            } else {
                match &record.actual {
                    Some(actual) if actual.verified => None,
                    Some(_) => Some(match message {
                        Some(message) => in_words(message),
                        None => unsaid(snapshot.adapter.as_deref(), file),
                    }),
                    None => Some("the adapter has not answered for it".into()),
                }
            };
            if let Some(why) = why {
                text.push_str(&format!(
                    "breakpoint {}:{line} is not verified: {why}\n",
                    file.display()
                ));
                let mut entry = json!({ "file": file, "line": line, "message": why });
                if message.is_some_and(is_pending) {
                    entry["pending"] = json!(true);
                }
                list.push(entry);
            }
        }
    }
    for record in snapshot.breakpoints.functions() {
        let name = &record.requested.name;
        let why = match &record.actual {
            Some(actual) if actual.verified => continue,
            Some(actual) => actual
                .message
                .as_deref()
                .map_or_else(|| "the adapter did not verify it".into(), in_words),
            None => "the adapter has not answered for it".into(),
        };
        text.push_str(&format!(
            "function breakpoint {name} is not verified: {why}\n"
        ));
        list.push(json!({ "function": name, "message": why }));
    }
    (list, text)
}

/// js-debug's reason for a breakpoint it holds until the script it is in loads: a
/// translation key, not a sentence.
const JS_DEBUG_PROVISIONAL: &str = "breakpoint.provisionalBreakpoint";

/// An adapter's reason for not verifying a breakpoint, in words: its own text, or what
/// a key it sends instead means.
pub(crate) fn in_words(message: &str) -> String {
    match message {
        JS_DEBUG_PROVISIONAL => "pending: the script is not loaded yet (js-debug binds the \
                                 breakpoint when the program loads it)"
            .into(),
        other => other.to_string(),
    }
}

/// Whether an adapter's reason for not verifying a breakpoint says it is only held
/// until the code it is in loads (js-debug's provisional breakpoint), so that it may
/// yet bind: not a breakpoint that failed.
pub(crate) fn is_pending(message: &str) -> bool {
    message == JS_DEBUG_PROVISIONAL
}

/// Why a breakpoint the adapter never verified was never set, once the run is over:
/// one held until its script loaded never bound because the program never loaded
/// `file`; else the adapter's reason in words.
pub(crate) fn never_set_in_words(message: &str, file: &Path) -> String {
    if is_pending(message) {
        return format!(
            "the program never loaded {} (js-debug sets a breakpoint when the program \
             loads its script)",
            file.display()
        );
    }
    in_words(message)
}

/// Why a breakpoint in `file` is not verified when the adapter gives no reason: the
/// adapter does not debug such files (a `.py` breakpoint in a session attached with
/// lldb-dap), or else where to look.
pub(crate) fn unsaid(adapter: Option<&str>, file: &Path) -> String {
    let registry = crate::registry::AdapterRegistry::builtin();
    let ext = file
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match adapter.and_then(|name| registry.get(name)) {
        Some(def) if !ext.is_empty() && !def.serves_extension(&ext) => format!(
            "the adapter gave no reason, but {} does not debug .{ext} files: start the \
             session with the adapter for them (`adapter`)",
            def.name
        ),
        _ => "the adapter gave no reason: the line may hold no code, or the program may \
              not have loaded the file yet"
            .into(),
    }
}

/// The breakpoints of `snapshot` no stop has hit, as `file:line` (a function
/// breakpoint by its name).
pub(crate) fn never_hit(snapshot: &SessionSnapshot) -> Vec<String> {
    let sources = snapshot
        .breakpoints
        .sources()
        .iter()
        .flat_map(|(file, records)| {
            records
                .iter()
                // A logpoint only prints; a tracepoint's hits are its rows.
                .filter(|r| {
                    let message = r.requested.log_message.as_deref();
                    r.hits == 0 && message.is_none_or(|m| collected(m).is_some())
                })
                .map(move |r| format!("{}:{}", short(file), r.requested.line))
        });
    let functions = snapshot
        .breakpoints
        .functions()
        .iter()
        .filter(|r| r.hits == 0)
        .map(|r| format!("function {}", r.requested.name));
    sources.chain(functions).collect()
}

/// The end of a run in words, with the breakpoints it never hit: an exit code of 0
/// past one is "ran to completion; x.py:9 was never hit", not a success.
pub(crate) fn end_text(exit_code: Option<i64>, never_hit: &[String]) -> Option<String> {
    if never_hit.is_empty() {
        return None;
    }
    let list = never_hit.join(", ");
    let verb = if never_hit.len() == 1 { "was" } else { "were" };
    Some(match exit_code {
        Some(0) => format!("ran to completion; {list} {verb} never hit"),
        _ => format!("{list} {verb} never hit"),
    })
}

/// A file as the agent reads it in a list: its name, the path being in the JSON.
fn short(file: &Path) -> String {
    file.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unhit_breakpoint_on_a_clean_exit_does_not_read_as_success() {
        let one = vec!["/src/main.rs:9".to_string()];
        assert_eq!(
            end_text(Some(0), &one).unwrap(),
            "ran to completion; /src/main.rs:9 was never hit"
        );
        let two = vec!["a.py:1".to_string(), "function main".to_string()];
        assert_eq!(
            end_text(Some(3), &two).unwrap(),
            "a.py:1, function main were never hit"
        );
        assert_eq!(end_text(Some(0), &[]), None);
    }

    #[test]
    fn a_breakpoint_held_until_its_script_loads_is_said_in_words() {
        assert!(is_pending(JS_DEBUG_PROVISIONAL));
        assert!(!is_pending("no code at this line"));
        let at_start = in_words(JS_DEBUG_PROVISIONAL);
        assert!(at_start.starts_with("pending"), "{at_start}");
        let at_end = never_set_in_words(JS_DEBUG_PROVISIONAL, Path::new("/src/other.js"));
        assert!(
            at_end.starts_with("the program never loaded /src/other.js"),
            "{at_end}"
        );
        assert_eq!(never_set_in_words("no code", Path::new("a.js")), "no code");
    }

    #[test]
    fn a_breakpoint_the_adapter_gave_no_reason_for_still_has_one() {
        let wrong = unsaid(Some("lldb-dap"), Path::new("/src/ticker.py"));
        assert!(
            wrong.contains("lldb-dap does not debug .py files"),
            "{wrong}"
        );
        let served = unsaid(Some("debugpy"), Path::new("/src/ticker.py"));
        assert!(served.contains("may hold no code"), "{served}");
        assert!(unsaid(None, Path::new("x.c")).contains("no reason"));
    }
}
