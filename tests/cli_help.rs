//! What the command line says of itself agrees with what it does: `mcp --help` names
//! no stale tool count, `adapters --help` names every adapter it installs, `--http
//! localhost:PORT` is taken, and an error at the shell names the flag (`--adapter`),
//! not the tool argument (`adapter`).

mod cli_support;

use cli_support::*;

#[tokio::test]
async fn help_and_errors_say_what_the_command_line_does() {
    let mcp = dapvisor(&["mcp", "--help"]).await;
    assert!(mcp.stdout.contains("--tools"), "{}", mcp.stdout);
    assert!(!mcp.stdout.contains("16 tools"), "{}", mcp.stdout);

    let top = dapvisor(&["--help"]).await;
    let adapters_line = top
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("adapters"));
    let adapters_line = adapters_line.unwrap_or_else(|| panic!("{}", top.stdout));
    for name in ["debugpy", "js-debug", "CodeLLDB"] {
        assert!(adapters_line.contains(name), "{adapters_line}");
    }

    let dir = scratch("help-errors");
    let odd = dir.join("notes.xyz");
    std::fs::write(&odd, "hello\n").unwrap();
    let run = dapvisor(&["debug", &odd.display().to_string()]).await;
    assert_eq!(run.code, Some(125), "{}", run.stderr);
    assert!(run.stderr.contains("`--adapter`"), "{}", run.stderr);
    assert!(!run.stderr.contains("with `adapter`"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn http_takes_localhost_and_a_port() {
    let addr = dapvisor::cli::http_flags::http_addr("localhost:7000").unwrap();
    assert!(addr.ip().is_loopback() && addr.port() == 7000, "{addr}");
}
