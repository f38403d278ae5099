//! The `dapvisor` command line on the example programs: `dapvisor debug` printing each
//! stop (text and `--json`) and exiting with the program's code, under debugpy,
//! lldb-dap and dlv; `dapvisor adapters`; and bad input.

mod agent;

use std::time::Duration;

use agent::*;
use serde_json::Value;
use tokio::process::Command;

/// How long one `dapvisor` run may take.
const RUN_WAIT: Duration = Duration::from_secs(180);

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

async fn dapvisor(args: &[&str]) -> Run {
    let child = Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(args)
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(RUN_WAIT, child)
        .await
        .unwrap_or_else(|_| panic!("dapvisor {args:?} ran past {RUN_WAIT:?}"))
        .unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

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
    for name in ["debugpy", "lldb-dap", "dlv"] {
        let line = run
            .stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} missing from:\n{}", run.stdout));
        assert!(line.contains("installed"), "{line}");
    }
    assert!(run.stdout.contains("gdb"), "{}", run.stdout);

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
    }

    let run = dapvisor(&["adapters", "install", "gdb"]).await;
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("only debugpy"), "{}", run.stderr);
}
