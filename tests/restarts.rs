//! A real adapter killed mid-session comes back: the supervisor starts a new one with
//! the same launch configuration, the breakpoint is replayed, the program stops at it
//! again under the same session id, and the killed adapter's debuggee is gone.

mod common;

use common::procs::{descendants, wait_gone};
use common::*;
use dapvisor::{
    EventKind, Received, RunTicket, Runtime, RuntimeConfig, SessionError, SessionState, StopOutcome,
};

async fn comes_back_after_sigkill(example: Example) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let session = runtime.launch(example.spec.clone()).await.unwrap();
    let first = expect_stop(&session, RunTicket { epoch: 0 }).await;
    let old_adapter = session
        .adapter_pid()
        .expect("the adapter runs as a process");
    let mut old = descendants(old_adapter);
    old.push(old_adapter);
    let mut events = session.subscribe();

    // SAFETY: a signal to the adapter this test started.
    unsafe { libc::kill(old_adapter as i32, libc::SIGKILL) };

    // A wait under way when the adapter dies fails at once, saying it crashed; the
    // next wait sees the new adapter stop.
    let ticket = RunTicket { epoch: first.epoch };
    let again = match session.wait_for_stop(ticket, STOP_WAIT).await {
        Err(SessionError::AdapterCrashed { .. }) => expect_stop(&session, ticket).await,
        Ok(StopOutcome::Stopped(stop)) => stop,
        other => panic!("expected a crash or a stop, got {other:?}"),
    };
    assert!(again.epoch > first.epoch);
    let frames = session.stack_trace(again.thread_id, Some(1)).await.unwrap();
    assert_eq!(
        frames[0].line, example.line,
        "stopped at the same breakpoint"
    );
    assert!(
        frames[0].name.contains(example.function),
        "{} should be in {}",
        frames[0].name,
        example.function
    );
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(
        (snapshot.state, snapshot.restarts),
        (SessionState::Stopped, 1)
    );
    let new_adapter = session.adapter_pid().expect("a new adapter runs");
    assert_ne!(new_adapter, old_adapter);
    assert_eq!(
        runtime.sessions().len(),
        1,
        "the same session, not a new one"
    );

    let left = wait_gone(old).await;
    assert!(
        left.is_empty(),
        "the killed adapter's processes live on: {left:?}"
    );

    let mut crash = None;
    while let Ok(Received::Event(event)) = events.try_recv() {
        if let EventKind::AdapterCrashed { exit, attempt, .. } = &event.kind {
            crash = Some((exit.signal, *attempt));
        }
    }
    assert_eq!(crash, Some((Some(libc::SIGKILL), Some(1))));

    session
        .remove_breakpoint(&example.spec.breakpoints[0].file, example.line)
        .await
        .unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(example.exit_code));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_comes_back_after_sigkill() {
    comes_back_after_sigkill(discount_example()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_comes_back_after_sigkill() {
    comes_back_after_sigkill(average_example()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_comes_back_after_sigkill() {
    comes_back_after_sigkill(inventory_example()).await;
}
