//! The gate's decisions on effects: each mode against each effect, allow rules for a
//! tool (its own effect only) and for an effect, deny rules of both kinds winning, and
//! approvals for the rest of a session.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::{json, Map, Value};

use crate::tools::{ToolAnnotations, ToolSpec};

use super::effect::Effect::{self, *};
use super::*;

fn spec(name: &'static str) -> ToolSpec {
    ToolSpec {
        name,
        description: String::new(),
        input_schema: Map::new(),
        annotations: ToolAnnotations::READ_ONLY,
        effect: tool_effect(name).unwrap(),
        adds: Adds::default(),
        code_arguments: Vec::new(),
        output_schema: None,
    }
}

fn effects(list: &[(Effect, &str)]) -> Effects {
    Effects(
        list.iter()
            .map(|(e, carrier)| Found::new(*e, e.meaning(), *carrier))
            .collect(),
    )
}

/// The decision on `tool` with these effects, on session `s1`.
fn decide(gate: &PermissionGate, tool: &'static str, found: &[(Effect, &str)]) -> Decision {
    let spec = spec(tool);
    let effects = effects(found);
    let args = Value::Null;
    gate.decide(&Call {
        tool: &spec,
        arguments: &args,
        effects: &effects,
        session: Some("s1"),
    })
}

/// A decision in short: `run`, `ask` or `refuse`.
fn short(decision: &Decision) -> &'static str {
    match decision {
        Decision::Allow => "run",
        Decision::Ask { .. } => "ask",
        Decision::Refuse(_) => "refuse",
    }
}

#[test]
fn each_mode_runs_asks_or_refuses_each_effect() {
    // The table in README.md: read, control, start, code, host, foreign.
    let table = [
        (
            PermissionMode::Default,
            ["run", "run", "run", "ask", "ask", "ask"],
        ),
        (
            PermissionMode::PlanOnly,
            ["run", "refuse", "refuse", "refuse", "refuse", "refuse"],
        ),
        (PermissionMode::BypassAll, ["run"; 6]),
        (PermissionMode::DenyUnauthorized, ["refuse"; 6]),
    ];
    for (mode, answers) in table {
        let gate = PermissionGate::new(mode);
        for (effect, answer) in Effect::ALL.into_iter().zip(answers) {
            let d = decide(&gate, "debug.custom_request", &[(effect, "")]);
            assert_eq!(short(&d), answer, "{mode} {effect}: {d:?}");
        }
    }
}

#[test]
fn an_allow_rule_for_a_tool_grants_its_own_effect_and_nothing_its_arguments_add() {
    let gate =
        PermissionGate::new(PermissionMode::Default).rule(PermissionRule::allow("debug.evaluate"));
    assert_eq!(
        decide(&gate, "debug.evaluate", &[(Code, "expression")]),
        Decision::Allow
    );
    let host = decide(&gate, "debug.evaluate", &[(Host, "context: repl")]);
    assert_eq!(
        host,
        Decision::Ask {
            effects: effects(&[(Host, "context: repl")])
        },
        "the rule does not grant a host shell"
    );

    let gate = PermissionGate::new(PermissionMode::PlanOnly)
        .rule(PermissionRule::allow("debug.set_breakpoint"));
    assert_eq!(
        decide(&gate, "debug.set_breakpoint", &[(Control, "")]),
        Decision::Allow
    );
    let Decision::Refuse(why) = decide(
        &gate,
        "debug.set_breakpoint",
        &[(Control, ""), (Code, "condition")],
    ) else {
        panic!("a condition is code the rule does not grant");
    };
    assert!(
        why.contains("plan_only") && why.contains("runs code in the debuggee (condition)"),
        "{why}"
    );
    assert!(
        !why.contains("controls"),
        "only what is not granted is named: {why}"
    );
}

#[test]
fn an_effect_rule_grants_that_effect_and_what_it_includes_to_every_tool() {
    let gate = PermissionGate::new(PermissionMode::DenyUnauthorized)
        .rule(PermissionRule::allow("effect:read"))
        .rule(PermissionRule::allow("effect:code"));
    assert_eq!(
        decide(&gate, "debug.variables", &[(Read, "")]),
        Decision::Allow
    );
    assert_eq!(
        decide(&gate, "debug.evaluate", &[(Code, "expression")]),
        Decision::Allow
    );
    assert_eq!(
        decide(&gate, "debug.continue", &[(Control, "")]),
        Decision::Allow,
        "code can change the program's course: it includes control"
    );
    let Decision::Refuse(why) = decide(&gate, "debug.evaluate", &[(Host, "context: repl")]) else {
        panic!("host is not granted");
    };
    assert!(
        why.contains("deny_unauthorized") && why.contains("(context: repl)"),
        "{why}"
    );
    assert!(matches!(
        decide(&gate, "debug.launch", &[(Start, "")]),
        Decision::Refuse(_)
    ));
    // Host commands can do anything: allowing them allows every effect.
    let gate = PermissionGate::new(PermissionMode::DenyUnauthorized)
        .rule(PermissionRule::allow("effect:host"));
    for effect in Effect::ALL {
        assert_eq!(
            decide(&gate, "debug.custom_request", &[(effect, "")]),
            Decision::Allow
        );
    }
}

#[test]
fn a_deny_of_an_effect_refuses_the_calls_whose_effects_include_it() {
    let gate =
        PermissionGate::new(PermissionMode::BypassAll).rule(PermissionRule::deny("effect:code"));
    let Decision::Refuse(why) = decide(&gate, "debug.custom_request", &[(Host, "command: x")])
    else {
        panic!("host commands can run code");
    };
    assert_eq!(
        why,
        "this `debug.custom_request` call runs commands on the host (command: x), which \
         includes what `effect:code` names, and the rule `effect:code` denies that"
    );
    for other in [Read, Control, Start, Foreign] {
        assert_eq!(
            decide(&gate, "debug.custom_request", &[(other, "")]),
            Decision::Allow
        );
    }
}

#[test]
fn a_deny_rule_for_a_tool_or_an_effect_wins_over_every_allow() {
    let gate = PermissionGate::new(PermissionMode::BypassAll)
        .rule(PermissionRule::allow("effect:*"))
        .rule(PermissionRule::allow("debug.*"))
        .rule(PermissionRule::deny("effect:host"))
        .rule(PermissionRule::deny("debug.custom_*"));
    let Decision::Refuse(why) = decide(&gate, "debug.evaluate", &[(Host, "context: repl")]) else {
        panic!("host is denied");
    };
    assert_eq!(
        why,
        "this `debug.evaluate` call runs commands on the host (context: repl), and the rule \
         `effect:host` denies that"
    );
    assert_eq!(
        decide(&gate, "debug.evaluate", &[(Code, "expression")]),
        Decision::Allow
    );
    let Decision::Refuse(why) = decide(&gate, "debug.custom_request", &[(Code, "")]) else {
        panic!("the tool is denied");
    };
    assert!(why.contains("debug.custom_*"), "{why}");
    assert!(
        !gate.decides_without_effects(),
        "an effect deny needs the effects"
    );
    assert!(PermissionGate::new(PermissionMode::BypassAll).decides_without_effects());
}

/// Answers as told, and remembers what it was asked.
struct Answering(Approval, Mutex<Vec<ApprovalRequest>>);

impl Approver for Answering {
    fn approve<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Approval> {
        self.1.lock().unwrap().push(request.clone());
        Box::pin(std::future::ready(self.0.clone()))
    }
}

async fn check(
    gate: &PermissionGate,
    tool: &'static str,
    session: &str,
    found: &[(Effect, &str)],
) -> Result<Passed, ToolError> {
    let spec = spec(tool);
    let effects = effects(found);
    let args = json!({ "session_id": session });
    gate.check(
        &Call {
            tool: &spec,
            arguments: &args,
            effects: &effects,
            session: Some(session),
        },
        None,
    )
    .await
}

#[tokio::test]
async fn an_approval_for_the_session_covers_that_tool_and_effect_on_that_session_only() {
    let user = Arc::new(Answering(
        Approval::ApprovedForSession,
        Mutex::new(Vec::new()),
    ));
    let gate = PermissionGate::new(PermissionMode::Default).approver(user.clone());
    let passed = check(&gate, "debug.evaluate", "s1", &[(Code, "expression")])
        .await
        .unwrap();
    assert!(passed.remembered);
    let asked = user.1.lock().unwrap().clone();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].session.as_deref(), Some("s1"));
    assert_eq!(asked[0].why, "it runs code in the debuggee (expression)");
    assert_eq!(asked[0].rules_to_allow, "--allow debug.evaluate");

    // Asked no more for the same tool and effect on s1.
    let passed = check(&gate, "debug.evaluate", "s1", &[(Code, "expression")])
        .await
        .unwrap();
    assert!(!passed.remembered);
    assert_eq!(user.1.lock().unwrap().len(), 1);
    // Asked again for another effect, another tool, another session.
    check(&gate, "debug.evaluate", "s1", &[(Host, "context: repl")])
        .await
        .unwrap();
    check(&gate, "debug.set_variable", "s1", &[(Code, "value")])
        .await
        .unwrap();
    check(&gate, "debug.evaluate", "s2", &[(Code, "expression")])
        .await
        .unwrap();
    let asked = user.1.lock().unwrap().clone();
    assert_eq!(asked.len(), 4);
    assert_eq!(asked[1].rules_to_allow, "--allow effect:host");

    // Ended sessions' approvals go.
    gate.forget_sessions_except(|s| s == "s2");
    check(&gate, "debug.evaluate", "s1", &[(Code, "expression")])
        .await
        .unwrap();
    assert_eq!(user.1.lock().unwrap().len(), 5);
}

#[tokio::test]
async fn a_denied_approval_refuses_with_the_reason_and_remembers_nothing() {
    let user = Arc::new(Answering(
        Approval::Denied("not now".into()),
        Mutex::new(Vec::new()),
    ));
    let gate = PermissionGate::new(PermissionMode::Default).approver(user.clone());
    let err = check(&gate, "debug.attach", "s1", &[(Foreign, "pid: 7")])
        .await
        .unwrap_err();
    assert_eq!(err.kind, FORBIDDEN);
    assert!(
        err.error
            .contains("`debug.attach` was not approved: not now"),
        "{err:?}"
    );
    check(&gate, "debug.attach", "s1", &[(Foreign, "pid: 7")])
        .await
        .unwrap_err();
    assert_eq!(user.1.lock().unwrap().len(), 2);
}
