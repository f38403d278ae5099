//! The harness's command line.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::support::token::Language;

/// What to run. The defaults are small enough for CI; the figures use
/// `--sessions 32 --fake 1000`.
#[derive(Debug, Clone)]
pub struct Args {
    /// Concurrent real-adapter sessions (0 skips them).
    pub sessions: usize,
    /// The real adapter (and so the language of the programs): debugpy by default.
    pub language: Language,
    /// Concurrent sessions on the in-process fake adapter (0 skips them).
    pub fake: usize,
    /// Kill adapters at random moments.
    pub kill: bool,
    /// Make the fake adapter never answer `evaluate`, to show that the harness fails
    /// on sessions that hang.
    pub hang: bool,
    /// Seed of the random kills, printed so a run can be repeated.
    pub seed: u64,
    /// At each debugpy session's first stop, set `TCP_NODELAY` on pydevd's socket
    /// (see `support::python::PYDEVD_NODELAY`), to time requests without debugpy's
    /// 40 ms Nagle delay.
    pub pydevd_nodelay: bool,
}

pub const USAGE: &str = "\
usage: cargo run --release --example stress -- [--sessions N] [--adapter A] [--fake M] [--kill]
                                                [--seed S] [--pydevd-nodelay] [--hang]

  --sessions N  concurrent real-adapter sessions (default 4; 0 skips)
  --adapter A   debugpy (Python, the default), lldb-dap (C), dlv (Go), js-debug
                (JavaScript), codelldb (Rust), rdbg (Ruby; also `ruby`) or java
  --fake M      concurrent sessions on the in-process fake adapter (default 100; 0 skips)
  --kill        SIGKILL adapters (cut fake connections) at random moments, and report
                how the sessions fared; every request must still get an answer
  --hang        the fake adapter never answers `evaluate` (with a 5 s request deadline):
                shows that the harness fails when sessions hang
  --seed S      seed for the random kills (default: from the clock, printed)
  --pydevd-nodelay
                at each debugpy session's first stop, set TCP_NODELAY on pydevd's
                socket (debugpy 1.8 otherwise answers ~44 ms late: Nagle + delayed ACK)

Exits 1 when a check fails: a session saw another's values, a call got no answer or
ran past its deadline, a session broke off for a reason kills do not explain (only
--kill excuses any, and only those it explains: the adapter gone, the program ended),
no session ran its script through, or a process was left behind. It prints how many
sessions finished, broke off and were excused, and why.";

impl Args {
    /// Parse the arguments after the program name.
    pub fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
        let clock = SystemTime::now().duration_since(UNIX_EPOCH);
        let mut out = Args {
            sessions: 4,
            language: Language::Python,
            fake: 100,
            kill: false,
            hang: false,
            seed: clock.map_or(1, |d| d.as_nanos() as u64),
            pydevd_nodelay: false,
        };
        while let Some(arg) = args.next() {
            let mut number = |name: &str| -> Result<u64, String> {
                let value = args.next().ok_or(format!("{name} needs a number"))?;
                value
                    .parse()
                    .map_err(|_| format!("{name}: `{value}` is not a number"))
            };
            match arg.as_str() {
                "--sessions" => out.sessions = number("--sessions")? as usize,
                "--adapter" => {
                    let name = args.next().ok_or("--adapter needs a name")?;
                    out.language = Language::from_adapter(&name).ok_or(format!(
                        "--adapter: `{name}` is not debugpy, lldb-dap, dlv, js-debug, codelldb, rdbg or java"
                    ))?;
                }
                "--fake" => out.fake = number("--fake")? as usize,
                "--seed" => out.seed = number("--seed")?,
                "--kill" => out.kill = true,
                "--hang" => out.hang = true,
                "--pydevd-nodelay" => out.pydevd_nodelay = true,
                "-h" | "--help" => return Err(String::new()),
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        Ok(out)
    }
}
