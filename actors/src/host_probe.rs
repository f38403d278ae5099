//! Running a helper command briefly and reading what it says: an adapter's `--version`,
//! `python -c "import debugpy"`, `rustc --print sysroot`.
//!
//! These are blocking `std::process` calls with a deadline. Resolution runs them off the
//! hot path (once per session start), so they never sit inside an actor's handler loop
//! for long; callers on an async runtime should use `spawn_blocking`.

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// How long one probe of an adapter (`python -c "import debugpy"`, `gdb --version`) may
/// run before it is killed and the candidate counted as not working: 60 s. A probe takes
/// well under a second on an idle machine, but 5 s and then 20 s proved too short on a
/// loaded one (seven adapters started at once beside a test run: `import debugpy` and
/// rdbg's `require` passed 5 s; rdbg's `Gem.bin_path` passed 20 s with a release build,
/// a lint run and a whole test suite on two cores), and a working adapter counted as
/// missing fails a launch outright, where a slow probe only delays it. The deadline is
/// only for a probe that never ends (an interpreter that hangs). Set with
/// [`crate::registry::Environment::probe_timeout`].
pub const DEFAULT_PROBE_TIMEOUT: Duration = Duration::from_secs(60);

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

#[cfg(test)]
mod tests {
    use super::*;

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
