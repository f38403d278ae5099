//! Sessions whose program runs in a session the adapter asks for: js-debug.
//!
//! js-debug's launch (or attach) connection only bootstraps. Once it is configured,
//! js-debug asks for the program's own session with `startDebugging`, carrying a
//! `__pendingTargetId`, and that session must be a new connection to the same server.
//! This session adopts it: the new connection becomes the session's (every agent
//! request goes there, its stops and steps are the session's), and a second
//! handshake runs on it with the configuration js-debug gave; the agent's start is
//! answered when that handshake is done. The bootstrap connection stays open, because
//! it holds the server process (and through it the program), and because js-debug's
//! launcher reports the program's exit code there: `Process exited with code N` for
//! N > 0, then `terminated`; nothing at all for 0 or a signal.
//!
//! So the program's end waits for the launcher's word: when the program's connection
//! says `terminated`, the session is terminated at once, but waiters are answered,
//! and the program's connection let go, only once the bootstrap has reported (or
//! closed, or [`CoreConfig::disconnect_timeout`] passed). Ending the session (by an
//! agent, a crash, a failed start) ends the bootstrap too, which kills the server's
//! process group and the program with it. Children js-debug asks for later (worker
//! threads, subprocesses) are child sessions on the same server.
//!
//! [`CoreConfig::disconnect_timeout`]: crate::core::session::CoreConfig::disconnect_timeout
//!
//! This file holds the bootstrap's data; what the core does with it is
//! `program_session.rs`.

use serde_json::Value;

use crate::core::command::{StartPlan, TimerId};

/// How far the bootstrap of a run has come.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    /// The program's own session is still to come.
    #[default]
    Awaiting,
    /// The program's own connection is the session's now; the launcher's word on the
    /// program's end is awaited.
    Adopted,
    /// The launcher's word is in (its exit line), or no longer awaited (the bootstrap
    /// was stopped); its `terminated` is still to be carried on with.
    Reported,
    /// The launcher's word is in and carried on with (the program's end, where its
    /// own connection had not said it yet), or will never come (it closed, the wait
    /// ran out).
    Carried,
}

/// The bootstrap of one run.
#[derive(Debug, Default)]
pub(crate) struct Bootstrap {
    pub(crate) stage: Stage,
    /// The exit code the launcher reported (`Process exited with code N`).
    pub(crate) exit_line: Option<i64>,
    /// Whether the launcher reports a failing exit code at all: while it discards
    /// the program's stdio (`outputCapture: console`), or when dapvisor starts the
    /// program (`console: integratedTerminal`) and says it in the launcher's words.
    /// Capturing the stdio of a program it starts (`std`), js-debug says nothing of
    /// the exit, so its silence is no 0.
    pub(crate) reports_exit_code: bool,
    /// The bootstrap connection was asked to end, or ended: it is asked once.
    pub(crate) stopped: bool,
    /// The wait for the report, once the program's connection ended.
    pub(crate) report_timer: Option<TimerId>,
}

impl Bootstrap {
    /// The program's own connection is the session's.
    pub(crate) fn adopted(&self) -> bool {
        self.stage != Stage::Awaiting
    }

    /// The launcher's word on the program's end is in, or no longer awaited.
    pub(crate) fn reported(&self) -> bool {
        matches!(self.stage, Stage::Reported | Stage::Carried)
    }

    /// The timer it waits on: for the launcher's report.
    pub(crate) fn timers(&self) -> impl Iterator<Item = TimerId> + '_ {
        self.report_timer.into_iter()
    }
}

/// Whether `plan` runs its program in a session the adapter asks for: js-debug's
/// own launch or attach, not one of its child sessions (which is such a session).
pub(crate) fn bootstrap_for(plan: &StartPlan) -> Option<Bootstrap> {
    let said = |key| plan.arguments.get(key).and_then(Value::as_str);
    let ours = said("console") == Some("integratedTerminal")
        && plan.adapter.flavor.quirks().terminal_exit_line.is_some();
    let quirks = plan.adapter.flavor.quirks();
    (quirks.program_has_a_session_of_its_own && plan.parent.is_none()).then(|| Bootstrap {
        reports_exit_code: ours || said("outputCapture").is_none_or(|c| c == "console"),
        ..Bootstrap::default()
    })
}
