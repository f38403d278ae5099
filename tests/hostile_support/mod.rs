//! What the hostile-adapter tests (`hostile*.rs`) share: `tests/support/hostile_adapter.py`
//! registered with the faults a test asks for beside a well-behaved copy, launches
//! stopped at the fake program's breakpoint, every call bounded in time, and the checks
//! that a healthy session carries on and a crashed one comes back.
#![allow(dead_code)]

use std::future::Future;
use std::time::{Duration, Instant};

use crate::common::*;
use dapvisor::{
    AdapterExit, LaunchSpec, Operation, RunTicket, Runtime, RuntimeConfig, SessionError,
    SessionHandle,
};
use serde_json::json;

/// Longest any one call may take here: past every deadline in play.
pub const BOUND: Duration = Duration::from_secs(90);
/// The shortest request deadline the runtime allows, used for hangs.
pub const SHORT: Duration = Duration::from_secs(5);
/// The fake program's breakpoint line (the hostile adapter stops wherever it is told).
pub const LINE: i64 = 42;

pub async fn bounded<T>(what: &str, call: impl Future<Output = T>) -> T {
    match tokio::time::timeout(BOUND, call).await {
        Ok(value) => value,
        Err(_) => panic!("{what} did not return within {BOUND:?}"),
    }
}

pub use crate::common::hostile_adapter as adapter_def;

/// A runtime with adapter `healthy` (no faults) and `hostile` (these faults).
pub async fn runtime_with(config: RuntimeConfig, faults: &[&str]) -> Runtime {
    let mut config = config;
    config.adapters_mut().register(adapter_def("healthy", &[]));
    config
        .adapters_mut()
        .register(adapter_def("hostile", faults));
    Runtime::start(config).await.unwrap()
}

pub async fn runtime(faults: &[&str]) -> Runtime {
    runtime_with(RuntimeConfig::default(), faults).await
}

pub fn spec(adapter: &str) -> LaunchSpec {
    let file = program("python/discount.py");
    LaunchSpec::new(&file)
        .adapter(adapter)
        .breakpoint(&file, LINE)
}

/// Launch `adapter` and wait for the stop at the breakpoint.
pub async fn launch_stopped(runtime: &Runtime, adapter: &str) -> SessionHandle {
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
pub async fn carries_on(session: &SessionHandle) {
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
pub async fn shut_down(runtime: Runtime) {
    let status = runtime.supervisor().get_status();
    assert_eq!(status, ractor::ActorStatus::Running, "the supervisor died");
    bounded("shutdown", runtime.shutdown()).await;
}

/// Evaluate `qty` in the stopped hostile session; the result and how long it took.
pub async fn timed_evaluate(
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
pub fn adapter_end(result: Result<serde_json::Value, SessionError>) -> AdapterExit {
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
pub async fn comes_back(session: &SessionHandle) {
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
