//! [`classify`](super::classify) on the routes that start a process or touch one
//! dapvisor did not start: a launch, what its environment, module, test runner
//! arguments and adapter arguments add; an attach; ending or restarting a session.

use serde_json::json;

use crate::registry::AdapterFlavor::*;

use super::adapters::Adapters;
use super::classify::CallTarget;
use super::classify_tests::{attached, effects_of, on, want, Case};
use super::effect::Effect::*;

#[test]
fn starting_and_ending_have_the_effects_of_their_arguments_and_adapter() {
    for (tool, args, target, expected) in start_routes() {
        assert_eq!(
            effects_of(tool, args.clone(), &target),
            expected,
            "{tool} {args} on {target:?}"
        );
    }
}

/// The routes that start a process or touch a foreign one.
pub(super) fn start_routes() -> Vec<Case> {
    vec![
        // Starting, and what a launch's environment loads.
        (
            "debug.launch",
            json!({ "program": "p.py" }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[(Start, "program: p.py")]),
        ),
        (
            "debug.launch",
            json!({ "program": "p.py", "env": { "TZ": "UTC", "PYTHONPATH": "/x", "LD_PRELOAD": "/y.so" } }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[
                (Start, "program: p.py"),
                (Code, "env: LD_PRELOAD, PYTHONPATH"),
            ]),
        ),
        // Any name not known to be inert: the runner's and the toolchain's too.
        (
            "debug.launch",
            json!({ "test": "t.py::t", "env": { "PYTEST_ADDOPTS": "--junitxml=f", "LANG": "C" } }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[(Start, "test: t.py::t"), (Code, "env: PYTEST_ADDOPTS")]),
        ),
        (
            "debug.launch",
            json!({ "program": "m.go", "env": { "GIT_CONFIG_COUNT": "1", "CC": "x" } }),
            CallTarget::reaching(Adapters::Some(vec![Delve])),
            want(&[
                (Start, "program: m.go"),
                (Code, "env: CC, GIT_CONFIG_COUNT"),
            ]),
        ),
        (
            "debug.launch",
            json!({ "program": "p.py", "env": { "LC_ALL": "C", "NO_COLOR": "1" } }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[(Start, "program: p.py")]),
        ),
        // A test runner's own arguments can load code (pytest -p) or write files; a
        // program's are its own business.
        (
            "debug.launch",
            json!({ "test": "t.py::t", "args": ["-p", "evil"] }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[(Start, "test: t.py::t"), (Code, "args")]),
        ),
        (
            "debug.launch",
            json!({ "program": "p.py", "args": ["-p", "x"] }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[(Start, "program: p.py")]),
        ),
        (
            "debug.launch",
            json!({ "program": "t.py", "module": "pytest", "launch_args": { "justMyCode": true } }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[
                (Start, "program: t.py"),
                (Code, "module: pytest"),
                (Host, "launch_args: justMyCode"),
            ]),
        ),
        (
            "debug.launch",
            json!({ "test": "tests/test_cart.py::test_total", "launch_args": {} }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[(Start, "test: tests/test_cart.py::test_total")]),
        ),
        (
            "debug.launch",
            json!({ "program": "a.out", "breakpoints": [{ "file": "a.c", "line": 1, "condition": "x" }] }),
            CallTarget::reaching(Adapters::Some(vec![LldbDap, Gdb])),
            want(&[
                (Start, "program: a.out"),
                (Host, "breakpoints[0].condition"),
            ]),
        ),
        (
            "debug.restart",
            json!({}),
            on(Debugpy),
            want(&[(Start, "")]),
        ),
        // Processes dapvisor did not start.
        (
            "debug.attach",
            json!({ "pid": 4242 }),
            CallTarget::reaching(Adapters::Some(vec![LldbDap])),
            want(&[(Foreign, "pid: 4242")]),
        ),
        (
            "debug.attach",
            json!({ "port": 5678 }),
            CallTarget::reaching(Adapters::Some(vec![Debugpy])),
            want(&[(Foreign, "port: 5678")]),
        ),
        (
            "debug.terminate",
            json!({}),
            attached(LldbDap),
            want(&[(Foreign, "session s1 attached to pid 4242")]),
        ),
        (
            "debug.terminate_threads",
            json!({}),
            attached(LldbDap),
            want(&[(Foreign, "session s1 attached to pid 4242")]),
        ),
        (
            "debug.restart",
            json!({}),
            attached(LldbDap),
            want(&[(Foreign, "session s1 attached to pid 4242")]),
        ),
        (
            "debug.terminate",
            json!({}),
            on(LldbDap),
            want(&[(Control, "")]),
        ),
        (
            "debug.terminate",
            json!({}),
            CallTarget::unknown(Some("s9".into())),
            want(&[(Foreign, "session s9 is not known yet and may attach to one")]),
        ),
    ]
}
