//! `dapvisor trace PROGRAM --calls PATTERN... [-- ARGS]`: run a program under its
//! debugger recording every call of the functions the patterns name, and print the
//! calls as an indented tree (arguments in, the value returned out), then exit with
//! the program's exit code. It drives the same tools agents use: `debug.launch` with
//! `calls`, `debug.wait`, and `debug.trace` read to its end.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use crate::cli::debug::EXIT_DAPVISOR_FAILED;
use crate::permission::{PermissionGate, PermissionMode};
use crate::tools::ToolCatalogue;
use crate::{Runtime, RuntimeConfig};

/// The most stops `dapvisor trace` continues past (an uncaught exception, a
/// breakpoint the program's own code hits) before it gives up: 100.
pub const MAX_TRACE_STOPS: usize = 100;

/// How long `dapvisor trace` waits for the program to end before it gives up, in
/// seconds (`--timeout`).
pub const DEFAULT_TRACE_TIMEOUT_SECS: f64 = 600.0;

/// Flags of `dapvisor trace`.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// The program: a script, a Go source file or package folder, a C, C++ or Rust
    /// source, or a binary.
    pub program: PathBuf,
    /// Record each call of the functions PATTERN names (repeatable): `name`,
    /// `module.name` (`pkg.Type.method` in Go), `file:function`, with `*` globs.
    #[arg(long = "calls", value_name = "PATTERN", required = true)]
    pub calls: Vec<String>,
    /// The adapter (debugpy, lldb-dap, dlv, codelldb); chosen from the program by default.
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
    /// Give up when the program has not ended after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_TRACE_TIMEOUT_SECS)]
    pub timeout: f64,
    /// Redaction of keys, passwords and tokens in what is printed.
    #[command(flatten)]
    pub redact: crate::cli::redact_flags::RedactFlags,
    /// Arguments for the program (after `--`).
    #[arg(last = true)]
    pub args: Vec<String>,
}

/// Run it; the exit code is the program's, or [`EXIT_DAPVISOR_FAILED`].
pub async fn run(args: TraceArgs, redaction: crate::redact::RedactRules) -> ExitCode {
    let runtime = match Runtime::start(RuntimeConfig::default()).await {
        Ok(r) => r,
        Err(e) => return failed(&format!("could not start the runtime: {e}")),
    };
    let tools = ToolCatalogue::new(runtime.clone())
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll))
        .with_redaction_rules(redaction)
        .with_tool_names(crate::tools::ToolNames::Cli);
    let code = trace(&tools, &args).await;
    runtime.shutdown().await;
    code
}

async fn trace(tools: &ToolCatalogue, args: &TraceArgs) -> ExitCode {
    let mut launch = json!({ "program": args.program, "args": args.args, "calls": args.calls,
                             "timeout": args.timeout });
    if let Some(adapter) = &args.adapter {
        launch["adapter"] = json!(adapter);
    }
    let launched = tools.call("debug.launch", launch).await;
    if launched.is_error {
        return failed(&launched.text);
    }
    let Some(id) = launched.structured["session_id"].as_str().map(String::from) else {
        return failed(&launched.text);
    };
    let mut state = launched.structured;
    let mut stops = 0;
    // Stops are not the point here: each one (an uncaught exception) is said on stderr
    // and continued past, until the program ends.
    while state["state"] != "terminated" {
        if stops >= MAX_TRACE_STOPS {
            return failed(&format!(
                "the program stopped {MAX_TRACE_STOPS} times; giving up"
            ));
        }
        let next = if state["state"] == "stopped" {
            stops += 1;
            eprintln!(
                "dapvisor: the program stopped ({}); continuing",
                state["stop"]["reason"]
            );
            tools.call(
                "debug.continue",
                json!({ "session_id": id, "timeout": args.timeout }),
            )
        } else {
            tools.call(
                "debug.wait",
                json!({ "session_id": id, "timeout": args.timeout }),
            )
        };
        let result = next.await;
        if result.is_error || result.structured["state"] == "running" {
            // Said for the shell: the tools the text would send an agent to are not
            // a person's (ToolNames::Cli).
            let said = crate::tools::ToolNames::Cli.in_text(result.text.trim_end());
            let more = match result.structured["state"] == "running" {
                true => " A longer --timeout waits more.",
                false => "",
            };
            return failed(&format!("the program did not end: {said}{more}"));
        }
        state = result.structured;
    }
    let mut out = std::io::stdout().lock();
    let mut since = 0;
    loop {
        let page = tools
            .call("debug.trace", json!({ "session_id": id, "since": since }))
            .await;
        if page.is_error {
            return failed(&page.text);
        }
        let rows = page.structured["rows"].as_array().map_or(0, Vec::len);
        if rows > 0 {
            let _ = writeln!(out, "{}", tree_text(&page.text));
        }
        since = page.structured["next"].as_u64().unwrap_or(since);
        if page.structured["more"] != json!(true) {
            break;
        }
    }
    let exit = state["exit_code"].as_i64();
    let _ = writeln!(
        out,
        "[the program exited with {}]",
        exit.map_or_else(|| "no exit code".to_string(), |c| c.to_string())
    );
    ExitCode::from(exit.and_then(|c| u8::try_from(c).ok()).unwrap_or(0))
}

/// A page's text without the lines that are about reading more (a `[more rows ...]`
/// pointer at the next call): the tree alone.
fn tree_text(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("[more rows wait"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn failed(message: &str) -> ExitCode {
    eprintln!("dapvisor trace: {message}");
    ExitCode::from(EXIT_DAPVISOR_FAILED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_leaves_out_the_pointer_at_more_rows() {
        let page =
            "-> f(x=1) #1 a.py:1\n<- f #1 = 2\n[more rows wait: call debug.trace with since=2]";
        assert_eq!(tree_text(page), "-> f(x=1) #1 a.py:1\n<- f #1 = 2");
    }
}
