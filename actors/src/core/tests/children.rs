//! Pure tests of child sessions as the parent's core sees them: a `startDebugging`
//! becomes the plan of a child that carries every breakpoint whole, and ending the
//! parent ends its children first.

use serde_json::json;

use super::{Effects, Harness, PROGRAM};
use crate::core::command::{Command, Effect, Input, StartPlan};
use crate::core::session::function_breakpoint;
use crate::core::state::Operation;
use crate::registry::TransportKind;
use crate::wire::types::{FunctionBreakpoint, SourceBreakpoint};

/// The plan of the child the effects start.
fn child_plan(out: &Effects) -> &StartPlan {
    out.0
        .iter()
        .find_map(|e| match e {
            Effect::SpawnChild(plan) => Some(&**plan),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no child was started: {out:?}"))
}

/// Where the parent ends its children among the effects, and how.
fn ending_children(out: &Effects) -> Option<(usize, bool)> {
    out.0.iter().enumerate().find_map(|(at, e)| match e {
        Effect::EndChildren { terminate_debuggee } => Some((at, *terminate_debuggee)),
        _ => None,
    })
}

fn start_debugging(h: &mut Harness, configuration: serde_json::Value) -> Effects {
    let serde_json::Value::Object(configuration) = configuration else {
        panic!("a configuration is an object");
    };
    Effects(h.core.handle(Input::StartDebugging {
        request: "attach".into(),
        configuration,
        server: None,
    }))
}

#[test]
fn a_child_gets_every_breakpoint_whole_and_reaches_the_adapter_it_names() {
    let mut h = Harness::running();
    h.command(Command::AddBreakpoint {
        file: PROGRAM.into(),
        breakpoint: SourceBreakpoint {
            line: 5,
            condition: Some("n > 2".into()),
            hit_condition: Some("3".into()),
            ..SourceBreakpoint::default()
        },
    });
    let guarded = FunctionBreakpoint {
        condition: Some("job == 3".into()),
        hit_condition: Some(">= 2".into()),
        ..function_breakpoint("work")
    };
    h.command(Command::SetFunctionBreakpoints(vec![
        guarded.clone(),
        function_breakpoint("main"),
    ]));
    h.command(Command::SetExceptionBreakpoints(vec!["raised".into()]));

    let out = start_debugging(
        &mut h,
        json!({ "name": "worker", "connect": { "host": "127.0.0.1", "port": 5711 } }),
    );
    let plan = child_plan(&out);
    assert_eq!(plan.operation, Operation::Attach);
    assert_eq!(plan.program.as_deref(), Some("worker"));
    assert_eq!(
        plan.adapter.transport,
        TransportKind::TcpConnect {
            host: "127.0.0.1".into(),
            port: 5711
        }
    );
    assert_eq!(
        plan.function_breakpoints,
        [guarded, function_breakpoint("main")]
    );
    let source = &plan.breakpoints[0];
    assert_eq!(
        (
            source.line,
            source.condition.as_deref(),
            source.hit_condition.as_deref()
        ),
        (5, Some("n > 2"), Some("3"))
    );
    assert_eq!(plan.exception_filters, ["raised"]);
}

#[test]
fn terminating_ends_the_children_before_the_adapter_is_let_go() {
    let mut h = Harness::stopped();
    let (_, out) = h.command(Command::Terminate);
    let (at, terminate) = ending_children(&out).expect("the children end");
    assert!(terminate);
    let disconnect = out
        .0
        .iter()
        .position(|e| matches!(e, Effect::Send { request, .. } if request.command == "disconnect"))
        .unwrap();
    assert!(at < disconnect, "children first: {out:?}");
}

#[test]
fn detaching_detaches_from_the_children_and_restarting_ends_them() {
    let mut h = Harness::running();
    let (_, out) = h.command(Command::Disconnect {
        terminate_debuggee: false,
    });
    assert_eq!(ending_children(&out).map(|(_, t)| t), Some(false));

    // A restart by relaunch: the new run's adapter asks for children afresh.
    let mut h = Harness::new();
    h.launch_with(
        super::plan(),
        json!({ "supportsConfigurationDoneRequest": true }),
    );
    let (_, out) = h.command(Command::Restart);
    assert_eq!(ending_children(&out).map(|(_, t)| t), Some(true));
}
