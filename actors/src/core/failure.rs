//! [`Failure`]: why a session cannot go on, the cause its failed phase carries.
//! Each cause comes from the part of the runtime that knows it (the supervisor's
//! restart budget, the check before a restart, the runtime stopping); agents see its
//! words in the snapshot's `failure` and in every refusal.

use std::fmt;

/// Why a session cannot go on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Failure {
    /// Its adapter crashed more often than the restart budget allows: the
    /// supervisor's account of the crashes.
    RestartBudgetSpent(String),
    /// What its launch or attach reached is gone, or may no longer be started as it
    /// was (see [`ReplayCheck`](crate::core::start_plan::ReplayCheck)): a restart
    /// would debug something else. Why.
    TargetGone(String),
    /// Its adapter crashed while the runtime was stopping: no supervisor is left to
    /// restart it.
    RuntimeStopping,
}

impl Failure {
    /// How a [`Failure::TargetGone`] begins in words (`target_gone: the debug server
    /// at ... dropped the connection`), so that an agent can tell it from a crash.
    pub const TARGET_GONE: &'static str = "target_gone";
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::RestartBudgetSpent(why) => f.write_str(why),
            Failure::TargetGone(why) => write!(f, "{}: {why}", Failure::TARGET_GONE),
            Failure::RuntimeStopping => {
                f.write_str("the adapter crashed while the runtime was stopping")
            }
        }
    }
}
