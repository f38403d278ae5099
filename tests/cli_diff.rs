//! `dapvisor diff --calls PATTERN -- A --- B` (and two `--test`s): the first difference
//! between two runs, printed, and the exit code saying whether they differ. Real
//! debugpy.

mod cli_support;
mod common;

use cli_support::*;
use common::root;

#[tokio::test]
async fn diff_prints_the_first_difference_and_exits_1_when_the_runs_differ() {
    let program = root().join("examples/programs/python/shipping/shipping.py");
    let program = program.to_str().unwrap();
    let run = dapvisor(&[
        "diff", "--calls", "quote", "--calls", "band", "--limit", "2", "--", program, "120", "499",
        "---", program, "120", "500",
    ])
    .await;
    let said = format!("{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.code, Some(1), "{said}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    // Both start at once: which is s1 is the adapters' race.
    assert!(
        lines[0].starts_with("diff d1: a (s")
            && lines[0].contains(" shipping.py, 8 rows) exited with code 0; b (s")
            && lines[0].ends_with(" shipping.py, 8 rows) exited with code 16"),
        "{said}"
    );
    assert!(
        lines[1].starts_with(
            "first difference: #0 after 4 matching rows, at quote#2 (call of quote, shipping.py:"
        ) && lines[1].ends_with("): quote was called with other arguments"),
        "{said}"
    );
    assert_eq!(lines[2], "  a: grams=499", "{said}");
    assert_eq!(lines[3], "  b: grams=500", "{said}");
    assert!(
        run.stdout
            .contains("#1 after 4 matching rows, at quote#2 > band#1"),
        "{said}"
    );
    assert!(
        run.stdout
            .ends_with("[2 of 4 differences shown: pass --limit 4 for all]\n"),
        "{said}"
    );
}

#[tokio::test]
async fn two_tests_that_run_alike_exit_0_and_a_run_that_does_not_start_exits_125() {
    let folder = root().join("examples/programs/python/shipping");
    let folder = folder.to_str().unwrap();
    let run = dapvisor(&[
        "diff",
        "--calls",
        "shipping.small_rate",
        "--test",
        "tests/test_shipping.py::test_light",
        "--test",
        "tests/test_shipping.py::test_light",
        "--",
        folder,
    ])
    .await;
    let said = format!("{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.code, Some(0), "{said}");
    assert!(
        run.stdout
            .contains("no difference: the 2 rows of both runs are equal"),
        "{said}"
    );

    let run = dapvisor(&[
        "diff",
        "--calls",
        "quote",
        "--",
        "/no/such.py",
        "---",
        "/no/such.py",
    ])
    .await;
    assert_eq!(run.code, Some(125), "{}", run.stderr);
    assert!(run.stderr.contains("did not start"), "{}", run.stderr);
}
