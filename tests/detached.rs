//! No process left behind, even one that hides: the hostile adapter's `detached-child`
//! fault starts a "debuggee" that leaves the adapter's process group and session
//! (`setsid`), ignores every signal a lost connection or a polite stop would bring,
//! and sleeps forever. Once the adapter exits by itself or crashes, that process is
//! re-parented to init and no longer shows under the adapter in `/proc`; a group kill
//! cannot reach it either. Whichever way the session or its adapter ends, it must be
//! gone afterwards, checked by its pid.

mod common;

use std::time::Duration;

use common::*;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionError, SessionHandle};

/// Longest any one call may take here; a hang fails the test instead of stalling it.
const BOUND: Duration = Duration::from_secs(90);
/// The command-line mark of the detached debuggee (see the hostile adapter).
const MARK: &str = "hostile-detached-debuggee";
const LINE: i64 = 42;

async fn bounded<T>(what: &str, call: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(BOUND, call)
        .await
        .unwrap_or_else(|_| panic!("{what} did not return within {BOUND:?}"))
}

/// A runtime whose adapter `hostile` starts a detached debuggee, with `faults` more.
async fn runtime(faults: &[&str]) -> Runtime {
    let faults: Vec<&str> = ["detached-child"]
        .into_iter()
        .chain(faults.iter().copied())
        .collect();
    let def = hostile_adapter("hostile", &faults);
    let mut config = RuntimeConfig::default();
    config.adapters_mut().register(def);
    Runtime::start(config).await.unwrap()
}

/// Launch to the breakpoint; the session, and the pid of its detached debuggee.
async fn launch(runtime: &Runtime) -> (SessionHandle, u32) {
    let file = program("python/discount.py");
    let spec = LaunchSpec::new(&file)
        .adapter("hostile")
        .breakpoint(&file, LINE);
    let session = bounded("launch", runtime.launch(spec)).await.unwrap();
    bounded("the stop", expect_stop(&session, RunTicket { epoch: 0 })).await;
    let debuggee = detached_debuggee(&session);
    (session, debuggee)
}

/// The detached debuggee under the session's current adapter, checked to have left
/// the adapter's process group and session. It is looked for until it shows (at most
/// [`GONE_WAIT`]): on a loaded machine the stop can be read before `/proc` shows the
/// child's own command line (once, 2 of these 6 tests saw a lone descendant without it).
fn detached_debuggee(session: &SessionHandle) -> u32 {
    let adapter = session
        .adapter_pid()
        .expect("the adapter runs as a process");
    let deadline = std::time::Instant::now() + GONE_WAIT;
    let debuggee = loop {
        let under = descendants(adapter);
        if let Some(&found) = under.iter().find(|&&p| cmdline(p).ends_with(MARK)) {
            break found;
        }
        if std::time::Instant::now() > deadline {
            let seen: Vec<String> = under
                .iter()
                .map(|&p| format!("{p}: {:?}", cmdline(p)))
                .collect();
            panic!("no detached debuggee under {adapter} within {GONE_WAIT:?}: {seen:?}");
        }
        // /proc has no event to wait on: look again shortly, as `wait_gone` does.
        std::thread::park_timeout(Duration::from_millis(20));
    };
    let (group, sid) = group_and_session(debuggee).unwrap();
    let (adapter_group, adapter_sid) = group_and_session(adapter).unwrap();
    assert_eq!(adapter_group, adapter, "the adapter leads its group");
    assert_ne!(
        group, adapter_group,
        "the debuggee left the adapter's group"
    );
    assert_ne!(sid, adapter_sid, "and its session");
    debuggee
}

async fn assert_gone(debuggee: u32, after: &str) {
    let left = wait_gone(vec![debuggee]).await;
    assert!(
        left.is_empty(),
        "after {after}, the detached debuggee {debuggee} is still alive: {}",
        cmdline(debuggee)
    );
}

/// Evaluate in the stopped session, where the adapter is set to die.
async fn evaluate_kills_the_adapter(session: &SessionHandle) -> SessionError {
    bounded("evaluate", session.evaluate("qty", None, None))
        .await
        .expect_err("the adapter dies on evaluate")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_of_the_adapter_ends_its_detached_debuggee() {
    let runtime = runtime(&["crash-on=evaluate:sigkill"]).await;
    let (session, debuggee) = launch(&runtime).await;
    let err = evaluate_kills_the_adapter(&session).await;
    assert!(
        matches!(&err, SessionError::AdapterCrashed { exit, .. } if exit.signal == Some(9)),
        "{err:?}"
    );
    assert_gone(debuggee, "the adapter was killed").await;

    // The restarted adapter starts another; shutting the runtime down ends it too.
    bounded(
        "the stop after the restart",
        expect_stop(&session, RunTicket { epoch: 1 }),
    )
    .await;
    let second = detached_debuggee(&session);
    assert_ne!(second, debuggee);
    bounded("shutdown", runtime.shutdown()).await;
    assert_gone(second, "the runtime shut down").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adapter_exiting_by_itself_ends_its_detached_debuggee() {
    let runtime = runtime(&["crash-on=evaluate:0"]).await;
    let (session, debuggee) = launch(&runtime).await;
    let err = evaluate_kills_the_adapter(&session).await;
    assert!(
        matches!(&err, SessionError::AdapterCrashed { exit, .. } if exit.code == Some(0)),
        "{err:?}"
    );
    assert_gone(debuggee, "the adapter exited with code 0").await;
    bounded("shutdown", runtime.shutdown()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminating_the_session_ends_the_detached_debuggee() {
    let runtime = runtime(&[]).await;
    let (session, debuggee) = launch(&runtime).await;
    bounded("terminate", session.terminate()).await.unwrap();
    assert_gone(debuggee, "terminate").await;
    bounded("shutdown", runtime.shutdown()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutting_the_runtime_down_ends_the_detached_debuggee() {
    let runtime = runtime(&[]).await;
    let (_session, debuggee) = launch(&runtime).await;
    bounded("shutdown", runtime.shutdown()).await;
    assert_gone(debuggee, "shutdown").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_supervisor_ends_the_detached_debuggee() {
    // ractor skips post_stop on a kill: the cleanup comes from Drop.
    let runtime = runtime(&[]).await;
    let (_session, debuggee) = launch(&runtime).await;
    let supervisor = runtime.supervisor();
    supervisor.kill();
    bounded("the supervisor's stop", supervisor.wait(None))
        .await
        .unwrap();
    assert_gone(debuggee, "the supervisor was killed").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_child_the_adapter_never_named_before_it_died_is_ended_too() {
    // The adapter starts a detached child on `launch` and is SIGKILLed before it
    // answers: no moment came at which the child could be seen under it. Its own mark,
    // so that other tests' children are not counted.
    let mark = format!("hostile-orphan-{}", std::process::id());
    let orphans = || procs_with_cmdline_ending(&mark);
    let mut config = RuntimeConfig::default();
    let def = hostile_adapter("hostile", &["orphan-on=launch", &format!("mark={mark}")]);
    config.adapters_mut().register(def);
    let runtime = Runtime::start(config).await.unwrap();
    let file = program("python/discount.py");
    let spec = LaunchSpec::new(&file).adapter("hostile");
    let failed = bounded("launch", runtime.launch(spec)).await;
    let err = failed.expect_err("the adapter died during the launch");
    // The positive control: the adapter did start the orphan (its stderr, which the
    // failure quotes, names it), so that "none left" below is about a real process.
    let said = err.to_string();
    let orphan: u32 = said
        .split("started a detached debuggee, pid ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|pid| pid.parse().ok())
        .unwrap_or_else(|| panic!("the adapter never said it started its orphan: {said}"));
    // By its mark too: the orphan may be gone and its pid taken by another process
    // before the failure is read (pids wrap).
    let left = wait_gone(vec![orphan]).await;
    let left: Vec<u32> = left
        .into_iter()
        .filter(|pid| cmdline(*pid).ends_with(&mark))
        .collect();
    assert!(
        left.is_empty(),
        "the adapter's orphan {orphan} is still alive"
    );
    let left = wait_gone(orphans()).await;
    assert!(
        left.is_empty(),
        "the adapter's orphans {left:?} are still alive"
    );
    bounded("shutdown", runtime.shutdown()).await;
    assert!(orphans().is_empty());
}
