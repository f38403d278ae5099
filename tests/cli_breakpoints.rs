//! Breakpoints that would be silently of no use are said, on real debugpy: at the end
//! of a `dapvisor debug` run, each that never stopped the program and why (never set:
//! no such file, as a relative `--break` from another folder is, with where the file
//! is; or set on a line the program never ran); one the adapter bound to another line
//! is said at the launch, and over the tools too, where either line removes it; a line
//! past the end of its file is refused.

mod agent;
mod cli_support;
mod common;

use std::path::{Path, PathBuf};

use cli_support::*;
use serde_json::json;
use tokio::process::Command;

/// A small program: a function with a comment line, a branch never taken.
fn average(dir: &Path) -> PathBuf {
    let script = dir.join("avg.py");
    std::fs::write(
        &script,
        "def avg(xs):\n    total = 0\n    for x in xs:\n        total += x\n\
         \x20   n = len(xs)\n    # a comment line\n    return total / n\n\n\n\
         if len([]) > 1:\n    print('never')\nprint(avg([1, 2, 3]))\n",
    )
    .unwrap();
    script
}

#[tokio::test]
async fn a_run_says_each_breakpoint_that_never_stopped_it_and_why() {
    let dir = scratch("unhit");
    let script = average(&dir);
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let script_arg = script.display().to_string();
    let never = format!(
        "{}:{}",
        script.display(),
        common::line_of(&script, "'never'")
    );
    let other = format!("{}:3", dir.join("other.py").display());
    // `avg.py:4` from another folder names a file that is not there.
    let args = [
        "debug",
        &script_arg,
        "--break",
        "avg.py:4",
        "--break",
        &other,
        "--break",
        &never,
        "--break-function",
        "nosuchfn",
    ];
    let run = run(
        Command::new(env!("CARGO_BIN_EXE_dapvisor"))
            .args(args)
            .current_dir(&elsewhere),
        &args,
    )
    .await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    let out = &run.stdout;
    assert!(out.contains("2.0"), "{out}");
    let missing = elsewhere.join("avg.py").display().to_string();
    assert!(
        out.contains(&format!(
            "[breakpoint {missing}:4 never stopped the program: it was never set: no such file]"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "breakpoint {missing}:4 is not set: no such file (the program's folder has {}",
            script.display()
        )),
        "the file is found beside the program: {out}"
    );
    assert!(
        out.contains(&format!(
            "[breakpoint {other} never stopped the program: it was never set: no such file]"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "[breakpoint {never} never stopped the program: the program never ran that line]"
        )),
        "{out}"
    );
    assert!(
        out.contains("[function breakpoint nosuchfn never stopped the program"),
        "{out}"
    );
    // Said before the end line, the program's own exit code kept.
    assert!(
        out.trim_end().ends_with("[the program exited with code 0]"),
        "{out}"
    );

    // --json: the same, as objects.
    let json_args = ["debug", &script_arg, "--break", &never, "--json"];
    let run = dapvisor(&json_args).await;
    let end: serde_json::Value = serde_json::from_str(run.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(
        end["unhit_breakpoints"][0]["line"],
        never.rsplit(':').next().unwrap().parse::<i64>().unwrap(),
        "{end}"
    );
    assert_eq!(
        end["unhit_breakpoints"][0]["why"], "the program never ran that line",
        "{end}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_line_past_the_end_is_refused_and_a_moved_one_said() {
    let dir = scratch("moved");
    let script = average(&dir);
    let script_arg = script.display().to_string();
    let past = format!("{script_arg}:500");
    let run = dapvisor(&["debug", &script_arg, "--break", &past]).await;
    assert_eq!(run.code, Some(125), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("line 500 is past the end"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("12 line(s)"), "{}", run.stderr);
    assert!(
        !run.stdout.contains("stopped"),
        "nothing ran: {}",
        run.stdout
    );

    let comment = common::line_of(&script, "# a comment line");
    let asked = format!("{script_arg}:{comment}");
    let run = dapvisor(&["debug", &script_arg, "--break", &asked]).await;
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    let bound = comment - 1;
    assert!(
        run.stdout.contains(&format!(
            "breakpoint {asked}: asked line {comment}, bound at line {bound}"
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("avg.py:{bound} (thread")),
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn over_the_tools_a_moved_breakpoint_is_said_and_either_line_removes_it() {
    let dir = scratch("moved-tools");
    let script = average(&dir);
    let comment = common::line_of(&script, "# a comment line");
    let tools = agent::catalogue().await;
    let launched = agent::ok(
        &tools,
        "debug.launch",
        json!({ "program": script, "breakpoints": [{ "file": script, "line": comment }] }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    assert_eq!(
        launched["moved_breakpoints"][0]["line"], comment,
        "{launched}"
    );
    assert_eq!(
        launched["moved_breakpoints"][0]["bound_line"],
        comment - 1,
        "{launched}"
    );
    assert_eq!(launched["stop"]["line"], comment - 1, "{launched}");

    // Either line names it: the one it is bound at, then (set again) the one asked.
    for removed_by in [comment - 1, comment] {
        let set = tools
            .call(
                "debug.set_breakpoint",
                agent::with(&id, json!({ "file": script, "line": comment })),
            )
            .await;
        assert!(
            set.text.contains(&format!(
                "asked line {comment}, bound at line {}",
                comment - 1
            )),
            "{}",
            set.text
        );
        let removed = agent::ok(
            &tools,
            "debug.remove_breakpoint",
            agent::with(&id, json!({ "file": script, "line": removed_by })),
        )
        .await;
        assert_eq!(
            removed["breakpoints"],
            json!([]),
            "by line {removed_by}: {removed}"
        );
    }
    let past = agent::with(&id, json!({ "file": script, "line": 500 }));
    let refused = agent::fails(&tools, "debug.set_breakpoint", past, 400).await;
    assert!(refused.text.contains("past the end"), "{}", refused.text);
    tools.runtime().shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// js-debug holds a breakpoint unverified ("provisional") until the script it is in
/// loads, which is after the launch answers: one that then stops the program is not
/// said to be unset, and one it binds to the next line is said as moved, once the
/// program first stopped.
#[tokio::test]
async fn js_debug_breakpoints_are_said_as_they_are_at_the_first_stop() {
    let cart = common::program("javascript/cart.js").display().to_string();
    let line = common::line_of(&cart, "total += cents + DELIVERY_CENTS");
    let blank = common::line_of(&cart, "main();") - 1;
    let fires = format!("{cart}:{line}");
    let moves = format!("{cart}:{blank}");
    let run = dapvisor(&[
        "debug",
        &cart,
        "--break",
        &fires,
        "--break",
        &moves,
        "--max-stops",
        "1",
    ])
    .await;
    let out = &run.stdout;
    assert!(!out.contains("is not set"), "{out}");
    assert!(!out.contains("provisional"), "{out}");
    assert!(
        out.contains(&format!(
            "breakpoint {moves}: asked line {blank}, bound at line {}",
            blank + 1
        )),
        "{out}"
    );
    let said = out.find("bound at line").unwrap();
    let stopped = out.find("stopped (breakpoint)").expect("a stop");
    assert!(said < stopped, "said before the stop is shown: {out}");
}
