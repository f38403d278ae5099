//! Pure tests of the end of a run as an agent sees it: the last `continue`'s wait is
//! answered once the program has exited and its exit code and output are known (the
//! adapter's `exited`), not after what follows for the adapter's own sake (its
//! `terminated`, the `disconnect` that lets it go). Output that still comes in between
//! is kept, and the adapter is still let go cleanly. (debugpy sends `exited` then
//! `terminated` a few milliseconds apart; the long wait before them is the debuggee's
//! own shutdown, see BENCHMARKS.md's bughunt section.)

use std::time::Duration;

use serde_json::json;

use super::{control, Harness};
use crate::core::command::{Answer, Command, ControlAction, StopOutcome};
use crate::core::state::SessionState;

fn output_text(h: &mut Harness) -> String {
    let (token, out) = h.command(Command::Output {
        since: 0,
        max_bytes: 4096,
    });
    match out.reply(token) {
        Ok(Answer::Output(slice)) => slice.text(),
        other => panic!("want output, got {other:?}"),
    }
}

#[test]
fn the_last_continue_is_answered_at_exited_and_the_adapter_let_go_at_terminated() {
    let mut h = Harness::stopped();
    let (_, out) = h.command(control(ControlAction::Continue));
    h.ok(out.tag("continue"), json!({}));
    let (waiter, out) = h.command(Command::WaitForStop {
        after: 1,
        timeout: Duration::from_secs(30),
    });
    assert_eq!(out.replies(), 0, "nothing to answer yet: {out:?}");
    h.event(
        "output",
        json!({ "category": "stdout", "output": "total to order: -42\n" }),
    );

    let exited = h.event("exited", json!({ "exitCode": 0 }));
    assert!(
        matches!(
            exited.reply(waiter),
            Ok(Answer::Stop(StopOutcome::Terminated { exit_code: Some(0) }))
        ),
        "{exited:?}"
    );
    assert!(exited.commands().is_empty(), "nothing sent: {exited:?}");
    assert!(!exited.stops_adapter(), "the adapter has more to say");
    assert_eq!(h.state(), SessionState::Terminated);
    assert_eq!(output_text(&mut h), "total to order: -42\n");

    // What the adapter says after `exited` is still taken in, and kept.
    h.event(
        "output",
        json!({ "category": "stderr", "output": "late line\n" }),
    );
    let terminated = h.event("terminated", json!({}));
    assert_eq!(terminated.replies(), 0, "answered twice: {terminated:?}");
    assert_eq!(terminated.commands(), ["disconnect"]);
    let done = h.ok(terminated.tag("disconnect"), json!({}));
    assert!(done.stops_adapter());
    assert_eq!(output_text(&mut h), "total to order: -42\nlate line\n");
}
