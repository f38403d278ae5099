//! A remote target that goes ends the session as target_gone (`target_gone.rs`), and
//! a session with path mappings sees only local paths (`mapped_paths.rs`).

use serde_json::json;

use super::*;
use crate::core::attach_target::AttachTarget;
use crate::core::command::{Input, StartPlan};
use crate::core::state::{Operation, SessionState};
use crate::error::AdapterExit;
use crate::path_map::{PathMap, PathMapping};
use crate::registry::AdapterFlavor;

/// An attach by port to a debug server at 127.0.0.1:4711 under `flavor`.
fn server_plan(flavor: AdapterFlavor) -> StartPlan {
    let mut plan = attach_plan();
    plan.adapter.flavor = flavor;
    plan.attach_target = Some(AttachTarget::Server {
        host: "127.0.0.1".into(),
        port: 4711,
    });
    plan
}

fn running(plan: StartPlan) -> Harness {
    let mut h = Harness::new();
    h.launch_with(plan, full_caps());
    assert_eq!(h.state(), SessionState::Running);
    h
}

fn failure(h: &Harness) -> String {
    h.core.snapshot().failure.unwrap_or_default()
}

#[test]
fn a_direct_debug_server_that_drops_the_connection_is_gone_not_crashed() {
    let mut h = running(server_plan(AdapterFlavor::Debugpy));
    let out = h.input(Input::Closed(AdapterExit {
        reason: "connection reset".into(),
        ..AdapterExit::default()
    }));
    assert_eq!(h.state(), SessionState::Failed);
    assert!(!out
        .0
        .iter()
        .any(|e| matches!(e, crate::core::command::Effect::ReportCrash(_))));
    let why = failure(&h);
    assert!(
        why.starts_with("target_gone: the debug server at 127.0.0.1:4711"),
        "{why}"
    );
    assert!(why.contains("attach to it anew"), "{why}");

    // A pid attach's adapter crash is still a crash, restarted by the supervisor.
    let mut h = running(attach_plan());
    let out = h.input(Input::Closed(AdapterExit::default()));
    assert!(out
        .0
        .iter()
        .any(|e| matches!(e, crate::core::command::Effect::ReportCrash(_))));
}

#[test]
fn lldb_s_lost_connection_exit_code_is_the_target_gone_even_after_terminated() {
    for flavor in [AdapterFlavor::LldbDap, AdapterFlavor::CodeLldb] {
        let mut h = running(server_plan(flavor));
        h.event("exited", json!({ "exitCode": -1 }));
        assert_eq!(h.state(), SessionState::Failed, "{flavor:?}");
        assert!(failure(&h).starts_with("target_gone"), "{flavor:?}");
        // The `terminated` lldb sends next leaves it failed.
        h.event("terminated", json!({}));
        assert_eq!(h.state(), SessionState::Failed, "{flavor:?}");

        let mut h = running(server_plan(flavor));
        h.event("terminated", json!({}));
        h.event("exited", json!({ "exitCode": -1 }));
        assert_eq!(
            h.state(),
            SessionState::Failed,
            "{flavor:?}: said after terminated"
        );
    }
    // Another code is the program's own exit; a pid attach's -1 is the program's too.
    let mut h = running(server_plan(AdapterFlavor::LldbDap));
    h.event("exited", json!({ "exitCode": 3 }));
    assert_ne!(h.state(), SessionState::Failed);
    let mut pid = attach_plan();
    pid.adapter.flavor = AdapterFlavor::LldbDap;
    let mut h = running(pid);
    h.event("exited", json!({ "exitCode": -1 }));
    assert_ne!(h.state(), SessionState::Failed);
}

#[test]
fn a_mapped_session_sends_remote_paths_and_sees_local_ones() {
    let mut plan = server_plan(AdapterFlavor::Debugpy);
    plan.path_map = PathMap::new(&[PathMapping::new("/home/me/app", "/srv/app")]);
    plan = with_breakpoints(plan, &[("/home/me/app/a.py", 3)]);
    assert_eq!(plan.operation, Operation::Attach);
    let mut h = Harness::new();
    let all = h.launch_with(plan, full_caps());
    let sent = all.args("setBreakpoints");
    assert_eq!(sent["source"]["path"], "/srv/app/a.py", "{sent}");
    h.stop("breakpoint");
    let (token, out) = h.command(request(
        Operation::StackTrace,
        "stackTrace",
        json!({ "threadId": 1 }),
    ));
    let tag = out.tag("stackTrace");
    let out = h.ok(
        tag,
        json!({ "stackFrames": [
            { "id": 1, "name": "f", "line": 3, "column": 1, "source": { "path": "/srv/app/a.py" } },
            { "id": 2, "name": "g", "line": 9, "column": 1, "source": { "path": "/usr/lib/b.py" } },
        ] }),
    );
    let answer = format!("{:?}", out.reply(token));
    assert!(answer.contains("/home/me/app/a.py"), "{answer}");
    assert!(answer.contains("remote:/usr/lib/b.py"), "{answer}");
    assert!(!answer.contains("/srv/app"), "{answer}");
}
