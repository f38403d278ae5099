//! The program's output since the previous stop, in every stop and end result: the
//! newest part, bounded ([`Bounds::stop_output_bytes`](crate::tools::Bounds)), with the cursor
//! `debug.output` reads the rest from. An agent then calls `debug.output` only for more.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::{json, Value};

use crate::{SessionHandle, SessionId};

use crate::tools::catalogue::context::Context;

/// Most output read at once to find the tail (the session's buffer holds less).
const READ_CAP: usize = 16 * 1024 * 1024;

/// Where each session's output was last shown in a result.
#[derive(Debug, Default)]
pub(crate) struct OutputMarks(Mutex<HashMap<SessionId, u64>>);

impl OutputMarks {
    fn get(&self, id: SessionId) -> u64 {
        let marks = self.0.lock().unwrap_or_else(|e| e.into_inner());
        marks.get(&id).copied().unwrap_or(0)
    }

    fn set(&self, id: SessionId, next: u64, live: &[SessionId]) {
        let mut marks = self.0.lock().unwrap_or_else(|e| e.into_inner());
        marks.retain(|id, _| live.contains(id));
        marks.insert(id, next);
    }
}

/// What the program printed (stdout and stderr; not the debugger's console) since the
/// last result that showed its output: `{text, since, next, cut_bytes}` and its text,
/// or `None` when it printed nothing.
pub(crate) async fn since_last_result(
    ctx: &Context,
    session: &SessionHandle,
) -> Option<(Value, String)> {
    let since = ctx.output_marks.get(session.id());
    let slice = session.output(since, READ_CAP).await.ok()?;
    let live: Vec<SessionId> = ctx.runtime.sessions().iter().map(|s| s.id()).collect();
    ctx.output_marks.set(session.id(), slice.next, &live);
    let printed: String = slice
        .entries
        .iter()
        .filter(|e| e.category == "stdout" || e.category == "stderr")
        .map(|e| e.text.as_str())
        .collect();
    if printed.is_empty() {
        return None;
    }
    let (cut, tail) = newest(&printed, ctx.bounds.stop_output_bytes);
    let mut text = String::from("output since the last stop:\n");
    if cut > 0 {
        text.push_str(&format!(
            "[{cut} earlier bytes not shown: {} with since {since}]\n",
            ctx.tool("debug.output")
        ));
    }
    text.push_str(tail);
    if !tail.ends_with('\n') {
        text.push('\n');
    }
    let json = json!({
        "text": tail,
        "cut_bytes": cut,
        "since": since,
        "next": slice.next,
    });
    Some((json, text))
}

/// The newest at most `max` bytes of `text`, from a character boundary, and how many
/// bytes came before them.
fn newest(text: &str, max: usize) -> (usize, &str) {
    if text.len() <= max {
        return (0, text);
    }
    let mut start = text.len() - max;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    // Not from inside a token: a secret's second half is no more recognisable.
    let start = crate::redact::start_after_token(text, start);
    (start, &text[start..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_bytes_are_kept_from_a_whole_character() {
        assert_eq!(newest("abc", 5), (0, "abc"));
        assert_eq!(newest("abcdef", 2), (4, "ef"));
        // "é" is two bytes: a cut inside it moves past it.
        assert_eq!(newest("aé", 1), (3, ""));
        assert_eq!(newest("aéb", 2), (3, "b"));
    }
}
