//! Breakpoints by name in the session core: function breakpoints (the whole list sent on
//! every change, added, replaced and removed one by one, the adapter's verdicts
//! answered) and exception filters (cached before start, sent once the adapter is
//! ready).

use serde_json::json;

use super::breakpoints::running_with;
use super::{full_caps, plan, Harness};
use crate::core::command::{Answer, Command};
use crate::core::session::function_breakpoint;
use crate::error::SessionError;

#[test]
fn function_breakpoints_are_sent_while_running_and_answered_as_the_adapter_says() {
    let mut h = running_with(&[]);
    let (token, out) = h.command(Command::SetFunctionBreakpoints(vec![
        function_breakpoint("main"),
        function_breakpoint("helper"),
    ]));
    let names: Vec<_> = out.args("setFunctionBreakpoints")["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, vec!["main", "helper"]);
    let body = json!({ "breakpoints": [{ "id": 5, "verified": true }, { "verified": false }] });
    let out = h.ok(out.tag("setFunctionBreakpoints"), body);
    match out.reply(token) {
        Ok(Answer::Breakpoints(list)) => {
            let verified: Vec<_> = list.iter().map(|b| b.verified).collect();
            assert_eq!(verified, vec![true, false]);
        }
        other => panic!("want breakpoints, got {other:?}"),
    }
}

#[test]
fn exception_filters_are_cached_before_start_and_sent_once_the_adapter_is_ready() {
    let mut h = Harness::new();
    let (token, out) = h.command(Command::SetExceptionBreakpoints(vec!["uncaught".into()]));
    assert!(out.sends().is_empty());
    assert!(matches!(out.reply(token), Ok(Answer::Done)));
    let (_, out) = h.command(Command::Start(Box::new(plan())));
    h.ok(out.tag("initialize"), full_caps());
    let out = h.event("initialized", json!({}));
    assert_eq!(
        out.args("setExceptionBreakpoints")["filters"],
        json!(["uncaught"])
    );

    let mut h = Harness::stopped();
    let (token, out) = h.command(Command::SetExceptionBreakpoints(vec!["raised".into()]));
    assert_eq!(
        out.args("setExceptionBreakpoints")["filters"],
        json!(["raised"])
    );
    let out = h.ok(out.tag("setExceptionBreakpoints"), json!({}));
    assert!(out.reply(token).is_ok());
}

/// The function names a `setFunctionBreakpoints` in `out` sends.
fn sent_functions(out: &super::Effects) -> Vec<String> {
    out.args("setFunctionBreakpoints")["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn adding_and_removing_one_function_breakpoint_sends_the_whole_list() {
    let mut h = running_with(&[]);
    let (_, out) = h.command(Command::AddFunctionBreakpoint(function_breakpoint("main")));
    assert_eq!(sent_functions(&out), ["main"]);
    h.ok(
        out.tag("setFunctionBreakpoints"),
        json!({ "breakpoints": [{ "verified": true }] }),
    );
    let (_, out) = h.command(Command::AddFunctionBreakpoint(function_breakpoint(
        "helper",
    )));
    assert_eq!(sent_functions(&out), ["main", "helper"]);
    h.ok(
        out.tag("setFunctionBreakpoints"),
        json!({ "breakpoints": [] }),
    );
    // The same function again replaces it rather than adding a second.
    let mut conditional = function_breakpoint("main");
    conditional.condition = Some("n > 2".into());
    let (_, out) = h.command(Command::AddFunctionBreakpoint(conditional));
    assert_eq!(sent_functions(&out), ["main", "helper"]);
    h.ok(
        out.tag("setFunctionBreakpoints"),
        json!({ "breakpoints": [] }),
    );
    let (_, out) = h.command(Command::RemoveFunctionBreakpoint("main".into()));
    assert_eq!(sent_functions(&out), ["helper"]);
}

#[test]
fn removing_a_function_breakpoint_that_is_not_there_names_those_that_are() {
    let mut h = running_with(&[]);
    let (_, out) = h.command(Command::AddFunctionBreakpoint(function_breakpoint("main")));
    h.ok(
        out.tag("setFunctionBreakpoints"),
        json!({ "breakpoints": [] }),
    );
    let (token, out) = h.command(Command::RemoveFunctionBreakpoint("nope".into()));
    match out.error(token) {
        SessionError::InvalidArgument(text) => {
            assert!(text.contains("`nope`") && text.contains("[main]"), "{text}")
        }
        other => panic!("{other:?}"),
    }
    assert!(out.sends().is_empty());
}
