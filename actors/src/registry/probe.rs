//! Checking that a found executable works: running it briefly and reading what it says.
//!
//! These are blocking `std::process` calls with a deadline. Resolution runs them off the
//! hot path (once per session start), so they never sit inside an actor's handler loop
//! for long; callers on an async runtime should use `spawn_blocking`.

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The oldest gdb with a DAP mode (`gdb -i dap`).
pub const MIN_GDB_VERSION: (u32, u32) = (14, 0);

/// How a probe subprocess ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ProbeOutcome {
    /// Exit status 0, with its stdout.
    Success(String),
    /// It ran and failed; the last line of its stderr says why.
    Failed(String),
    /// It ran past the deadline and was killed.
    TimedOut,
    /// It could not be started.
    NotRun(String),
}

impl ProbeOutcome {
    /// Why a candidate did not do, for a `tried` list.
    pub(crate) fn describe(&self, timeout: Duration) -> String {
        match self {
            Self::Success(_) => "works".to_string(),
            Self::Failed(why) => why.clone(),
            Self::TimedOut => format!("did not finish within {}s", timeout.as_secs_f64()),
            Self::NotRun(err) => format!("could not be run: {err}"),
        }
    }
}

/// Run `program args` with stdin closed, wait at most `timeout`, and kill it past that.
pub(crate) fn run_probe(program: &Path, args: &[&str], timeout: Duration) -> ProbeOutcome {
    let mut child = match crate::clean_start::std_command(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(err) => return ProbeOutcome::NotRun(err.to_string()),
    };
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    // Probes print a few lines at most, which fit in the pipe buffers, so reading after
    // exit cannot deadlock; anything chattier runs into the deadline instead.
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(25));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return ProbeOutcome::TimedOut;
            }
            Err(err) => return ProbeOutcome::NotRun(err.to_string()),
        }
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut stdout);
    }
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr);
    }
    if status.success() {
        return ProbeOutcome::Success(stdout);
    }
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let how = match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "was killed by a signal".to_string(),
    };
    ProbeOutcome::Failed(if last.is_empty() {
        how
    } else {
        format!("{how}: {last}")
    })
}

/// The `major.minor` version in `gdb --version` output, such as 13.1 in
/// `GNU gdb (Debian 13.1-3) 13.1` or 15.1 in `GNU gdb (GDB) 15.1`.
pub fn parse_gdb_version(text: &str) -> Option<(u32, u32)> {
    // The version is the last word of the first line; distributions put their own
    // package version in parentheses before it.
    let word = text.lines().next()?.split_whitespace().last()?;
    let mut numbers = word.split(|c: char| !c.is_ascii_digit());
    let major = numbers.next()?.parse().ok()?;
    let minor = numbers.next().and_then(|n| n.parse().ok()).unwrap_or(0);
    Some((major, minor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gdb_versions() {
        assert_eq!(
            parse_gdb_version("GNU gdb (Debian 13.1-3) 13.1\nCopyright"),
            Some((13, 1))
        );
        assert_eq!(parse_gdb_version("GNU gdb (GDB) 15.1"), Some((15, 1)));
        assert_eq!(
            parse_gdb_version("GNU gdb (Fedora Linux) 14.2-1.fc40"),
            Some((14, 2))
        );
        assert_eq!(
            parse_gdb_version("GNU gdb (Ubuntu 15.0.50.20240403-0ubuntu1) 15.0.50.20240403-git"),
            Some((15, 0))
        );
        assert_eq!(parse_gdb_version("gdb: command not found"), None);
        assert_eq!(parse_gdb_version(""), None);
    }

    #[test]
    fn version_check_against_the_minimum() {
        let ok = |text| parse_gdb_version(text).is_some_and(|v| v >= MIN_GDB_VERSION);
        assert!(!ok("GNU gdb (Debian 13.1-3) 13.1"));
        assert!(ok("GNU gdb (GDB) 14.2"));
        assert!(ok("GNU gdb (GDB) 15.1"));
    }

    #[test]
    fn probes_report_success_failure_and_timeouts() {
        let sh = Path::new("/bin/sh");
        let t = Duration::from_secs(5);
        assert_eq!(
            run_probe(sh, &["-c", "echo hi"], t),
            ProbeOutcome::Success("hi\n".into())
        );
        assert_eq!(
            run_probe(sh, &["-c", "echo oops >&2; exit 3"], t),
            ProbeOutcome::Failed("exited with code 3: oops".into())
        );
        let started = Instant::now();
        let slow = run_probe(sh, &["-c", "sleep 3"], Duration::from_millis(100));
        assert_eq!(slow, ProbeOutcome::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(3));
        assert!(matches!(
            run_probe(Path::new("/nonexistent/python"), &[], t),
            ProbeOutcome::NotRun(_)
        ));
    }
}
