//! How a session's script ended, for both parts of the harness: it ran through, or it
//! broke off for a [`Cause`]. Without kills every break is a failure; with them, only
//! a break a kill explains (the adapter gone, the session restarting or failed for it,
//! its program ended under it) is excused, and said so with its cause. A deadline is
//! never excused: the runtime answers within its own deadlines, so a wait that runs
//! out means a session that hung, which is exactly what the harness is for.

use std::collections::BTreeMap;
use std::fmt;

use dapvisor::{SessionError, SessionState};

/// Why a session's script stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cause {
    /// A deadline passed: a request's, a wait for a stop's, or the start's.
    Deadline,
    /// The ledger's watchdog fired: the call got no answer at all.
    NoAnswer,
    /// The adapter went away, or the session was restarting or failed because it did.
    AdapterGone,
    /// The program ended where a stop was expected.
    Ended,
    /// Any other error, or an answer the script did not expect.
    Wrong,
}

impl Cause {
    /// The cause of `err`.
    pub fn of(err: &SessionError) -> Cause {
        match err {
            SessionError::Timeout { .. } => Cause::Deadline,
            SessionError::StartFailed { message, .. } if is_start_deadline(message) => {
                Cause::Deadline
            }
            SessionError::AdapterExited { .. } => Cause::AdapterGone,
            SessionError::InvalidState {
                state: SessionState::AdapterRestarting | SessionState::Failed,
                ..
            } => Cause::AdapterGone,
            _ => Cause::Wrong,
        }
    }

    /// Whether killing adapters (or cutting their connections) explains a break of
    /// this cause.
    pub fn explained_by_kills(self) -> bool {
        matches!(self, Cause::AdapterGone | Cause::Ended)
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cause::Deadline => "a deadline passed",
            Cause::NoAnswer => "a call got no answer",
            Cause::AdapterGone => "the adapter went away",
            Cause::Ended => "the program ended early",
            Cause::Wrong => "an error or a wrong answer",
        })
    }
}

/// An adapter that did not finish starting, print its port or connect back in time.
fn is_start_deadline(message: &str) -> bool {
    const START_DEADLINES: [&str; 3] = [
        "did not finish starting within",
        "did not say which port it listens on within",
        "did not connect back to",
    ];
    START_DEADLINES.iter().any(|d| message.contains(d))
}

/// The sessions of one part of a run, by how they ended; printed as the part's
/// summary line, and the source of its failures.
#[derive(Debug, Default)]
pub struct Tally {
    finished: usize,
    broke: BTreeMap<(Cause, bool), usize>,
}

impl Tally {
    /// A session that ran its script through.
    pub fn finished(&mut self) {
        self.finished += 1;
    }

    /// A session that broke off for `cause`; whether that is excused (only under
    /// kills, and only for a cause kills explain), which the caller then does not
    /// count as a failure.
    pub fn broke(&mut self, cause: Cause, killing: bool) -> bool {
        let excused = killing && cause.explained_by_kills();
        *self.broke.entry((cause, excused)).or_default() += 1;
        excused
    }

    /// A failure when no session of `total` ran its script through, so that no
    /// value was checked.
    pub fn none_finished(&self, total: usize) -> Option<String> {
        (total > 0 && self.finished == 0).then(|| {
            format!("none of the {total} sessions ran its script through, so no value was checked")
        })
    }
}

impl fmt::Display for Tally {
    /// "3 finished; 1 broke off (a deadline passed); 2 excused (the adapter went away)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} finished", self.finished)?;
        for ((cause, excused), n) in &self.broke {
            let how = if *excused { "excused" } else { "broke off" };
            write!(f, "; {n} {how} ({cause})")?;
        }
        Ok(())
    }
}
