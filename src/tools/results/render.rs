//! Results as agents read them: frames, variables and values cut to their bounds, and
//! the stop summary (where it stopped, the source around it, the top frame's locals)
//! that control actions and launches return, in JSON and in text.

use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;

use serde_json::{json, Value};

use crate::wire::types::{StackFrame, Variable};
use crate::{SessionHandle, StopInfo, StopOutcome};

use crate::tools::catalogue::context::Context;
use crate::tools::inspect::results::VariableEntry;
use crate::tools::results::bounds::{cut_chars, keep_ends, Bounds};

/// The frame's source path (or name, for sources without a path).
pub(crate) fn frame_file(frame: &StackFrame) -> Option<String> {
    let source = frame.source.as_ref()?;
    source.path.clone().or_else(|| source.name.clone())
}

/// A value cut to `max` characters, marked with how much more there was.
pub(crate) fn cut_value(value: &str, max: usize) -> (String, usize) {
    let (mut kept, cut) = cut_chars(value, max);
    if cut > 0 {
        let _ = write!(kept, "… ({cut} more chars)");
    }
    (kept, cut)
}

/// One line per variable: `name = value (type)`, with `[+]` for structured values.
pub(crate) fn variables_text(vars: &[VariableEntry]) -> String {
    let mut text = String::new();
    for v in vars {
        let _ = write!(text, "  {} = {}", v.name, v.value);
        if let Some(t) = v.type_.as_deref().filter(|t| !t.is_empty()) {
            let _ = write!(text, " ({t})");
        }
        if v.variables_reference > 0 {
            let _ = writeln!(text, " [+ variables_reference {}]", v.variables_reference);
        } else {
            text.push('\n');
        }
    }
    text
}

/// The result of a wait for a stop: `state`, `timed_out`, and `stop` (with the stop
/// summary) or `exit_code`.
pub(crate) async fn outcome(
    ctx: &Context,
    session: &SessionHandle,
    outcome: StopOutcome,
    waited: std::time::Duration,
) -> (Value, String) {
    match outcome {
        StopOutcome::Stopped(stop) => {
            // The output tail first, so that the summary knows the room it leaves.
            let tail = output_tail(ctx, session).await;
            let taken = tail
                .as_ref()
                .map_or(0, |(json, said)| json.to_string().len() + said.len());
            let (mut summary, mut text) = stop_summary(ctx, session, &stop, taken).await;
            let snapshot = session.snapshot().await.ok();
            let (core, signal) = snapshot.map_or((None, None), |s| (s.core_file, s.core_signal));
            super::core_stop::mark(core.as_deref(), signal, &stop, &mut summary, &mut text);
            let mut json = json!({ "state": "stopped", "timed_out": false, "stop": summary });
            add_trace_note(ctx, session, &mut json, &mut text).await;
            add_output(&mut json, &mut text, tail);
            (json, text)
        }
        StopOutcome::Terminated { exit_code } => {
            let snapshot = session.snapshot().await.ok();
            let signal = snapshot.as_ref().and_then(|s| {
                crate::tools::results::exit_signal::ending_signal(
                    s.adapter_flavor,
                    exit_code,
                    s.last_stop.as_ref(),
                )
            });
            let mut text = match (signal, exit_code) {
                (Some(signal), Some(code)) => format!(
                    "terminated: the program was killed by {} (the adapter reports exit \
                     code {code})",
                    crate::tools::results::exit_signal::signal_name(signal)
                ),
                (_, Some(code)) => format!("terminated: the program exited with code {code}"),
                (_, None) => "terminated: the program ended (no exit code reported)".to_string(),
            };
            let mut json =
                json!({ "state": "terminated", "timed_out": false, "exit_code": exit_code });
            if let Some(signal) = signal {
                json["signal"] = json!(crate::tools::results::exit_signal::signal_name(signal));
                json["signal_number"] = json!(signal);
            }
            if let Some(snapshot) = snapshot {
                let never_hit = crate::tools::breakpoints::report::never_hit(&snapshot);
                if let Some(said) =
                    crate::tools::breakpoints::report::end_text(exit_code, &never_hit)
                {
                    text = format!("{text}; {said}");
                }
                json["never_hit"] = json!(never_hit);
            }
            if let Some((test, said)) =
                crate::tools::start::test_launch::outcome(ctx, session, exit_code).await
            {
                json["test"] = test;
                text = format!("{text}; {said}");
            }
            text.push('\n');
            add_trace_note(ctx, session, &mut json, &mut text).await;
            let tail = output_tail(ctx, session).await;
            add_output(&mut json, &mut text, tail);
            let text = text.trim_end().to_string();
            (
                json,
                format!(
                    "{text}\nRead what it printed with {}.",
                    ctx.tool("debug.output")
                ),
            )
        }
        StopOutcome::TimedOut => (
            json!({ "state": "running", "timed_out": true }),
            format!(
                "running: the program neither stopped nor ended within {:.1}s. \
                 Call {} to keep waiting, {} to interrupt it, or {} to see what it \
                 printed.",
                waited.as_secs_f64(),
                ctx.tool("debug.wait"),
                ctx.tool("debug.pause"),
                ctx.tool("debug.output"),
            ),
        ),
        // An outcome newer than this surface: say what it is rather than guess.
        other => (
            json!({ "state": "unknown", "timed_out": false }),
            format!(
                "the wait ended: {other:?}; call {} to see the state",
                ctx.tool("debug.sessions")
            ),
        ),
    }
}

/// Say how many rows the session's tracepoints recorded, if any, and where to read
/// them.
async fn add_trace_note(
    ctx: &Context,
    session: &SessionHandle,
    json: &mut Value,
    text: &mut String,
) {
    if let Some(rows) = crate::tools::output::trace::recorded(session).await {
        json["trace_rows"] = json!(rows);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!(
            "tracepoints recorded {rows} row(s): read them with {}\n",
            ctx.tool("debug.trace")
        ));
    }
}

/// The program's output since the last result (see `output_tail.rs`), if any is to be
/// shown: as JSON and as text.
async fn output_tail(ctx: &Context, session: &SessionHandle) -> Option<(Value, String)> {
    if ctx.bounds.stop_output_bytes == 0 {
        return None;
    }
    crate::tools::output::tail::since_last_result(ctx, session).await
}

/// Add an output tail to a result.
fn add_output(json: &mut Value, text: &mut String, tail: Option<(Value, String)>) {
    if let Some((tail, said)) = tail {
        json["output"] = tail;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&said);
    }
}

/// Where a stop is: reason, thread, file, line, function, the source around the line,
/// the watches and the top frame's locals, in what the result's bytes leave once
/// `taken` bytes (the output tail's) are counted. Parts the adapter cannot give are left
/// out (and said so), never turned into an error: the stop itself happened.
pub(crate) async fn stop_summary(
    ctx: &Context,
    session: &SessionHandle,
    stop: &StopInfo,
    taken: usize,
) -> (Value, String) {
    let bounds = &ctx.bounds;
    let reason = stop_reason(stop);
    // An adapter's words can be long (an exception's whole message): cut like errors.
    let said = |t: &Option<String>| t.as_deref().map(|t| keep_ends(t, bounds.max_error_chars));
    let (description, stop_text) = (said(&stop.description), said(&stop.text));
    let mut json = json!({
        "reason": reason,
        "thread_id": stop.thread_id,
        "description": description,
        "text": stop_text,
    });
    if reason != stop.reason {
        json["adapter_reason"] = json!(stop.reason);
    }
    let mut text = format!("stopped ({reason})");
    if let Some(extra) = stop_text.as_ref().or(description.as_ref()) {
        let _ = write!(text, ": {extra}");
    }
    if reason == "exception" {
        // Which exception, and its message, where the adapter can say (one request).
        if let Ok(info) = session.exception_info(stop.thread_id).await {
            let description = said(&info.description);
            let shown = description.as_deref().unwrap_or("");
            let _ = write!(text, " [{}: {shown}]", info.exception_id);
            json["exception"] = json!({ "id": info.exception_id, "description": description });
        }
    }
    // The page a `debug.stack_trace` asks for by default, not the top frame alone: the
    // stop's cache then answers the agent's look at the stack too.
    let levels = bounds
        .default_stack_levels()
        .min(crate::tools::results::bounds::MAX_ADAPTER_INT) as i64;
    let frame = match session.stack_trace(stop.thread_id, Some(levels)).await {
        Ok(frames) => frames.into_iter().next(),
        Err(e) => {
            json["summary_error"] = json!(e.to_string());
            None
        }
    };
    let Some(frame) = frame else {
        let _ = write!(text, " on thread {:?}", stop.thread_id);
        return (json, text);
    };
    let file = frame_file(&frame);
    json["file"] = json!(file);
    json["line"] = json!(frame.line);
    json["function"] = json!(frame.name);
    json["frame_id"] = json!(frame.id);
    let _ = writeln!(
        text,
        " in {} at {}:{} (thread {}, frame {})",
        frame.name,
        file.as_deref().unwrap_or("?"),
        frame.line,
        stop.thread_id.unwrap_or(0),
        frame.id
    );

    let path = frame.source.as_ref().and_then(|s| s.path.as_deref());
    if let Some(path) = path.filter(|p| crate::path_map::is_remote(Path::new(p))) {
        // A remote target's file is not this machine's: nothing here is read for it.
        let note = format!(
            "source not shown: {path} is the remote target's file (debug.source asks the \
             adapter for it)"
        );
        let _ = writeln!(text, "({note})");
        json["source_note"] = json!(note);
    } else if let Some(path) = path.filter(|p| !ctx.paths.may_read(Path::new(p))) {
        // Under --root, files outside it are not read, whoever names them.
        let root = ctx.paths.root().map(|r| r.display().to_string());
        let note = format!(
            "source not shown: {path} is outside the root {}",
            root.unwrap_or_default()
        );
        let _ = writeln!(text, "({note})");
        json["source_note"] = json!(note);
    } else if let Some(path) = path {
        let lines = source_lines(Path::new(path), frame.line, bounds);
        for (n, line) in &lines {
            let marker = if *n == frame.line { "->" } else { "  " };
            let _ = writeln!(text, "{marker}{n:>5} | {line}");
        }
        json["source"] = Value::Array(
            lines
                .into_iter()
                .map(|(n, l)| json!({ "line": n, "text": l }))
                .collect(),
        );
    }

    // Watches, then locals, fill what the result's bytes (its JSON and its text
    // together) leave once the rest is counted: what is here, the output tail, and
    // what `outcome` adds around it.
    let used = json.to_string().len() + text.len() + taken + RESERVED_BYTES;
    let mut room = bounds.stop_result_bytes.saturating_sub(used);
    let locals = top_locals(session, frame.id, bounds).await;
    if let Some((rows, said)) =
        crate::tools::inspect::watches::at_stop(ctx, session, frame.id, &mut room).await
    {
        json["watches"] = rows;
        text.push_str(&said);
    }
    match locals {
        Ok((vars, total)) => {
            let locals = within(&vars, bounds.stop_value_chars, &mut room);
            // The header and the note of what is left out are in RESERVED_BYTES.
            let _ = writeln!(text, "locals ({} of {total}):", locals.len());
            text.push_str(&variables_text(&locals));
            if total > locals.len() {
                let _ = writeln!(
                    text,
                    "  … {} more: {} with scope \"Locals\"",
                    total - locals.len(),
                    ctx.tool("debug.variables")
                );
            }
            json["locals_total"] = json!(total);
            json["locals_truncated"] = json!(total > locals.len());
            json["locals"] = json!(locals);
        }
        Err(e) => json["locals_error"] = json!(e),
    }
    (json, text.trim_end().to_string())
}

/// Bytes of a stop result kept for what is added besides the output tail: the state
/// around the stop, the tracepoint note, the counts and notes of what was left out.
const RESERVED_BYTES: usize = 512;

/// As many of `vars` as fit in `room` bytes (as JSON and as a text line together), in
/// order, each value cut to `max_chars`; `room` is what is left after.
fn within(vars: &[Variable], max_chars: usize, room: &mut usize) -> Vec<VariableEntry> {
    let mut kept = Vec::new();
    for var in vars {
        let entry = VariableEntry::cut(var, max_chars);
        // A comma between entries.
        let json = serde_json::to_string(&entry).map_or(0, |j| j.len());
        let bytes = json + 1 + variables_text(std::slice::from_ref(&entry)).len();
        if bytes > *room {
            break;
        }
        *room -= bytes;
        kept.push(entry);
    }
    kept
}

/// The stop's reason as agents read it. lldb-dap 19 reports the halt a pause causes as
/// an `exception` described as `signal SIGSTOP` (lldb halts a process with that
/// signal): that is a pause, and is called one (the adapter's word is kept beside it).
fn stop_reason(stop: &StopInfo) -> &str {
    let sigstop = |t: &Option<String>| t.as_deref().is_some_and(|t| t.contains("SIGSTOP"));
    if stop.reason == "exception" && (sigstop(&stop.description) || sigstop(&stop.text)) {
        "pause"
    } else {
        &stop.reason
    }
}

/// The top frame's locals (see `locals.rs`), bounded.
async fn top_locals(
    session: &SessionHandle,
    frame_id: i64,
    bounds: &Bounds,
) -> Result<(Vec<Variable>, usize), String> {
    let scopes = session.scopes(frame_id).await.map_err(|e| e.to_string())?;
    let chosen = crate::tools::inspect::locals::locals_scopes(&scopes);
    let mut vars = crate::tools::inspect::locals::gather(session, &chosen)
        .await
        .map_err(|e| e.to_string())?;
    let total = vars.len();
    vars.truncate(bounds.stop_locals);
    Ok((vars, total))
}

/// The lines around `line` (1-based) of a regular file, each cut to the value bound.
fn source_lines(path: &Path, line: i64, bounds: &Bounds) -> Vec<(i64, String)> {
    // Only regular files: a FIFO or device named by an adapter must not block us.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) || line < 1 {
        return Vec::new();
    }
    let Ok(file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let context = bounds.source_context_lines as i64;
    // The line is the adapter's word: no arithmetic on it may overflow.
    let first = line.saturating_sub(context).max(1);
    let last = line.saturating_add(context);
    std::io::BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .enumerate()
        .map(|(i, l)| (i as i64 + 1, l))
        .skip_while(|(n, _)| *n < first)
        .take_while(|(n, _)| *n <= last)
        // A long line is cut like a value, and marked so.
        .map(|(n, l)| (n, cut_value(&l, bounds.stop_value_chars).0))
        .collect()
}
