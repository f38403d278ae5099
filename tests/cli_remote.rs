//! `dapvisor debug --attach HOST:PORT --map LOCAL=REMOTE`: the shell's way to a
//! remote or container target. A headless dlv serves a binary built in another folder
//! tree; the breakpoint names the agent's file, and every stop is shown at it.

mod cli_support;
mod common;
mod remote_support;

use cli_support::dapvisor;
use common::*;
use remote_support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attach_with_a_map_shows_every_stop_at_the_local_file() {
    let source = program("go/ticker");
    let local = source.join("main.go");
    let tree = RemoteTree::new("cli-dlv");
    tree.copy_folder(&source);
    let binary = tree.build_go("ticker");
    let (_target, port) = dlv_server(&binary).await;
    let line = line_of(&local, "return next");
    let at = format!("127.0.0.1:{port}");
    let map = format!("{}={}", source.display(), tree.app().display());
    let brk = format!("{}:{line}", local.display());
    let run = dapvisor(&[
        "debug",
        "--attach",
        &at,
        "--adapter",
        "dlv",
        "--map",
        &map,
        "--break",
        &brk,
        "--max-stops",
        "2",
    ])
    .await;
    assert!(
        run.stdout
            .starts_with(&format!("attached to the debug server at {at} under dlv")),
        "{}\n{}",
        run.stdout,
        run.stderr
    );
    let here = format!("in main.tick at {}:{line}", local.display());
    assert_eq!(run.stdout.matches(&here).count(), 2, "{}", run.stdout);
    let app = tree.app().display().to_string();
    assert!(!run.stdout.contains(&app), "{}", run.stdout);
    assert!(run.stderr.contains("--max-stops"), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_map_must_be_local_equals_remote_and_needs_an_attach() {
    let bad = dapvisor(&[
        "debug",
        "--attach",
        "127.0.0.1:1",
        "--adapter",
        "dlv",
        "--map",
        "/a",
    ])
    .await;
    assert_eq!(bad.code, Some(125), "{}", bad.stderr);
    assert!(bad.stderr.contains("is not LOCAL=REMOTE"), "{}", bad.stderr);
    let alone = dapvisor(&["debug", "prog.py", "--map", "/a=/b"]).await;
    assert_eq!(alone.code, Some(2), "{}", alone.stderr);
    assert!(alone.stderr.contains("--attach"), "{}", alone.stderr);
    let port = dapvisor(&["debug", "--attach", "127.0.0.1", "--adapter", "dlv"]).await;
    assert_eq!(port.code, Some(2), "{}", port.stderr);
    assert!(port.stderr.contains("HOST:PORT"), "{}", port.stderr);
}

/// `--break remote:PATH:LINE`: a file of the target's that no `--map` covers, named
/// as a stop showed it. It goes to the debug server as the target's own path, binds
/// there, and every stop in it is shown marked. Real debugpy, running its script from
/// a folder tree no mapping covers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_marked_break_binds_in_the_targets_own_file() {
    let local = program("python/ticker.py");
    let tree = RemoteTree::new("cli-marked");
    let remote = tree.copy(&local);
    let (_target, port) = debugpy_server(&python(), &remote).await;
    let line = line_of(&local, "next = count + 1");
    let at = format!("127.0.0.1:{port}");
    // A mapping that covers none of the target's files.
    let map = format!(
        "{}=/dapvisor-test-no-such-folder",
        program("python").display()
    );
    let brk = format!("remote:{}:{line}", remote.display());
    let run = dapvisor(&[
        "debug",
        "--attach",
        &at,
        "--adapter",
        "debugpy",
        "--map",
        &map,
        "--break",
        &brk,
        "--max-stops",
        "2",
    ])
    .await;
    let here = format!("in tick at remote:{}:{line}", remote.display());
    assert_eq!(
        run.stdout.matches(&here).count(),
        2,
        "{}\n{}",
        run.stdout,
        run.stderr
    );
    // Its file is the target's: not looked for here, so not said to be missing.
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(!said.contains("is not set"), "{said}");
    assert!(!said.contains("no such file"), "{said}");
    assert!(run.stderr.contains("--max-stops"), "{}", run.stderr);
}

/// Where the program runs on this machine its files are this machine's: a marked
/// `--break` is refused, saying why and what to pass instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_marked_break_is_refused_for_a_launch() {
    let script = program("python/ticker.py");
    let run = dapvisor(&[
        "debug",
        script.to_str().unwrap(),
        "--break",
        "remote:/srv/app/ticker.py:8",
    ])
    .await;
    assert_ne!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    for part in [
        "remote:/srv/app/ticker.py",
        "not attached to a remote target",
        "without `remote:`",
    ] {
        assert!(run.stderr.contains(part), "{part}: {}", run.stderr);
    }
    assert!(!run.stdout.contains("ticked"), "{}", run.stdout);
}
