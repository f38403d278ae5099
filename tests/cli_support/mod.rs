//! Running the `dapvisor` binary the way a shell does, for the command-line tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::process::Command;

/// How long one `dapvisor` run may take.
pub const RUN_WAIT: Duration = Duration::from_secs(180);

/// What a run of `dapvisor` left.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// `dapvisor ARGS` in this process's environment.
pub async fn dapvisor(args: &[&str]) -> Run {
    run(
        Command::new(env!("CARGO_BIN_EXE_dapvisor")).args(args),
        args,
    )
    .await
}

/// `dapvisor ARGS` with `home` as its DAPVISOR_HOME and no DAPVISOR_PYTHON.
pub async fn dapvisor_in(home: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dapvisor"));
    command
        .args(args)
        .env("DAPVISOR_HOME", home)
        .env_remove("DAPVISOR_PYTHON");
    run(&mut command, args).await
}

/// Run `command` to its end, within `RUN_WAIT`, with nothing on its stdin (the
/// program it debugs reads dapvisor's own stdin where that is a pipe or a file: not
/// whatever the test runner was given).
pub async fn run(command: &mut Command, args: &[&str]) -> Run {
    let child = command
        .stdin(std::process::Stdio::null())
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

/// A folder of this test binary's own for scripts, made afresh.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dapvisor-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `dapvisor ARGS` started as a shell starts a command (every signal at its default
/// disposition, whatever this test binary ignores), its stdout and stderr piped.
pub fn spawn_dapvisor(args: &[&str]) -> tokio::process::Child {
    dapvisor::testing::clean_start::tokio_command(env!("CARGO_BIN_EXE_dapvisor"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap()
}

/// Send `signal` to `pid` (a process of this test's own).
pub fn send(signal: i32, pid: u32) {
    // SAFETY: kill only sends a signal.
    unsafe { libc::kill(pid as i32, signal) };
}

/// Wait for `child` to end within `RUN_WAIT`: what it left.
pub async fn finished(child: tokio::process::Child, args: &[&str]) -> Run {
    let out = tokio::time::timeout(RUN_WAIT, child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("dapvisor {args:?} ran past {RUN_WAIT:?}"))
        .unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
