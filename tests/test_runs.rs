//! One failing test run under the debugger by its id, through the Rust API, on the
//! cart examples (the same bug in each language: the last item counted one short) on
//! real adapters: a pytest node id under debugpy, a Go test under dlv's test mode, a
//! Rust test in a nested module (and an ignored one, run by name) from its built test
//! binary under lldb-dap, a node:test test by name under js-debug. Each stops in the function under test, reads a local,
//! evaluates, continues to the end and reads the runner's failure text and exit code.

mod common;

use std::time::Duration;

use common::*;
use dapvisor::{
    LaunchSpec, RunTicket, Runtime, RuntimeConfig, TestOutcome, TestRequest, TestRunError,
    TestRunner,
};

/// Long enough for a cold `cargo test --no-run` of the example crate.
const BUILD_WAIT: Duration = Duration::from_secs(300);

/// `request`'s launch, with a breakpoint at `needle` in `source`.
async fn launch_at(request: &TestRequest, source: &str, needle: &str) -> (LaunchSpec, i64) {
    let spec = request.launch_spec(BUILD_WAIT).await.unwrap();
    let source = program(source);
    let line = line_of(&source, needle);
    (spec.breakpoint(&source, line), line)
}

/// Launch, stop at the breakpoint in `function` (where `subtotal` is `expected`),
/// evaluate there, run to the end; the outcome as the runner tells it.
async fn stops_then_fails(
    runner: TestRunner,
    spec: LaunchSpec,
    line: i64,
    function: &str,
    expected: &str,
) -> TestOutcome {
    let source = spec.breakpoints[0].file.clone();
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    let frames = session.stack_trace(stop.thread_id, Some(1)).await.unwrap();
    assert_eq!(frames[0].line, line);
    assert!(frames[0].name.contains(function), "{}", frames[0].name);
    assert_eq!(local(&session, "subtotal").await, expected);
    let product = session
        .evaluate("subtotal + 1", Some(frames[0].id), None)
        .await
        .unwrap();
    assert!(product
        .result
        .starts_with(&(expected.parse::<i64>().unwrap() + 1).to_string()));
    session.remove_breakpoint(&source, line).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    let exit_code = expect_exit(&session, ticket).await;
    let output = session.output(0, 1 << 20).await.unwrap().text();
    runtime.shutdown().await;
    TestOutcome::read(runner, exit_code.map(|c| c as i32), &output)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_pytest_test_by_node_id_under_debugpy() {
    let request = TestRequest::new("tests/test_cart.py::test_total").cwd(program("python/cart"));
    assert_eq!(request.resolved_runner().unwrap(), TestRunner::Pytest);
    let (spec, line) = launch_at(&request, "python/cart/cart.py", "return subtotal").await;
    let outcome = stops_then_fails(TestRunner::Pytest, spec, line, "line_total", "20").await;
    assert!(!outcome.passed);
    assert_eq!(outcome.exit_code, Some(1));
    let failure = outcome.failure.unwrap();
    assert!(failure.contains("assert 41 == 42"), "{failure}");
    assert!(
        failure.contains("FAILED tests/test_cart.py::test_total"),
        "{failure}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_go_test_under_dlvs_test_mode() {
    let request = TestRequest::new("TestTotal").path(program("go/cart"));
    assert_eq!(request.resolved_runner().unwrap(), TestRunner::GoTest);
    let (spec, line) = launch_at(&request, "go/cart/cart.go", "return subtotal").await;
    let outcome = stops_then_fails(TestRunner::GoTest, spec, line, "LineTotal", "20").await;
    assert!(!outcome.passed);
    assert_eq!(outcome.exit_code, Some(1));
    let failure = outcome.failure.unwrap();
    assert!(failure.contains("Total() = 41, want 42"), "{failure}");
    assert!(failure.contains("--- FAIL: TestTotal"), "{failure}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_rust_test_in_a_nested_module_from_its_test_binary() {
    let request = TestRequest::new("tests::nested::total_of_two_items").path(program("rust/cart"));
    assert_eq!(request.resolved_runner().unwrap(), TestRunner::Cargo);
    let (spec, line) = launch_at(
        &request,
        "rust/cart/src/lib.rs",
        "subtotal.min(MAX_LINE_TOTAL)",
    )
    .await;
    let outcome = stops_then_fails(TestRunner::Cargo, spec, line, "line_total", "20").await;
    assert!(!outcome.passed);
    assert_eq!(outcome.exit_code, Some(101));
    let failure = outcome.failure.unwrap();
    assert!(failure.contains("panicked at src/lib.rs"), "{failure}");
    assert!(
        failure.contains("left: 41") && failure.contains("right: 42"),
        "{failure}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ignored_rust_test_runs_by_name_and_passes_without_reaching_its_breakpoint() {
    let request =
        TestRequest::new("tests::nested::line_total_of_one_item").path(program("rust/cart"));
    let mut spec = request.launch_spec(BUILD_WAIT).await.unwrap();
    // In total(), which this test never calls.
    let source = program("rust/cart/src/lib.rs");
    let line = line_of(&source, "amount += line_total(");
    spec = spec.breakpoint(&source, line);
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let session = runtime.launch(spec).await.unwrap();
    let exit_code = expect_exit(&session, RunTicket { epoch: 0 }).await;
    let output = session.output(0, 1 << 20).await.unwrap().text();
    let snapshot = session.snapshot().await.unwrap();
    runtime.shutdown().await;
    let outcome = TestOutcome::read(TestRunner::Cargo, exit_code.map(|c| c as i32), &output);
    assert!(outcome.passed, "{output}");
    assert!(output.contains("1 passed"), "{output}");
    let record = &snapshot.breakpoints.file(&source)[0];
    assert_eq!(
        record.hits, 0,
        "the run passed without reaching it: {record:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_test_that_does_not_exist_names_the_ones_that_do() {
    let request = TestRequest::new("total_of_two_items").path(program("rust/cart"));
    match request.launch_spec(BUILD_WAIT).await {
        Err(TestRunError::NoSuchTest { near, .. }) => {
            assert_eq!(near, ["tests::nested::total_of_two_items"]);
        }
        other => panic!("want NoSuchTest, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_node_test_by_name_pattern_under_js_debug() {
    let request =
        TestRequest::new("total of two items").path(program("javascript/cart_test/cart.test.mjs"));
    assert_eq!(request.resolved_runner().unwrap(), TestRunner::NodeTest);
    let (spec, line) =
        launch_at(&request, "javascript/cart_test/cart.mjs", "return subtotal").await;
    let outcome = stops_then_fails(TestRunner::NodeTest, spec, line, "lineTotal", "20").await;
    assert!(!outcome.passed);
    // dapvisor starts the runner for js-debug, and says its exit code.
    assert_eq!(outcome.exit_code, Some(1));
    let failure = outcome.failure.unwrap();
    assert!(
        failure.contains("not ok 1 - total of two items"),
        "{failure}"
    );
    assert!(failure.contains("41 !== 42"), "{failure}");
    assert!(
        failure.contains("expected: 42") && failure.contains("actual: 41"),
        "{failure}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_test_whose_crate_does_not_build_answers_with_the_compilers_message() {
    let krate = std::env::temp_dir().join(format!("dapvisor-broken-{}", std::process::id()));
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        "[package]\nname = \"broken\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(
        krate.join("src/lib.rs"),
        "pub fn total() -> u32 { \"forty-two\" }\n#[test]\nfn t() { assert_eq!(total(), 42); }\n",
    )
    .unwrap();
    let request = TestRequest::new("t").path(&krate);
    let result = request.launch_spec(BUILD_WAIT).await;
    std::fs::remove_dir_all(&krate).unwrap();
    match result {
        Err(TestRunError::BuildFailed { message }) => {
            assert!(
                message.contains("error[E0308]: mismatched types"),
                "{message}"
            );
            assert!(message.contains("src/lib.rs:1"), "{message}");
        }
        other => panic!("want BuildFailed, got {other:?}"),
    }
}
