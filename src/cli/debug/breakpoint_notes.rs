//! What `dapvisor debug` says of its breakpoints, so that none is silently of no use:
//! at the launch, each one the adapter did not set (and why) or bound to another line
//! than asked; at the end, each one that never stopped the program, and why: it was
//! never set, or the program never ran its line (or function).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::driver::Driver;
use crate::{SessionId, SessionSnapshot};

impl Driver {
    /// The launch's word on its breakpoints (`unverified_breakpoints`,
    /// `moved_breakpoints`), one line each, with a hint where a relative `--break`
    /// missed a file that is beside the program. When the program runs on from the
    /// launch, its breakpoints may not be bound yet (js-debug binds one when its
    /// script loads): they are said after the first stop or end instead
    /// ([`Self::first_stop_notes`]), as they are then.
    pub(super) fn launch_notes(&self, launched: &Value) -> Vec<String> {
        if launched["state"] == "running" {
            return Vec::new();
        }
        let mut notes = self.unverified_notes(&launched["unverified_breakpoints"]);
        notes.extend(moved_notes(&launched["moved_breakpoints"]));
        notes
    }

    /// The breakpoints still unverified, or bound at another line, once the program
    /// first stopped or ended after a launch that answered while it ran.
    pub(super) async fn first_stop_notes(&self, id: &str) -> Vec<String> {
        let Some(snapshot) = self.snapshot(id).await else {
            return Vec::new();
        };
        let (unverified, _) = crate::tools::unverified_breakpoints(&snapshot);
        let (moved, _) = crate::tools::moved_breakpoints(&snapshot);
        let mut notes = self.unverified_notes(&json!(unverified));
        notes.extend(moved_notes(&json!(moved)));
        notes
    }

    /// A line for each breakpoint not set, save those held until their script loads
    /// (js-debug's): one may yet bind, and one that never does is said at the end.
    fn unverified_notes(&self, unverified: &Value) -> Vec<String> {
        let mut notes = Vec::new();
        let set_later = |bp: &&Value| bp["pending"] == json!(true);
        for bp in unverified.as_array().into_iter().flatten() {
            if set_later(&bp) {
                continue;
            }
            let why = bp["message"]
                .as_str()
                .unwrap_or("the adapter did not set it");
            let note = match bp["function"].as_str() {
                Some(function) => format!("function breakpoint {function} is not set: {why}"),
                None => {
                    let (file, line) = (bp["file"].as_str().unwrap_or("?"), &bp["line"]);
                    // Only a file that is not there is looked for beside the program.
                    let missing = !Path::new(file).exists();
                    let hint = missing
                        .then(|| self.beside_program(file))
                        .flatten()
                        .map(|f| {
                            format!(
                                " (the program's folder has {}: --break {}:{line})",
                                f.display(),
                                f.display()
                            )
                        })
                        .unwrap_or_default();
                    format!("breakpoint {file}:{line} is not set: {why}{hint}")
                }
            };
            notes.push(note);
        }
        notes
    }

    /// The breakpoints that never stopped the program, each with why, as
    /// `{file, line}` or `{function}` with `why`.
    pub(super) async fn unhit_breakpoints(&self, id: &str) -> Vec<Value> {
        let Some(snapshot) = self.snapshot(id).await else {
            return Vec::new();
        };
        unhit(&snapshot)
    }

    async fn snapshot(&self, id: &str) -> Option<SessionSnapshot> {
        let id = id.parse::<SessionId>().ok()?;
        let session = self.tools.runtime().find(id).ok()?;
        session.snapshot().await.ok()
    }

    /// Where a `--break` file that is not where it was looked for (relative to the
    /// working directory) is, if the program's folder has it.
    fn beside_program(&self, missing: &str) -> Option<PathBuf> {
        let given = self
            .args
            .breaks
            .iter()
            .map(|at| Path::new(&at.file))
            .find(|file| file.is_relative() && Path::new(missing).ends_with(file))?;
        let program = self.args.program.as_deref()?;
        let folder = if program.is_dir() {
            program
        } else {
            program.parent()?
        };
        let beside = folder.join(given);
        beside.is_file().then_some(beside)
    }
}

/// A line for each breakpoint the adapter bound at another line than asked.
fn moved_notes(moved: &Value) -> Vec<String> {
    moved
        .as_array()
        .into_iter()
        .flatten()
        .map(|bp| {
            let (file, asked, bound) = (
                bp["file"].as_str().unwrap_or("?"),
                &bp["line"],
                &bp["bound_line"],
            );
            format!("breakpoint {file}:{asked}: asked line {asked}, bound at line {bound}")
        })
        .collect()
}

/// The breakpoints of `snapshot` no stop named: never set (no such file, or the
/// adapter's reason), or set and never reached. Logpoints and tracepoints, which do
/// not stop, are left out.
fn unhit(snapshot: &SessionSnapshot) -> Vec<Value> {
    let mut list = Vec::new();
    for (file, records) in snapshot.breakpoints.sources() {
        for record in records.iter().filter(|r| r.hits == 0) {
            if record.requested.log_message.is_some() {
                continue;
            }
            let why = match &record.actual {
                _ if !file.exists() && !crate::path_map::is_remote(file) => {
                    "it was never set: no such file".to_string()
                }
                Some(actual) if actual.verified => "the program never ran that line".into(),
                Some(actual) => format!(
                    "it was never set: {}",
                    actual.message.as_deref().map_or_else(
                        || "the adapter did not verify it".into(),
                        |message| crate::tools::breakpoint_never_set_in_words(message, file)
                    )
                ),
                None => "it was never set: the adapter never answered for it".into(),
            };
            let line = record.requested.line;
            list.push(json!({ "file": file, "line": line, "why": why }));
        }
    }
    for record in snapshot
        .breakpoints
        .functions()
        .iter()
        .filter(|r| r.hits == 0)
    {
        let why = match &record.actual {
            Some(actual) if actual.verified => "the program never called it".to_string(),
            Some(actual) => format!(
                "it was never set: {}",
                actual.message.as_deref().map_or_else(
                    || "the adapter did not verify it".into(),
                    crate::tools::breakpoint_reason_in_words
                )
            ),
            None => "it was never set: the adapter never answered for it".into(),
        };
        list.push(json!({ "function": record.requested.name, "why": why }));
    }
    list
}

/// One unhit breakpoint in words: `[breakpoint avg.py:8 never stopped the program: ...]`.
pub(super) fn unhit_text(bp: &Value) -> String {
    let what = match bp["function"].as_str() {
        Some(function) => format!("function breakpoint {function}"),
        None => format!(
            "breakpoint {}:{}",
            bp["file"].as_str().unwrap_or("?"),
            bp["line"]
        ),
    };
    format!(
        "[{what} never stopped the program: {}]",
        bp["why"].as_str().unwrap_or("")
    )
}
