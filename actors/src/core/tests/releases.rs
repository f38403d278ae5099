//! What the shell holds for the core is given back once the core lets go of it
//! (`releases.rs`): timers are cancelled when what they were for ends first (issue 27,
//! item 8), and a withdrawn call's queue place comes back only once no request of it
//! is pending (item 3).

use std::time::Duration;

use serde_json::json;

use super::{full_caps, plan, request, Harness};
use crate::core::command::{Command, Effect, Input, TimerId, Token};
use crate::core::state::Operation;

fn cancelled(effects: &[Effect]) -> Vec<TimerId> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::CancelTimer { id } => Some(*id),
            _ => None,
        })
        .collect()
}

fn released(effects: &[Effect]) -> Vec<Token> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Release { token } => Some(*token),
            _ => None,
        })
        .collect()
}

fn wait_an_hour() -> Command {
    Command::WaitForStop {
        after: 0,
        timeout: Duration::from_secs(3600),
    }
}

/// Item 8: a wait answered by the stop left its timer sleeping for up to an hour.
#[test]
fn a_wait_for_stop_answered_by_the_stop_cancels_its_timer() {
    let mut h = Harness::running();
    let (_, out) = h.command(wait_an_hour());
    let [(timer, _)] = out.timers()[..] else {
        panic!("want one timer: {out:?}");
    };
    let out = h.stop("breakpoint");
    assert_eq!(out.replies(), 1);
    assert_eq!(cancelled(&out.0), vec![timer]);
    // Once only: the next input cancels nothing more.
    assert!(cancelled(&h.stop("step").0).is_empty());
}

/// Item 8: the handshake's timer (up to 30 min) outlived a start that finished.
#[test]
fn a_finished_handshake_cancels_its_timer_and_a_fired_one_is_not_cancelled() {
    let mut h = Harness::new();
    let all = h.launch_with(plan(), full_caps());
    let [(timer, _)] = all.timers()[..] else {
        panic!("want the handshake's timer: {all:?}");
    };
    assert_eq!(cancelled(&all.0), vec![timer]);

    // A wait whose timer fired is answered TimedOut, and nothing is left to cancel.
    let (token, out) = h.command(wait_an_hour());
    let (timer, _) = out.timers()[0];
    let out = h.timer(timer);
    assert!(out.reply(token).is_ok());
    assert!(cancelled(&out.0).is_empty(), "{out:?}");
}

/// Item 3: a withdrawn `evaluate` freed its queue place at once while its request
/// stayed with the adapter; the place now comes back with the answer.
#[test]
fn a_withdrawn_request_keeps_its_place_until_the_adapter_answers() {
    let mut h = Harness::stopped();
    let evaluate = request(
        Operation::Evaluate,
        "evaluate",
        json!({ "expression": "x" }),
    );
    let (token, out) = h.command(evaluate);
    let tag = out.tag("evaluate");
    let out = h.input(Input::Withdraw { token });
    assert!(released(&out.0).is_empty(), "still pending: {out:?}");
    assert!(released(&h.stop("step").0).is_empty());
    let out = h.ok(tag, json!({ "result": "42" }));
    assert_eq!(released(&out.0), vec![token]);
}

#[test]
fn a_withdrawn_wait_gives_its_place_back_at_once_and_its_timer_goes() {
    let mut h = Harness::running();
    let (token, out) = h.command(wait_an_hour());
    let (timer, _) = out.timers()[0];
    let out = h.input(Input::Withdraw { token });
    assert_eq!(released(&out.0), vec![token]);
    assert_eq!(cancelled(&out.0), vec![timer]);
}
