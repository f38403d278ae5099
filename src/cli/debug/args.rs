//! The flags of `dapvisor debug`.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::DEFAULT_MAX_STOPS;

/// Flags of `dapvisor debug`.
#[derive(Debug, Args)]
pub struct DebugArgs {
    /// The program: a script, a Go source file or package folder, or a binary. With
    /// --test: the test's file, package folder or crate folder, where the id does not say.
    /// With --attach: the program's binary, where the adapter needs it for symbols
    /// (lldb-dap against `lldb-server gdbserver`).
    #[arg(required_unless_present_any = ["test", "attach"])]
    pub program: Option<PathBuf>,
    /// Attach to a debug server at HOST:PORT instead of starting the program: a
    /// `debugpy --listen`, a `dlv --headless --accept-multiclient`, an `lldb-server
    /// gdbserver` (with --adapter lldb-dap), a `node --inspect` (with --adapter
    /// js-debug). Detached at the end, the program runs on.
    #[arg(long, value_name = "HOST:PORT", value_parser = parse_host_port, conflicts_with = "test")]
    pub attach: Option<(String, u16)>,
    /// With --attach: your folder LOCAL is REMOTE on the target (repeatable); breakpoints
    /// name your files, and paths shown are yours (`remote:PATH` where none maps).
    #[arg(long = "map", value_name = "LOCAL=REMOTE", requires = "attach")]
    pub maps: Vec<String>,
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
    /// Stop at FILE:LINE (repeatable); `FILE:LINE if EXPR` stops there only when EXPR,
    /// in the program's language, is true.
    #[arg(long = "break", value_name = "FILE:LINE[ if EXPR]", value_parser = parse_break)]
    pub breaks: Vec<BreakAt>,
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
    /// folder: itself)].
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// The program reads FILE as its stdin [default: dapvisor's own stdin where that
    /// is a pipe or a file (`echo bob | dapvisor debug ...`); at a terminal, an empty
    /// input: the terminal stays dapvisor's].
    #[arg(long, value_name = "FILE")]
    pub stdin: Option<PathBuf>,
    /// Open FILE, a core dump of the program, instead of running it: print where the
    /// process died (the stack, the locals, each --eval) and end. lldb-dap and
    /// CodeLLDB open a native program's dump, dlv a Go program's.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["test", "breaks", "break_functions", "stdin", "cwd", "args"])]
    pub core: Option<PathBuf>,
    /// Give up when the program neither stops nor ends for this many seconds
    /// [default: wait as long as it runs].
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Do not install debugpy when a Python program needs it and no Python here has it
    /// (by default it is installed into dapvisor's own venv).
    #[arg(long)]
    pub no_install: bool,
    /// How long to wait for the program to pause, past --timeout or at the first
    /// Ctrl-C, to show where it was [default: 5].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub pause_wait: Option<Duration>,
    /// Give up after this many stops.
    #[arg(long, default_value_t = DEFAULT_MAX_STOPS, value_name = "N")]
    pub max_stops: usize,
    /// Also print the debugger's own console lines (lldb's commands, dlv's banner,
    /// a formatter's errors) among the program's output; by default only what the
    /// program itself printed (stdout, stderr) and the adapter's important notices.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Redaction of keys, passwords and tokens in what is printed.
    #[command(flatten)]
    pub redact: crate::cli::redact_flags::RedactFlags,
    /// Arguments for the program (after `--`).
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// Seconds, from 0 up to a day.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(0.0..=86_400.0).contains(&seconds) {
        return Err(format!("`{text}` is not between 0 and 86400 seconds"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// `HOST:PORT`, split at the last colon (`[::1]:5678` keeps its brackets off).
fn parse_host_port(text: &str) -> Result<(String, u16), String> {
    let (host, port) = text
        .rsplit_once(':')
        .ok_or_else(|| format!("`{text}` is not HOST:PORT, such as 127.0.0.1:5678"))?;
    let port: u16 = port
        .parse()
        .ok()
        .filter(|p| *p > 0)
        .ok_or_else(|| format!("`{port}` in `{text}` is not a port (1 to 65535)"))?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return Err(format!(
            "`{text}` names no host: give one, such as 127.0.0.1:{port}"
        ));
    }
    Ok((host.to_string(), port))
}

/// A `--break`: where, and the condition it stops on, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakAt {
    /// The file, as given.
    pub file: String,
    /// The line, from 1.
    pub line: i64,
    /// Stop only when this expression is true.
    pub condition: Option<String>,
}

/// `FILE:LINE` or `FILE:LINE if EXPR`.
fn parse_break(text: &str) -> Result<BreakAt, String> {
    let (place, condition) = match text.split_once(" if ") {
        Some((place, condition)) if !condition.trim().is_empty() => {
            (place.trim(), Some(condition.trim().to_string()))
        }
        Some(_) => return Err(format!("`{text}` has `if` but no condition after it")),
        None => (text, None),
    };
    let (file, line) = parse_location(place)?;
    Ok(BreakAt {
        file,
        line,
        condition,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_split_at_the_last_colon() {
        assert_eq!(parse_location("a.py:12").unwrap(), ("a.py".into(), 12));
        assert_eq!(parse_location("C:/x.c:3").unwrap(), ("C:/x.c".into(), 3));
        assert!(parse_location("a.py").is_err());
        assert!(parse_location("a.py:x").is_err());
        assert!(parse_location("a.py:0").is_err());
        assert!(parse_location(":3").is_err());
    }

    #[test]
    fn an_attach_is_host_colon_port() {
        assert_eq!(
            parse_host_port("127.0.0.1:5678").unwrap(),
            ("127.0.0.1".into(), 5678)
        );
        assert_eq!(parse_host_port("[::1]:80").unwrap(), ("::1".into(), 80));
        assert!(parse_host_port("5678").is_err());
        assert!(parse_host_port(":5678").is_err());
        assert!(parse_host_port("h:0").is_err());
        assert!(parse_host_port("h:99999").is_err());
    }

    #[test]
    fn a_break_may_carry_a_condition_after_if() {
        let plain = parse_break("a.py:12").unwrap();
        assert_eq!(
            (plain.file.as_str(), plain.line, plain.condition),
            ("a.py", 12, None)
        );
        let cond = parse_break("a.py:12 if i == 3 and x").unwrap();
        assert_eq!(cond.line, 12);
        assert_eq!(cond.condition.as_deref(), Some("i == 3 and x"));
        assert!(parse_break("a.py:12 if ").is_err());
        assert!(parse_break("a.py if x").is_err());
    }
}
