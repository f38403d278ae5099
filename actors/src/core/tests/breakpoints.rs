//! Source breakpoints in the session core: cached before the adapter is ready and sent
//! during configuration; once it is, every change sends the file's full list (DAP's
//! `setBreakpoints` replaces the list), and overlapping edits each get the verdicts of
//! the list they sent; removing a missing breakpoint names the file's lines; the
//! adapter's `breakpoint` events update the cache. Features the adapter lacks:
//! `breakpoint_features.rs`; function breakpoints and exception filters:
//! `function_breakpoints.rs`.

use std::path::Path;

use serde_json::json;

use super::{bp, control, full_caps, lines, plan, with_breakpoints, Harness};
use crate::core::command::{Answer, Command, ControlAction};
use crate::core::session::CoreConfig;
use crate::core::session_event::EventKind;
use crate::core::state::SessionState;
use crate::error::SessionError;
use crate::wire::types::SourceBreakpoint;

pub(super) const FILE: &str = "/src/a.py";

fn add(line: i64) -> Command {
    add_bp(bp(line))
}

pub(super) fn add_bp(breakpoint: SourceBreakpoint) -> Command {
    Command::AddBreakpoint {
        file: FILE.into(),
        breakpoint,
    }
}

/// The lines of a `SourceBreakpoints` answer, and whether each was verified.
fn answered(result: &Result<Answer, SessionError>) -> Vec<(i64, Option<bool>)> {
    match result {
        Ok(Answer::SourceBreakpoints(list)) => list
            .iter()
            .map(|r| (r.requested.line, r.actual.as_ref().map(|a| a.verified)))
            .collect(),
        other => panic!("want source breakpoints, got {other:?}"),
    }
}

/// Running with breakpoints at `FILE`'s `lines`, all verified.
pub(super) fn running_with(at: &[i64]) -> Harness {
    let mut h = Harness::new();
    let places: Vec<_> = at.iter().map(|l| (FILE, *l)).collect();
    h.launch_with(with_breakpoints(plan(), &places), full_caps());
    h
}

#[test]
fn breakpoints_set_before_start_are_answered_from_the_cache() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::SetBreakpoints {
        file: FILE.into(),
        breakpoints: vec![bp(3), bp(9)],
    });
    assert!(out.sends().is_empty());
    assert_eq!(answered(out.reply(token)), vec![(3, None), (9, None)]);
}

#[test]
fn breakpoints_cached_before_start_are_sent_during_configuration_with_the_plans() {
    let mut h = Harness::new();
    h.command(add(3));
    let plan = with_breakpoints(plan(), &[(FILE, 9)]);
    let (_, out) = h.command(Command::Start(Box::new(plan)));
    h.ok(out.tag("initialize"), full_caps());
    let out = h.event("initialized", json!({}));
    let args = out.args("setBreakpoints");
    assert_eq!(args["source"]["path"], FILE);
    assert_eq!(lines(&args), vec![3, 9]);
}

#[test]
fn breakpoints_added_while_initializing_wait_for_configuration() {
    let mut h = Harness::in_state(SessionState::Initializing);
    let (token, out) = h.command(add(5));
    assert!(out.sends().is_empty(), "sent before `initialized`: {out:?}");
    assert_eq!(answered(out.reply(token)), vec![(5, None)]);
    let initialize = h.core.snapshot().pending_requests;
    assert_eq!(initialize, 1);
}

#[test]
fn a_breakpoint_set_during_configuration_goes_straight_to_the_adapter() {
    let mut h = Harness::in_state(SessionState::Configured);
    let (_, out) = h.command(add(5));
    assert_eq!(lines(&out.args("setBreakpoints")), vec![5]);
}

#[test]
fn adding_a_breakpoint_sends_the_files_full_list_and_answers_the_adapters_verdict() {
    let mut h = running_with(&[3]);
    let (token, out) = h.command(add(9));
    assert_eq!(out.commands(), vec!["setBreakpoints"]);
    assert_eq!(lines(&out.args("setBreakpoints")), vec![3, 9]);
    assert_eq!(out.replies(), 0, "answered before the adapter");
    let verdict = json!({ "breakpoints": [
        { "id": 1, "verified": true, "line": 3 },
        { "id": 2, "verified": false, "line": 9, "message": "no code" },
    ] });
    let out = h.ok(out.tag("setBreakpoints"), verdict);
    assert_eq!(
        answered(out.reply(token)),
        vec![(3, Some(true)), (9, Some(false))]
    );
}

#[test]
fn removing_a_breakpoint_sends_the_rest_of_the_file() {
    let mut h = running_with(&[3, 9, 12]);
    let (_, out) = h.command(Command::RemoveBreakpoint {
        file: FILE.into(),
        line: 9,
    });
    assert_eq!(lines(&out.args("setBreakpoints")), vec![3, 12]);
}

#[test]
fn removing_the_last_breakpoint_sends_an_empty_list() {
    let mut h = running_with(&[3]);
    let (_, out) = h.command(Command::RemoveBreakpoint {
        file: FILE.into(),
        line: 3,
    });
    let args = out.args("setBreakpoints");
    assert_eq!(args["source"]["path"], FILE);
    assert_eq!(lines(&args), Vec::<i64>::new());
}

#[test]
fn removing_a_missing_breakpoint_names_the_files_lines() {
    let mut h = running_with(&[3, 9]);
    let (token, out) = h.command(Command::RemoveBreakpoint {
        file: FILE.into(),
        line: 4,
    });
    assert!(out.sends().is_empty());
    match out.error(token) {
        SessionError::InvalidArgument(message) => assert_eq!(
            message,
            "no breakpoint at /src/a.py:4; its breakpoints are at lines [3, 9]"
        ),
        other => panic!("want InvalidArgument, got {other:?}"),
    }
}

#[test]
fn setting_a_files_list_replaces_it() {
    let mut h = running_with(&[3, 9]);
    let (_, out) = h.command(Command::SetBreakpoints {
        file: FILE.into(),
        breakpoints: vec![bp(20)],
    });
    assert_eq!(lines(&out.args("setBreakpoints")), vec![20]);
}

#[test]
fn a_refused_set_breakpoints_is_the_adapters_error() {
    let mut h = running_with(&[]);
    let (token, out) = h.command(add(3));
    let out = h.refuse(out.tag("setBreakpoints"), "no such source");
    match out.error(token) {
        SessionError::Adapter {
            command, message, ..
        } => assert_eq!(
            (command.as_str(), message.as_str()),
            ("setBreakpoints", "no such source")
        ),
        other => panic!("want Adapter, got {other:?}"),
    }
}

#[test]
fn the_breakpoint_limit_refuses_one_too_many() {
    let mut h = Harness::with_config(CoreConfig {
        max_breakpoints: 2,
        ..CoreConfig::default()
    });
    h.command(add(1));
    h.command(add(2));
    let (token, out) = h.command(add(3));
    assert!(matches!(
        out.error(token),
        SessionError::LimitExceeded { limit: 2, .. }
    ));
    let snapshot = h.core.snapshot();
    assert_eq!(snapshot.breakpoints.file(Path::new(FILE)).len(), 2);
}

#[test]
fn a_breakpoint_event_updates_the_cached_verdict_and_is_published() {
    let mut h = Harness::new();
    let (_, out) = h.command(Command::Start(Box::new(with_breakpoints(
        plan(),
        &[(FILE, 3)],
    ))));
    let launch = h.ok(out.tag("initialize"), full_caps()).tag("launch");
    h.ok(launch, json!({}));
    let config = h.event("initialized", json!({}));
    h.ok(
        config.tag("setBreakpoints"),
        json!({ "breakpoints": [{ "id": 7, "verified": false, "line": 3 }] }),
    );
    let out = h.event(
        "breakpoint",
        json!({ "reason": "changed", "breakpoint": { "id": 7, "verified": true, "line": 4 } }),
    );
    assert!(matches!(
        out.events()[..],
        [EventKind::Breakpoint { ref reason, .. }] if reason == "changed"
    ));
    let snapshot = h.core.snapshot();
    let record = &snapshot.breakpoints.file(Path::new(FILE))[0];
    assert_eq!(record.actual_line(), Some(4));
    assert!(record.actual.as_ref().unwrap().verified);
}

#[test]
fn breakpoints_set_after_the_debuggee_ended_are_cached_for_the_next_start() {
    // The adapter has been told to go (disconnect answered) but has not closed yet.
    let mut h = Harness::in_state(SessionState::Terminated);
    let (token, out) = h.command(add(4));
    assert!(
        out.sends().is_empty(),
        "sent to an adapter on its way out: {out:?}"
    );
    assert_eq!(answered(out.reply(token)), vec![(4, None)]);
}

#[test]
fn breakpoints_set_between_exited_and_terminated_wait_in_the_cache() {
    // debugpy says `exited`, and only later `terminated`: a waiter woken by the exit
    // that sets a breakpoint at once must not reach the adapter, whose program is gone
    // ("Server disconnected unexpectedly").
    let mut h = Harness::running();
    h.event("exited", json!({ "exitCode": 12 }));
    assert_eq!(h.state(), SessionState::Terminated);
    let (token, out) = h.command(add(4));
    assert!(
        out.sends().is_empty(),
        "sent to an adapter whose program ended: {out:?}"
    );
    assert_eq!(answered(out.reply(token)), vec![(4, None)]);
}

/// Each cached breakpoint of an answer: the line asked for, and the adapter's id and
/// line for it.
fn placed(result: &Result<Answer, SessionError>) -> Vec<(i64, Option<i64>, Option<i64>)> {
    match result {
        Ok(Answer::SourceBreakpoints(list)) => list
            .iter()
            .map(|r| {
                let actual = r.actual.as_ref();
                (
                    r.requested.line,
                    actual.and_then(|a| a.id),
                    actual.and_then(|a| a.line),
                )
            })
            .collect(),
        other => panic!("want source breakpoints, got {other:?}"),
    }
}

#[test]
fn overlapping_edits_of_one_file_pair_each_answer_with_the_list_it_answers() {
    let mut h = running_with(&[3, 5]);
    // Two edits before the adapter answers the first: add 9 (sends 3, 5, 9), then
    // remove 3 (sends 5, 9).
    let (first, out) = h.command(add(9));
    let first_tag = out.tag("setBreakpoints");
    let remove = Command::RemoveBreakpoint {
        file: FILE.into(),
        line: 3,
    };
    let (second, out) = h.command(remove);
    let second_tag = out.tag("setBreakpoints");
    assert_eq!(lines(&out.args("setBreakpoints")), vec![5, 9]);

    // The first answer is for 3, 5, 9: 5 and 9 take its second and third verdicts,
    // not its first two (the cache is 5, 9 by now).
    let out = h.ok(
        first_tag,
        json!({ "breakpoints": [
            { "id": 11, "verified": true, "line": 3 },
            { "id": 12, "verified": true, "line": 5 },
            { "id": 13, "verified": false, "line": 10 },
        ] }),
    );
    assert_eq!(
        placed(out.reply(first)),
        vec![(5, Some(12), Some(5)), (9, Some(13), Some(10))]
    );
    let out = h.ok(
        second_tag,
        json!({ "breakpoints": [
            { "id": 21, "verified": true, "line": 5 },
            { "id": 22, "verified": true, "line": 9 },
        ] }),
    );
    assert_eq!(
        placed(out.reply(second)),
        vec![(5, Some(21), Some(5)), (9, Some(22), Some(9))]
    );
}

fn hits_at(h: &mut Harness) -> Vec<(i64, u64)> {
    let (token, out) = h.command(Command::Snapshot);
    let Ok(Answer::Snapshot(snapshot)) = out.reply(token) else {
        panic!("no snapshot");
    };
    let records = snapshot.breakpoints.file(Path::new(FILE));
    records.iter().map(|r| (r.requested.line, r.hits)).collect()
}

#[test]
fn a_stop_at_an_id_two_breakpoints_share_reads_its_top_frame_to_count_the_hit() {
    // js-debug (v1.112) may give a breakpoint added mid-run the id of another one of
    // its file: both 3 and 6 are id 2 here.
    let mut h = running_with(&[3]);
    let (_, out) = h.command(add(6));
    let tag = out.tag("setBreakpoints");
    h.ok(
        tag,
        json!({ "breakpoints": [
            { "id": 2, "verified": true, "line": 3 },
            { "id": 2, "verified": true, "line": 6 },
        ] }),
    );
    let out = h.event(
        "stopped",
        json!({ "reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [2] }),
    );
    let (tag, args, _) = out.sent("stackTrace");
    assert_eq!(args, json!({ "threadId": 1, "startFrame": 0, "levels": 1 }));
    assert_eq!(hits_at(&mut h), [(3, 0), (6, 0)], "counted once placed");
    let frame = json!({ "id": 1, "name": "f", "line": 6, "column": 1,
        "source": { "path": FILE } });
    h.ok(tag, json!({ "stackFrames": [frame] }));
    assert_eq!(hits_at(&mut h), [(3, 0), (6, 1)]);

    // The read refused: each of them gets the hit, as none can be told.
    h.command(control(ControlAction::Continue));
    let out = h.event(
        "stopped",
        json!({ "reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [2] }),
    );
    h.refuse(out.tag("stackTrace"), "no frames");
    assert_eq!(hits_at(&mut h), [(3, 1), (6, 2)]);
}

#[test]
fn a_stop_at_ids_of_one_breakpoint_each_is_counted_at_once() {
    let mut h = running_with(&[3]);
    let (_, out) = h.command(add(6));
    h.ok(
        out.tag("setBreakpoints"),
        json!({ "breakpoints": [
            { "id": 1, "verified": true, "line": 3 },
            { "id": 2, "verified": true, "line": 6 },
        ] }),
    );
    let out = h.event(
        "stopped",
        json!({ "reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [2] }),
    );
    assert!(!out.commands().contains(&"stackTrace"), "{out:?}");
    assert_eq!(hits_at(&mut h), [(3, 0), (6, 1)]);
}
