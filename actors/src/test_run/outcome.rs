//! What a test run came to, read from its exit code and its runner's own output: passed
//! or failed, and the runner's failure text (the assertion and the values it
//! compared), bounded.

use serde::{Deserialize, Serialize};

use super::TestRunner;

use crate::limits::MAX_FAILURE_TEXT_BYTES;

/// The outcome of one test run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TestOutcome {
    /// Whether the test passed: the runner exited 0.
    pub passed: bool,
    /// The runner's exit code, when it exited (not killed).
    pub exit_code: Option<i32>,
    /// The runner's words on the failure, when it failed and said any: the failing
    /// assertion with its values, where it was, the runner's summary line.
    pub failure: Option<String>,
}

impl TestOutcome {
    /// The outcome of a run of `runner` that exited with `exit_code` and printed
    /// `output` (stdout and stderr as they came). Without an exit code (killed, or
    /// js-debug, which does not report one while it captures the program's output),
    /// a node:test run passed if its summary counts no failure; any other did not.
    pub fn read(runner: TestRunner, exit_code: Option<i32>, output: &str) -> Self {
        let passed = match exit_code {
            // minitest exits 0 when its name filter matched no test.
            Some(0) if runner == TestRunner::Minitest => {
                super::minitest::runs(output).is_some_and(|n| n > 0)
            }
            Some(code) => code == 0,
            None => runner == TestRunner::NodeTest && node_summary_passed(output),
        };
        let lines: Vec<&str> = if passed {
            Vec::new()
        } else {
            match runner {
                TestRunner::Pytest => pytest_failure(output),
                TestRunner::GoTest => go_failure(output),
                TestRunner::Cargo => cargo_failure(output),
                TestRunner::NodeTest => node_failure(output),
                TestRunner::Minitest => super::minitest::failure(output),
            }
        };
        let failure = (!lines.is_empty()).then(|| bounded(lines.join("\n")));
        Self {
            passed,
            exit_code,
            failure,
        }
    }
}

/// pytest: the `E` lines of the assertion, the `file:line: Error` line under them,
/// and the summary's `FAILED` line.
fn pytest_failure(output: &str) -> Vec<&str> {
    output
        .lines()
        .filter(|l| {
            l.starts_with("E ")
                || l.starts_with("FAILED ")
                || l.starts_with("ERROR ")
                || is_pytest_location(l)
        })
        .collect()
}

/// `tests/test_cart.py:5: AssertionError`.
fn is_pytest_location(line: &str) -> bool {
    let mut parts = line.splitn(3, ':');
    let (Some(file), Some(number), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    file.ends_with(".py")
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && rest.starts_with(' ')
}

/// go test -v: the messages a failing test logged (indented under its `=== RUN`) and
/// its `--- FAIL` line, and a panic's first lines.
fn go_failure(output: &str) -> Vec<&str> {
    let mut kept = Vec::new();
    let mut logged: Vec<&str> = Vec::new();
    for line in output.lines() {
        if line.starts_with("=== RUN") {
            logged.clear();
        } else if line.starts_with("--- FAIL") {
            kept.append(&mut logged);
            kept.push(line);
        } else if line.starts_with("    ") && !line.trim().is_empty() {
            logged.push(line);
        } else if line.starts_with("panic: ") {
            kept.push(line);
        }
    }
    kept
}

/// libtest with --nocapture: each `thread '...' panicked at file:line:` and the
/// message under it, up to the backtrace note or the next test line.
fn cargo_failure(output: &str) -> Vec<&str> {
    let mut kept = Vec::new();
    let mut in_panic = false;
    for line in output.lines() {
        if line.starts_with("thread '") && line.contains("panicked at") {
            in_panic = true;
            kept.push(line);
        } else if in_panic && (line.starts_with("note: ") || line.starts_with("test ")) {
            in_panic = false;
        } else if in_panic || line.starts_with("test result: FAILED") {
            kept.push(line);
        }
    }
    kept
}

/// node:test's TAP: each `not ok` line and, of the details indented under it, the
/// error, the expected and the actual value (with their continuation lines).
fn node_failure(output: &str) -> Vec<&str> {
    let mut kept = Vec::new();
    // The indentation of the `not ok` line whose details are being read.
    let mut failure_indent: Option<usize> = None;
    let mut keeping = false;
    for line in output.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.starts_with("not ok ") {
            failure_indent = Some(indent);
            keeping = false;
            kept.push(line);
            continue;
        }
        let Some(at) = failure_indent else {
            continue;
        };
        if trimmed.is_empty() {
            continue;
        }
        if indent <= at {
            failure_indent = None;
        } else if indent == at + 2 {
            // A detail's key: `error: |-`, `expected: 42`, `stack: |-`, ...
            let key = trimmed.split(':').next().unwrap_or("");
            keeping = NODE_DETAILS_KEPT.contains(&key);
            if keeping {
                kept.push(line);
            }
        } else if keeping {
            kept.push(line);
        }
    }
    kept
}

/// Whether node:test's summary (`# pass N`, `# fail N`) counts a pass and no failure.
fn node_summary_passed(output: &str) -> bool {
    let count = |key: &str| {
        output
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|n| n.trim().parse::<u64>().ok())
    };
    count("# fail ") == Some(0) && count("# pass ").is_some_and(|n| n > 0)
}

/// The details of a node:test failure that say what failed.
const NODE_DETAILS_KEPT: &[&str] = &["error", "expected", "actual"];

fn bounded(text: String) -> String {
    if text.len() <= MAX_FAILURE_TEXT_BYTES {
        return text;
    }
    let mut end = MAX_FAILURE_TEXT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n... ({} more bytes in the program's output)",
        &text[..end],
        text.len() - end
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_pytest_test_says_its_assertion_place_and_summary() {
        let output = "\
============================= test session starts ==============================
collected 1 item

tests/test_cart.py F                                                     [100%]

=================================== FAILURES ===================================
__________________________________ test_total __________________________________

    def test_total():
>       assert total([20, 21]) == 42
E       assert 41 == 42
E        +  where 41 = total([20, 21])

tests/test_cart.py:5: AssertionError
=========================== short test summary info ============================
FAILED tests/test_cart.py::test_total - assert 41 == 42
============================== 1 failed in 0.03s ===============================";
        let outcome = TestOutcome::read(TestRunner::Pytest, Some(1), output);
        assert!(!outcome.passed);
        assert_eq!(
            outcome.failure.as_deref(),
            Some(
                "E       assert 41 == 42\n\
                 E        +  where 41 = total([20, 21])\n\
                 tests/test_cart.py:5: AssertionError\n\
                 FAILED tests/test_cart.py::test_total - assert 41 == 42"
            )
        );
    }

    #[test]
    fn a_failing_go_test_says_what_it_logged_and_its_fail_line() {
        let output = "\
=== RUN   TestCount
--- PASS: TestCount (0.00s)
=== RUN   TestTotal
    cart_test.go:8: Total() = 41, want 42
--- FAIL: TestTotal (0.00s)
FAIL
exit status 1";
        let outcome = TestOutcome::read(TestRunner::GoTest, Some(1), output);
        assert_eq!(
            outcome.failure.as_deref(),
            Some("    cart_test.go:8: Total() = 41, want 42\n--- FAIL: TestTotal (0.00s)")
        );
    }

    #[test]
    fn a_failing_rust_test_says_its_panic_and_the_values() {
        let output = "\
running 1 test
thread 'tests::nested::total' panicked at src/lib.rs:10:9:
assertion `left == right` failed
  left: 41
 right: 42
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
test tests::nested::total ... FAILED

failures:

failures:
    tests::nested::total

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 3 filtered out";
        let outcome = TestOutcome::read(TestRunner::Cargo, Some(101), output);
        assert_eq!(
            outcome.failure.as_deref(),
            Some(
                "thread 'tests::nested::total' panicked at src/lib.rs:10:9:\n\
                 assertion `left == right` failed\n  left: 41\n right: 42\n\
                 test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 3 filtered out"
            )
        );
    }

    #[test]
    fn a_failing_node_test_says_its_error_expected_and_actual() {
        let output = "\
TAP version 13
# Subtest: total
not ok 1 - total
  ---
  duration_ms: 1.1
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:

    41 !== 42

  code: 'ERR_ASSERTION'
  name: 'AssertionError'
  expected: 42
  actual: 41
  operator: 'strictEqual'
  stack: |-
    TestContext.<anonymous> (file:///tmp/cart.test.mjs:3:30)
  ...
1..1
# tests 1";
        let outcome = TestOutcome::read(TestRunner::NodeTest, Some(1), output);
        assert_eq!(
            outcome.failure.as_deref(),
            Some(
                "not ok 1 - total\n  error: |-\n    Expected values to be strictly equal:\n\
                 \x20   41 !== 42\n  expected: 42\n  actual: 41"
            )
        );
    }

    #[test]
    fn a_node_run_without_an_exit_code_is_read_from_its_summary() {
        let passed = "ok 1 - total\n1..1\n# tests 1\n# pass 1\n# fail 0\n";
        assert!(TestOutcome::read(TestRunner::NodeTest, None, passed).passed);
        let failed = "not ok 1 - total\n1..1\n# tests 1\n# pass 0\n# fail 1\n";
        assert!(!TestOutcome::read(TestRunner::NodeTest, None, failed).passed);
        assert!(!TestOutcome::read(TestRunner::Pytest, None, "1 passed").passed);
    }

    #[test]
    fn a_pass_has_no_failure_text_and_a_kill_is_no_pass() {
        let passed = TestOutcome::read(TestRunner::Cargo, Some(0), "test result: ok.");
        assert!(passed.passed && passed.failure.is_none());
        let killed = TestOutcome::read(TestRunner::GoTest, None, "");
        assert!(!killed.passed && killed.failure.is_none());
    }

    #[test]
    fn long_failure_text_keeps_its_start() {
        let output = "E   boom\n".repeat(1000);
        let outcome = TestOutcome::read(TestRunner::Pytest, Some(1), &output);
        let text = outcome.failure.unwrap();
        assert!(text.starts_with("E   boom\nE   boom"));
        assert!(
            text.ends_with("more bytes in the program's output)"),
            "{text}"
        );
    }
}
