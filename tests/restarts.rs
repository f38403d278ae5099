//! A real adapter (debugpy, lldb-dap, dlv, js-debug, CodeLLDB) killed mid-session
//! comes back: the supervisor starts a new one with the same launch configuration,
//! the breakpoint is replayed, the program stops at it again under the same session
//! id, and the killed adapter's debuggee is gone. The same holds when the session's
//! transport actor fails instead; when the session actor itself fails, the session is
//! closed with the failure and no process is left.

mod common;

use common::procs::{descendants, wait_gone};
use common::*;
use dapvisor::testing::{inject_fault, InjectedFault};
use dapvisor::{
    EventKind, Received, RestartPolicy, RunTicket, Runtime, RuntimeConfig, SessionError,
    SessionState, StopOutcome,
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

/// A new js-debug server, a new bootstrap, the program's own session adopted again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn js_debug_comes_back_after_sigkill() {
    comes_back_after_sigkill(cart_example()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_comes_back_after_sigkill() {
    comes_back_after_sigkill(shelf_example()).await;
}

/// The adapter's processes: itself and everything under it.
fn adapter_processes(session: &dapvisor::SessionHandle) -> Vec<u32> {
    let adapter = session
        .adapter_pid()
        .expect("the adapter runs as a process");
    let mut pids = descendants(adapter);
    pids.push(adapter);
    pids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_comes_back_after_its_transport_panics() {
    let example = discount_example();
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let session = runtime.launch(example.spec.clone()).await.unwrap();
    let first = expect_stop(&session, RunTicket { epoch: 0 }).await;
    let old = adapter_processes(&session);
    let mut events = session.subscribe();

    assert!(inject_fault(&session, InjectedFault::TransportPanic));
    let ticket = RunTicket { epoch: first.epoch };
    let again = match session.wait_for_stop(ticket, STOP_WAIT).await {
        Err(SessionError::AdapterCrashed { .. }) => expect_stop(&session, ticket).await,
        Ok(StopOutcome::Stopped(stop)) => stop,
        other => panic!("expected a crash or a stop, got {other:?}"),
    };
    let frames = session.stack_trace(again.thread_id, Some(1)).await.unwrap();
    assert_eq!(frames[0].line, example.line, "the same breakpoint");
    assert_eq!(session.snapshot().await.unwrap().restarts, 1);
    let left = wait_gone(old.clone()).await;
    assert!(
        left.is_empty(),
        "the failed transport's processes live on: {left:?}"
    );

    let mut crash = None;
    while let Ok(Received::Event(event)) = events.try_recv() {
        if let EventKind::AdapterCrashed { exit, .. } = &event.kind {
            crash = Some(exit.reason.clone());
        }
    }
    let crash = crash.expect("a crash event");
    assert!(crash.contains("the transport failed"), "{crash}");
    let new = adapter_processes(&session);
    runtime.shutdown().await;
    assert!(wait_gone(new).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_session_actor_leaves_no_process_and_says_why() {
    let example = discount_example();
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut runtime_events = runtime.subscribe();
    let session = runtime.launch(example.spec.clone()).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let pids = adapter_processes(&session);
    assert!(
        pids.iter().any(|&p| cmdline(p).contains("discount.py")),
        "the debuggee is among {pids:?}"
    );

    assert!(inject_fault(&session, InjectedFault::SessionPanic));
    let reason = loop {
        let received = tokio::time::timeout(STOP_WAIT, runtime_events.recv()).await;
        if let Ok(Some(Received::Event(event))) = received {
            if let EventKind::SessionFailed { reason } = &event.kind {
                break reason.clone();
            }
        } else {
            panic!("no session_failed event: {received:?}");
        }
    };
    assert!(reason.contains("a panic injected"), "{reason}");
    let left = wait_gone(pids.clone()).await;
    assert!(left.is_empty(), "still alive: {left:?} of {pids:?}");
    match session.threads().await {
        Err(SessionError::SessionFailed { reason: r }) => assert_eq!(r, reason),
        other => panic!("want the failure, got {other:?}"),
    }
    assert_eq!(
        session.adapter_pid(),
        None,
        "the ended adapter is still named"
    );
    assert!(runtime.sessions().is_empty());
    runtime.shutdown().await;
}

/// A transport that panics goes without its normal end (which clears the session's
/// adapter pid): the pid must not outlive it, or a host would signal, or a listing
/// show, a process that is gone (and whose pid may be reused).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicked_transport_leaves_no_stale_adapter_pid() {
    let example = average_example();
    let no_restarts = RestartPolicy {
        max_restarts: 0,
        ..RestartPolicy::default()
    };
    let config = RuntimeConfig::default().restart_policy(no_restarts);
    let runtime = Runtime::start(config).await.unwrap();
    let session = runtime.launch(example.spec.clone()).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let old = adapter_processes(&session);
    let mut events = session.subscribe();

    assert!(inject_fault(&session, InjectedFault::TransportPanic));
    loop {
        match tokio::time::timeout(STOP_WAIT, events.recv()).await {
            Ok(Some(Received::Event(event)))
                if matches!(event.kind, EventKind::SessionFailed { .. }) =>
            {
                break
            }
            Ok(Some(_)) => {}
            other => panic!("the session never failed: {other:?}"),
        }
    }
    assert_eq!(session.state().await.unwrap(), SessionState::Failed);
    assert_eq!(
        session.adapter_pid(),
        None,
        "the failed transport's adapter ({old:?}) is still named"
    );
    assert!(wait_gone(old).await.is_empty());
    runtime.shutdown().await;
}
