//! A stop as a person at the shell reads it. The tools' text is for agents: it names
//! the `frame` id and each value's `variables_reference` to read further, and a
//! container shows as its type or its size (`int[4]`, `size=4`, `(2) [{...}, {...}]`).
//! Here the ids are left out (`--json` keeps them), and a container's value is
//! followed by a bounded preview of its first elements (`[1, 2, 3, 4]`), read with
//! `debug.variables`.

use serde_json::{json, Value};

use super::driver::Driver;

/// Elements (or members) a container's preview shows: 8.
pub const PREVIEW_ELEMENTS: usize = 8;

/// Characters a preview takes at most: 160 (cut with `…`).
pub const PREVIEW_CHARS: usize = 160;

/// Locals whose containers get a preview, at one stop: 20 (each costs a request).
const PREVIEWED_LOCALS: usize = 20;

/// How long a preview waits for the debugger: 2 s. One that takes longer is left out,
/// and so are the rest of the run's: some formatters spin on a value (lldb with the
/// Rust toolchain's, on a `Vec` of enums holding a `String`), and a preview is not
/// worth the wait.
pub const PREVIEW_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Set once a preview took longer than [`PREVIEW_WAIT`]: no more previews this run.
static PREVIEWS_OFF: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

impl Driver {
    /// The stop's text for a person: `text` (the tools' text from the line that says
    /// it stopped) without the frame id, with `stop`'s locals rendered again, each
    /// container with a preview and no `variables_reference`.
    pub(super) async fn human_stop(&self, id: &str, text: &str, stop: &Value) -> String {
        let mut out = String::new();
        let mut lines = text.lines();
        for line in lines.by_ref() {
            if line.starts_with("locals (") {
                break;
            }
            out.push_str(&without_ids(line));
            out.push('\n');
        }
        let Some(locals) = stop["locals"].as_array() else {
            return out;
        };
        out.push_str(&format!(
            "locals ({} of {}):\n",
            locals.len(),
            stop["locals_total"]
        ));
        for (n, local) in locals.iter().enumerate() {
            let name = local["name"].as_str().unwrap_or("?");
            let value = local["value"].as_str().unwrap_or("");
            let kind = local["type"].as_str().unwrap_or("");
            let reference = local["variables_reference"].as_i64().unwrap_or(0);
            let mut shown = value.to_string();
            let wanted = reference > 0 && n < PREVIEWED_LOCALS && is_opaque(value, kind);
            if wanted && !PREVIEWS_OFF.load(std::sync::atomic::Ordering::Relaxed) {
                let read = tokio::time::timeout(PREVIEW_WAIT, self.preview(id, reference));
                match read.await {
                    Ok(Some(preview)) => shown = with_preview(value, kind, preview),
                    Ok(None) => {}
                    Err(_) => {
                        PREVIEWS_OFF.store(true, std::sync::atomic::Ordering::Relaxed);
                        eprintln!(
                            "dapvisor: the debugger took longer than {}s to list {name}'s \
                             elements; containers are shown without them from here on",
                            PREVIEW_WAIT.as_secs()
                        );
                    }
                }
            }
            match kind.is_empty() || kind == shown {
                true => out.push_str(&format!("  {name} = {shown}\n")),
                false => out.push_str(&format!("  {name} = {shown} ({kind})\n")),
            }
        }
        let total = stop["locals_total"].as_u64().unwrap_or(0) as usize;
        if total > locals.len() {
            out.push_str(&format!("  … {} more\n", total - locals.len()));
        }
        out
    }

    /// The first elements of the value at `reference`: `[1, 2, 3]` for indexed ones,
    /// `{x: 1, y: 2}` for named ones, `…` where more are left out.
    async fn preview(&self, id: &str, reference: i64) -> Option<String> {
        let read = self
            .tools
            .call(
                "debug.variables",
                json!({ "session_id": id, "variables_reference": reference,
                        "count": PREVIEW_ELEMENTS, "max_chars": PREVIEW_CHARS }),
            )
            .await;
        let children = read.structured["variables"].as_array()?;
        let more = read.structured["truncated"] == json!(true);
        Some(preview_of(children, more))
    }
}

/// `value` with its `preview`: in its place where `value` is only the type or elides
/// the elements (js-debug's `(2) [{…}, {…}]`), else after it (`size=3 [1, 2, 3]`).
fn with_preview(value: &str, kind: &str, preview: String) -> String {
    if value == kind || value.contains("{…}") || value.contains("{...}") {
        return preview;
    }
    format!("{value} {preview}")
}

/// `children` as one bounded line.
fn preview_of(children: &[Value], more: bool) -> String {
    let is_index = |c: &Value| {
        let name = c["name"].as_str().unwrap_or("");
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        !bare.is_empty() && bare.chars().all(|ch| ch.is_ascii_digit())
    };
    // An array's elements, without what a runtime lists beside them (js-debug's
    // `length` and `[[Prototype]]`); a record's members, without the runtime's own.
    let indexed = children.iter().any(is_index);
    let items: Vec<String> = children
        .iter()
        .filter(|c| match indexed {
            true => is_index(c),
            false => !c["name"].as_str().unwrap_or("").starts_with("[["),
        })
        .map(|c| {
            let value = c["value"].as_str().unwrap_or("?");
            match indexed {
                true => value.to_string(),
                false => format!("{}: {value}", c["name"].as_str().unwrap_or("?")),
            }
        })
        .collect();
    let mut inner = items.join(", ");
    if more {
        inner.push_str(", …");
    }
    if inner.chars().count() > PREVIEW_CHARS {
        inner = inner.chars().take(PREVIEW_CHARS).collect::<String>() + "…";
    }
    match indexed {
        true => format!("[{inner}]"),
        false => format!("{{{inner}}}"),
    }
}

/// Whether `value` says nothing of what it holds: its type's name (`int[4]`,
/// `types::Point`), a size (`size=4`), or elements elided (`{...}`, `{…}`).
fn is_opaque(value: &str, kind: &str) -> bool {
    value == kind || value.starts_with("size=") || value.contains("{...}") || value.contains("{…}")
}

/// A line of the tools' text without what only an agent reads: `, frame N` in the
/// stop's line, `[+ variables_reference N]` after a value.
fn without_ids(line: &str) -> String {
    let mut line = line.to_string();
    if let Some(at) = line.find(", frame ") {
        let end = line[at..].find(')').map_or(line.len(), |e| at + e);
        line.replace_range(at..end, "");
    }
    if let Some(at) = line.find(" [+ variables_reference ") {
        let end = line[at..].find(']').map_or(line.len(), |e| at + e + 1);
        line.replace_range(at..end, "");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_left_out_of_the_human_text() {
        assert_eq!(
            without_ids("stopped (breakpoint): in main at a.c:6 (thread 7, frame 524288)"),
            "stopped (breakpoint): in main at a.c:6 (thread 7)"
        );
        assert_eq!(
            without_ids("  p = Point (Point) [+ variables_reference 9]"),
            "  p = Point (Point)"
        );
    }

    #[test]
    fn previews_list_elements_or_members_bounded() {
        let indexed = [
            json!({ "name": "[0]", "value": "1" }),
            json!({ "name": "[1]", "value": "2" }),
        ];
        assert_eq!(preview_of(&indexed, false), "[1, 2]");
        assert_eq!(preview_of(&indexed, true), "[1, 2, …]");
        let js = [
            json!({ "name": "0", "value": "{id: 1}" }),
            json!({ "name": "length", "value": "1" }),
            json!({ "name": "[[Prototype]]", "value": "Array(0)" }),
        ];
        assert_eq!(preview_of(&js, false), "[{id: 1}]");
        assert_eq!(
            with_preview("(1) [{…}]", "Array", "[{id: 1}]".into()),
            "[{id: 1}]"
        );
        assert_eq!(
            with_preview("size=1", "Vec<u8>", "[1]".into()),
            "size=1 [1]"
        );
        let named = [
            json!({ "name": "x", "value": "1" }),
            json!({ "name": "y", "value": "2" }),
        ];
        assert_eq!(preview_of(&named, false), "{x: 1, y: 2}");
        let long = vec![json!({ "name": "[0]", "value": "x".repeat(500) })];
        assert!(preview_of(&long, false).chars().count() <= PREVIEW_CHARS + 3);
    }

    #[test]
    fn only_values_that_say_nothing_of_their_contents_are_previewed() {
        assert!(is_opaque("int[4]", "int[4]"));
        assert!(is_opaque("size=3", "alloc::vec::Vec<u32>"));
        assert!(is_opaque("(2) [{...}, {...}]", "Array"));
        assert!(!is_opaque("[1, 2]", "list"));
        assert!(!is_opaque("10", "int"));
    }
}
