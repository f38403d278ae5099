//! [`classify`] on each route, as a table: a tool, its arguments, where it lands, and
//! the effects (with what carries each) it must have.

use serde_json::{json, Value};

use crate::registry::AdapterFlavor::{self, *};
use crate::tools::ToolSpec;

use super::adapters::Adapters;
use super::classify::{classify, depends_on_target, tool_effect, CallTarget};
use super::effect::Effect::{self, *};

/// The catalogue's spec of `name`: its code arguments are those its real schema has.
pub(super) fn spec(name: &'static str) -> ToolSpec {
    crate::tools::all_tools()
        .into_iter()
        .find(|t| t.spec.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
        .spec
}

pub(super) fn on(flavor: AdapterFlavor) -> CallTarget {
    CallTarget {
        session: Some("s1".into()),
        ..CallTarget::reaching(Adapters::Some(vec![flavor]))
    }
}

pub(super) fn attached(flavor: AdapterFlavor) -> CallTarget {
    CallTarget {
        attached_to: Some("pid 4242".into()),
        ..on(flavor)
    }
}

/// The effects and carriers of a call.
pub(super) fn effects_of(
    tool: &'static str,
    args: Value,
    target: &CallTarget,
) -> Vec<(Effect, String)> {
    classify(&spec(tool), &args, target)
        .0
        .into_iter()
        .map(|f| (f.effect, f.carrier))
        .collect()
}

/// A call (tool, arguments, where it lands) and the effects it must have.
pub(super) type Case = (&'static str, Value, CallTarget, Vec<(Effect, String)>);

pub(super) fn want(list: &[(Effect, &str)]) -> Vec<(Effect, String)> {
    list.iter().map(|(e, c)| (*e, c.to_string())).collect()
}

/// What an evaluation that names no context carries on an adapter that gets `repl`.
const DEFAULT_REPL: &str = "expression, in the repl context the adapter gets when none is named";

#[test]
fn each_route_has_the_effects_of_its_arguments_and_adapter() {
    for (tool, args, target, expected) in routes() {
        assert_eq!(
            effects_of(tool, args.clone(), &target),
            expected,
            "{tool} {args} on {target:?}"
        );
    }
}

/// Every route of the tools, on each adapter where it differs.
pub(super) fn routes() -> Vec<Case> {
    vec![
        // Reads and control, as the tool always does.
        (
            "debug.variables",
            json!({ "scope": "Locals" }),
            on(LldbDap),
            want(&[(Read, "")]),
        ),
        (
            "debug.continue",
            json!({}),
            attached(LldbDap),
            want(&[(Control, "")]),
        ),
        (
            "debug.disconnect",
            json!({}),
            attached(LldbDap),
            want(&[(Control, "")]),
        ),
        // Watches and tracepoints run expressions in the debuggee, on any tool.
        (
            "debug.continue",
            json!({ "watch": ["total"] }),
            on(Debugpy),
            want(&[(Control, ""), (Code, "watch")]),
        ),
        (
            "debug.step_over",
            json!({ "watch": [] }),
            on(Debugpy),
            want(&[(Control, "")]),
        ),
        (
            "debug.launch",
            json!({ "program": "p.py", "watch": ["x"],
                    "breakpoints": [{ "file": "p.py", "line": 2, "collect": ["i"] }] }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[
                (Start, "program: p.py"),
                (Code, "breakpoints[0].collect"),
                (Code, "watch"),
            ]),
        ),
        // Opening a core dump reads a process that has ended: nothing is started.
        (
            "debug.launch",
            json!({ "program": "crash", "core": "core.17" }),
            CallTarget::reaching(Adapters::Some(vec![LldbDap])),
            want(&[(Read, "core: core.17")]),
        ),
        (
            "debug.attach",
            json!({ "pid": 4242, "watch": ["x"] }),
            CallTarget::reaching(Adapters::Some(vec![LldbDap])),
            want(&[(Foreign, "pid: 4242"), (Code, "watch")]),
        ),
        (
            "debug.set_breakpoint",
            json!({ "file": "a.c", "line": 3, "collect": ["x"] }),
            on(CodeLldb),
            want(&[(Control, ""), (Host, "collect")]),
        ),
        // evaluate: an expression runs in the debuggee, or on the host where the
        // adapter's expressions can; lldb-dap's console runs lldb commands.
        (
            "debug.evaluate",
            json!({ "expression": "x" }),
            on(LldbDap),
            want(&[(Code, "expression")]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "x", "context": "watch" }),
            on(LldbDap),
            want(&[(Code, "expression")]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "x", "context": "repl" }),
            on(LldbDap),
            want(&[(Host, "context: repl")]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "x", "context": "repl" }),
            on(Debugpy),
            want(&[(Code, "context: repl")]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "x", "context": "repl" }),
            on(Delve),
            want(&[(Code, "context: repl")]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "x", "context": "repl" }),
            on(Gdb),
            want(&[(Host, "context: repl")]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "x" }),
            on(CodeLldb),
            want(&[(Host, DEFAULT_REPL)]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "x" }),
            on(Gdb),
            want(&[(Host, DEFAULT_REPL)]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "x" }),
            on(JsDebug),
            want(&[(Code, "expression")]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "x" }),
            CallTarget::unknown(Some("s9".into())),
            want(&[(Host, DEFAULT_REPL)]),
        ),
        // A generic adapter gets `repl` when no context is named (the core sends it):
        // its console, rated as sent.
        (
            "debug.evaluate",
            json!({ "expression": "qty" }),
            on(Generic),
            want(&[(Host, DEFAULT_REPL)]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "qty", "context": "repl" }),
            on(Generic),
            want(&[(Host, "context: repl")]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "qty", "context": "hover" }),
            on(Generic),
            want(&[(Code, "expression")]),
        ),
        (
            "debug.evaluate",
            json!({ "expression": "qty" }),
            on(Debugpy),
            want(&[(Code, "expression")]),
        ),
        // New values are expressions.
        (
            "debug.set_variable",
            json!({ "value": "f()" }),
            on(Debugpy),
            want(&[(Code, "value")]),
        ),
        (
            "debug.set_expression",
            json!({ "value": "1" }),
            on(Gdb),
            want(&[(Host, "expression, value")]),
        ),
        (
            "debug.write_memory",
            json!({ "memory_reference": "0x10" }),
            on(LldbDap),
            want(&[(Code, "memory_reference: 0x10")]),
        ),
        (
            "debug.custom_request",
            json!({ "command": "x" }),
            on(Debugpy),
            want(&[(Host, "command: x")]),
        ),
        // A data breakpoint's name without a container is an expression.
        (
            "debug.data_breakpoint_info",
            json!({ "name": "f()" }),
            on(LldbDap),
            want(&[(Read, ""), (Code, "name")]),
        ),
        (
            "debug.data_breakpoint_info",
            json!({ "name": "x", "variables_reference": 0 }),
            on(LldbDap),
            want(&[(Read, ""), (Code, "name")]),
        ),
        (
            "debug.data_breakpoint_info",
            json!({ "name": "x", "scope": "Locals" }),
            on(LldbDap),
            want(&[(Read, "")]),
        ),
        (
            "debug.data_breakpoint_info",
            json!({ "name": "x", "variables_reference": 7 }),
            on(LldbDap),
            want(&[(Read, "")]),
        ),
        // debugpy evaluates exception-option names; adapters that do not, do not.
        (
            "debug.set_exception_breakpoints",
            json!({ "filters": ["raised"], "exception_options": [
                { "path": [], "break_mode": "always" },
                { "path": [["Python Exceptions"], ["E"]], "break_mode": "always" }] }),
            on(Debugpy),
            want(&[(Control, ""), (Code, "exception_options[1].path")]),
        ),
        (
            "debug.set_exception_breakpoints",
            json!({ "exception_options": [{ "path": [["C++"]], "break_mode": "always" }] }),
            on(LldbDap),
            want(&[(Control, "")]),
        ),
        (
            "debug.set_exception_breakpoints",
            json!({ "filters": [], "filter_options": [{ "filter_id": "raised", "condition": "x" }] }),
            on(Debugpy),
            want(&[(Control, ""), (Code, "filter_options[0].condition")]),
        ),
        // gdb makes an instruction reference a location expression.
        (
            "debug.set_instruction_breakpoints",
            json!({ "breakpoints": [{ "instruction_reference": "0x10" }] }),
            on(Gdb),
            want(&[
                (Control, ""),
                (Host, "breakpoints[0].instruction_reference"),
            ]),
        ),
        (
            "debug.set_instruction_breakpoints",
            json!({ "breakpoints": [{ "instruction_reference": "0x10" }] }),
            on(LldbDap),
            want(&[(Control, "")]),
        ),
        // Conditions, hit conditions and log messages.
        (
            "debug.set_breakpoint",
            json!({ "file": "a.c", "line": 3, "condition": "x" }),
            on(LldbDap),
            want(&[(Control, ""), (Code, "condition")]),
        ),
        (
            "debug.set_breakpoint",
            json!({ "file": "a.c", "line": 3, "log_message": "{x}" }),
            on(CodeLldb),
            want(&[(Control, ""), (Host, "log_message")]),
        ),
        (
            "debug.set_breakpoint",
            json!({ "file": "a.c", "line": 3, "condition": "" }),
            on(LldbDap),
            want(&[(Control, "")]),
        ),
        // Completions look names up on the adapters here; a generic one may evaluate.
        (
            "debug.completions",
            json!({ "text": "a.b" }),
            on(Debugpy),
            want(&[(Read, "")]),
        ),
        (
            "debug.completions",
            json!({ "text": "a.b" }),
            on(Generic),
            want(&[(Code, "text")]),
        ),
    ]
}

#[test]
fn the_words_name_the_adapter_s_way_of_doing_it() {
    let repl = json!({ "expression": "platform shell id", "context": "repl" });
    let effects = classify(&spec("debug.evaluate"), &repl, &on(LldbDap));
    assert_eq!(
        effects.describe(),
        "runs lldb commands on the host (context: repl)"
    );
    let condition = json!({ "file": "p.py", "line": 3, "condition": "x" });
    let effects = classify(&spec("debug.set_breakpoint"), &condition, &on(Debugpy));
    assert_eq!(
        effects.describe(),
        "controls the debuggee; runs Python code in the debuggee (condition)"
    );
    // A source the launch builds says its compiler runs.
    let launch = |program: &str| {
        let args = json!({ "program": program });
        classify(&spec("debug.launch"), &args, &on(LldbDap)).describe()
    };
    assert_eq!(
        launch("sum.c"),
        "builds the source with its compiler, then starts it (program: sum.c)"
    );
    assert_eq!(launch("sum"), "starts a process (program: sum)");
}

#[test]
fn every_tool_the_table_knows_has_one_effect_and_unknown_ones_none() {
    assert_eq!(tool_effect("debug.evaluate"), Some(Code));
    assert_eq!(tool_effect("debug.attach"), Some(Foreign));
    assert_eq!(tool_effect("debug.no_such_tool"), None);
}

#[test]
fn a_call_that_does_not_depend_on_its_target_has_the_same_effects_wherever_it_lands() {
    let targets = [
        CallTarget::unknown(Some("s9".into())),
        on(Debugpy),
        attached(Gdb),
        CallTarget::reaching(Adapters::Some(Vec::new())),
    ];
    let args = json!({ "session_id": "s1", "expression": "x", "context": "repl",
                       "name": "x", "text": "a.b", "value": "1" });
    let mut independent = 0;
    for &(name, _) in crate::tools::tool_effects() {
        let spec = spec(name);
        if depends_on_target(&spec, &args) {
            continue;
        }
        independent += 1;
        let first = classify(&spec, &args, &targets[0]);
        for target in &targets[1..] {
            assert_eq!(
                classify(&spec, &args, target),
                first,
                "{name} on {target:?}"
            );
        }
    }
    assert!(
        independent > 20,
        "most tools only read or control: {independent}"
    );
    // A condition makes any tool depend on its adapter.
    let condition = json!({ "file": "a.c", "line": 1, "condition": "x" });
    assert!(depends_on_target(&spec("debug.set_breakpoint"), &condition));
    assert!(!depends_on_target(
        &spec("debug.set_breakpoint"),
        &json!({ "file": "a.c", "line": 1 })
    ));
}

#[test]
fn a_diff_read_on_by_its_id_is_a_read_and_any_run_field_makes_it_a_start() {
    let nowhere = CallTarget::reaching(Adapters::Some(Vec::new()));
    let page = json!({ "diff_id": "d1", "cursor": 3, "limit": 5 });
    assert_eq!(
        effects_of("debug.diff", page, &nowhere),
        want(&[(Read, "diff_id")])
    );
    // A field that runs something, beside `diff_id`, is a new diff's (which the handler
    // refuses beside an id), rated as one; so is an id that is not a string.
    for args in [
        json!({ "diff_id": "d1", "a": { "program": "x.py" } }),
        json!({ "diff_id": "d1", "calls": ["f"] }),
        json!({ "diff_id": "d1", "keep": true }),
        json!({ "diff_id": 7 }),
        json!({ "a": { "program": "x.py" }, "b": { "program": "x.py" }, "calls": ["f"] }),
    ] {
        assert_eq!(
            effects_of("debug.diff", args.clone(), &nowhere),
            want(&[(Start, "")]),
            "{args}"
        );
    }
}
