//! Breakpoint features in the session core: conditions, hit counts, logpoints and
//! function breakpoints are refused by an adapter that does not advertise them, once
//! its capabilities are known (not before), and sent as asked by one that does.

use std::path::Path;

use serde_json::json;

use super::breakpoints::{add_bp, running_with, FILE};
use super::{bp, plan, Harness};
use crate::core::command::Command;
use crate::core::session::function_breakpoint;
use crate::error::SessionError;
use crate::wire::types::SourceBreakpoint;

fn unsupported(err: &SessionError) -> &str {
    match err {
        SessionError::Unsupported {
            adapter,
            capability,
        } => {
            assert_eq!(adapter, "fake");
            capability
        }
        other => panic!("want Unsupported, got {other:?}"),
    }
}

#[test]
fn conditional_breakpoints_are_refused_by_an_adapter_without_them() {
    let mut h = Harness::new();
    h.launch_with(plan(), json!({ "supportsConfigurationDoneRequest": true }));
    let (token, out) = h.command(add_bp(SourceBreakpoint {
        condition: Some("x > 1".into()),
        ..bp(3)
    }));
    assert!(unsupported(out.error(token)).contains("supportsConditionalBreakpoints"));
    assert!(out.sends().is_empty());
}

#[test]
fn hit_count_breakpoints_are_refused_by_an_adapter_without_them() {
    let mut h = Harness::new();
    h.launch_with(plan(), json!({ "supportsConfigurationDoneRequest": true }));
    let (token, out) = h.command(Command::SetBreakpoints {
        file: FILE.into(),
        breakpoints: vec![
            bp(2),
            SourceBreakpoint {
                hit_condition: Some(">= 3".into()),
                ..bp(3)
            },
        ],
    });
    assert!(unsupported(out.error(token)).contains("supportsHitConditionalBreakpoints"));
}

#[test]
fn logpoints_are_refused_by_an_adapter_without_them() {
    let mut h = Harness::new();
    h.launch_with(plan(), json!({ "supportsConfigurationDoneRequest": true }));
    let (token, out) = h.command(add_bp(SourceBreakpoint {
        log_message: Some("x is {x}".into()),
        ..bp(3)
    }));
    assert!(unsupported(out.error(token)).contains("supportsLogPoints"));
    // Refused means not cached either.
    assert!(h
        .core
        .snapshot()
        .breakpoints
        .file(Path::new(FILE))
        .is_empty());
}

#[test]
fn function_breakpoints_are_refused_by_an_adapter_without_them() {
    let mut h = Harness::new();
    h.launch_with(plan(), json!({ "supportsConfigurationDoneRequest": true }));
    let (token, out) = h.command(Command::SetFunctionBreakpoints(vec![function_breakpoint(
        "main",
    )]));
    assert_eq!(
        unsupported(out.error(token)),
        "`setFunctionBreakpoints` (supportsFunctionBreakpoints)"
    );
}

#[test]
fn feature_checks_wait_until_the_capabilities_are_known() {
    let mut h = Harness::new();
    let (token, out) = h.command(add_bp(SourceBreakpoint {
        condition: Some("x > 1".into()),
        log_message: Some("{x}".into()),
        ..bp(3)
    }));
    assert!(out.reply(token).is_ok());
    let (token, out) = h.command(Command::SetFunctionBreakpoints(vec![function_breakpoint(
        "main",
    )]));
    assert!(out.reply(token).is_ok());
}

#[test]
fn supported_features_pass_once_the_capabilities_are_known() {
    let mut h = running_with(&[]);
    let (_, out) = h.command(add_bp(SourceBreakpoint {
        condition: Some("x > 1".into()),
        hit_condition: Some("2".into()),
        log_message: Some("{x}".into()),
        ..bp(3)
    }));
    let sent = &out.args("setBreakpoints")["breakpoints"][0];
    assert_eq!(
        (
            &sent["condition"],
            &sent["hitCondition"],
            &sent["logMessage"]
        ),
        (&json!("x > 1"), &json!("2"), &json!("{x}"))
    );
}
