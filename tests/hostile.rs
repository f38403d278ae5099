//! Fault tests against `tests/support/hostile_adapter.py`, a DAP adapter that
//! misbehaves on purpose (its docstring lists the faults). Each test makes it misbehave
//! one way and checks what the agent gets: a clear error, in bounded time, that names
//! what happened (exit status, signal, stderr, codec error); and that a healthy session
//! in the same runtime carries on untouched. Every call is bounded, so a hang fails the
//! test instead of stalling it.

mod common;

use std::future::Future;
use std::time::{Duration, Instant};

use common::*;
use dapvisor::registry::AdapterDef;
use dapvisor::{
    AdapterExit, EventKind, LaunchSpec, Operation, Received, RunTicket, Runtime, RuntimeConfig,
    SessionError, SessionHandle,
};
use serde_json::json;

/// Longest any one call may take here: past every deadline in play.
const BOUND: Duration = Duration::from_secs(90);
/// The shortest request deadline the runtime allows, used for hangs.
const SHORT: Duration = Duration::from_secs(5);
/// What "at once" means for an adapter that died: well inside the 30 s default deadline.
const PROMPT: Duration = Duration::from_secs(10);
/// The fake program's breakpoint line (the hostile adapter stops wherever it is told).
const LINE: i64 = 42;

async fn bounded<T>(what: &str, call: impl Future<Output = T>) -> T {
    match tokio::time::timeout(BOUND, call).await {
        Ok(value) => value,
        Err(_) => panic!("{what} did not return within {BOUND:?}"),
    }
}

/// The hostile adapter registered as `name`, with these `--fault`s (none: well-behaved).
fn adapter_def(name: &str, faults: &[&str]) -> AdapterDef {
    let python = std::env::var("DAPVISOR_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut def = AdapterDef::generic(name, python);
    let script = root().join("tests/support/hostile_adapter.py");
    def.args = vec![script.display().to_string()];
    for fault in faults {
        def.args.extend(["--fault".to_string(), fault.to_string()]);
    }
    def
}

/// A runtime with adapter `healthy` (no faults) and `hostile` (these faults).
async fn runtime_with(config: RuntimeConfig, faults: &[&str]) -> Runtime {
    let mut config = config;
    config.adapters_mut().register(adapter_def("healthy", &[]));
    config
        .adapters_mut()
        .register(adapter_def("hostile", faults));
    Runtime::start(config).await.unwrap()
}

async fn runtime(faults: &[&str]) -> Runtime {
    runtime_with(RuntimeConfig::default(), faults).await
}

fn spec(adapter: &str) -> LaunchSpec {
    let file = program("python/discount.py");
    LaunchSpec::new(&file)
        .adapter(adapter)
        .breakpoint(&file, LINE)
}

/// Launch `adapter` and wait for the stop at the breakpoint.
async fn launch_stopped(runtime: &Runtime, adapter: &str) -> SessionHandle {
    let session = bounded("launch", runtime.launch(spec(adapter)))
        .await
        .unwrap();
    let stop = bounded(
        "the first stop",
        expect_stop(&session, RunTicket { epoch: 0 }),
    )
    .await;
    assert_eq!(stop.reason, "breakpoint");
    session
}

/// The healthy session still works: its frame, an evaluation, and a run to exit 0.
async fn carries_on(session: &SessionHandle) {
    let frames = bounded("stack_trace", session.stack_trace(None, None))
        .await
        .unwrap();
    assert_eq!(frames[0].line, LINE);
    let qty = bounded(
        "evaluate",
        session.evaluate("qty", Some(frames[0].id), None),
    )
    .await
    .unwrap();
    assert_eq!(qty.result, "3");
    let ticket = bounded("continue", session.continue_(None)).await.unwrap();
    assert_eq!(bounded("exit", expect_exit(session, ticket)).await, Some(0));
}

/// Nothing panicked: the supervisor still runs, and everything ends in bounded time.
async fn shut_down(runtime: Runtime) {
    let status = runtime.supervisor().get_status();
    assert_eq!(status, ractor::ActorStatus::Running, "the supervisor died");
    bounded("shutdown", runtime.shutdown()).await;
}

/// Evaluate `qty` in the stopped hostile session; the result and how long it took.
async fn timed_evaluate(
    session: &SessionHandle,
    timeout: Option<Duration>,
) -> (Result<serde_json::Value, SessionError>, Duration) {
    let started = Instant::now();
    let args = json!({ "expression": "qty", "frameId": 1 });
    let result = session.request(Operation::Evaluate, "evaluate", Some(args), timeout);
    (bounded("evaluate", result).await, started.elapsed())
}

/// How the adapter ended, from the error of a request it left pending: `AdapterCrashed`
/// when the session restarts it, `AdapterExited` when it does not.
/// The crash a request was failed with: the adapter's end, and a restart under way.
fn adapter_end(result: Result<serde_json::Value, SessionError>) -> AdapterExit {
    match result {
        Err(SessionError::AdapterCrashed { exit, attempt, .. }) => {
            assert_eq!(attempt, 1, "the first restart");
            exit
        }
        other => panic!("expected the adapter's crash, got {other:?}"),
    }
}

/// After a crash the supervisor restarts the adapter: the same session stops at its
/// breakpoint again, under a new adapter process.
async fn comes_back(session: &SessionHandle) {
    let stop = bounded(
        "the stop after the restart",
        expect_stop(session, RunTicket { epoch: 1 }),
    )
    .await;
    assert_eq!((stop.reason.as_str(), stop.epoch), ("breakpoint", 2));
    let snapshot = bounded("snapshot", session.snapshot()).await.unwrap();
    assert_eq!(snapshot.restarts, 1);
    let frames = bounded("stack_trace", session.stack_trace(None, None))
        .await
        .unwrap();
    assert_eq!(frames[0].line, LINE);
}

// ---- start-up faults: the launch fails, nothing restarts ----

/// A hostile launch that must fail while a healthy one, started at the same moment,
/// succeeds. Checks the error is `StartFailed`; returns its text and how long it took.
async fn failed_launch_beside_a_healthy_one(runtime: &Runtime) -> (String, Duration) {
    let started = Instant::now();
    let hostile = async {
        let result = bounded("hostile launch", runtime.launch(spec("hostile"))).await;
        (result, started.elapsed())
    };
    let (healthy, (hostile, took)) = tokio::join!(launch_stopped(runtime, "healthy"), hostile);
    let err = hostile.expect_err("the hostile launch must fail");
    assert!(matches!(err, SessionError::StartFailed { .. }), "{err:?}");
    assert_eq!(
        runtime.sessions().len(),
        1,
        "a failed launch leaves no session"
    );
    carries_on(&healthy).await;
    (err.to_string(), took)
}

/// The shortest deadlines, for requests and for the launch handshake (its own).
fn short_deadlines() -> RuntimeConfig {
    RuntimeConfig::default()
        .request_timeout(SHORT)
        .launch_timeout(SHORT)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exit_before_initialize_fails_the_launch_with_exit_code_and_stderr() {
    let runtime = runtime(&["exit-at-start"]).await;
    let (text, took) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(text.contains("exit code 3"), "{text}");
    assert!(text.contains("refusing to start, as asked"), "{text}");
    assert!(took < PROMPT, "took {took:?}");
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_at_start_fails_the_launch_with_the_codec_error() {
    let runtime = runtime(&["garbage-on=start"]).await;
    let (text, took) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(
        text.contains("no end of DAP header found within 8192 bytes"),
        "{text}"
    );
    assert!(took < PROMPT, "took {took:?}");
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_frame_fails_the_launch_with_the_codec_error() {
    let runtime = runtime(&["oversized-on=initialize"]).await;
    let (text, took) = failed_launch_beside_a_healthy_one(&runtime).await;
    let limit = "Content-Length 16777217, above the limit of 16777216 bytes";
    assert!(text.contains(limit), "{text}");
    assert!(took < PROMPT, "took {took:?}");
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_to_initialize_fails_the_launch_at_the_deadline() {
    let runtime = runtime_with(short_deadlines(), &["hang-on=initialize"]).await;
    let (text, took) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(text.contains("within 5s"), "{text}");
    assert!(took >= SHORT && took < SHORT + PROMPT, "took {took:?}");
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_json_for_initialize_fails_the_launch_at_once_quoting_it() {
    // Not JSON at all: nothing after it can be trusted, so the adapter is ended.
    let runtime = runtime_with(short_deadlines(), &["invalid-json-on=initialize"]).await;
    let (text, took) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(
        text.contains("not JSON") && text.contains("this is not JSON"),
        "{text}"
    );
    assert!(took < PROMPT, "took {took:?}");
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_startup_timeout_names_the_request_left_unanswered() {
    let runtime = runtime_with(short_deadlines(), &["hang-on=initialize"]).await;
    let (text, _) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(text.contains("`initialize`"), "{text}");
    shut_down(runtime).await;
}

// ---- faults while the session is live ----

/// Crash the hostile adapter on `evaluate` beside a healthy session; the evaluation
/// must fail at once with the adapter's end, which is returned.
async fn crash_on_evaluate(how: &str) -> AdapterExit {
    let fault = format!("crash-on=evaluate:{how}");
    let runtime = runtime(&[&fault]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    let (result, took) = timed_evaluate(&session, None).await;
    assert!(took < PROMPT, "the failure took {took:?}");
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
    let (result, took) = timed_evaluate(&session, None).await;
    assert!(took < PROMPT, "the failure took {took:?}");
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

/// A fault that leaves `evaluate` unanswered: it times out at its own short deadline,
/// the healthy session works meanwhile, and the hostile session still answers after.
/// Returns the timeout.
async fn unanswered_evaluate_times_out(fault: &str) -> SessionError {
    let runtime = runtime(&[fault]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    let (result, ()) = tokio::join!(timed_evaluate(&session, Some(SHORT)), carries_on(&healthy));
    let (result, took) = result;
    let err = result.expect_err("evaluate is never answered");
    match &err {
        SessionError::Timeout { command, after, .. } => {
            assert_eq!((command.as_str(), *after), ("evaluate", SHORT));
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert!(took >= SHORT && took < SHORT + PROMPT, "took {took:?}");
    let threads = bounded("threads", session.threads()).await.unwrap();
    assert_eq!(threads[0].name, "main", "the session must still answer");
    shut_down(runtime).await;
    err
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_never_answered_times_out_at_its_deadline() {
    let err = unanswered_evaluate_times_out("hang-on=evaluate").await;
    assert!(!err.to_string().contains("meanwhile"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_with_a_wrong_request_seq_is_named_in_the_timeout() {
    let err = unanswered_evaluate_times_out("wrong-seq-on=evaluate").await;
    let SessionError::Timeout { seq, unmatched, .. } = &err else {
        panic!("{err:?}");
    };
    // The hostile adapter answers with request_seq off by 1000.
    assert_eq!(unmatched.len(), 1, "{err}");
    assert_eq!(unmatched[0].request_seq, seq + 1000, "{err}");
    assert!(unmatched[0].never_sent, "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&format!("a `evaluate` success for request {}", seq + 1000)),
        "{text}"
    );
    assert!(err.hint().contains("misbehaving"), "{}", err.hint());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_without_a_body_is_a_protocol_error_naming_the_command() {
    let runtime = runtime(&["no-body-on=evaluate"]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    let result = bounded("evaluate", session.evaluate("qty", Some(1), None)).await;
    match result {
        Err(SessionError::Protocol(err)) => {
            let text = err.to_string();
            assert!(text.contains("`evaluate`"), "{text}");
        }
        other => panic!("expected a protocol error, got {other:?}"),
    }
    carries_on(&healthy).await;
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_that_is_not_json_ends_the_adapter_and_is_named_in_the_error() {
    let runtime = runtime(&["invalid-json-on=evaluate"]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let session = launch_stopped(&runtime, "hostile").await;
    let (result, took) = timed_evaluate(&session, Some(SHORT)).await;
    assert!(
        took < SHORT,
        "failed at once, not at the deadline: {took:?}"
    );
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
    let (result, took) = timed_evaluate(&session, None).await;
    assert!(took < PROMPT, "the failure took {took:?}");
    let exit = adapter_end(result);
    let limit = "Content-Length 16777217, above the limit of 16777216 bytes";
    assert!(exit.reason.contains(limit), "{exit:?}");
    comes_back(&session).await;
    carries_on(&healthy).await;
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_without_seq_is_accepted() {
    let runtime = runtime(&["no-seq-on=evaluate"]).await;
    let session = launch_stopped(&runtime, "hostile").await;
    carries_on(&session).await;
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_output_flood_keeps_the_session_responsive_and_truncates_the_ring() {
    const LINES: usize = 20_000;
    let runtime = runtime(&[&format!("flood={LINES}")]).await;
    let healthy = launch_stopped(&runtime, "healthy").await;
    let mut events = runtime.subscribe();
    let session = bounded("launch", runtime.launch(spec("hostile")))
        .await
        .unwrap();
    bounded("snapshot during the flood", session.snapshot())
        .await
        .unwrap();
    bounded("the stop", expect_stop(&session, RunTicket { epoch: 0 })).await;

    let snapshot = bounded("snapshot", session.snapshot()).await.unwrap();
    assert!(snapshot.output_truncated, "{snapshot:?}");
    let output = bounded("output", session.output(0, 1 << 20)).await.unwrap();
    assert!(output.missed_bytes > 0, "{output:?}");
    let text = output.text();
    assert!(
        text.ends_with(&format!("flood line {}\n", LINES - 1)),
        "newest output kept"
    );
    assert!(!text.contains("flood line 0\n"), "oldest output trimmed");

    // The subscriber that read nothing was told how much output it missed, and still
    // got the stop.
    let (mut missed, mut stopped) = (0, false);
    while let Ok(received) = events.try_recv() {
        match received {
            Received::Lagged { missed: n } => missed += n,
            Received::CutOff { waiting } => panic!("cut off with {waiting} events unread"),
            Received::Event(e) if e.session_id == session.id() => {
                stopped |= matches!(e.kind, EventKind::Stopped(_));
            }
            Received::Event(_) => {}
        }
    }
    assert!(missed > 0 && stopped, "missed {missed}, stopped {stopped}");
    carries_on(&healthy).await;
    carries_on(&session).await;
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
    let python = std::env::var("DAPVISOR_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = root().join("tests/support/hostile_adapter.py");
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
