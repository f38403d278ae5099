//! The `dapvisor` command line:
//!
//! - `dapvisor mcp [flags]`: serve the debugger tools over MCP on stdio.
//! - `dapvisor debug PROGRAM [--break FILE:LINE]... [--eval EXPR]... [-- ARGS...]`:
//!   run a program under its debugger, print each stop, exit with its exit code.
//! - `dapvisor trace PROGRAM --calls PATTERN... [-- ARGS...]`: print every call of the
//!   functions named, with arguments and return values, as an indented tree.
//! - `dapvisor diff --calls PATTERN... -- A_ARGS --- B_ARGS` (or two `--test`): the
//!   first difference between two runs' calls.
//! - `dapvisor adapters` / `dapvisor adapters install debugpy`.
//! - `dapvisor doctor [--json]`: whether this machine can do the main job, and the fixes.
//!
//! Logs go to stderr (level from `DAPVISOR_LOG`, default `warn`), never stdout, which
//! belongs to MCP or to the program's report.

pub mod adapters;
pub mod config;
pub mod debug;
pub mod diff;
pub mod doctor;
pub mod http_flags;
pub mod http_token;
pub mod log_writer;
pub mod mcp;
pub mod redact_flags;
pub mod signals;
pub mod trace;

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::redact::{RedactLevel, RedactRules};

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "dapvisor",
    version,
    about = "Debug programs through the Debug Adapter Protocol: for AI agents (MCP) and people"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the debugger tools over MCP on stdin/stdout.
    Mcp(mcp::McpArgs),
    /// Run a program under its debugger, print every stop, exit with its exit code.
    Debug(debug::DebugArgs),
    /// Run a program recording every call of the functions named (`--calls`), and print
    /// the calls as an indented tree with their arguments and return values.
    Trace(trace::TraceArgs),
    /// Run two launches recording the same calls (`--calls`) and tracepoints, and print
    /// the first difference between them; exit 1 when they differ, 0 when not.
    Diff(diff::DiffArgs),
    /// List the debug adapters and whether each is installed; install debugpy,
    /// js-debug and CodeLLDB (`dapvisor adapters install NAME...`).
    Adapters(adapters::AdaptersArgs),
    /// Check the adapters, ptrace, core dumps, dapvisor's home and token file (and an
    /// --http port), with the fix for each; exit 1 when the main job cannot run.
    Doctor(doctor::DoctorArgs),
}

/// The longest `dapvisor` waits, before it exits, for the processes of its sessions to
/// be ended: 10 s. Ending them reads `/proc` and takes moments; the bound only keeps a
/// stuck sweep from holding the exit forever.
pub const EXIT_SWEEP_WAIT: Duration = Duration::from_secs(10);

/// Parse the command line and run it.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let redaction = match redaction_rules(&cli.command) {
        Ok(rules) => rules,
        Err(e) => {
            eprintln!("dapvisor: {e}");
            return ExitCode::from(2);
        }
    };
    init_logging(&redaction);
    if redaction.level() == RedactLevel::Off {
        eprintln!("{}", redact_flags::REDACT_OFF_WARNING);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("dapvisor: cannot start the async runtime: {e}");
            return ExitCode::from(debug::EXIT_DAPVISOR_FAILED);
        }
    };
    let code = runtime.block_on(async {
        match cli.command {
            Command::Mcp(args) => match mcp::run(args, redaction).await {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("dapvisor mcp: {e}");
                    ExitCode::FAILURE
                }
            },
            Command::Debug(args) => debug::run(args, redaction).await,
            Command::Trace(args) => trace::run(args, redaction).await,
            Command::Diff(args) => diff::run(args, redaction).await,
            Command::Adapters(args) => adapters::run(args).await,
            Command::Doctor(args) => doctor::run(args).await,
        }
    });
    // Every session has ended by now, but its processes may still be being swept on
    // the blocking pool: exiting mid-sweep would leave the rest running (a program
    // outside its adapter's group, as js-debug's node is).
    runtime.block_on(async {
        let swept = crate::all_process_groups_swept();
        if tokio::time::timeout(EXIT_SWEEP_WAIT, swept).await.is_err() {
            tracing::warn!(
                left = crate::unswept_process_groups(),
                "process groups still not swept after {EXIT_SWEEP_WAIT:?}; exiting"
            );
        }
    });
    // What may remain is a read of stdin blocked on
    // a worker thread (MCP's, when a signal stopped the server while its client
    // still holds the pipe open): dropping the runtime would wait for it forever.
    runtime.shutdown_background();
    code
}

/// The redaction rules of the command's flags and, for `mcp`, its config file; the
/// built-in ones for commands that show no program's values.
fn redaction_rules(command: &Command) -> Result<RedactRules, String> {
    match command {
        Command::Mcp(args) => {
            let file = args.config.as_deref().map(config::read).transpose()?;
            args.redact.rules(file.as_ref().map(|f| &f.redact))
        }
        Command::Debug(args) => args.redact.rules(None),
        Command::Trace(args) => args.redact.rules(None),
        Command::Diff(args) => args.redact.rules(None),
        _ => Ok(RedactRules::default()),
    }
}

fn init_logging(redaction: &RedactRules) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("DAPVISOR_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(log_writer::LogWriter::new(redaction))
        .try_init();
}
