//! `dapvisor debug PROGRAM`: run a program under its debugger, print every stop
//! (where, the source around it, the locals, each `--eval`), continue to the end, and
//! exit with the program's exit code. It drives the same tool catalogue agents use.
//!
//! The program's output is printed as it goes: at each stop, what it printed since the
//! last stop (before the stop's report), and at the end the rest. The session holds only
//! the newest output (`RuntimeConfig::output_buffer_bytes`, 128 KiB by default), so a
//! program that prints more than that between two stops loses the oldest part; the
//! report then says `[N earlier bytes of output dropped]` where they were (`--json`:
//! `output_dropped_bytes` in the stop's or the end's object). Output can reach the
//! session after the stop it came before (debugpy sends it on another path): before
//! printing, the driver waits a moment for it (`output.rs`).

mod output;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use clap::Args;
use serde_json::{json, Value};

use crate::permission::{PermissionGate, PermissionMode};
use crate::tools::{ToolCatalogue, ToolResult};
use crate::{Runtime, RuntimeConfig, SessionId, SessionState};

use output::NewOutput;
pub use output::{OUTPUT_QUIET, OUTPUT_SETTLE_MAX};

/// Stops printed before `dapvisor debug` gives up on a program that keeps stopping
/// (a breakpoint in a long loop): 100. Set with `--max-stops`.
pub const DEFAULT_MAX_STOPS: usize = 100;

/// dapvisor's own failures (bad flags, no adapter, a launch that failed) exit with
/// this code, apart from the program's own exit codes: 125.
pub const EXIT_DAPVISOR_FAILED: u8 = 125;

/// A program that neither stopped nor ended within `--timeout`: 124 (as `timeout(1)`).
pub const EXIT_TIMED_OUT: u8 = 124;

/// stdout closed before the report was written (`dapvisor debug ... | head`): 141, as
/// a shell reports a process a broken pipe ended (128 + SIGPIPE). Nothing is printed;
/// the session and its processes are ended as on any other exit.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// Flags of `dapvisor debug`.
#[derive(Debug, Args)]
pub struct DebugArgs {
    /// The program: a script, a Go source file or package folder, or a binary. With
    /// --test: the test's file, package folder or crate folder, where the id does not say.
    #[arg(required_unless_present = "test")]
    pub program: Option<PathBuf>,
    /// Run one test instead, as its runner names it: a pytest node id
    /// (`tests/test_cart.py::test_total`), a Go test (`TestTotal`), a Rust test path
    /// (`cart::tests::total`), a node:test name or a minitest test
    /// (`test/test_cart.rb::TestCart#test_total`). The end says whether it passed, with
    /// the runner's failure text; the exit code is the runner's.
    #[arg(long, value_name = "ID")]
    pub test: Option<String>,
    /// The test's runner (pytest, go, cargo, node, minitest), when the id and program do not tell.
    #[arg(long, value_name = "NAME", requires = "test")]
    pub runner: Option<String>,
    /// The adapter (debugpy, lldb-dap, dlv, ...); chosen from the program by default.
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
    /// Stop at FILE:LINE (repeatable).
    #[arg(long = "break", value_name = "FILE:LINE", value_parser = parse_location)]
    pub breaks: Vec<(String, i64)>,
    /// Stop when the function NAME is called (repeatable).
    #[arg(long = "break-function", value_name = "NAME")]
    pub break_functions: Vec<String>,
    /// Evaluate EXPR at every stop (repeatable).
    #[arg(long = "eval", value_name = "EXPR")]
    pub evals: Vec<String>,
    /// Print one JSON object per stop (and one for the end) instead of text.
    #[arg(long)]
    pub json: bool,
    /// The program's working directory [default: the program's folder (a Go package
    /// folder: itself), as for debug.launch].
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Give up when the program neither stops nor ends for this many seconds
    /// [default: wait as long as it runs].
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Do not install debugpy when a Python program needs it and no Python here has it
    /// (by default it is installed into dapvisor's own venv).
    #[arg(long)]
    pub no_install: bool,
    /// Give up after this many stops.
    #[arg(long, default_value_t = DEFAULT_MAX_STOPS, value_name = "N")]
    pub max_stops: usize,
    /// Print values as the program holds them: no redaction of keys, passwords and
    /// tokens (by default they are hidden).
    #[arg(long)]
    pub no_redact: bool,
    /// Arguments for the program (after `--`).
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// `FILE:LINE`, split at the last colon (Windows-style or odd file names keep theirs).
fn parse_location(text: &str) -> Result<(String, i64), String> {
    let (file, line) = text
        .rsplit_once(':')
        .ok_or_else(|| format!("`{text}` is not FILE:LINE"))?;
    let line: i64 = line
        .parse()
        .map_err(|_| format!("`{line}` in `{text}` is not a line number"))?;
    if file.is_empty() || line < 1 {
        return Err(format!("`{text}` is not FILE:LINE with a line from 1"));
    }
    Ok((file.to_string(), line))
}

/// Run it; the exit code is the program's (or one of the codes above).
pub async fn run(args: DebugArgs) -> ExitCode {
    if needs_debugpy(&args) && !args.no_install {
        if let Err(e) = ensure_debugpy().await {
            return failed(&format!(
                "debugpy is missing and could not be installed: {e}"
            ));
        }
    }
    let runtime = match Runtime::start(RuntimeConfig::default()).await {
        Ok(r) => r,
        Err(e) => return failed(&format!("could not start the runtime: {e}")),
    };
    // The person at the shell asked for every --eval: nothing to approve.
    // It prints the program's output itself, all of it and settled (output.rs): the
    // results' own bounded tail would print some twice.
    let tools = ToolCatalogue::new(runtime.clone())
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll))
        .with_bounds(crate::tools::Bounds::default().stop_output_bytes(0))
        .with_redaction(!args.no_redact);
    if args.no_redact {
        eprintln!("{}", crate::cli::NO_REDACT_WARNING);
    }
    let driver = Driver {
        tools,
        args,
        output_cursor: AtomicU64::new(0),
    };
    // A signal ends the session in order (the program ended, or detached from) and
    // exits as a shell reports a command that signal ended.
    let code = tokio::select! {
        code = driver.drive() => code,
        signal = super::signals::stop_requested() => {
            eprintln!("dapvisor: {}: ending the session", signal.name());
            ExitCode::from(signal.exit_status())
        }
    };
    runtime.shutdown().await;
    code
}

/// Whether the program runs under debugpy (named, or a `.py` file with no adapter named).
fn needs_debugpy(args: &DebugArgs) -> bool {
    match &args.adapter {
        Some(name) => name == "debugpy",
        None => match &args.test {
            Some(test) => test.contains(".py") || args.runner.as_deref() == Some("pytest"),
            None => args
                .program
                .as_ref()
                .is_some_and(|p| p.extension().is_some_and(|e| e == "py")),
        },
    }
}

/// Install debugpy into dapvisor's venv when no Python here has it, saying so on
/// stderr (stdout is the program's report).
async fn ensure_debugpy() -> Result<(), String> {
    let missing = tokio::task::spawn_blocking(|| {
        let registry = crate::registry::AdapterRegistry::builtin();
        let def = registry.get("debugpy").cloned()?;
        Some(matches!(
            registry.resolve(&def),
            Err(crate::registry::RegistryError::NotInstalled { .. })
        ))
    })
    .await
    .map_err(|e| e.to_string())?
    .unwrap_or(false);
    if !missing {
        return Ok(());
    }
    eprintln!("debugpy is not installed here; installing it into dapvisor's venv...");
    let python = tokio::task::spawn_blocking(crate::registry::install_debugpy)
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    eprintln!("debugpy installed for {}", python.display());
    Ok(())
}

struct Driver {
    tools: ToolCatalogue,
    args: DebugArgs,
    /// Where the next read of the program's output starts (a `debug.output` cursor).
    output_cursor: AtomicU64,
}

impl Driver {
    /// What the program printed since the last call, once it has settled.
    async fn new_output(&self, id: &str) -> NewOutput {
        output::settle(&self.tools, id).await;
        let mut cursor = self.output_cursor.load(Ordering::Relaxed);
        let output = output::read_since(&self.tools, id, &mut cursor).await;
        self.output_cursor.store(cursor, Ordering::Relaxed);
        output
    }

    async fn drive(&self) -> ExitCode {
        let mut breakpoints: Vec<Value> = self
            .args
            .breaks
            .iter()
            .map(|(file, line)| json!({ "file": file, "line": line }))
            .collect();
        breakpoints.extend(
            self.args
                .break_functions
                .iter()
                .map(|f| json!({ "function": f })),
        );
        let mut launch = json!({
            "args": self.args.args,
            "breakpoints": breakpoints,
        });
        if let Some(program) = &self.args.program {
            launch["program"] = json!(program);
        }
        if let Some(test) = &self.args.test {
            launch["test"] = json!(test);
        }
        if let Some(runner) = &self.args.runner {
            launch["runner"] = json!(runner);
        }
        if let Some(adapter) = &self.args.adapter {
            launch["adapter"] = json!(adapter);
        }
        if let Some(cwd) = &self.args.cwd {
            launch["cwd"] = json!(cwd);
        }
        if let Some(t) = self.args.timeout {
            launch["timeout"] = json!(t);
        }
        let mut result = self.tools.call("debug.launch", launch).await;
        let Some(id) = result.structured["session_id"].as_str().map(String::from) else {
            return failed(&error_text(&result));
        };
        let mut stops = 0;
        loop {
            if let Some(err) = result.error() {
                // A crash fails the wait that was under way; the supervisor restarts
                // the adapter, and the relaunched program stops at its breakpoints.
                if self.restarting(&id).await {
                    eprintln!("dapvisor: {}; waiting for the restart", err.error);
                    result = self.tools.call("debug.wait", self.wait_args(&id)).await;
                    continue;
                }
                return failed(&error_text(&result));
            }
            match result.structured["state"].as_str() {
                Some("stopped") => {
                    stops += 1;
                    if let Err(e) = self.print_stop(&id, &result).await {
                        return stdout_gone(e);
                    }
                    if stops >= self.args.max_stops {
                        return failed(&format!(
                            "the program stopped {stops} times; giving up (raise --max-stops)"
                        ));
                    }
                    result = self.tools.call("debug.continue", self.wait_args(&id)).await;
                }
                Some("terminated") => return self.finish(&id, &result).await,
                Some("running") => match self.args.timeout {
                    Some(t) => {
                        eprintln!(
                            "dapvisor: the program neither stopped nor ended within {t}s \
                             (--timeout); giving up"
                        );
                        return ExitCode::from(EXIT_TIMED_OUT);
                    }
                    // No limit asked for: keep waiting.
                    None => result = self.tools.call("debug.wait", self.wait_args(&id)).await,
                },
                Some("failed") => {
                    return failed(&format!(
                        "the session failed: {}",
                        result.structured["wait_error"]
                            .as_str()
                            .unwrap_or("see above")
                    ))
                }
                // Restarting after a crash, or starting again: wait for where it stops.
                state => {
                    eprintln!(
                        "dapvisor: the session is {}; waiting for the program",
                        state.unwrap_or("starting")
                    );
                    result = self.tools.call("debug.wait", self.wait_args(&id)).await;
                }
            }
        }
    }

    /// Whether the adapter is being restarted after a crash (or the restarted one is
    /// starting): then the program runs again and a wait will see it.
    async fn restarting(&self, id: &str) -> bool {
        let Ok(id) = id.parse::<SessionId>() else {
            return false;
        };
        let Ok(session) = self.tools.runtime().find(id) else {
            return false;
        };
        matches!(
            session.snapshot().await.map(|s| s.state),
            Ok(SessionState::AdapterRestarting
                | SessionState::Initializing
                | SessionState::Configured)
        )
    }

    fn wait_args(&self, id: &str) -> Value {
        let timeout = self
            .args
            .timeout
            .unwrap_or(crate::tools::MAX_WAIT.as_secs_f64());
        json!({ "session_id": id, "timeout": timeout })
    }

    async fn print_stop(&self, id: &str, result: &ToolResult) -> std::io::Result<()> {
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
        let mut out = std::io::stdout().lock();
        if self.args.json {
            let mut stop = result.structured["stop"].clone();
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
            writeln!(
                out,
                "{}",
                result.text.trim_start_matches(&format!("session {id}: "))
            )?;
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

    async fn finish(&self, id: &str, result: &ToolResult) -> ExitCode {
        let exit_code = result.structured["exit_code"].as_i64();
        let test = &result.structured["test"];
        let output = self.new_output(id).await;
        let printed = (|| {
            let mut out = std::io::stdout().lock();
            if self.args.json {
                writeln!(
                    out,
                    "{}",
                    json!({ "event": "exit", "exit_code": exit_code, "output": output.text,
                            "output_dropped_bytes": output.dropped_bytes, "test": test })
                )?;
            } else {
                output.write_text(&mut out)?;
                match exit_code {
                    Some(code) => writeln!(out, "[the program exited with code {code}]")?,
                    None => writeln!(
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
        let (code, note) = exit_status(exit_code);
        if let Some(note) = note {
            eprintln!("dapvisor: {note}");
        }
        ExitCode::from(code)
    }
}

fn failed(message: &str) -> ExitCode {
    eprintln!("dapvisor: {message}");
    ExitCode::from(EXIT_DAPVISOR_FAILED)
}

/// A failed tool call in words for the shell: the error, and its hint unless the hint
/// names tools (`debug.wait`) a person at the shell does not call.
fn error_text(result: &ToolResult) -> String {
    match result.error() {
        Some(err) if err.hint.is_empty() || err.hint.contains("debug.") => err.error,
        Some(err) => format!("{}; {}", err.error, err.hint),
        None => result.text.clone(),
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

/// stdout failed: closed by the reader (a pipe into `head`), quietly; otherwise said.
fn stdout_gone(err: std::io::Error) -> ExitCode {
    if err.kind() == std::io::ErrorKind::BrokenPipe {
        return ExitCode::from(EXIT_BROKEN_PIPE);
    }
    failed(&format!("cannot write the report to stdout: {err}"))
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

    #[test]
    fn locations_split_at_the_last_colon() {
        assert_eq!(parse_location("a.py:12").unwrap(), ("a.py".into(), 12));
        assert_eq!(parse_location("C:/x.c:3").unwrap(), ("C:/x.c".into(), 3));
        assert!(parse_location("a.py").is_err());
        assert!(parse_location("a.py:x").is_err());
        assert!(parse_location("a.py:0").is_err());
        assert!(parse_location(":3").is_err());
    }
}
