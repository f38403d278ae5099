//! Execution control in the session core: continue and steps are Running as soon as
//! they are sent, a `stopped` event that beats the response is kept, a refused
//! continue goes back to Stopped; pause waits for its `stopped`. Waiting for a stop
//! by epoch: already satisfied, satisfied later, timed out, ended.

use std::time::Duration;

use serde_json::json;

use super::{control, dlv_plan, full_caps, Harness};
use crate::core::command::{Answer, Command, ControlAction, Effect, Input, StopOutcome};
use crate::core::session_event::EventKind;
use crate::core::state::SessionState;
use crate::error::SessionError;
use crate::wire::types::SteppingGranularity;

fn wait(after: u64) -> Command {
    Command::WaitForStop {
        after,
        timeout: Duration::from_secs(9),
    }
}

fn outcome(result: &Result<Answer, SessionError>) -> &StopOutcome {
    match result {
        Ok(Answer::Stop(outcome)) => outcome,
        other => panic!("want a stop outcome, got {other:?}"),
    }
}

/// The epoch of a `Stopped` outcome.
fn stopped_epoch(result: &Result<Answer, SessionError>) -> u64 {
    match outcome(result) {
        StopOutcome::Stopped(stop) => stop.epoch,
        other => panic!("want a stop, got {other:?}"),
    }
}

#[test]
fn continue_is_running_as_soon_as_it_is_sent() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(control(ControlAction::Continue));
    assert_eq!(out.args("continue"), json!({ "threadId": 1 }));
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Stopped, SessionState::Running)]
    );
    let out = h.ok(out.tag("continue"), json!({ "allThreadsContinued": true }));
    assert!(matches!(out.reply(token), Ok(Answer::Resumed { epoch: 1 })));
    assert!(out.transitions().is_empty());
    assert_eq!(h.state(), SessionState::Running);
}

#[test]
fn a_stopped_event_that_beats_the_continue_response_is_kept() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(control(ControlAction::Continue));
    let tag = out.tag("continue");
    h.stop("breakpoint");
    let out = h.ok(tag, json!({}));
    assert_eq!(h.state(), SessionState::Stopped);
    assert!(out.transitions().is_empty());
    // The ticket is the epoch the continue was sent at, so the early stop counts.
    assert!(matches!(out.reply(token), Ok(Answer::Resumed { epoch: 1 })));
    let (token, out) = h.command(wait(1));
    assert_eq!(stopped_epoch(out.reply(token)), 2);
}

#[test]
fn a_refused_continue_goes_back_to_stopped() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(control(ControlAction::Continue));
    let out = h.refuse(out.tag("continue"), "thread is not stopped");
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Running, SessionState::Stopped)]
    );
    assert!(matches!(
        out.error(token),
        SessionError::Adapter { command, .. } if command == "continue"
    ));
}

#[test]
fn a_refused_continue_after_a_newer_stop_leaves_that_stop_alone() {
    let mut h = Harness::stopped();
    let (_, out) = h.command(control(ControlAction::Continue));
    h.stop("breakpoint");
    h.event("continued", json!({ "threadId": 1 }));
    let out = h.refuse(out.tag("continue"), "late failure");
    assert!(out.transitions().is_empty());
    assert_eq!(h.state(), SessionState::Running);
}

#[test]
fn steps_go_to_the_last_stopped_thread_with_their_granularity() {
    let mut h = Harness::running();
    h.event("stopped", json!({ "reason": "breakpoint", "threadId": 4 }));
    for (action, command) in [
        (ControlAction::Next, "next"),
        (ControlAction::StepIn, "stepIn"),
        (ControlAction::StepOut, "stepOut"),
    ] {
        let (_, out) = h.command(Command::Control {
            action,
            thread_id: None,
            granularity: Some(SteppingGranularity::Instruction),
        });
        assert_eq!(
            out.args(command),
            json!({ "threadId": 4, "granularity": "instruction" })
        );
        h.event("stopped", json!({ "reason": "step", "threadId": 4 }));
    }
}

#[test]
fn an_explicit_thread_wins_over_the_stopped_one() {
    let mut h = Harness::stopped();
    let (_, out) = h.command(Command::Control {
        action: ControlAction::Continue,
        thread_id: Some(8),
        granularity: None,
    });
    assert_eq!(out.args("continue"), json!({ "threadId": 8 }));
}

#[test]
fn control_with_no_known_thread_asks_for_one() {
    let mut h = Harness::running();
    h.event("stopped", json!({ "reason": "pause" }));
    let (token, out) = h.command(control(ControlAction::Continue));
    assert!(matches!(
        out.error(token),
        SessionError::InvalidArgument(m) if m.contains("thread_id")
    ));
    assert!(out.sends().is_empty());
    assert_eq!(h.state(), SessionState::Stopped);
}

#[test]
fn pause_stays_running_until_the_stopped_event() {
    let mut h = Harness::running();
    h.event("thread", json!({ "reason": "started", "threadId": 1 }));
    let (token, out) = h.command(control(ControlAction::Pause));
    assert_eq!(out.args("pause"), json!({ "threadId": 1 }));
    assert!(out.transitions().is_empty());
    let out = h.ok(out.tag("pause"), json!({}));
    assert!(matches!(out.reply(token), Ok(Answer::Resumed { epoch: 0 })));
    assert_eq!(h.state(), SessionState::Running);
    let out = h.stop("pause");
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Running, SessionState::Stopped)]
    );
}

#[test]
fn a_continued_event_moves_a_stopped_session_to_running() {
    let mut h = Harness::stopped();
    let out = h.event(
        "continued",
        json!({ "threadId": 1, "allThreadsContinued": false }),
    );
    assert_eq!(
        out.events(),
        vec![
            &EventKind::StateChanged {
                from: SessionState::Stopped,
                to: SessionState::Running
            },
            &EventKind::Continued {
                thread_id: 1,
                all_threads_continued: false
            }
        ]
    );
}

#[test]
fn stops_are_numbered_and_published_with_their_details() {
    let mut h = Harness::running();
    let out = h.event(
        "stopped",
        json!({ "reason": "exception", "threadId": 2, "allThreadsStopped": true,
                "hitBreakpointIds": [5], "description": "Paused on exception",
                "text": "ZeroDivisionError" }),
    );
    let stop = match out.events()[..] {
        [EventKind::StateChanged { .. }, EventKind::Stopped(stop)] => stop.clone(),
        ref other => panic!("{other:?}"),
    };
    assert_eq!(
        (stop.reason.as_str(), stop.thread_id, stop.epoch),
        ("exception", Some(2), 1)
    );
    assert!(stop.all_threads_stopped);
    assert_eq!(stop.hit_breakpoint_ids, vec![5]);
    assert_eq!(stop.text.as_deref(), Some("ZeroDivisionError"));
    h.event("continued", json!({ "threadId": 2 }));
    h.stop("step");
    assert_eq!(h.core.snapshot().stop_epoch, 2);
}

// ---- waiting for stops ----

#[test]
fn a_wait_is_answered_at_once_by_a_stop_after_its_epoch() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(wait(0));
    assert_eq!(stopped_epoch(out.reply(token)), 1);
    assert!(out.timers().is_empty());
}

#[test]
fn a_wait_is_not_answered_by_the_stop_it_has_seen() {
    let mut h = Harness::stopped();
    let (_, out) = h.command(wait(1));
    assert_eq!(out.replies(), 0);
    assert_eq!(out.timers().len(), 1);
    assert_eq!(out.timers()[0].1, Duration::from_secs(9));
}

#[test]
fn a_wait_is_answered_by_a_later_stop() {
    let mut h = Harness::running();
    let (token, _) = h.command(wait(0));
    let out = h.stop("breakpoint");
    assert_eq!(stopped_epoch(out.reply(token)), 1);
}

#[test]
fn every_waiter_a_stop_satisfies_is_answered() {
    let mut h = Harness::running();
    let (first, _) = h.command(wait(0));
    let (second, _) = h.command(wait(0));
    let out = h.stop("breakpoint");
    assert_eq!(stopped_epoch(out.reply(first)), 1);
    assert_eq!(stopped_epoch(out.reply(second)), 1);
}

#[test]
fn a_wait_that_times_out_is_still_running_not_an_error() {
    let mut h = Harness::running();
    let (token, out) = h.command(wait(0));
    let (timer, _) = out.timers()[0];
    let out = h.timer(timer);
    assert_eq!(outcome(out.reply(token)), &StopOutcome::TimedOut);
    // The timed-out waiter is gone: a later stop answers nobody.
    let out = h.stop("breakpoint");
    assert_eq!(out.replies(), 0);
}

#[test]
fn a_waiters_timer_after_it_was_answered_does_nothing() {
    let mut h = Harness::running();
    let (_, out) = h.command(wait(0));
    let (timer, _) = out.timers()[0];
    h.stop("breakpoint");
    assert!(h.timer(timer).0.is_empty());
}

#[test]
fn a_wait_is_answered_terminated_with_the_exit_code() {
    let mut h = Harness::running();
    let (token, _) = h.command(wait(0));
    let out = h.event("exited", json!({ "exitCode": 3 }));
    assert_eq!(
        outcome(out.reply(token)),
        &StopOutcome::Terminated { exit_code: Some(3) }
    );
}

#[test]
fn a_wait_that_comes_after_dlvs_terminated_still_gets_the_exit_code() {
    let mut h = Harness::new();
    h.launch_with(dlv_plan(), full_caps());
    let out = h.event("terminated", json!({}));
    let disconnect = out.tag("disconnect");
    let (token, out) = h.command(wait(0));
    assert_eq!(out.replies(), 0, "answered before the exit code: {out:?}");
    h.event(
        "output",
        json!({ "category": "console", "output": "Process 81 has exited with status 5\n" }),
    );
    let out = h.ok(disconnect, json!({}));
    assert_eq!(
        outcome(out.reply(token)),
        &StopOutcome::Terminated { exit_code: Some(5) }
    );
}

#[test]
fn a_wait_in_an_ended_session_is_answered_at_once() {
    let mut h = Harness::running();
    h.event("exited", json!({ "exitCode": 7 }));
    let (token, out) = h.command(wait(0));
    assert_eq!(
        outcome(out.reply(token)),
        &StopOutcome::Terminated { exit_code: Some(7) }
    );
}

#[test]
fn without_an_exit_code_a_wait_is_answered_once_the_adapter_reports_it() {
    // dlv sends no `exited`; its status comes on the console, around the disconnect.
    let mut h = Harness::new();
    h.launch_with(dlv_plan(), full_caps());
    let (token, _) = h.command(wait(0));
    let out = h.event("terminated", json!({}));
    assert_eq!(out.replies(), 0, "answered before the exit code: {out:?}");
    let disconnect = out.tag("disconnect");
    h.event(
        "output",
        json!({ "category": "console", "output": "Process 81 has exited with status 5\n" }),
    );
    let out = h.ok(disconnect, json!({}));
    assert_eq!(
        outcome(out.reply(token)),
        &StopOutcome::Terminated { exit_code: Some(5) }
    );
}

#[test]
fn an_agents_deadline_covers_the_requests_its_command_sends_and_no_others() {
    let with = |timeout: u64, command: Command| Command::WithTimeout {
        timeout: Duration::from_secs(timeout),
        command: Box::new(command),
    };
    let mut h = Harness::stopped();
    let (_, out) = h.command(with(90, control(ControlAction::Next)));
    assert_eq!(out.sent("next").2, Duration::from_secs(90));
    h.event("stopped", json!({ "reason": "step", "threadId": 1 }));

    // A deadline the request names itself wins; the next command has none.
    let (_, out) = h.command(with(
        90,
        Command::Request {
            operation: crate::core::state::Operation::Threads,
            command: "threads".into(),
            arguments: None,
            timeout: Some(Duration::from_secs(12)),
        },
    ));
    assert_eq!(out.sent("threads").2, Duration::from_secs(12));
    let (_, out) = h.command(control(ControlAction::Continue));
    assert_eq!(
        out.sent("continue").2,
        crate::limits::DEFAULT_REQUEST_TIMEOUT
    );

    // Ending keeps its own short deadline.
    let (_, out) = h.command(with(200, Command::Terminate));
    assert_eq!(
        out.sent("disconnect").2,
        crate::limits::DEFAULT_DISCONNECT_TIMEOUT
    );
}

/// `goto` sent as any DAP request (`SessionHandle::request`): it moves the program.
fn goto() -> Command {
    Command::Request {
        operation: crate::core::state::Operation::Navigate,
        command: "goto".into(),
        arguments: Some(json!({ "threadId": 1, "targetId": 3 })),
        timeout: None,
    }
}

#[test]
fn a_request_that_moves_the_program_runs_it_until_the_adapter_reports_a_stop() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(goto());
    assert_eq!(out.args("goto"), json!({ "threadId": 1, "targetId": 3 }));
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Stopped, SessionState::Running)]
    );
    let answered = h.ok(out.tag("goto"), json!({}));
    assert!(matches!(answered.reply(token), Ok(Answer::Body(_))));
    assert_eq!(h.state(), SessionState::Running, "until the stop comes");
    h.stop("goto");
    assert_eq!(h.state(), SessionState::Stopped);
    let (token, out) = h.command(wait(1));
    assert_eq!(stopped_epoch(out.reply(token)), 2);
}

#[test]
fn a_refused_move_goes_back_to_stopped() {
    let mut h = Harness::stopped();
    let (token, out) = h.command(goto());
    let out = h.refuse(out.tag("goto"), "no such target");
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Running, SessionState::Stopped)]
    );
    assert!(matches!(
        out.error(token),
        SessionError::Adapter { command, .. } if command == "goto"
    ));
}

#[test]
fn a_move_answers_the_epoch_it_was_sent_at_even_when_a_stop_beats_its_response() {
    let mut h = Harness::stopped();
    h.stop("breakpoint"); // another thread stopped too: epoch 2
    let (token, out) = h.command(Command::Move {
        operation: crate::core::state::Operation::Navigate,
        command: "goto".into(),
        arguments: json!({ "threadId": 1, "targetId": 3 }),
    });
    assert_eq!(out.args("goto"), json!({ "threadId": 1, "targetId": 3 }));
    assert_eq!(
        out.transitions(),
        vec![(SessionState::Stopped, SessionState::Running)]
    );
    let tag = out.tag("goto");
    h.stop("goto"); // before the response: epoch 3, the move's own stop
    let out = h.ok(tag, json!({}));
    assert!(
        matches!(out.reply(token), Ok(Answer::Resumed { epoch: 2 })),
        "{out:?}"
    );
    let (token, out) = h.command(wait(2));
    assert_eq!(stopped_epoch(out.reply(token)), 3);
}

// ---- calls given up on ----

#[test]
fn a_withdrawn_wait_is_forgotten_and_the_stop_answers_only_the_others() {
    let mut h = Harness::running();
    let (given_up, _) = h.command(wait(0));
    let (kept, _) = h.command(wait(0));
    let out = h.input(Input::Withdraw { token: given_up });
    // Its timer goes, and its queue place comes back (`releases.rs`).
    assert!(
        matches!(out.0.as_slice(), [Effect::CancelTimer { .. }, Effect::Release { token }] if *token == given_up),
        "{out:?}"
    );
    let out = h.stop("breakpoint");
    assert_eq!(out.replies(), 1);
    assert!(matches!(outcome(out.reply(kept)), StopOutcome::Stopped(_)));
}

#[test]
fn a_withdrawn_request_the_adapter_works_on_is_cancelled_a_withdrawn_step_is_not() {
    let mut h = Harness::stopped();
    let evaluate = super::request(
        crate::core::state::Operation::Evaluate,
        "evaluate",
        json!({ "expression": "x" }),
    );
    let (token, out) = h.command(evaluate);
    let tag = out.tag("evaluate");
    let out = h.input(Input::Withdraw { token });
    assert!(
        matches!(out.0.as_slice(), [Effect::Cancel { tag: t }] if *t == tag),
        "{out:?}"
    );
    // Its answer still comes and is handled as any (the shell drops the reply: no one
    // waits for it).
    assert_eq!(h.ok(tag, json!({ "result": "42" })).replies(), 1);

    let (token, out) = h.command(control(ControlAction::Next));
    let tag = out.tag("next");
    let out = h.input(Input::Withdraw { token });
    assert!(
        out.0.is_empty(),
        "a step goes on, holding its place: {out:?}"
    );
    h.ok(tag, json!({}));
    assert_eq!(h.state(), SessionState::Running);
}
