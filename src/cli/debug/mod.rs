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
//!
//! A run that gives up on a running program (past `--timeout`, at the first SIGINT or
//! SIGTERM) first pauses it and prints where it was (`driver.rs`); a second signal
//! ends the run at once (`interrupts.rs`). The launch and the end say what became of
//! the breakpoints (`breakpoint_notes.rs`); the end how the program ended
//! (`report.rs`).

mod args;
mod breakpoint_notes;
mod crash;
mod driver;
mod human;
mod interrupts;
mod output;
mod report;

use std::process::ExitCode;
use std::time::Duration;

use crate::permission::{PermissionGate, PermissionMode};
use crate::redact::RedactRules;
use crate::tools::{ToolCatalogue, ToolResult};
use crate::{Runtime, RuntimeConfig};

pub use args::DebugArgs;
pub use crash::CRASH_BACKTRACE_FRAMES;
use driver::Driver;
pub use human::{PREVIEW_CHARS, PREVIEW_ELEMENTS, PREVIEW_WAIT};
use interrupts::Interrupts;
pub use output::{OUTPUT_QUIET, OUTPUT_SETTLE_MAX, PROGRAM_OUTPUT_CATEGORIES};

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

/// How long `dapvisor debug` waits for the program to pause, past `--timeout` or at the
/// first Ctrl-C, so as to print where it was: 5 s. A program that does not pause in
/// that time (a thread blocked in a system call the adapter cannot interrupt) is ended
/// without it.
pub const PAUSE_WAIT: Duration = Duration::from_secs(5);

/// Run it; the exit code is the program's (or one of the codes above).
pub async fn run(args: DebugArgs, redaction: RedactRules) -> ExitCode {
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
        .with_redaction_rules(redaction)
        // Its refusals and hints name the flags a person gives, not the tools.
        .with_tool_names(crate::tools::ToolNames::Cli);
    let interrupts = Interrupts::watch();
    let driver = Driver::new(tools, args, interrupts.clone());
    // The first SIGINT or SIGTERM pauses the program, prints where it was and ends the
    // session in order (driver.rs); a second one ends it at once.
    let code = tokio::select! {
        code = driver.drive() => code,
        signal = interrupts.beyond(1) => {
            eprintln!("dapvisor: {} again: ending at once", signal.name());
            end_at_once(&runtime);
            return ExitCode::from(signal.exit_status());
        }
    };
    // The session ends in order (the program ended, or detached from); a signal while
    // it does ends it at once.
    let seen = interrupts.count();
    tokio::select! {
        () = runtime.shutdown() => {}
        signal = interrupts.beyond(seen) => {
            eprintln!("dapvisor: {}: ending at once", signal.name());
            end_at_once(&runtime);
        }
    }
    code
}

/// End every session without a word to its adapter: the runtime's supervisor is
/// killed, its sessions and transports with it, and each transport's processes are
/// swept as it goes (`cli::main` waits for that before it exits).
fn end_at_once(runtime: &Runtime) {
    runtime.supervisor().kill();
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

fn failed(message: &str) -> ExitCode {
    eprintln!("dapvisor: {message}");
    ExitCode::from(EXIT_DAPVISOR_FAILED)
}

/// A failed tool call in words for the shell: the error, and its hint unless it is
/// empty (the catalogue names the tools as flags and commands, and leaves out a hint
/// that sends a person to a tool they have no flag for: `ToolNames::Cli`) or still
/// names a tool; the tool's argument names said as the flags a person gives
/// ([`FLAGS_FOR_ARGUMENTS`]).
fn error_text(result: &ToolResult) -> String {
    let text = match result.error() {
        Some(err) if err.hint.is_empty() || err.hint.contains("debug.") => err.error,
        Some(err) => format!("{}; {}", err.error, err.hint),
        None => result.text.clone(),
    };
    as_flags(&text)
}

/// The tool arguments whose names an error may give, and the flag of `dapvisor debug`
/// that sets each.
const FLAGS_FOR_ARGUMENTS: &[(&str, &str)] = &[
    ("`adapter`", "`--adapter`"),
    ("`stdin_file`", "`--stdin`"),
    ("`cwd`", "`--cwd`"),
    ("`breakpoints`", "`--break`"),
    ("`timeout`", "`--timeout`"),
    ("`runner`", "`--runner`"),
    ("`test`", "`--test`"),
    ("`core`", "`--core`"),
];

/// `text` with each tool argument named as its flag.
fn as_flags(text: &str) -> String {
    FLAGS_FOR_ARGUMENTS
        .iter()
        .fold(text.to_string(), |text, (argument, flag)| {
            text.replace(argument, flag)
        })
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
    fn errors_name_the_flags_a_person_gives() {
        assert_eq!(
            as_flags("Name the adapter with `adapter` to choose one yourself"),
            "Name the adapter with `--adapter` to choose one yourself"
        );
        assert_eq!(as_flags("pass `stdin_file`"), "pass `--stdin`");
    }
}
