//! Restarts and the end of a run against a real debugpy: exception options set again
//! on an adapter restarted after a crash; `restart` by relaunch (debugpy has no
//! `restart` request), with the breakpoints as they are; `terminate` asking debugpy
//! first, so that the program's own clean-up runs.

mod common;
mod protocol_support;

use std::path::PathBuf;

use common::*;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle};
use protocol_support::debugpy::*;
use protocol_support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_options_are_set_again_on_an_adapter_restarted_after_a_crash() {
    let (runtime, session) = stopped_at(&scores(), "scores, skipped = read_scores(LINES)").await;
    session
        .set_exception_breakpoints_with(always_on("ValueError"))
        .await
        .unwrap();
    let epoch = session.snapshot().await.unwrap().stop_epoch;
    let adapter = session
        .adapter_pid()
        .expect("the adapter runs as a process");
    // SAFETY: a signal to the adapter this test started.
    unsafe { libc::kill(adapter as i32, libc::SIGKILL) };

    // The supervisor starts a new adapter; the program runs again to its breakpoint,
    // and the caught ValueError stops it as the options said.
    let ticket = RunTicket { epoch };
    let again = match session
        .wait_for_stop(ticket, std::time::Duration::from_secs(60))
        .await
    {
        Err(dapvisor::SessionError::AdapterCrashed { .. }) => expect_stop(&session, ticket).await,
        Ok(dapvisor::StopOutcome::Stopped(stop)) => stop,
        other => panic!("want the stop after the restart, got {other:?}"),
    };
    assert_eq!(again.reason, "breakpoint");
    assert_ne!(session.adapter_pid(), Some(adapter), "a new adapter");
    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "exception");
    assert_eq!(top_frame(&session).await.name, "parse_line");
    runtime.shutdown().await;
}

async fn debuggee_pid(session: &SessionHandle) -> u32 {
    let info = session
        .custom_request("pydevdSystemInfo", None)
        .await
        .unwrap();
    info["process"]["pid"].as_u64().unwrap() as u32
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_restart_request_restart_relaunches_with_the_breakpoints_as_they_are() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let loop_line = line_of(discount(), "total += discounted");
    let spec = LaunchSpec::new(discount()).breakpoint(discount(), loop_line);
    let session = runtime.launch(spec.clone()).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    // Past the first line item; then one breakpoint added and the launch's removed.
    let ticket = session.continue_(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(local(&session, "total").await, "1000");
    let first_run = debuggee_pid(&session).await;
    let percent = line_of(discount(), "percent = 0");
    let at = |line| dapvisor::wire::types::SourceBreakpoint {
        line,
        ..Default::default()
    };
    session
        .add_breakpoint(discount(), at(percent))
        .await
        .unwrap();
    session
        .remove_breakpoint(discount(), loop_line)
        .await
        .unwrap();
    let id = session.id();

    // debugpy has no `restart` request: the stored plan runs again.
    assert!(!advertised(&session.snapshot().await.unwrap())
        .contains(&"supportsRestartRequest".to_string()));
    let ticket = session.restart().await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "breakpoint");
    assert_eq!(session.id(), id);
    // The run starts over, stopping only where breakpoints are now.
    let top = top_frame(&session).await;
    assert_eq!((top.name.as_str(), top.line), ("discount_percent", percent));
    assert_eq!(local(&session, "amount").await, "1000");
    let second_run = debuggee_pid(&session).await;
    assert_ne!(second_run, first_run, "a new process");
    assert_eq!(wait_gone(vec![first_run]).await, Vec::<u32>::new());
    let snapshot = session.snapshot().await.unwrap();
    let lines: Vec<i64> = snapshot
        .breakpoints
        .file(&discount())
        .iter()
        .map(|r| r.requested.line)
        .collect();
    assert_eq!(lines, [percent]);
    assert_eq!(snapshot.restarts, 0, "not a crash restart");

    // Once the program has ended, relaunch(plan) runs it again with the plan's
    // breakpoint added to the cached ones.
    session.set_breakpoints(discount(), vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(3));
    let plan = runtime.plan_launch(spec).await.unwrap();
    let before = session.snapshot().await.unwrap().stop_epoch;
    session.relaunch(plan).await.unwrap();
    expect_stop(&session, RunTicket { epoch: before }).await;
    assert_eq!(top_frame(&session).await.line, loop_line);
    runtime.shutdown().await;
}

const CLEANS_UP: &str = r#"
import sys, time

marker = sys.argv[1]
try:
    # "ready" is said inside the try: said before it, a KeyboardInterrupt that came
    # while the program had not yet entered the try (a loaded machine can hold it
    # there after the print) would skip the finally.
    print("ready", flush=True)
    while True:
        time.sleep(0.05)
finally:
    with open(marker, "w") as f:
        f.write("cleaned up")
"#;

/// Launch CLEANS_UP with debugpy's graceful terminate, once it runs; the session
/// and where it notes its cleanup.
async fn cleaning_program(runtime: &Runtime, name: &str) -> (SessionHandle, PathBuf) {
    let dir = std::env::temp_dir().join(format!("dapvisor-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cleans_up.py");
    std::fs::write(&file, CLEANS_UP).unwrap();
    let marker = dir.join("marker");
    let _ = std::fs::remove_file(&marker);
    let mut spec = LaunchSpec::new(&file).args([marker.display().to_string()]);
    spec.extra
        .insert("onTerminate".into(), serde_json::json!("KeyboardInterrupt"));
    let session = runtime.new_session().await.unwrap();
    let mut events = session.subscribe();
    session
        .start(runtime.plan_launch(spec).await.unwrap())
        .await
        .unwrap();
    let ready = async {
        loop {
            match events.recv().await {
                Some(dapvisor::Received::Event(e)) => {
                    if matches!(&e.kind, dapvisor::EventKind::Output { output, .. } if output.contains("ready"))
                    {
                        return;
                    }
                }
                Some(_) => {}
                None => panic!("the session's events ended"),
            }
        }
    };
    tokio::time::timeout(STOP_WAIT, ready)
        .await
        .expect("the program says it is ready");
    (session, marker)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminate_asks_debugpy_first_so_the_program_can_clean_up() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let (session, marker) = cleaning_program(&runtime, "terminate").await;
    assert!(advertised(&session.snapshot().await.unwrap())
        .contains(&"supportsTerminateRequest".to_string()));
    let mut events = session.subscribe();
    session.terminate().await.unwrap();
    // `terminate` raised KeyboardInterrupt in the program, whose `finally` ran
    // before the adapter was let go.
    let cleaned = std::fs::read_to_string(&marker).ok();
    if cleaned.as_deref() != Some("cleaned up") {
        let output = session.output(0, 64 * 1024).await.unwrap().text();
        let mut seen = Vec::new();
        while let Ok(Some(e)) =
            tokio::time::timeout(std::time::Duration::from_millis(100), events.recv()).await
        {
            seen.push(format!("{e:?}"));
        }
        panic!(
            "no cleanup ({cleaned:?}); output:\n{output}\nevents after terminate:\n{}",
            seen.join("\n")
        );
    }
    assert_eq!(
        session.snapshot().await.unwrap().state,
        dapvisor::SessionState::Terminated
    );

    // `disconnect` alone kills it: no cleanup.
    let (session, marker) = cleaning_program(&runtime, "disconnect").await;
    session.disconnect(true).await.unwrap();
    runtime.shutdown().await;
    assert!(!marker.exists(), "a disconnected program is killed");
}
