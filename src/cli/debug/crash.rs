//! A crash stop as a person at the shell wants it: a Go panic stops in
//! `runtime.fatalpanic`, an `abort()` in `__pthread_kill_implementation`, a Rust panic
//! in `rust_panic`, none of them code the person wrote. At such a stop the backtrace is
//! printed, and the innermost frame in the program's own code is shown with its source
//! and locals, saying which frames were skipped as the runtime's. Read from the stack
//! the tools give (`debug.stack_trace`, `debug.variables`); the session is untouched.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::driver::Driver;

/// Frames of a crash's backtrace read and printed: 32 (innermost first).
pub const CRASH_BACKTRACE_FRAMES: usize = 32;

/// Lines of source shown on each side of the own frame's line: 2.
const SOURCE_AROUND: i64 = 2;

/// Functions every Rust panic passes through (a stop there is a panic).
const PANIC_FUNCTIONS: &[&str] = &["rust_panic", "rust_begin_unwind"];

/// Parts of a path that mark a library's code, not the program's own.
const LIBRARY_MARKS: &[&str] = &[
    "/site-packages/",
    "/dist-packages/",
    "/node_modules/",
    "/vendor/",
];

/// What a crash stop adds: the backtrace, and the program's own innermost frame.
pub(super) struct CrashReport {
    /// The frames read, innermost first: `{index, name, file, line}`.
    pub(super) backtrace: Vec<Value>,
    /// The index of the innermost frame in the program's own code, if any.
    pub(super) own: Option<usize>,
    /// That frame's locals, as `debug.variables` gives them.
    pub(super) locals: Vec<Value>,
    /// Where the error says it is when no frame is the program's own (a Python
    /// `SyntaxError`'s `(file.py, line 3)`): the file and line.
    pub(super) said_place: Option<(PathBuf, i64)>,
}

impl CrashReport {
    /// As one JSON object (`--json`: the stop's `crash`).
    pub(super) fn json(&self) -> Value {
        json!({ "backtrace": self.backtrace, "own_frame": self.own,
                "own_frame_locals": self.locals })
    }

    /// As text for the shell.
    pub(super) fn text(&self) -> String {
        let mut text = String::from("crashed; backtrace, innermost first:\n");
        for frame in &self.backtrace {
            let index = frame["index"].as_u64().unwrap_or(0) as usize;
            let mark = if Some(index) == self.own { "=>" } else { "  " };
            text.push_str(&format!("{mark} #{index} {}\n", where_(frame)));
        }
        let Some(own) = self.own else {
            text.push_str("no frame of the backtrace is in the program's own code\n");
            if let Some((file, line)) = &self.said_place {
                text.push_str(&format!("the error names {}:{line}:\n", file.display()));
                text.push_str(&source_around(file, *line));
            }
            return text;
        };
        let frame = &self.backtrace[own];
        text.push_str(&format!("your code: #{own} {}", where_(frame)));
        match own {
            0 => text.push('\n'),
            1 => text.push_str(" (skipped #0, the runtime's)\n"),
            n => text.push_str(&format!(" (skipped #0-#{}, the runtime's)\n", n - 1)),
        }
        if let (Some(file), Some(line)) = (frame["file"].as_str(), frame["line"].as_i64()) {
            text.push_str(&source_around(Path::new(file), line));
        }
        if !self.locals.is_empty() {
            text.push_str("locals:\n");
            for local in &self.locals {
                let name = local["name"].as_str().unwrap_or("?");
                let value = local["value"].as_str().unwrap_or("");
                match local["type"].as_str().filter(|t| !t.is_empty()) {
                    Some(kind) => text.push_str(&format!("  {name} = {value} ({kind})\n")),
                    None => text.push_str(&format!("  {name} = {value}\n")),
                }
            }
        }
        text
    }
}

/// `name at file:line`.
fn where_(frame: &Value) -> String {
    let name = frame["name"].as_str().unwrap_or("?");
    match (frame["file"].as_str(), frame["line"].as_i64()) {
        (Some(file), Some(line)) => format!("{name} at {file}:{line}"),
        _ => name.to_string(),
    }
}

/// Whether `stop` is a crash: an exception or a signal, or a Rust panic's function.
pub(super) fn is_crash(stop: &Value) -> bool {
    let reason = stop["reason"].as_str().unwrap_or("");
    let function = stop["function"].as_str().unwrap_or("");
    matches!(reason, "exception" | "signal")
        || stop["kind"] == "core"
        || PANIC_FUNCTIONS
            .iter()
            .any(|f| function == *f || function.ends_with(&format!("::{f}")))
}

impl Driver {
    /// The crash report of stop `stop` of session `id`, or `None` where the stack
    /// cannot be read.
    pub(super) async fn crash_report(&self, id: &str, stop: &Value) -> Option<CrashReport> {
        let thread = stop["thread_id"].clone();
        let mut args = json!({ "session_id": id, "levels": CRASH_BACKTRACE_FRAMES });
        if !thread.is_null() {
            args["thread_id"] = thread;
        }
        let stack = self.tools.call("debug.stack_trace", args).await;
        if stack.is_error {
            return None;
        }
        let frames = stack.structured["frames"].as_array()?;
        let places = self.own_places();
        let backtrace: Vec<Value> = frames
            .iter()
            .enumerate()
            .map(|(index, f)| {
                json!({ "index": index, "name": f["name"], "file": f["file"],
                        "line": f["line"], "frame_id": f["id"] })
            })
            .collect();
        let own = backtrace.iter().position(|f| {
            f["file"]
                .as_str()
                .is_some_and(|file| is_own(Path::new(file), &places))
        });
        let mut locals = Vec::new();
        if let Some(own) = own.filter(|own| *own > 0) {
            let frame_id = backtrace[own]["frame_id"].clone();
            let vars = self
                .tools
                .call(
                    "debug.variables",
                    json!({ "session_id": id, "scope": "Locals", "frame_id": frame_id }),
                )
                .await;
            if let Some(list) = vars.structured["variables"].as_array() {
                locals = list.clone();
            }
        }
        let said_place = match own {
            Some(_) => None,
            None => said_place(stop, &places),
        };
        Some(CrashReport {
            backtrace,
            own,
            locals,
            said_place,
        })
    }

    /// Where the program's own code lies: its folder (a folder program: itself) and
    /// the working directory given.
    fn own_places(&self) -> Vec<PathBuf> {
        let mut places = Vec::new();
        if let Some(program) = &self.args.program {
            let program = std::path::absolute(program).unwrap_or_else(|_| program.clone());
            if program.is_dir() {
                places.push(program);
            } else if let Some(folder) = program.parent() {
                places.push(folder.to_path_buf());
            }
        }
        let cwd = self
            .args
            .cwd
            .clone()
            .or_else(|| std::env::current_dir().ok());
        places.extend(cwd.map(|c| std::path::absolute(&c).unwrap_or(c)));
        places
    }
}

/// Whether `file` is the program's own code: a file that exists inside one of
/// `places`, not in a library folder.
fn is_own(file: &Path, places: &[PathBuf]) -> bool {
    let text = file.to_string_lossy();
    file.is_absolute()
        && file.is_file()
        && places.iter().any(|place| file.starts_with(place))
        && !LIBRARY_MARKS.iter().any(|mark| text.contains(mark))
}

/// The place an error's words name, `(name.py, line 3)` as Python says a
/// `SyntaxError`'s, when that file is in one of `places`.
fn said_place(stop: &Value, places: &[PathBuf]) -> Option<(PathBuf, i64)> {
    let words = stop["exception"]["description"].as_str()?;
    let inside = words.rsplit_once('(')?.1.strip_suffix(')')?;
    let (name, line) = inside.split_once(", line ")?;
    let line: i64 = line.trim().parse().ok()?;
    places
        .iter()
        .map(|place| place.join(name))
        .find(|file| is_own(file, places))
        .map(|file| (file, line))
}

/// The lines of `file` around `line`, the line itself marked.
fn source_around(file: &Path, line: i64) -> String {
    let Ok(text) = std::fs::read_to_string(file) else {
        return String::new();
    };
    let mut out = String::new();
    for (n, content) in (1i64..).zip(text.lines()) {
        if (n - line).abs() <= SOURCE_AROUND {
            let mark = if n == line { "->" } else { "  " };
            out.push_str(&format!("{mark} {n:>5} | {content}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crashes_are_exceptions_signals_and_rust_panics() {
        assert!(is_crash(
            &json!({ "reason": "exception", "function": "runtime.fatalpanic" })
        ));
        assert!(is_crash(
            &json!({ "reason": "breakpoint", "function": "__rustc::rust_panic" })
        ));
        assert!(is_crash(
            &json!({ "reason": "breakpoint", "function": "rust_begin_unwind" })
        ));
        assert!(!is_crash(
            &json!({ "reason": "breakpoint", "function": "main" })
        ));
        assert!(!is_crash(
            &json!({ "reason": "step", "function": "my_rust_panic_handler" })
        ));
    }

    #[test]
    fn own_code_is_a_file_in_the_program_s_places_outside_libraries() {
        let dir = std::env::temp_dir().join(format!("dapvisor-crash-own-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("node_modules")).unwrap();
        std::fs::write(dir.join("app.c"), "").unwrap();
        std::fs::write(dir.join("node_modules/lib.js"), "").unwrap();
        let places = [dir.clone()];
        assert!(is_own(&dir.join("app.c"), &places));
        assert!(!is_own(&dir.join("node_modules/lib.js"), &places));
        assert!(!is_own(&dir.join("missing.c"), &places));
        assert!(!is_own(Path::new("nptl/pthread_kill.c"), &places));
        assert!(!is_own(Path::new("/usr/include/stdio.h"), &places));
        let stop = json!({ "exception": { "description": "invalid syntax (app.c, line 1)" } });
        assert_eq!(said_place(&stop, &places), Some((dir.join("app.c"), 1)));
        let elsewhere = json!({ "exception": { "description": "invalid syntax (x.py, line 1)" } });
        assert_eq!(said_place(&elsewhere, &places), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_report_names_the_skipped_frames_and_marks_the_own_one() {
        let report = CrashReport {
            backtrace: vec![
                json!({ "index": 0, "name": "raise", "file": null, "line": null }),
                json!({ "index": 1, "name": "abort", "file": null, "line": null }),
                json!({ "index": 2, "name": "check", "file": "/nowhere/a.c", "line": 4 }),
            ],
            own: Some(2),
            locals: vec![json!({ "name": "n", "value": "3", "type": "int" })],
            said_place: None,
        };
        let text = report.text();
        assert!(text.contains("=> #2 check at /nowhere/a.c:4"), "{text}");
        assert!(text.contains("(skipped #0-#1, the runtime's)"), "{text}");
        assert!(text.contains("  n = 3 (int)"), "{text}");
    }
}
