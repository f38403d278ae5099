//! Faults that end the hostile adapter (`tests/support/hostile_adapter.py`, which
//! misbehaves on purpose; its docstring lists the faults) while a session is live: a
//! crash on a request with an exit code or a signal, garbage, a frame that is not JSON
//! or is too large. The request fails at once with an error that names what happened,
//! the session comes back on a new adapter, and a healthy session in the same runtime
//! carries on; an adapter that cannot be restarted spends the budget and the session
//! fails. Every call is bounded, so a hang fails the test instead of stalling it.
//! Start-up faults: `hostile_startup.rs`; answers the adapter gets wrong but survives:
//! `hostile_answers.rs`.

mod common;
mod hostile_support;

use std::time::Duration;

use common::*;
use dapvisor::registry::AdapterDef;
use dapvisor::{AdapterExit, RunTicket, RuntimeConfig, SessionError};
use hostile_support::*;

/// Crash the hostile adapter on `evaluate` beside a healthy session; the evaluation
/// must fail at once with the adapter's end, which is returned.
async fn crash_on_evaluate(how: &str) -> AdapterExit {
    let fault = format!("crash-on=evaluate:{how}");
    let runtime = runtime(&[&fault]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    // The adapter's end, not the request's deadline (which would be a Timeout), is
    // what failed it: it failed at once, whatever the machine's load.
    let (result, _) = timed_evaluate(&session, None).await;
    let exit = adapter_end(result);
    assert!(!exit.requested, "{exit:?}");
    assert!(
        exit.stderr_tail.contains("crashing on `evaluate`"),
        "{exit:?}"
    );
    assert!(bounded("snapshot", session.snapshot()).await.is_ok());
    comes_back(&session).await;
    carries_on(&healthy).await;
    shut_down(runtime).await;
    exit
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_on_a_request_fails_it_at_once_with_the_exit_code() {
    let exit = crash_on_evaluate("42").await;
    assert_eq!((exit.code, exit.signal), (Some(42), None));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigkill_on_a_request_fails_it_at_once_with_the_signal() {
    let exit = crash_on_evaluate("sigkill").await;
    assert_eq!((exit.code, exit.signal), (None, Some(libc::SIGKILL)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_segfault_on_a_request_fails_it_at_once_with_the_signal() {
    let exit = crash_on_evaluate("sigsegv").await;
    assert_eq!((exit.code, exit.signal), (None, Some(libc::SIGSEGV)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_for_a_response_ends_the_adapter_with_the_codec_error() {
    let runtime = runtime(&["garbage-on=evaluate"]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    // The adapter's end, not the request's deadline (which would be a Timeout), is
    // what failed it: it failed at once, whatever the machine's load.
    let (result, _) = timed_evaluate(&session, None).await;
    let exit = adapter_end(result);
    assert!(
        exit.reason.contains("no end of DAP header found"),
        "{exit:?}"
    );
    assert!(bounded("snapshot", session.snapshot()).await.is_ok());
    comes_back(&session).await;
    carries_on(&healthy).await;
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_that_is_not_json_ends_the_adapter_and_is_named_in_the_error() {
    let runtime = runtime(&["invalid-json-on=evaluate"]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    // Failed by the adapter's end, not at the deadline (which would be a Timeout).
    let (result, _) = timed_evaluate(&session, Some(SHORT)).await;
    match result {
        Err(SessionError::AdapterCrashed { exit, .. }) => {
            assert!(exit.reason.contains("this is not JSON"), "{exit:?}")
        }
        other => panic!("expected the adapter to be ended as crashed, got {other:?}"),
    }
    comes_back(&session).await;
    carries_on(&healthy).await;
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_frame_for_a_response_ends_the_adapter_and_the_session_comes_back() {
    let runtime = runtime(&["oversized-on=evaluate"]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    // The adapter's end, not the request's deadline (which would be a Timeout), is
    // what failed it: it failed at once, whatever the machine's load.
    let (result, _) = timed_evaluate(&session, None).await;
    let exit = adapter_end(result);
    let limit = "Content-Length 16777217, above the limit of 16777216 bytes";
    assert!(exit.reason.contains(limit), "{exit:?}");
    comes_back(&session).await;
    carries_on(&healthy).await;
    shut_down(runtime).await;
}

// ---- restarts that cannot start ----

/// An adapter whose executable vanishes after the first start: each restart fails
/// as the transport starts (a spawn error, not a supervision event), goes through the
/// same budget as crashes, and the session fails with the reason; the runtime and a
/// healthy session carry on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adapter_that_cannot_be_restarted_spends_the_budget_and_fails() {
    let dir = std::env::temp_dir().join(format!("dapvisor-vanishing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let launcher = dir.join("adapter.sh");
    let (python, script) = (python(), hostile_script());
    std::fs::write(
        &launcher,
        format!(
            "#!/bin/sh\nexec {python:?} {:?} --fault crash-on=evaluate:sigkill\n",
            script.display().to_string()
        ),
    )
    .unwrap();
    let mut perms = std::fs::metadata(&launcher).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&launcher, perms).unwrap();

    let policy = dapvisor::RestartPolicy {
        initial_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(40),
        ..dapvisor::RestartPolicy::default()
    };
    let mut config = RuntimeConfig::default().restart_policy(policy);
    config.adapters_mut().register(AdapterDef::generic(
        "vanishing",
        launcher.display().to_string(),
    ));
    let runtime = runtime_with(config, &[]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "vanishing").await;
    std::fs::remove_dir_all(&dir).unwrap();

    let (result, _) = timed_evaluate(&session, None).await;
    adapter_end(result);
    // Each failed restart fails the wait with the crash; the last with the failure.
    let err = loop {
        let wait = session.wait_for_stop(RunTicket { epoch: 1 }, BOUND);
        match bounded("the end of the restarts", wait).await {
            Err(SessionError::AdapterCrashed { .. }) => continue,
            Err(other) => break other,
            Ok(outcome) => panic!("the adapter cannot come back, yet: {outcome:?}"),
        }
    };
    match &err {
        SessionError::SessionFailed { reason } => {
            assert!(reason.contains("6 times"), "{reason}");
            assert!(reason.contains("could not start adapter"), "{reason}");
        }
        other => panic!("expected the session to fail, got {other:?}"),
    }
    let snapshot = bounded("snapshot", session.snapshot()).await.unwrap();
    assert_eq!(snapshot.restarts, 5, "every restart was tried");
    carries_on(&healthy).await;
    shut_down(runtime).await;
}
