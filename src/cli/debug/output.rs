//! The program's output as `dapvisor debug` prints it: read from the session's output
//! cursor at each stop and at the end, with the bytes the session dropped said where
//! they were lost, once what the program printed before the stop has come in.
//!
//! An adapter may send a program's output on another path than its stop: debugpy's
//! `output` events come from its launcher, which reads the program's pipes, while the
//! stop comes from the debugger inside the program, so output printed before a
//! breakpoint can reach the session after the breakpoint's `stopped` event. So before
//! reading, the driver waits for the output to settle: until no output has come for
//! [`OUTPUT_QUIET`], at most [`OUTPUT_SETTLE_MAX`] (a program with other threads may
//! print on while one is stopped). Output later still is printed at the next stop or
//! the end; none is lost or printed twice either way.

use std::time::Duration;

use serde_json::json;

use crate::tools::ToolCatalogue;
use crate::SessionId;
use crate::{EventKind, Received};

/// After a stop (or the end), the program's output has settled once none has come for
/// this long: 50 ms.
pub const OUTPUT_QUIET: Duration = Duration::from_millis(50);

/// The longest `dapvisor debug` waits for a program's output to settle before it
/// prints a stop (or the end): 1 s.
pub const OUTPUT_SETTLE_MAX: Duration = Duration::from_secs(1);

/// Program output read since the last read: the text, and how many bytes before it
/// the session had already dropped (it keeps only the newest output).
#[derive(Debug, Default)]
pub(super) struct NewOutput {
    /// The text, with a notice inline wherever bytes were lost after its start.
    pub(super) text: String,
    /// Bytes lost before `text` began.
    pub(super) dropped_before: u64,
    /// Bytes lost in all (before and within `text`).
    pub(super) dropped_bytes: u64,
}

impl NewOutput {
    /// Print it for a person: the dropped-bytes notice first, then the text, ending
    /// with a newline when there was any.
    pub(super) fn write_text(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        if self.dropped_before > 0 {
            writeln!(out, "{}", dropped_notice(self.dropped_before))?;
        }
        write!(out, "{}", self.text)?;
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            writeln!(out)?;
        }
        Ok(())
    }
}

/// The line that stands where output was lost.
pub(super) fn dropped_notice(bytes: u64) -> String {
    format!(
        "[{bytes} earlier bytes of output dropped: the session keeps only the newest \
         output; stop more often (--break) to see it all]"
    )
}

/// Wait until session `id`'s output has settled: no output event for
/// [`OUTPUT_QUIET`], or [`OUTPUT_SETTLE_MAX`] in all.
pub(super) async fn settle(tools: &ToolCatalogue, id: &str) {
    let Some(session) = id
        .parse::<SessionId>()
        .ok()
        .and_then(|id| tools.runtime().session(id))
    else {
        return;
    };
    let mut events = session.subscribe();
    let settling = async {
        loop {
            match tokio::time::timeout(OUTPUT_QUIET, events.recv()).await {
                Err(_) | Ok(None) => return, // quiet, or the session is gone
                Ok(Some(Received::Event(event))) if !is_output(&event.kind) => {}
                // Output (or output dropped for this slow reader): not settled yet.
                Ok(Some(_)) => {}
            }
        }
    };
    let _ = tokio::time::timeout(OUTPUT_SETTLE_MAX, settling).await;
}

fn is_output(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Output { .. })
}

/// The output categories `dapvisor debug` prints without `--verbose`: what the program
/// printed, and the notices an adapter marks important. The adapter's `console`
/// (lldb's echoed commands, dlv's `Type 'dlv help'`, a launcher's lines) is its own
/// chatter, not the program's.
pub const PROGRAM_OUTPUT_CATEGORIES: [&str; 3] = ["stdout", "stderr", "important"];

/// What the program printed since `cursor` (with `everything`, the adapter's console
/// too), read page by page, with the bytes the session dropped before they could be
/// read; `cursor` moves past it.
pub(super) async fn read_since(
    tools: &ToolCatalogue,
    id: &str,
    cursor: &mut u64,
    everything: bool,
) -> NewOutput {
    let mut output = NewOutput::default();
    let mut since = *cursor;
    loop {
        let mut args = json!({ "session_id": id, "since": since });
        if !everything {
            args["categories"] = json!(PROGRAM_OUTPUT_CATEGORIES);
        }
        let r = tools.call("debug.output", args).await;
        if r.is_error {
            break;
        }
        let missed = r.structured["missed_bytes"].as_u64().unwrap_or(0);
        if missed > 0 && output.text.is_empty() {
            output.dropped_before += missed;
        } else if missed > 0 {
            // Lost while paging (the program kept printing): say where.
            output
                .text
                .push_str(&format!("\n{}\n", dropped_notice(missed)));
        }
        output.dropped_bytes += missed;
        output
            .text
            .push_str(r.structured["output"].as_str().unwrap_or(""));
        since = r.structured["next"].as_u64().unwrap_or(since);
        if r.structured["truncated"] != json!(true) {
            break;
        }
    }
    *cursor = since;
    output
}
