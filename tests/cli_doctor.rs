//! `dapvisor doctor` run as a shell runs it: on this machine every adapter is found,
//! reports its version and answers `initialize`, and it exits 0; with each thing it
//! checks made to fail (an adapter missing by the config file or by PATH, one that
//! never answers, an unwritable home, a token file others can read, a port in use) it
//! exits 1 and names the fix. `--json` parses. The pure checks behind each are unit
//! tests in `src/cli/doctor/`.

mod cli_support;
mod common;

use cli_support::{dapvisor, run, scratch, Run};
use serde_json::Value;
use tokio::process::Command;

/// The adapters this machine has (scripts/provision installs them), each of which
/// must be found and answer.
const INSTALLED: [&str; 7] = [
    "debugpy", "lldb-dap", "dlv", "codelldb", "js-debug", "rdbg", "java",
];

/// `dapvisor doctor ARGS --json`, parsed, with the exit code.
async fn doctor_json(command: &mut Command, args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["doctor", "--json"];
    all.extend_from_slice(args);
    let out = run(command.args(&all), &all).await;
    let report: Value = serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "--json printed no JSON ({e}):\n{}\n{}",
            out.stdout, out.stderr
        )
    });
    (out.code, report)
}

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dapvisor"))
}

/// The check called `name`.
fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == name)
        .unwrap_or_else(|| panic!("no check `{name}` in {report:#}"))
}

fn explain(run: &Run) -> String {
    format!("stdout:\n{}\nstderr:\n{}", run.stdout, run.stderr)
}

#[tokio::test]
async fn on_this_machine_every_adapter_answers_and_it_exits_0() {
    let (code, report) = doctor_json(&mut binary(), &[]).await;
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["ok"], true);
    assert_eq!(report["failed"], 0);
    for name in INSTALLED {
        let adapter = check(&report, &format!("adapter {name}"));
        assert_eq!(adapter["status"], "ok", "{adapter:#}");
        assert_eq!(adapter["answers_initialize"], true, "{adapter:#}");
        assert_eq!(adapter["needed"], true, "{adapter:#}");
        assert!(adapter["path"].is_string(), "{adapter:#}");
    }
    // Those asked by their own flag name a version (the others' is dapvisor's
    // install record, absent for one given by DAPVISOR_JS_DEBUG).
    for name in ["debugpy", "lldb-dap", "dlv", "rdbg"] {
        let version = &check(&report, &format!("adapter {name}"))["version"];
        let version = version
            .as_str()
            .unwrap_or_else(|| panic!("{name}: {version}"));
        assert!(version.contains('.'), "{name}: {version}");
    }
    // Every check says how it came out; what is not ok says what to do.
    for c in report["checks"].as_array().unwrap() {
        let status = c["status"].as_str().unwrap();
        assert!(["ok", "warn", "fail"].contains(&status), "{c:#}");
        assert_eq!(c["fix"].is_string(), status != "ok", "{c:#}");
    }
    for name in [
        "ptrace",
        "core size limit",
        "core pattern",
        "home",
        "token file",
    ] {
        check(&report, name);
    }

    let text = dapvisor(&["doctor"]).await;
    assert_eq!(text.code, Some(0), "{}", explain(&text));
    assert!(
        text.stdout
            .lines()
            .any(|l| l.starts_with("ok    adapter lldb-dap ")),
        "{}",
        explain(&text)
    );
    let last = text.stdout.lines().last().unwrap_or("");
    assert!(
        last.starts_with("ready: nothing failed"),
        "{}",
        explain(&text)
    );
}

#[tokio::test]
async fn an_adapter_missing_by_the_config_file_fails_naming_how_to_install_it() {
    let dir = scratch("doctor-config");
    let config = dir.join("adapters.toml");
    std::fs::write(
        &config,
        "[adapters.dlv]\ncommands = [\"/nonexistent/dlv\"]\n",
    )
    .unwrap();
    let config = config.display().to_string();
    let args = ["doctor", "--config", &config, "--adapter", "go"];
    let out = dapvisor(&args).await;
    assert_eq!(out.code, Some(1), "{}", explain(&out));
    let dlv = out
        .stdout
        .lines()
        .find(|l| l.starts_with("fail  adapter dlv "));
    assert!(
        dlv.is_some_and(|l| l.contains("not found (tried: `/nonexistent/dlv`")),
        "{}",
        explain(&out)
    );
    assert!(
        out.stdout
            .contains("fix: Install it with `apt-get install delve golang-go`"),
        "{}",
        explain(&out)
    );
    assert!(
        out.stdout.contains("not ready: 1 failed"),
        "{}",
        explain(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn an_adapter_missing_from_path_fails_and_one_not_named_is_not_checked() {
    let empty = scratch("doctor-path");
    let (code, report) = doctor_json(
        binary().env("PATH", &empty),
        &["--adapter", "lldb-dap", "--adapter", "python"],
    )
    .await;
    assert_eq!(code, Some(1), "{report:#}");
    let lldb = check(&report, "adapter lldb-dap");
    assert_eq!(lldb["status"], "fail", "{lldb:#}");
    assert_eq!(lldb["installed"], false);
    assert!(
        lldb["fix"]
            .as_str()
            .unwrap()
            .contains("apt-get install lldb-22"),
        "{lldb:#}"
    );
    // debugpy comes from DAPVISOR_PYTHON, not PATH.
    assert_eq!(
        check(&report, "adapter debugpy")["status"],
        "ok",
        "{report:#}"
    );
    let checked: Vec<&str> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["adapter"].as_str())
        .collect();
    assert_eq!(checked, ["debugpy", "lldb-dap"], "only the named ones");
    std::fs::remove_dir_all(empty).unwrap();
}

#[tokio::test]
async fn an_adapter_that_never_answers_fails_within_the_timeout_and_is_ended() {
    let dir = scratch("doctor-silent");
    let config = dir.join("adapters.toml");
    // A mark no other process carries, to look for it afterwards.
    let mark = format!("3600.{}", std::process::id());
    std::fs::write(
        &config,
        format!("[adapters.silent]\ncommand = \"/bin/sleep\"\nargs = [\"{mark}\"]\n"),
    )
    .unwrap();
    let config = config.display().to_string();
    let (code, report) = doctor_json(
        &mut binary(),
        &["--config", &config, "--adapter", "silent", "--timeout", "1"],
    )
    .await;
    assert_eq!(code, Some(1), "{report:#}");
    let silent = check(&report, "adapter silent");
    assert_eq!(silent["status"], "fail", "{silent:#}");
    assert_eq!(silent["answers_initialize"], false);
    let detail = silent["detail"].as_str().unwrap();
    assert!(detail.contains("did not answer initialize"), "{detail}");
    assert!(detail.contains("within 1s"), "{detail}");
    let fix = silent["fix"].as_str().unwrap();
    assert!(
        fix.starts_with(&format!("run `/bin/sleep {mark}` by hand")),
        "{fix}"
    );
    let left = common::wait_gone(common::procs_with_cmdline_ending(&mark)).await;
    assert!(left.is_empty(), "adapter processes left behind: {left:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn an_unwritable_home_fails_naming_dapvisor_home() {
    // /proc takes no new files, not even root's.
    let (code, report) = doctor_json(
        binary().env("DAPVISOR_HOME", "/proc"),
        &["--adapter", "debugpy"],
    )
    .await;
    assert_eq!(code, Some(1), "{report:#}");
    let home = check(&report, "home");
    assert_eq!(home["status"], "fail", "{home:#}");
    assert_eq!(home["path"], "/proc");
    assert!(
        home["fix"].as_str().unwrap().contains("DAPVISOR_HOME"),
        "{home:#}"
    );
    assert_eq!(report["failed"], 1, "only the home: {report:#}");
}

#[tokio::test]
async fn a_token_file_others_can_read_fails_with_chmod() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("doctor-token");
    let token = dir.join("token");
    std::fs::write(&token, "t".repeat(40)).unwrap();
    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
    let token = token.display().to_string();
    let args = ["doctor", "--adapter", "debugpy", "--token-file", &token];
    let out = dapvisor(&args).await;
    assert_eq!(out.code, Some(1), "{}", explain(&out));
    assert!(out.stdout.contains("has mode 0644"), "{}", explain(&out));
    assert!(
        out.stdout.contains(&format!("fix: `chmod 600 {token}`")),
        "{}",
        explain(&out)
    );

    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = dapvisor(&args).await;
    assert_eq!(out.code, Some(0), "{}", explain(&out));
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn an_http_port_in_use_fails_and_a_free_one_is_fine() {
    let holder = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = holder.local_addr().unwrap().to_string();
    let (code, report) =
        doctor_json(&mut binary(), &["--adapter", "debugpy", "--http", &addr]).await;
    assert_eq!(code, Some(1), "{report:#}");
    let port = check(&report, "http port");
    assert_eq!(port["status"], "fail", "{port:#}");
    assert_eq!(port["address"], addr.as_str());
    assert!(
        port["detail"].as_str().unwrap().contains("in use"),
        "{port:#}"
    );
    drop(holder);
    let (code, report) =
        doctor_json(&mut binary(), &["--adapter", "debugpy", "--http", &addr]).await;
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(check(&report, "http port")["status"], "ok");
}

#[tokio::test]
async fn an_unknown_adapter_or_a_bad_timeout_is_refused() {
    let (code, report) = doctor_json(&mut binary(), &["--adapter", "cobol"]).await;
    assert_eq!(code, Some(1), "{report:#}");
    let unknown = check(&report, "adapter cobol");
    assert!(
        unknown["fix"]
            .as_str()
            .unwrap()
            .contains("debugpy, lldb-dap"),
        "{unknown:#}"
    );
    let out = dapvisor(&["doctor", "--timeout", "0"]).await;
    assert_eq!(out.code, Some(2), "{}", explain(&out));
    assert!(out.stderr.contains("--timeout"), "{}", explain(&out));
}
