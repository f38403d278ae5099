//! Tracepoints in the session core: sent as log points whose message is the session's
//! template, their hits taken out of the output as rows, counted as hits of their
//! breakpoint, and refused where the adapter has no log points.

use serde_json::{json, Value};

use super::session_tests::{full_caps, plan, Harness};
use crate::core::command::{Answer, Command};
use crate::core::trace::{TraceSlice, Tracepoint};
use crate::error::SessionError;
use crate::events::EventKind;
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
fn an_adapter_without_log_points_refuses_a_tracepoint_and_names_the_capability() {
    let mut h = Harness::new();
    let mut caps = full_caps();
    caps["supportsLogPoints"] = json!(false);
    h.launch_with(plan(), caps);
    let (token, out) = h.command(Command::AddTracepoint {
        file: FILE.into(),
        tracepoint: tracepoint(4, &["i"]),
    });
    match out.error(token) {
        SessionError::Unsupported { capability, .. } => {
            assert!(capability.contains("supportsLogPoints"), "{capability}")
        }
        other => panic!("want Unsupported, got {other:?}"),
    }
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
