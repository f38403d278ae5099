//! Crashes in the core (`adapter_restart.rs`): which adapter ends are crashes and
//! what a crash holds back until the supervisor decides. The restart itself (its
//! handshake, its replay, one that does not come up) is in
//! `adapter_restart_replay.rs`. The harness states reached here
//! (crashed, restarting, failed) serve `failed.rs` too.

use std::time::Duration;

use serde_json::json;

use super::states::command_for;
use super::{full_caps, plan, Effects, Harness};
use crate::core::command::{Answer, Command, Effect, Input};
use crate::core::failure::Failure;
use crate::core::session::CoreConfig;
use crate::core::session_event::EventKind;
use crate::core::session_id::SessionId;
use crate::core::state::{Operation, SessionState};
use crate::error::{AdapterExit, SessionError, TransportError};

/// The adapter ending on its own (not asked to): killed by SIGKILL.
pub(super) fn killed() -> AdapterExit {
    AdapterExit {
        signal: Some(9),
        reason: "the adapter closed its output".into(),
        stderr_tail: "last words\n".into(),
        ..AdapterExit::default()
    }
}

impl Harness {
    pub(super) fn input(&mut self, input: Input) -> Effects {
        Effects(self.core.handle(input))
    }

    pub(super) fn closed(&mut self, exit: AdapterExit) -> Effects {
        self.input(Input::Closed(exit))
    }

    /// Stopped, then the adapter killed: the crash is reported, no decision yet.
    pub(super) fn crashed() -> Self {
        let mut h = Self::stopped();
        h.closed(killed());
        assert_eq!(h.state(), SessionState::AdapterRestarting);
        h
    }

    /// [`Self::crashed`] and told that restart 1 comes after 250 ms.
    pub(super) fn restarting() -> Self {
        let mut h = Self::crashed();
        h.input(Input::AdapterRestartScheduled {
            attempt: 1,
            after: Duration::from_millis(250),
            crash: 1,
        });
        h
    }

    /// [`Self::restarting`], then the budget spent.
    pub(super) fn failed() -> Self {
        let mut h = Self::restarting();
        h.input(Input::Fail {
            cause: Failure::RestartBudgetSpent("the adapter crashed 6 times within 60s".into()),
        });
        assert_eq!(h.state(), SessionState::Failed);
        h
    }
}

impl Effects {
    pub(super) fn reported_crash(&self) -> Option<&AdapterExit> {
        self.0.iter().find_map(|e| match e {
            Effect::ReportCrash(exit) => Some(exit),
            _ => None,
        })
    }
}

/// The handshake of restart `attempt` (for the supervisor's crash `crash`) against an adapter with [`full_caps`], every
/// request answered; returns every effect from the restart on.
pub(super) fn restart_handshake(h: &mut Harness, attempt: u32, crash: u64) -> Effects {
    restart_handshake_with(h, attempt, crash, full_caps())
}

/// [`restart_handshake`] against an adapter with `caps`.
pub(super) fn restart_handshake_with(
    h: &mut Harness,
    attempt: u32,
    crash: u64,
    caps: serde_json::Value,
) -> Effects {
    let mut all = h.input(Input::RestartAdapter { attempt, crash });
    let launch = h.ok(all.tag("initialize"), caps);
    let answered = h.ok(launch.tag("launch"), json!({}));
    let configuration = h.event("initialized", json!({}));
    let tags: Vec<_> = configuration.sends().iter().map(|(t, _, _)| *t).collect();
    all.0.extend(launch.0.into_iter().chain(answered.0));
    all.0.extend(configuration.0);
    for tag in tags {
        all.0.extend(h.ok(tag, json!({})).0);
    }
    all
}

// ---- which ends are crashes ----

#[test]
fn an_adapter_dying_while_running_or_stopped_is_a_crash() {
    for mut h in [Harness::running(), Harness::stopped()] {
        let from = h.state();
        let out = h.closed(killed());
        assert_eq!(out.reported_crash(), Some(&killed()), "from {from}");
        assert_eq!(
            out.transitions(),
            vec![(from, SessionState::AdapterRestarting)],
            "from {from}"
        );
        // Nothing is said to agents until the supervisor decides.
        assert!(!out
            .events()
            .iter()
            .any(|k| matches!(k, EventKind::AdapterExited(_))));
    }
}

#[test]
fn an_end_the_runtime_asked_for_is_not_a_crash() {
    let mut h = Harness::stopped();
    let exit = AdapterExit {
        requested: true,
        ..killed()
    };
    let out = h.closed(exit.clone());
    assert!(out.reported_crash().is_none());
    assert_eq!(h.state(), SessionState::Terminated);
    assert!(out.events().contains(&&EventKind::AdapterExited(exit)));
}

#[test]
fn an_end_while_a_terminate_is_under_way_is_not_a_crash() {
    let mut h = Harness::stopped();
    h.command(Command::Terminate);
    let out = h.closed(killed());
    assert!(out.reported_crash().is_none());
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn an_end_after_the_terminated_event_is_not_a_crash() {
    let mut h = Harness::running();
    h.event("terminated", json!({}));
    let out = h.closed(killed());
    assert!(out.reported_crash().is_none());
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn an_end_during_the_agents_own_start_fails_the_start_instead() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::Start(Box::new(plan())));
    h.ok(out.tag("initialize"), full_caps());
    let out = h.closed(killed());
    assert!(out.reported_crash().is_none());
    assert!(
        matches!(out.error(token), SessionError::StartFailed { message, .. }
            if message.contains("the adapter is gone")),
        "{out:?}"
    );
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn a_child_sessions_adapter_ending_is_not_a_crash() {
    let mut h = Harness::with_config(CoreConfig {
        parent: Some(SessionId(1)),
        ..CoreConfig::default()
    });
    h.launch_with(plan(), full_caps());
    h.stop("breakpoint");
    let out = h.closed(killed());
    assert!(out.reported_crash().is_none());
    assert_eq!(h.state(), SessionState::Terminated);
}

// ---- the crash, held until the supervisor decides ----

#[test]
fn a_crash_holds_pending_requests_and_waiters_until_the_decision() {
    let mut h = Harness::stopped();
    let (request, _) = h.command(command_for(Operation::Evaluate));
    let (waiter, _) = h.command(Command::WaitForStop {
        after: 1,
        timeout: Duration::from_secs(60),
    });
    let out = h.closed(killed());
    assert_eq!(out.replies(), 0, "{out:?}");
    let snapshot = h.core.snapshot();
    assert!(!snapshot.adapter_live);
    assert_eq!(
        snapshot.failure.as_deref(),
        Some(
            "the adapter crashed: the adapter closed its output (killed by signal 9); \
             adapter stderr ends with: last words"
        )
    );

    let out = h.input(Input::AdapterRestartScheduled {
        attempt: 2,
        after: Duration::from_millis(500),
        crash: 1,
    });
    for token in [request, waiter] {
        match out.error(token) {
            SessionError::AdapterCrashed {
                exit,
                attempt,
                retry_in,
            } => {
                assert_eq!((exit, *attempt), (&killed(), 2));
                assert_eq!(*retry_in, Duration::from_millis(500));
            }
            other => panic!("want AdapterCrashed, got {other:?}"),
        }
    }
    assert_eq!(
        out.events(),
        vec![&EventKind::AdapterCrashed {
            exit: killed(),
            attempt: Some(2),
            restart_in_ms: Some(500),
        }]
    );
    assert!(!out.starts_adapter(), "the restart waits for its backoff");
}

#[test]
fn a_request_refused_by_a_closing_transport_is_answered_as_the_crash_is() {
    // The adapter was killed, and the transport refused the request before the
    // session heard of it: the agent learns of the crash and the restart as the
    // requests in flight do, not that the adapter is gone for good.
    let mut h = Harness::stopped();
    let (request, out) = h.command(command_for(Operation::Evaluate));
    let (tag, _, _) = out.sent("evaluate");
    let closing = TransportError::AdapterGone { exit: killed() };
    let out = h.respond(tag, Err(closing));
    assert_eq!(out.replies(), 0, "{out:?}");
    h.closed(killed());
    let out = h.input(Input::AdapterRestartScheduled {
        attempt: 1,
        after: Duration::from_millis(250),
        crash: 1,
    });
    assert!(
        matches!(
            out.error(request),
            SessionError::AdapterCrashed { attempt: 1, .. }
        ),
        "{out:?}"
    );
}

#[test]
fn a_late_close_of_the_crashed_adapter_changes_nothing() {
    for mut h in [Harness::restarting(), Harness::failed()] {
        let state = h.state();
        let out = h.closed(killed());
        assert!(out.0.is_empty(), "in {state}: {out:?}");
        assert_eq!(h.state(), state);
    }
}

#[test]
fn a_schedule_or_restart_after_the_session_was_ended_is_ignored() {
    let mut h = Harness::crashed();
    let (token, out) = h.command(Command::Terminate);
    assert!(matches!(out.reply(token), Ok(Answer::Done)));
    assert!(out.sends().is_empty(), "no adapter to disconnect");
    assert_eq!(h.state(), SessionState::Terminated);
    let out = h.input(Input::AdapterRestartScheduled {
        attempt: 1,
        after: Duration::from_millis(250),
        crash: 1,
    });
    assert!(out.0.is_empty(), "{out:?}");
    let out = h.input(Input::RestartAdapter {
        attempt: 1,
        crash: 1,
    });
    assert!(out.0.is_empty(), "{out:?}");
    assert_eq!(h.state(), SessionState::Terminated);
}

#[test]
fn requests_held_by_a_crash_are_answered_when_the_session_was_ended_meanwhile() {
    for decision in [
        Input::AdapterRestartScheduled {
            attempt: 1,
            after: Duration::from_millis(250),
            crash: 1,
        },
        Input::Fail {
            cause: Failure::RestartBudgetSpent("budget spent".into()),
        },
    ] {
        let mut h = Harness::stopped();
        let (request, _) = h.command(command_for(Operation::Evaluate));
        h.closed(killed());
        h.command(Command::Terminate);
        let out = h.input(decision);
        assert!(
            matches!(out.error(request), SessionError::AdapterExited { exit } if *exit == killed()),
            "{out:?}"
        );
        assert_eq!(h.state(), SessionState::Terminated);
    }
}
