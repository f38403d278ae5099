//! `dapvisor debug --test ID` at the shell: one failing test under the debugger, each
//! stop printed with its `--eval`, the runner's failure text at the end and the
//! runner's exit code; `--json` carries the outcome too; a missing program or test is
//! a usage error.

mod agent;
mod cli_support;
mod common;

use agent::{line_of, program};
use cli_support::*;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_pytest_test_stops_prints_and_exits_with_pytests_code() {
    let project = program("python/cart");
    let source = project.join("cart.py");
    let line = line_of(&source, "return subtotal");
    let location = format!("{}:{line}", source.display());
    let run = dapvisor(&[
        "debug",
        "--test",
        "tests/test_cart.py::test_total",
        project.to_str().unwrap(),
        "--break",
        &location,
        "--eval",
        "subtotal * 2",
        "--max-stops",
        "5",
    ])
    .await;
    assert_eq!(
        run.code,
        Some(1),
        "pytest's own code: {}\n{}",
        run.stdout,
        run.stderr
    );
    assert!(run.stdout.contains("subtotal * 2 = 40"), "{}", run.stdout);
    assert!(
        run.stdout.contains("[the pytest test failed:]"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("assert 41 == 42"), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_carries_a_go_tests_outcome_and_a_bare_debug_is_a_usage_error() {
    let package = program("go/cart");
    let run = dapvisor(&[
        "debug",
        "--json",
        "--test",
        "TestTotal",
        package.to_str().unwrap(),
    ])
    .await;
    assert_eq!(run.code, Some(1), "{}\n{}", run.stdout, run.stderr);
    let end: Value = serde_json::from_str(run.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(end["event"], "exit", "{end}");
    assert_eq!(end["test"]["runner"], "go", "{end}");
    assert_eq!(end["test"]["passed"], false, "{end}");
    assert!(
        end["test"]["failure"]
            .as_str()
            .unwrap()
            .contains("Total() = 41, want 42"),
        "{end}"
    );

    let bare = dapvisor(&["debug"]).await;
    assert_eq!(bare.code, Some(2), "{}", bare.stderr);
    assert!(bare.stderr.contains("<PROGRAM>"), "{}", bare.stderr);
}
