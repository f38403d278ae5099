//! `dapvisor diff --calls PATTERN... [--collect FILE:LINE:EXPR]... -- A_ARGS --- B_ARGS`
//! (or `--test A --test B [-- PROGRAM]`): run two launches side by side recording the
//! same calls and tracepoints, and print the first difference between their rows,
//! aligned by function and call order. It drives the tool agents use, `debug.diff`.
//!
//! Exit codes: 0 when the runs do not differ, [`EXIT_RUNS_DIFFER`] (1) when they do,
//! [`EXIT_DAPVISOR_FAILED`] (125) when the diff could not be made (a run that did not
//! start, a bad pattern, nothing recorded).

use std::io::Write as _;
use std::process::ExitCode;

use clap::Args;
use serde_json::{json, Value};

use crate::cli::debug::EXIT_DAPVISOR_FAILED;
use crate::permission::{PermissionGate, PermissionMode};
use crate::tools::{ToolCatalogue, ToolProfile};
use crate::{Runtime, RuntimeConfig};

/// `dapvisor diff`'s exit code when the two runs differ: 1, as `diff` says it.
pub const EXIT_RUNS_DIFFER: u8 = 1;

/// What separates the two runs' arguments after `--`.
const SEPARATOR: &str = "---";

/// Flags of `dapvisor diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Record each call of the functions PATTERN names in both runs (repeatable):
    /// `name`, `module.name`, `file:function`, with `*` globs.
    #[arg(long = "calls", value_name = "PATTERN")]
    pub calls: Vec<String>,
    /// Record EXPR (comma-separated for several) each time both runs pass FILE:LINE
    /// (repeatable).
    #[arg(long = "collect", value_name = "FILE:LINE:EXPR")]
    pub collect: Vec<String>,
    /// Two tests instead of two programs (`--test A --test B`): pytest ids, Go tests,
    /// ...; the project folder after `--`.
    #[arg(long = "test", value_name = "ID")]
    pub tests: Vec<String>,
    /// The tests' runner, if their ids do not tell.
    #[arg(long, value_name = "RUNNER")]
    pub runner: Option<String>,
    /// The adapter (debugpy, lldb-dap, dlv, codelldb); chosen from the program by default.
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
    /// Give up on a run that has not ended after this many seconds [default: 120].
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Print this many differences at most [default: 1].
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub limit: usize,
    /// Redaction of keys, passwords and tokens in what is printed.
    #[command(flatten)]
    pub redact: crate::cli::redact_flags::RedactFlags,
    /// `PROGRAM ARGS... --- PROGRAM ARGS...` (after `--`); with `--test`, the project
    /// folder.
    #[arg(last = true)]
    pub runs: Vec<String>,
}

/// Run it: the exit code says whether the runs differ.
pub async fn run(args: DiffArgs, redaction: crate::redact::RedactRules) -> ExitCode {
    let (a, b) = match launches(&args) {
        Ok(sides) => sides,
        Err(message) => return failed(&message),
    };
    let collect = match args.collect.iter().map(|c| tracepoint(c)).collect() {
        Ok(points) => points,
        Err(message) => return failed(&message),
    };
    let runtime = match Runtime::start(RuntimeConfig::default()).await {
        Ok(r) => r,
        Err(e) => return failed(&format!("could not start the runtime: {e}")),
    };
    let tools = ToolCatalogue::new(runtime.clone())
        .with_profile(ToolProfile::All)
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll))
        .with_redaction_rules(redaction)
        .with_tool_names(crate::tools::ToolNames::Cli);
    let mut call = json!({ "a": a, "b": b, "calls": args.calls, "collect": Value::Array(collect) });
    if let Some(timeout) = args.timeout {
        call["timeout"] = json!(timeout);
    }
    let code = diff(&tools, call, args.limit.max(1)).await;
    runtime.shutdown().await;
    code
}

/// Print the first difference, and pages on up to `limit`.
async fn diff(tools: &ToolCatalogue, call: Value, limit: usize) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let mut page = tools.call("debug.diff", call).await;
    if page.is_error {
        return failed(&page.text);
    }
    let total = page.structured["total"].as_u64().unwrap_or(0);
    let mut shown = 0;
    loop {
        let _ = writeln!(out, "{}", page_text(&page.text, shown > 0));
        shown += 1;
        let Some(next) = page.structured["next_cursor"].as_u64() else {
            break;
        };
        if shown >= limit {
            let _ = writeln!(
                out,
                "[{shown} of {total} differences shown: pass --limit {total} for all]"
            );
            break;
        }
        page = tools
            .call(
                "debug.diff",
                json!({ "diff_id": page.structured["diff_id"], "cursor": next }),
            )
            .await;
        if page.is_error {
            return failed(&page.text);
        }
    }
    ExitCode::from(if total == 0 { 0 } else { EXIT_RUNS_DIFFER })
}

/// A page's text without the pointer at the next page (the tool's, which `--limit`
/// stands for here), and after the first page without the head naming both runs.
fn page_text(text: &str, later: bool) -> String {
    text.lines()
        .filter(|l| !(l.starts_with('[') && l.contains("diff_id=")))
        .filter(|l| !(later && l.starts_with("diff d")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Both launches from the flags: two tests, or the two runs' programs and arguments
/// around `---`.
fn launches(args: &DiffArgs) -> Result<(Value, Value), String> {
    let mut sides = match args.tests.as_slice() {
        [] => {
            let at = args.runs.iter().position(|a| a == SEPARATOR).ok_or_else(|| {
                format!("give both runs after `--`: `-- PROGRAM ARGS... {SEPARATOR} PROGRAM ARGS...` (or two --test)")
            })?;
            let (a, b) = (&args.runs[..at], &args.runs[at + 1..]);
            let side = |run: &[String], name: &str| match run.split_first() {
                Some((program, rest)) => Ok(json!({ "program": program, "args": rest })),
                None => Err(format!("run {name} names no program")),
            };
            (side(a, "a")?, side(b, "b")?)
        }
        [a, b] => {
            let side = |test: &str| {
                let mut launch = json!({ "test": test });
                if let Some(folder) = args.runs.first() {
                    launch["program"] = json!(folder);
                }
                if let Some(runner) = &args.runner {
                    launch["runner"] = json!(runner);
                }
                launch
            };
            (side(a), side(b))
        }
        _ => return Err("pass --test twice (the two tests to compare), or no --test".into()),
    };
    if let Some(adapter) = &args.adapter {
        sides.0["adapter"] = json!(adapter);
        sides.1["adapter"] = json!(adapter);
    }
    Ok(sides)
}

/// `FILE:LINE:EXPR[,EXPR...]` as a `collect` entry.
fn tracepoint(text: &str) -> Result<Value, String> {
    let mut parts = text.splitn(3, ':');
    let (Some(file), Some(line), Some(expressions)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(format!("--collect {text}: write FILE:LINE:EXPR"));
    };
    let line: i64 = line
        .parse()
        .map_err(|_| format!("--collect {text}: `{line}` is not a line number"))?;
    let expressions: Vec<&str> = expressions.split(',').map(str::trim).collect();
    Ok(json!({ "file": file, "line": line, "expressions": expressions }))
}

fn failed(message: &str) -> ExitCode {
    eprintln!("dapvisor diff: {message}");
    ExitCode::from(EXIT_DAPVISOR_FAILED)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(argv: &[&str]) -> DiffArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            diff: DiffArgs,
        }
        Cli::parse_from(std::iter::once("diff").chain(argv.iter().copied())).diff
    }

    #[test]
    fn the_two_runs_split_at_three_dashes() {
        let args = parsed(&["--calls", "f", "--", "p.py", "1", "---", "p.py", "2"]);
        let (a, b) = launches(&args).unwrap();
        assert_eq!(a, json!({ "program": "p.py", "args": ["1"] }));
        assert_eq!(b, json!({ "program": "p.py", "args": ["2"] }));
        let none = parsed(&["--calls", "f", "--", "p.py", "1"]);
        assert!(launches(&none).unwrap_err().contains("---"));
    }

    #[test]
    fn two_tests_share_the_project_folder() {
        let args = parsed(&[
            "--calls", "f", "--test", "t::a", "--test", "t::b", "--", "proj",
        ]);
        let (a, b) = launches(&args).unwrap();
        assert_eq!(a, json!({ "test": "t::a", "program": "proj" }));
        assert_eq!(b["test"], "t::b");
    }

    #[test]
    fn a_tracepoint_flag_names_a_file_a_line_and_expressions() {
        assert_eq!(
            tracepoint("p.py:7:total, i").unwrap(),
            json!({ "file": "p.py", "line": 7, "expressions": ["total", "i"] })
        );
        assert!(tracepoint("p.py:x:total")
            .unwrap_err()
            .contains("line number"));
        assert!(tracepoint("p.py").is_err());
    }
}
