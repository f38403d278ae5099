//! What `dapvisor debug` prints: each stop (the output before it, where it is, the
//! locals, each `--eval`), and the end (the rest of the output, how the program ended),
//! in text or `--json`; and the exit code the end calls for.

use std::io::Write as _;
use std::process::ExitCode;

use serde_json::json;

use super::driver::Driver;
use super::output::NewOutput;
use super::{stdout_gone, EXIT_DAPVISOR_FAILED};
use crate::tools::ToolResult;

impl Driver {
    pub(super) async fn print_stop(&self, id: &str, result: &ToolResult) -> std::io::Result<()> {
        let output = self.new_output(id).await;
        let frame = result.structured["stop"]["frame_id"].clone();
        let mut evals = Vec::new();
        for expression in &self.args.evals {
            let r = self
                .tools
                .call(
                    "debug.evaluate",
                    json!({ "session_id": id, "expression": expression, "frame_id": frame }),
                )
                .await;
            evals.push((expression, r));
        }
        // A crash: the backtrace, and the program's own innermost frame (crash.rs).
        let crash = match super::crash::is_crash(&result.structured["stop"]) {
            true => self.crash_report(id, &result.structured["stop"]).await,
            false => None,
        };
        // For a person: no ids, containers previewed (human.rs).
        let human = match self.args.json {
            true => String::new(),
            false => {
                let text = stop_text(&result.text);
                self.human_stop(id, text, &result.structured["stop"]).await
            }
        };
        let mut out = std::io::stdout().lock();
        if self.args.json {
            let mut stop = result.structured["stop"].clone();
            if let Some(crash) = &crash {
                stop["crash"] = crash.json();
            }
            stop["evals"] = evals
                .iter()
                .map(|(e, r)| match r.error() {
                    None => json!({ "expression": e, "result": r.structured["result"],
                                    "type": r.structured["type"] }),
                    Some(err) => json!({ "expression": e, "error": err.error }),
                })
                .collect();
            stop["event"] = json!("stop");
            stop["output"] = json!(output.text);
            stop["output_dropped_bytes"] = json!(output.dropped_bytes);
            writeln!(out, "{stop}")?;
        } else {
            output.write_text(&mut out)?;
            write!(out, "{human}")?;
            if let Some(crash) = &crash {
                write!(out, "{}", crash.text())?;
            }
            for (_, r) in &evals {
                match r.error() {
                    None => writeln!(out, "eval: {}", r.text)?,
                    Some(err) => writeln!(out, "eval failed: {}", err.error)?,
                }
            }
            writeln!(out)?;
        }
        out.flush()
    }

    /// The launch in words, on stdout (nothing with `--json`): the program and its
    /// adapter, and what it says of the breakpoints (`breakpoint_notes.rs`).
    pub(super) fn print_launched(&self, launched: &ToolResult) -> std::io::Result<()> {
        if self.args.json {
            return Ok(());
        }
        let said = |key: &str| launched.structured[key].as_str().unwrap_or("?").to_string();
        let mut out = std::io::stdout().lock();
        // A source the launch built (`sum.c`) is named, not its binary's temporary home.
        let source = self
            .args
            .program
            .as_ref()
            .filter(|p| crate::SourceLanguage::of(p).is_some());
        match (&self.args.attach, source) {
            (Some((host, port)), _) => writeln!(
                out,
                "attached to the debug server at {host}:{port} under {}",
                said("adapter")
            )?,
            (None, Some(source)) => writeln!(
                out,
                "launched {} (built for debugging) under {}",
                source.display(),
                said("adapter")
            )?,
            (None, None) if self.args.core.is_some() => writeln!(
                out,
                "opened the core dump of {} under {}",
                said("program"),
                said("adapter")
            )?,
            (None, None) => writeln!(
                out,
                "launched {} under {}",
                said("program"),
                said("adapter")
            )?,
        }
        for note in self.launch_notes(&launched.structured) {
            writeln!(out, "{note}")?;
        }
        out.flush()
    }

    /// The breakpoints still unverified at the first stop or end, on stdout (nothing
    /// with `--json`, whose launch event lists them).
    pub(super) async fn print_first_stop_notes(&self, id: &str) -> std::io::Result<()> {
        if self.args.json {
            return Ok(());
        }
        let notes = self.first_stop_notes(id).await;
        let mut out = std::io::stdout().lock();
        for note in notes {
            writeln!(out, "{note}")?;
        }
        out.flush()
    }

    /// Output printed on its own (no stop to print it with).
    pub(super) fn print_output(&self, output: &NewOutput) -> std::io::Result<()> {
        let mut out = std::io::stdout().lock();
        if self.args.json {
            let object = json!({ "event": "output", "output": output.text,
                                 "output_dropped_bytes": output.dropped_bytes });
            writeln!(out, "{object}")?;
        } else {
            output.write_text(&mut out)?;
        }
        out.flush()
    }

    pub(super) async fn finish(&self, id: &str, result: &ToolResult) -> ExitCode {
        let exit_code = result.structured["exit_code"].as_i64();
        // The signal that ended it, where the adapter's report tells (tools/results/exit_signal.rs).
        let signal = result.structured["signal_number"].as_i64();
        let signal_name = result.structured["signal"].as_str();
        let test = &result.structured["test"];
        let output = self.new_output(id).await;
        let unhit = self.unhit_breakpoints(id).await;
        let printed = (|| {
            let mut out = std::io::stdout().lock();
            if self.args.json {
                writeln!(
                    out,
                    "{}",
                    json!({ "event": "exit", "exit_code": exit_code, "signal": signal_name,
                            "output": output.text,
                            "output_dropped_bytes": output.dropped_bytes, "test": test,
                            "unhit_breakpoints": unhit })
                )?;
            } else {
                output.write_text(&mut out)?;
                for bp in &unhit {
                    writeln!(out, "{}", super::breakpoint_notes::unhit_text(bp))?;
                }
                match (signal_name, exit_code) {
                    (Some(name), _) => writeln!(out, "[the program was killed by {name}]")?,
                    (None, Some(code)) => writeln!(out, "[the program exited with code {code}]")?,
                    (None, None) => writeln!(
                        out,
                        "[the program ended; its adapter reported no exit code]"
                    )?,
                }
                if let Some(passed) = test["passed"].as_bool() {
                    let runner = test["runner"].as_str().unwrap_or("the");
                    match (passed, test["failure"].as_str()) {
                        (true, _) => writeln!(out, "[the {runner} test passed]")?,
                        (false, Some(failure)) => {
                            writeln!(out, "[the {runner} test failed:]\n{failure}")?
                        }
                        (false, None) => writeln!(out, "[the {runner} test failed]")?,
                    }
                }
            }
            out.flush()
        })();
        if let Err(e) = printed {
            return stdout_gone(e);
        }
        // A test whose runner reports no exit code (node:test under js-debug) exits as
        // its outcome says.
        let exit_code = exit_code.or(match test["passed"].as_bool() {
            Some(true) => Some(0),
            Some(false) => Some(1),
            None => None,
        });
        let (code, note) = match signal {
            // As a shell reports a command a signal ended.
            Some(signal) => (exit_status(Some(-signal)).0, None),
            None => exit_status(exit_code),
        };
        if let Some(note) = note {
            eprintln!("dapvisor: {note}");
        }
        ExitCode::from(code)
    }
}

/// The exit the program's end calls for, and what to say about it. A negative code is
/// a death by that signal (as debugpy reports it): 128 + the signal, as a shell says.
/// A program whose adapter reported no exit code did end, but its code is unknown:
/// claiming 0 would pass a failure off as a success, so it is dapvisor's own failure
/// code, said so.
fn exit_status(exit_code: Option<i64>) -> (u8, Option<String>) {
    match exit_code {
        Some(code) if code < 0 => ((128 + code.unsigned_abs()).min(255) as u8, None),
        Some(code) => (code.min(255) as u8, None),
        None => (
            EXIT_DAPVISOR_FAILED,
            Some(format!(
                "the program ended, but its adapter reported no exit code; exiting with \
                 {EXIT_DAPVISOR_FAILED}"
            )),
        ),
    }
}

/// A stop's text without what a launch's result says before it (the launch itself,
/// its breakpoint notes): from the line that says it stopped.
fn stop_text(text: &str) -> &str {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("stopped") {
            return &text[at..];
        }
        at += line.len();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_exit_code_is_not_passed_off_as_success() {
        assert_eq!(exit_status(Some(3)), (3, None));
        assert_eq!(exit_status(Some(0)), (0, None));
        assert_eq!(exit_status(Some(300)).0, 255);
        assert_eq!(exit_status(Some(-9)).0, 137);
        let (code, note) = exit_status(None);
        assert_eq!(code, EXIT_DAPVISOR_FAILED);
        assert!(note.unwrap().contains("no exit code"));
    }
}
