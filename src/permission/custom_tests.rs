//! A `debug.custom_request` rated by the command it sends, as the tool that sends it
//! is; and, over every route of every tool, a deny of an effect refusing each call
//! whose effects include it.

use serde_json::{json, Value};

use crate::registry::AdapterFlavor::*;

use super::adapters::Adapters;
use super::classify::CallTarget;
use super::classify_tests::{attached, effects_of, on, routes, spec, want, Case};
use super::effect::Effect::{self, *};
use super::start_tests::start_routes;
use super::{Call, Decision, PermissionGate, PermissionMode, PermissionRule};

/// A custom request of `command` with DAP `arguments`.
fn custom(command: &str, arguments: Value) -> Value {
    json!({ "session_id": "s1", "command": command, "arguments": arguments })
}

/// The custom requests, on each adapter where they differ.
fn custom_routes() -> Vec<Case> {
    let tool = "debug.custom_request";
    vec![
        // Code in the debuggee, as debug.evaluate, set_variable, set_expression rate it.
        (
            tool,
            custom("evaluate", json!({ "expression": "x", "context": "watch" })),
            on(Debugpy),
            want(&[(Code, "command: evaluate, expression")]),
        ),
        (
            tool,
            custom("evaluate", json!({ "expression": "x" })),
            on(LldbDap),
            want(&[(Code, "command: evaluate, expression")]),
        ),
        (
            tool,
            custom("evaluate", json!({ "expression": "x", "context": "repl" })),
            on(LldbDap),
            want(&[(Host, "command: evaluate, context: repl")]),
        ),
        (
            tool,
            custom("evaluate", json!({ "expression": "x", "context": "shell" })),
            on(LldbDap),
            want(&[(Host, "command: evaluate, context: shell")]),
        ),
        (
            tool,
            custom("evaluate", json!({ "expression": "x", "context": 7 })),
            on(Debugpy),
            want(&[(Code, "command: evaluate, context: 7")]),
        ),
        (
            tool,
            custom("evaluate", json!({ "expression": "qty" })),
            on(Generic),
            want(&[(
                Host,
                "command: evaluate, expression, in the repl context the adapter gets when \
                 none is named",
            )]),
        ),
        (
            tool,
            custom("setExpression", json!({ "expression": "x", "value": "f()" })),
            on(Debugpy),
            want(&[(Code, "command: setExpression, arguments.expression, arguments.value")]),
        ),
        (
            tool,
            custom("setVariable", json!({ "name": "x", "value": "f()" })),
            on(Gdb),
            want(&[(Host, "command: setVariable, arguments.value")]),
        ),
        (
            tool,
            custom("writeMemory", json!({ "memoryReference": "0x1", "data": "AA==" })),
            on(LldbDap),
            want(&[(Code, "command: writeMemory, arguments.memoryReference")]),
        ),
        // What names a container only reads; a name without one is an expression.
        (
            tool,
            custom("dataBreakpointInfo", json!({ "name": "f()" })),
            on(LldbDap),
            want(&[
                (Read, "command: dataBreakpointInfo"),
                (Code, "command: dataBreakpointInfo, arguments.name"),
            ]),
        ),
        (
            tool,
            custom(
                "dataBreakpointInfo",
                json!({ "name": "x", "variablesReference": 3 }),
            ),
            on(LldbDap),
            want(&[(Read, "command: dataBreakpointInfo")]),
        ),
        (
            tool,
            custom("completions", json!({ "text": "a." })),
            on(Generic),
            want(&[(Code, "command: completions, arguments.text")]),
        ),
        // Breakpoint lists: their conditions, and what the adapter evaluates.
        (
            tool,
            custom(
                "setExceptionBreakpoints",
                json!({ "filters": [], "exceptionOptions": [{ "path": [{ "names": ["E"] }],
                        "breakMode": "always" }],
                        "filterOptions": [{ "filterId": "raised", "condition": "x" }] }),
            ),
            on(Debugpy),
            want(&[
                (Control, "command: setExceptionBreakpoints"),
                (
                    Code,
                    "command: setExceptionBreakpoints, arguments.exceptionOptions[0].path",
                ),
                (
                    Code,
                    "command: setExceptionBreakpoints, arguments.filterOptions[0].condition",
                ),
            ]),
        ),
        (
            tool,
            custom(
                "setInstructionBreakpoints",
                json!({ "breakpoints": [{ "instructionReference": "0x1", "hitCondition": "3" }] }),
            ),
            on(Gdb),
            want(&[
                (Control, "command: setInstructionBreakpoints"),
                (
                    Host,
                    "command: setInstructionBreakpoints, arguments.breakpoints[0].instructionReference",
                ),
                (
                    Host,
                    "command: setInstructionBreakpoints, arguments.breakpoints[0].hitCondition",
                ),
            ]),
        ),
        (
            tool,
            custom("setDataBreakpoints", json!({ "breakpoints": [] })),
            on(LldbDap),
            want(&[(Control, "command: setDataBreakpoints")]),
        ),
        // Reads and moves, whatever the adapter.
        (
            tool,
            custom("stackTrace", json!({ "threadId": 1 })),
            on(Debugpy),
            want(&[(Read, "command: stackTrace")]),
        ),
        (
            tool,
            custom("goto", json!({ "threadId": 1, "targetId": 2 })),
            on(Debugpy),
            want(&[(Control, "command: goto")]),
        ),
        (
            tool,
            custom(" next ", Value::Null),
            on(Debugpy),
            want(&[(Control, "command: next")]),
        ),
        (
            tool,
            custom("terminateThreads", json!({ "threadIds": [1] })),
            attached(Debugpy),
            want(&[(Foreign, "session s1 attached to pid 4242")]),
        ),
        // Anything else can do what the adapter can: reserved commands, other
        // spellings of known ones (pydevd lowercases), the adapters' own.
        (
            tool,
            custom("Evaluate", json!({ "expression": "x" })),
            on(Debugpy),
            want(&[(Host, "command: Evaluate")]),
        ),
        (
            tool,
            custom("restart", json!({})),
            on(Debugpy),
            want(&[(Host, "command: restart")]),
        ),
        (
            tool,
            custom("pydevdSystemInfo", json!({})),
            CallTarget::reaching(Adapters::Any),
            want(&[(Host, "command: pydevdSystemInfo")]),
        ),
        (
            tool,
            json!({ "session_id": "s1", "command": 5, "arguments": "x" }),
            on(Debugpy),
            want(&[(Host, "command: ")]),
        ),
    ]
}

#[test]
fn a_custom_request_is_rated_by_the_command_it_sends() {
    for (tool, args, target, expected) in custom_routes() {
        assert_eq!(
            effects_of(tool, args.clone(), &target),
            expected,
            "{args} on {target:?}"
        );
    }
}

#[test]
fn every_route_is_refused_by_a_deny_of_any_effect_it_includes_and_no_other() {
    let all: Vec<Case> = routes()
        .into_iter()
        .chain(start_routes())
        .chain(custom_routes())
        .collect();
    assert!(all.len() > 75, "{}", all.len());
    let mut refusals_by_inclusion = 0;
    for (tool, args, target, _) in all {
        let spec = spec(tool);
        let effects = super::classify(&spec, &args, &target);
        for denied in Effect::ALL {
            let gate = PermissionGate::new(PermissionMode::BypassAll)
                .rule(PermissionRule::deny(format!("effect:{denied}")));
            let decision = gate.decide(&Call {
                tool: &spec,
                arguments: &args,
                effects: &effects,
                session: Some("s1"),
            });
            let includes = effects.0.iter().any(|f| f.effect.includes(denied));
            let exactly = effects.has(denied);
            match decision {
                Decision::Refuse(why) if includes => {
                    assert!(why.contains(&format!("effect:{denied}")), "{why}");
                    if !exactly {
                        refusals_by_inclusion += 1;
                        assert!(why.contains("which includes"), "{why}");
                    }
                }
                Decision::Allow if !includes => {}
                other => panic!("{tool} {args} with effect:{denied} denied: {other:?}"),
            }
        }
    }
    assert!(refusals_by_inclusion > 50, "{refusals_by_inclusion}");
}

#[test]
fn the_gate_rates_a_launch_s_environment_with_the_names_it_was_told_are_inert() {
    let launch = json!({ "program": "p.py", "env": { "MYAPP_MODE": "1", "CC": "x" } });
    let target = CallTarget::reaching(Adapters::Some(vec![Debugpy]));
    let spec = spec("debug.launch");
    let carriers = |gate: &PermissionGate| -> Vec<String> {
        let effects = gate.classify(&spec, &launch, &target);
        effects.0.into_iter().map(|f| f.carrier).collect()
    };
    let plain = PermissionGate::default();
    assert_eq!(carriers(&plain), ["program: p.py", "env: CC, MYAPP_MODE"]);
    let told = PermissionGate::default()
        .inert_env(super::EnvAllowlist::default().allow("MYAPP_*").unwrap());
    assert_eq!(carriers(&told), ["program: p.py", "env: CC"]);
}
