//! A Rust test's binary: the crate's tests are built with
//! `cargo test --no-run --message-format=json`, whose artifact messages name every
//! test executable, and the one whose `--list` holds the test is run. A build that
//! fails answers with the compiler's own messages.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::TestRunError;

use crate::limits::MAX_BUILD_ERROR_BYTES;

/// Build the tests of the crate at `crate_dir` within `deadline`; the test
/// executables, in the order cargo built them.
pub(crate) async fn build(
    crate_dir: &Path,
    deadline: Duration,
) -> Result<Vec<PathBuf>, TestRunError> {
    let mut command = crate::clean_start::tokio_command("cargo");
    command
        .args([
            "test",
            "--no-run",
            "--message-format=json",
            "--manifest-path",
        ])
        .arg(crate_dir.join("Cargo.toml"))
        .current_dir(crate_dir)
        .kill_on_drop(true);
    let out = run(command, deadline, "cargo test --no-run").await?;
    let messages = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let mut message = build_errors(&messages);
        if message.is_empty() {
            message = String::from_utf8_lossy(&out.stderr).trim().to_string();
        }
        return Err(TestRunError::BuildFailed {
            message: bounded(message),
        });
    }
    Ok(test_binaries(&messages))
}

/// The first of `binaries` whose test list holds `test` exactly.
pub(crate) async fn binary_holding(
    binaries: &[PathBuf],
    test: &str,
    deadline: Duration,
) -> Result<PathBuf, TestRunError> {
    let mut near = Vec::new();
    for binary in binaries {
        let mut command = crate::clean_start::tokio_command(binary);
        command
            .args(["--list", "--format", "terse"])
            .kill_on_drop(true);
        let out = run(command, deadline, "a test binary's --list").await?;
        let list = String::from_utf8_lossy(&out.stdout);
        let tests = listed_tests(&list);
        if tests.contains(&test) {
            return Ok(binary.clone());
        }
        let last = test.rsplit("::").next().unwrap_or(test);
        near.extend(
            tests
                .into_iter()
                .filter(|t| t.ends_with(last))
                .map(str::to_string),
        );
    }
    Err(TestRunError::NoSuchTest {
        id: test.to_string(),
        near,
    })
}

/// The test executables that cargo's JSON messages name.
pub(crate) fn test_binaries(messages: &str) -> Vec<PathBuf> {
    messages
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["profile"]["test"] == true)
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .collect()
}

/// The compiler's error messages among cargo's JSON messages, as it renders them.
pub(crate) fn build_errors(messages: &str) -> String {
    messages
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-message" && m["message"]["level"] == "error")
        .filter_map(|m| m["message"]["rendered"].as_str().map(str::to_string))
        .collect::<Vec<_>>()
        .join("")
        .trim_end()
        .to_string()
}

/// The tests of a libtest `--list --format terse` (`path: test` lines; benches and
/// the summary are left out).
pub(crate) fn listed_tests(list: &str) -> Vec<&str> {
    list.lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .collect()
}

/// `text` cut to [`MAX_BUILD_ERROR_BYTES`] (the start: the first error is the one to
/// fix), saying so.
pub(super) fn bounded(text: String) -> String {
    if text.len() <= MAX_BUILD_ERROR_BYTES {
        return text;
    }
    let mut end = MAX_BUILD_ERROR_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n... ({} more bytes: run `cargo test --no-run` in the crate for all of it)",
        &text[..end],
        text.len() - end
    )
}

pub(super) async fn run(
    mut command: tokio::process::Command,
    deadline: Duration,
    what: &str,
) -> Result<std::process::Output, TestRunError> {
    let output = command.output();
    match tokio::time::timeout(deadline, output).await {
        Ok(Ok(out)) => Ok(out),
        Ok(Err(error)) => Err(TestRunError::Io {
            what: what.to_string(),
            error: error.to_string(),
        }),
        Err(_) => Err(TestRunError::TimedOut {
            what: what.to_string(),
            after: deadline,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MESSAGES: &str = r#"{"reason":"compiler-artifact","profile":{"test":false},"executable":null,"target":{"kind":["lib"]}}
{"reason":"compiler-artifact","profile":{"test":true},"executable":"/t/debug/deps/cart-1a2b","target":{"kind":["lib"]}}
not json at all
{"reason":"compiler-artifact","profile":{"test":true},"executable":"/t/debug/deps/checkout-3c4d","target":{"kind":["test"]}}
{"reason":"build-finished","success":true}"#;

    #[test]
    fn test_binaries_are_the_artifacts_built_for_test() {
        assert_eq!(
            test_binaries(MESSAGES),
            [
                PathBuf::from("/t/debug/deps/cart-1a2b"),
                PathBuf::from("/t/debug/deps/checkout-3c4d")
            ]
        );
    }

    #[test]
    fn build_errors_are_the_compilers_rendered_errors_only() {
        let messages = r#"{"reason":"compiler-message","message":{"level":"warning","rendered":"warning: unused\n"}}
{"reason":"compiler-message","message":{"level":"error","rendered":"error[E0308]: mismatched types\n --> src/lib.rs:3:5\n"}}
{"reason":"compiler-message","message":{"level":"error","rendered":"error: aborting due to 1 previous error\n"}}"#;
        assert_eq!(
            build_errors(messages),
            "error[E0308]: mismatched types\n --> src/lib.rs:3:5\nerror: aborting due to 1 previous error"
        );
    }

    #[test]
    fn listed_tests_are_the_terse_lines_that_are_tests() {
        let list = "cart::tests::total: test\ncart::tests::nested::inner::deep: test\ncart::bench_it: bench\n";
        assert_eq!(
            listed_tests(list),
            ["cart::tests::total", "cart::tests::nested::inner::deep"]
        );
    }

    #[test]
    fn a_long_build_error_keeps_its_start_and_says_what_was_cut() {
        let text = "é".repeat(MAX_BUILD_ERROR_BYTES);
        let cut = bounded(text.clone());
        assert!(cut.starts_with("éé"));
        assert!(cut.contains(&format!(
            "({} more bytes",
            text.len() - MAX_BUILD_ERROR_BYTES
        )));
        assert_eq!(bounded("short".into()), "short");
    }
}
