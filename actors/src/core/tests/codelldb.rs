//! Pure tests of a CodeLLDB quirk the core smooths over: a stop made by an exception
//! filter comes as a `breakpoint` stop on a breakpoint that is none of the session's.

use serde_json::json;

use super::{full_caps, plan, with_breakpoints, Harness, PROGRAM};
use crate::core::command::Command;
use crate::registry::AdapterFlavor;

/// Running under a CodeLLDB-flavoured adapter, a breakpoint at line 5 (given id 7)
/// and the `cpp_throw` filter set.
fn codelldb_running() -> Harness {
    let mut h = Harness::new();
    let mut plan = with_breakpoints(plan(), &[(PROGRAM, 5)]);
    plan.adapter.flavor = AdapterFlavor::CodeLldb;
    plan.exception_filters = vec!["cpp_throw".into()];
    let (_, started) = h.command(Command::Start(Box::new(plan)));
    let launch = h.ok(started.tag("initialize"), full_caps());
    h.ok(launch.tag("launch"), json!({}));
    let config = h.event("initialized", json!({}));
    for (tag, request, _) in config.sends() {
        let body = match request.command.as_str() {
            "setBreakpoints" => {
                json!({ "breakpoints": [{ "id": 7, "verified": true, "line": 5 }] })
            }
            _ => json!({}),
        };
        h.ok(tag, body);
    }
    h
}

#[test]
fn a_codelldb_stop_on_a_breakpoint_of_its_own_is_the_exception_stop_it_is() {
    let mut h = codelldb_running();
    h.event(
        "stopped",
        json!({ "reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [1] }),
    );
    let stop = h.core.snapshot().last_stop.unwrap();
    assert_eq!(stop.reason, "exception");
    assert!(stop.description.unwrap().contains("CodeLLDB"));

    // The session's own breakpoint is a breakpoint stop.
    let mut h = codelldb_running();
    h.event(
        "stopped",
        json!({ "reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [7] }),
    );
    assert_eq!(h.core.snapshot().last_stop.unwrap().reason, "breakpoint");

    // Without the filter, nothing is made of an unknown id.
    let mut h = Harness::running();
    h.event(
        "stopped",
        json!({ "reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [1] }),
    );
    assert_eq!(h.core.snapshot().last_stop.unwrap().reason, "breakpoint");
}
