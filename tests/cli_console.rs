//! `dapvisor debug` prints what the program printed, not its debugger's console:
//! lldb-dap's echoed commands for a Rust program (the toolchain's formatters load
//! silently) and its `Process ... exited` line, dlv's `Type 'dlv help'` banner. With
//! `--verbose` the console is printed too; over MCP, `debug.output` still gives it by
//! category. Real lldb-dap, dlv and rustc.

mod cli_support;
mod common;

use cli_support::*;
use common::root;

fn example(path: &str) -> String {
    root()
        .join("examples/programs")
        .join(path)
        .display()
        .to_string()
}

/// The lines that are the debugger's, not the program's.
const CHATTER: &[&str] = &[
    "(lldb)",
    "Running initCommands",
    "dlv help",
    "exited with status",
];

#[tokio::test]
async fn the_program_s_output_comes_without_the_debugger_s_console() {
    for (program, printed) in [
        (example("rust/readings.rs"), "average 50 over 1000 readings"),
        (example("go/readings/main.go"), "over 1000 readings"),
    ] {
        let run = dapvisor(&["debug", &program]).await;
        let said = format!("{program}:\n{}\n{}", run.stdout, run.stderr);
        assert!(run.stdout.contains(printed), "{said}");
        for chatter in CHATTER {
            assert!(!run.stdout.contains(chatter), "{chatter:?} in {said}");
        }
        let verbose = dapvisor(&["debug", &program, "--verbose"]).await;
        let said = format!("{program}:\n{}\n{}", verbose.stdout, verbose.stderr);
        assert!(verbose.stdout.contains(printed), "{said}");
        let chatter = CHATTER
            .iter()
            .filter(|c| verbose.stdout.contains(*c))
            .count();
        assert!(chatter >= 1, "--verbose shows the console: {said}");
        // The toolchain's formatters load without echoing their hundred commands.
        assert!(!verbose.stdout.contains("type synthetic add"), "{said}");
    }
}
