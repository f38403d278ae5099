//! A program a signal ended exits `dapvisor debug` as a shell reports it, 128 + N, and
//! the end says `killed by SIG...`, on real adapters that each report it their own way:
//! lldb-dap (a C program's SIGSEGV and abort), debugpy (SIGKILL, SIGSEGV), dlv
//! (SIGKILL). A program's own exit code stays its own.

mod agent;
mod cli_support;
mod common;

use std::path::{Path, PathBuf};

use cli_support::*;
use serde_json::{json, Value};

/// A C program that crashes, aborts or exits 11 as its argument says.
fn c_program(dir: &Path) -> PathBuf {
    let source = dir.join("ends.c");
    std::fs::write(
        &source,
        "#include <stdlib.h>\n#include <string.h>\n\
         int main(int argc, char **argv) {\n\
         if (strcmp(argv[1], \"crash\") == 0) { volatile int *p = 0; *p = 1; }\n\
         if (strcmp(argv[1], \"abort\") == 0) abort();\n\
         return 11;\n}\n",
    )
    .unwrap();
    let binary = dir.join("ends");
    let built = std::process::Command::new("cc")
        .args(["-g", "-O0", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap();
    assert!(built.success());
    binary
}

/// `dapvisor debug PROGRAM -- ARGS`, and its end object (`--json`).
async fn ends(program: &Path, args: &[&str]) -> (Run, Value) {
    let program = program.display().to_string();
    let mut all = vec!["debug", &program, "--json", "--"];
    all.extend(args);
    let run = dapvisor(&all).await;
    let end = run
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|o| o["event"] == "exit")
        .unwrap_or_else(|| panic!("no end:\n{}\n{}", run.stdout, run.stderr));
    (run, end)
}

#[tokio::test]
async fn lldb_dap_crashes_exit_as_a_shell_says() {
    let dir = scratch("exit-codes-c");
    let binary = c_program(&dir);
    let (run, end) = ends(&binary, &["crash"]).await;
    assert_eq!(run.code, Some(139), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(end["signal"], "SIGSEGV", "{end}");
    let (run, end) = ends(&binary, &["abort"]).await;
    assert_eq!(run.code, Some(134), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(end["signal"], "SIGABRT", "{end}");
    // exit(11) is no SIGSEGV, though lldb reports both as 11.
    let (run, end) = ends(&binary, &["exit"]).await;
    assert_eq!(run.code, Some(11), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(end["signal"], Value::Null, "{end}");
    assert_eq!(end["exit_code"], 11, "{end}");

    // In words: what killed it.
    let binary = binary.display().to_string();
    let run = dapvisor(&["debug", &binary, "--", "crash"]).await;
    assert_eq!(run.code, Some(139), "{}", run.stderr);
    assert!(
        run.stdout.contains("[the program was killed by SIGSEGV]"),
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn debugpy_and_dlv_deaths_by_signal_exit_as_a_shell_says() {
    let dir = scratch("exit-codes-py");
    let script = dir.join("kill.py");
    std::fs::write(
        &script,
        "import os, signal, sys\nprint('bye', flush=True)\n\
         os.kill(os.getpid(), getattr(signal, sys.argv[1]))\n",
    )
    .unwrap();
    for (signal, code) in [("SIGKILL", 137), ("SIGSEGV", 139)] {
        let (run, end) = ends(&script, &[signal]).await;
        assert_eq!(run.code, Some(code), "{}\n{}", run.stdout, run.stderr);
        assert_eq!(end["signal"], signal, "{end}");
        assert!(end["output"].as_str().unwrap().contains("bye"), "{end}");
    }

    let module = dir.join("killer");
    std::fs::create_dir_all(&module).unwrap();
    std::fs::write(module.join("go.mod"), "module killer\n\ngo 1.19\n").unwrap();
    std::fs::write(
        module.join("main.go"),
        "package main\n\nimport \"syscall\"\n\n\
         func main() {\n\tsyscall.Kill(syscall.Getpid(), syscall.SIGKILL)\n}\n",
    )
    .unwrap();
    let (run, end) = ends(&module, &[]).await;
    assert_eq!(run.code, Some(137), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(end["signal"], "SIGKILL", "{end}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn an_agent_reads_the_signal_in_the_end_too() {
    let dir = scratch("exit-codes-tools");
    let binary = c_program(&dir);
    let tools = agent::catalogue().await;
    let launched = agent::ok(
        &tools,
        "debug.launch",
        json!({ "program": binary, "args": ["crash"] }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    // lldb stops on the signal first; continuing delivers it.
    assert_eq!(launched["state"], "stopped", "{launched}");
    let ended = agent::ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    assert_eq!(ended["signal"], "SIGSEGV", "{ended}");
    assert_eq!(ended["signal_number"], 11, "{ended}");
    tools.runtime().shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
