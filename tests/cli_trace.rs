//! `dapvisor trace PROGRAM --calls PATTERN`: the calls as an indented tree, with their
//! arguments and return values, and the program's exit code. Real debugpy.

mod cli_support;
mod common;

use cli_support::*;
use common::root;

#[tokio::test]
async fn trace_prints_the_calls_as_a_tree_and_exits_as_the_program_did() {
    let program = root().join("examples/programs/python/parcels.py");
    let run = dapvisor(&[
        "trace",
        program.to_str().unwrap(),
        "--calls",
        "layers",
        "--calls",
        "price",
    ])
    .await;
    let said = format!("{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.code, Some(15), "{said}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0], "-> layers(box=[[[...]]]) #1 parcels.py:19",
        "{said}"
    );
    assert_eq!(lines[1], "  -> layers(box=[[]]) #2 parcels.py:19", "{said}");
    assert_eq!(lines[2], "    -> layers(box=[]) #3 parcels.py:19", "{said}");
    assert_eq!(lines[3], "    <- layers #3 = 0", "{said}");
    assert!(
        run.stdout
            .contains("<- price #8 = Price(cents=1100, band='large')"),
        "{said}"
    );
    assert!(
        run.stdout.ends_with("[the program exited with 15]\n"),
        "{said}"
    );
}
