//! A debugged program's standard input, on each real adapter (debugpy, js-debug,
//! lldb-dap, dlv): `dapvisor debug` gives it what is piped into dapvisor, or the file
//! `--stdin` names; with nothing (or `/dev/null`) it reads an empty input and goes on,
//! where a reader used to wait on a terminal nothing wrote to. An agent gives it
//! `stdin` as text. And a JavaScript program's `process.stdout.write` is output like
//! any other.

mod agent;
mod cli_support;
mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use cli_support::*;
use serde_json::json;
use tokio::io::AsyncWriteExt;

/// One line read from stdin and said back: `hello <line>`, or `hello EOF`.
fn readers(dir: &Path) -> Vec<PathBuf> {
    let python = dir.join("hello.py");
    std::fs::write(
        &python,
        "import sys\nline = sys.stdin.readline()\nprint('hello', line.strip() or 'EOF')\n",
    )
    .unwrap();
    let js = dir.join("hello.js");
    std::fs::write(
        &js,
        "let text = '';\nprocess.stdin.on('data', (d) => (text += d));\n\
         process.stdin.on('end', () => process.stdout.write(`hello ${text.trim() || 'EOF'}\\n`));\n",
    )
    .unwrap();
    let source = dir.join("hello.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\nint main(void) {\n    char name[64];\n\
         if (scanf(\"%63s\", name) != 1) { printf(\"hello EOF\\n\"); return 0; }\n\
         printf(\"hello %s\\n\", name);\n    return 0;\n}\n",
    )
    .unwrap();
    let c = dir.join("hello");
    let built = std::process::Command::new("cc")
        .args(["-g", "-O0", "-o"])
        .arg(&c)
        .arg(&source)
        .status()
        .unwrap();
    assert!(built.success());
    let go = dir.join("hellogo");
    std::fs::create_dir_all(&go).unwrap();
    std::fs::write(go.join("go.mod"), "module hellogo\n\ngo 1.19\n").unwrap();
    std::fs::write(
        go.join("main.go"),
        "package main\n\nimport (\n\t\"bufio\"\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n)\n\n\
         func main() {\n\tline, _ := bufio.NewReader(os.Stdin).ReadString('\\n')\n\
         \tif line = strings.TrimSpace(line); line == \"\" {\n\t\tline = \"EOF\"\n\t}\n\
         \tfmt.Println(\"hello\", line)\n}\n",
    )
    .unwrap();
    vec![python, js, c, go]
}

/// `dapvisor debug PROGRAM` with `input` piped into it (`None`: stdin is /dev/null),
/// and more arguments.
async fn debug_with_stdin(program: &Path, input: Option<&str>, more: &[&str]) -> Run {
    let program = program.display().to_string();
    let mut args = vec!["debug", &program];
    args.extend(more);
    let mut command = dapvisor::testing::clean_start::tokio_command(env!("CARGO_BIN_EXE_dapvisor"));
    command
        .args(&args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn().unwrap();
    if let Some(input) = input {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).await.unwrap();
        // Closed: the program reads to its end.
    }
    finished(child, &args).await
}

#[tokio::test]
async fn each_adapters_program_reads_what_is_piped_into_dapvisor_or_nothing() {
    let dir = scratch("stdin");
    let input = dir.join("input.txt");
    std::fs::write(&input, "carol\n").unwrap();
    let input = input.display().to_string();
    for program in readers(&dir) {
        let run = debug_with_stdin(&program, Some("bob\n"), &[]).await;
        assert_eq!(
            run.code,
            Some(0),
            "{program:?}: {}\n{}",
            run.stdout,
            run.stderr
        );
        assert!(
            run.stdout.contains("hello bob"),
            "{program:?}: {}",
            run.stdout
        );

        // Nothing to read: an empty input, at once, not a wait until killed.
        let run = debug_with_stdin(&program, None, &[]).await;
        assert_eq!(
            run.code,
            Some(0),
            "{program:?}: {}\n{}",
            run.stdout,
            run.stderr
        );
        assert!(
            run.stdout.contains("hello EOF"),
            "{program:?}: {}",
            run.stdout
        );

        let run = debug_with_stdin(&program, Some("bob\n"), &["--stdin", &input]).await;
        assert_eq!(
            run.code,
            Some(0),
            "{program:?}: {}\n{}",
            run.stdout,
            run.stderr
        );
        assert!(
            run.stdout.contains("hello carol"),
            "{program:?}: {}",
            run.stdout
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn an_agent_gives_a_program_its_stdin_as_text() {
    let dir = scratch("stdin-tools");
    let tools = agent::catalogue().await;
    for program in readers(&dir) {
        let ended = agent::ok(
            &tools,
            "debug.launch",
            json!({ "program": program, "stdin": "dave\n", "timeout": 60 }),
        )
        .await;
        assert_eq!(ended["state"], "terminated", "{program:?}: {ended}");
        let id = ended["session_id"].as_str().unwrap();
        let output = agent::ok(&tools, "debug.output", json!({ "session_id": id })).await;
        let text = output["output"].as_str().unwrap();
        assert!(text.contains("hello dave"), "{program:?}: {text}");
    }
    let both = json!({ "program": dir.join("hello.py"), "stdin": "x", "stdin_file": "/dev/null" });
    agent::fails(&tools, "debug.launch", both, 400).await;
    tools.runtime().shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_javascript_programs_writes_to_process_stdout_are_output() {
    let dir = scratch("stdout-write");
    let script = dir.join("write.js");
    std::fs::write(
        &script,
        "process.stdout.write('written ');\nprocess.stdout.write('whole\\n');\n\
         console.log('logged');\nprocess.stderr.write('to stderr\\n');\nprocess.exitCode = 4;\n",
    )
    .unwrap();
    let run = dapvisor(&["debug", script.to_str().unwrap()]).await;
    assert_eq!(run.code, Some(4), "{}\n{}", run.stdout, run.stderr);
    // Each write once. stdout and stderr come through two pipes, read apart: a line
    // of one may land between two writes of the other ("written to stderr\nwhole"),
    // as it may on any reader of two pipes, so the pieces are counted, not their order.
    for said in ["written ", "whole", "logged", "to stderr"] {
        assert_eq!(
            run.stdout.matches(said).count(),
            1,
            "{said}: {}",
            run.stdout
        );
    }
    // Node's own words on the debugger are not the program's.
    assert!(!run.stdout.contains("Debugger attached"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("Waiting for the debugger"),
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
