//! What the session-actor tests share: a runtime on the scripted in-process adapter,
//! sessions stopped at a breakpoint or run to their end, and readers of event streams
//! and timeouts; `restarts` holds what the restart tests add.
#![allow(dead_code)]

pub mod restarts;

use std::path::PathBuf;
use std::time::Duration;

use dapvisor_actors::testing::{FakeAdapter, FakeAdapterProbe};
use dapvisor_actors::TryRecvError;
use dapvisor_actors::{
    EventKind, EventStream, LaunchSpec, Operation, Received, RunTicket, Runtime, RuntimeConfig,
    SessionError, SessionEvent, SessionHandle, StopOutcome,
};
use serde_json::json;

pub const FAKE: &str = "fake";

pub fn program() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")
}

/// A launch under the fake adapter `adapter`, stopping at one breakpoint.
pub fn stopping_under(adapter: &str) -> LaunchSpec {
    LaunchSpec::new(program())
        .adapter(adapter)
        .breakpoint(program(), 3)
}

pub async fn runtime(fake: FakeAdapter, config: RuntimeConfig) -> (Runtime, FakeAdapterProbe) {
    let (connect, probe) = fake.connector();
    let runtime = Runtime::start(config.in_process_adapter(FAKE, connect))
        .await
        .expect("the runtime starts");
    (runtime, probe)
}

/// A session stopped at its breakpoint.
pub async fn stopped(runtime: &Runtime, adapter: &str) -> SessionHandle {
    let session = runtime.launch(stopping_under(adapter)).await.unwrap();
    let first = RunTicket { epoch: 0 };
    match session.wait_for_stop(first, Duration::from_secs(5)).await {
        Ok(StopOutcome::Stopped(_)) => session,
        other => panic!("want a stop, got {other:?}"),
    }
}

/// Wait past every stop until the debuggee ends; its exit code.
pub async fn ended(session: &SessionHandle) -> Option<i64> {
    let mut ticket = RunTicket { epoch: 0 };
    loop {
        match session.wait_for_stop(ticket, Duration::from_secs(60)).await {
            Ok(StopOutcome::Stopped(stop)) => ticket.epoch = stop.epoch,
            Ok(StopOutcome::Terminated { exit_code }) => return exit_code,
            other => panic!("want the end, got {other:?}"),
        }
    }
}

/// Everything waiting in `events` now.
pub fn drain(events: &mut EventStream<SessionEvent>) -> Vec<Received<SessionEvent>> {
    let mut items = Vec::new();
    loop {
        match events.try_recv() {
            Ok(item) => items.push(item),
            Err(TryRecvError::Empty | TryRecvError::Closed) => return items,
        }
    }
}

pub fn kinds(items: &[Received<SessionEvent>]) -> Vec<EventKind> {
    items
        .iter()
        .filter_map(|item| match item {
            Received::Event(event) => Some(event.kind.clone()),
            Received::Lagged { .. } | Received::CutOff { .. } => None,
        })
        .collect()
}

/// `elapsed` is `expected`, give or take the timer wheel's millisecond.
pub fn assert_took(elapsed: Duration, expected: Duration) {
    assert!(
        elapsed >= expected && elapsed <= expected + Duration::from_millis(10),
        "took {elapsed:?}, want {expected:?}"
    );
}

pub fn timeout_of(err: SessionError) -> (String, Duration) {
    match err {
        SessionError::Timeout { command, after, .. } => (command, after),
        other => panic!("want a timeout, got {other:?}"),
    }
}

/// `n` evaluations of `session` the adapter holds unanswered (a fake made with
/// `hang_on("evaluate")`), once the adapter has every one: they fill the session's
/// queue. Each task ends with its call's answer (its deadline, or the session's end).
pub async fn hung_evaluations(
    session: &SessionHandle,
    probe: &FakeAdapterProbe,
    n: usize,
) -> Vec<tokio::task::JoinHandle<Result<serde_json::Value, SessionError>>> {
    let calls = (0..n)
        .map(|_| {
            let session = session.clone();
            tokio::spawn(async move { evaluate_with_deadline(&session, None).await })
        })
        .collect();
    probe
        .wait_until(|log| {
            log.requests
                .iter()
                .filter(|r| r.command == "evaluate")
                .count()
                == n
        })
        .await;
    calls
}

pub async fn evaluate_with_deadline(
    session: &SessionHandle,
    deadline: Option<Duration>,
) -> Result<serde_json::Value, SessionError> {
    let arguments = Some(json!({ "expression": "x" }));
    session
        .request(Operation::Evaluate, "evaluate", arguments, deadline)
        .await
}

// ---- deadlines ----

/// A process that lives until this value is dropped (`sleep`, killed and reaped then):
/// something to attach to that is not the test's own process, which the runtime
/// refuses to debug.
pub struct LiveProcess(std::process::Child);

impl LiveProcess {
    /// Start one.
    pub fn start() -> Self {
        let child = std::process::Command::new("sleep")
            .arg("600")
            .spawn()
            .expect("sleep runs");
        Self(child)
    }

    /// Its pid.
    pub fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for LiveProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
