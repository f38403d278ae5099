//! Tracepoints in the session core: sent as log points whose message is the session's
//! template, their hits taken out of the output as rows, counted as hits of their
//! breakpoint, and refused where the adapter has no log points.

use serde_json::{json, Value};

use super::{full_caps, plan, Effects, Harness};
use crate::core::command::{Answer, Command, Effect};
use crate::core::session_event::EventKind;
use crate::core::trace::{TraceRoute, TraceSlice, Tracepoint};
use crate::launch::InitialBreakpoint;

const FILE: &str = "/src/loop.py";

fn tracepoint(line: i64, collect: &[&str]) -> Tracepoint {
    Tracepoint {
        line,
        collect: collect.iter().map(|e| e.to_string()).collect(),
        ..Tracepoint::default()
    }
}

/// The template as the adapter prints it with `values` put in, one line.
fn printed(template: &str, values: &[&str]) -> String {
    let mut out = String::new();
    let mut rest = template;
    for value in values {
        let (before, after) = rest.split_once('{').unwrap();
        out.push_str(before);
        out.push_str(value);
        rest = after.split_once('}').unwrap().1;
    }
    format!("{out}{rest}\n")
}

fn rows(h: &mut Harness) -> TraceSlice {
    let (token, out) = h.command(Command::Trace {
        since: 0,
        max_rows: 100,
    });
    match out.reply(token) {
        Ok(Answer::Trace(slice)) => slice.clone(),
        other => panic!("want rows, got {other:?}"),
    }
}

fn sent_template(breakpoints: &Value) -> String {
    breakpoints["breakpoints"][0]["logMessage"]
        .as_str()
        .expect("a log message")
        .to_string()
}

#[test]
fn a_tracepoint_goes_out_as_a_log_point_and_its_hits_become_rows_not_output() {
    let mut h = Harness::new();
    h.launch_with(plan(), full_caps());
    let (_, out) = h.command(Command::AddTracepoint {
        file: FILE.into(),
        tracepoint: tracepoint(4, &["i", "total"]),
    });
    let template = sent_template(&out.args("setBreakpoints"));
    assert!(
        template.contains("{i}") && template.contains("{total}"),
        "{template}"
    );
    h.ok(
        out.tag("setBreakpoints"),
        json!({ "breakpoints": [{ "verified": true, "id": 1 }] }),
    );

    for (i, total) in [("0", "0"), ("1", "10")] {
        let text = format!("before {i}\n{}", printed(&template, &[i, total]));
        let effects = h.event("output", json!({ "category": "console", "output": text }));
        // Only the program's own text is output.
        let outputs: Vec<String> = effects
            .events()
            .into_iter()
            .filter_map(|e| match e {
                EventKind::Output { output, .. } => Some(output.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(outputs, [format!("before {i}\n")]);
    }
    let slice = rows(&mut h);
    let read: Vec<(u64, i64, Vec<&str>)> = slice
        .rows
        .iter()
        .map(|r| {
            (
                r.hit,
                r.line,
                r.values.iter().map(|v| v.value.as_str()).collect(),
            )
        })
        .collect();
    assert_eq!(read, [(1, 4, vec!["0", "0"]), (2, 4, vec!["1", "10"])]);
    // The breakpoint counts its hits, though no stop named it.
    let (token, out) = h.command(Command::Snapshot);
    let Ok(Answer::Snapshot(snapshot)) = out.reply(token) else {
        panic!("no snapshot");
    };
    assert_eq!(snapshot.breakpoints.file(FILE.as_ref())[0].hits, 2);
}

#[test]
fn a_tracepoint_given_at_launch_goes_out_in_the_configuration() {
    let mut h = Harness::new();
    let mut start = plan();
    start.breakpoints = vec![InitialBreakpoint {
        file: FILE.into(),
        line: 9,
        collect: vec!["x".into()],
        ..InitialBreakpoint::default()
    }];
    let all = h.launch_with(start, full_caps());
    let template = sent_template(&all.args("setBreakpoints"));
    h.event(
        "output",
        json!({ "category": "stdout", "output": printed(&template, &["7"]) }),
    );
    let slice = rows(&mut h);
    assert_eq!(slice.rows[0].values[0].expression, "x");
    assert_eq!(slice.rows[0].values[0].value, "7");
}

#[test]
fn without_log_points_a_tracepoint_stops_is_read_by_the_session_and_continues_unseen() {
    let mut h = Harness::new();
    let mut caps = full_caps();
    caps["supportsLogPoints"] = json!(false);
    h.launch_with(plan(), caps);
    let (token, waiting) = h.command(Command::WaitForStop {
        after: 0,
        timeout: std::time::Duration::from_secs(30),
    });
    let (_, out) = h.command(Command::AddTracepoint {
        file: FILE.into(),
        tracepoint: tracepoint(4, &["i", "total"]),
    });
    let sent = out.args("setBreakpoints");
    assert!(sent["breakpoints"][0].get("logMessage").is_none(), "{sent}");
    h.ok(
        out.tag("setBreakpoints"),
        json!({ "breakpoints": [{ "verified": true, "id": 1 }] }),
    );

    let stop = json!({ "reason": "breakpoint", "threadId": 3, "hitBreakpointIds": [1] });
    let at_stop = h.event("stopped", stop);
    assert!(
        at_stop.events().is_empty(),
        "no one sees the stop: {at_stop:?}"
    );
    assert_eq!(at_stop.args("stackTrace")["threadId"], 3);
    let frame = json!({ "stackFrames": [{ "id": 7, "name": "f", "line": 4, "column": 1 }] });
    let first = h.ok(at_stop.tag("stackTrace"), frame);
    assert_eq!(
        first.args("evaluate"),
        json!({ "expression": "i", "frameId": 7, "context": "watch" })
    );
    let second = h.ok(first.tag("evaluate"), json!({ "result": "3" }));
    assert_eq!(second.args("evaluate")["expression"], "total");
    let resumed = h.refuse(second.tag("evaluate"), "name 'total' is not defined");
    assert_eq!(resumed.args("continue"), json!({ "threadId": 3 }));
    let answered = |effects: &Effects| {
        effects
            .0
            .iter()
            .any(|e| matches!(e, Effect::Reply { token: t, .. } if *t == token))
    };
    assert!(
        !answered(&waiting) && !answered(&resumed),
        "the waiter still waits"
    );

    let slice = rows(&mut h);
    let row = &slice.rows[0];
    assert_eq!(
        (row.thread, row.route, row.hit),
        (Some(3), TraceRoute::Stop, 1)
    );
    assert_eq!(row.values[0].value, "3");
    assert!(row.values[1].value.contains("not defined"), "{row:?}");
}

#[test]
fn a_tracepoint_that_collects_nothing_is_refused_with_the_reason() {
    let mut h = Harness::running();
    let (token, out) = h.command(Command::AddTracepoint {
        file: FILE.into(),
        tracepoint: tracepoint(4, &[]),
    });
    assert!(out
        .error(token)
        .to_string()
        .contains("at least one expression"));
}
