//! Shutting a runtime down, under paused tokio time on the scripted in-process adapter:
//! every adapter is asked to end with a `disconnect` (a launched debuggee ended, an
//! attached one detached from), all sessions at once and each within the shutdown
//! grace, every session ends before the supervisor, and the supervisor keeps
//! answering meanwhile. Dropping the runtime ends its sessions the same way, and so
//! does `Runtime::end_session` for one: a launched program ends, an attached one is
//! detached from.

mod session_support;

use std::time::Duration;

use dapvisor_actors::testing::{FakeAdapter, FakeAdapterProbe};
use dapvisor_actors::{
    AttachSpec, InitialBreakpoint, LaunchSpec, Runtime, RuntimeConfig, SessionError, SessionHandle,
};
use ractor::ActorStatus;
use tokio::time::Instant;

const SESSIONS: usize = 20;

async fn runtime(fake: FakeAdapter, config: RuntimeConfig) -> (Runtime, FakeAdapterProbe) {
    let (connect, probe) = fake.connector();
    let runtime = Runtime::start(config.in_process_adapter("fake", connect))
        .await
        .unwrap();
    (runtime, probe)
}

/// `n` sessions, each launched and running (the fake keeps running).
async fn launched(runtime: &Runtime, n: usize) -> Vec<SessionHandle> {
    let mut sessions = Vec::new();
    for _ in 0..n {
        let spec = LaunchSpec::new("Cargo.toml").adapter("fake");
        sessions.push(runtime.launch(spec).await.unwrap());
    }
    sessions
}

/// The `disconnect` arguments each connection received, by connection.
fn disconnects(probe: &FakeAdapterProbe) -> Vec<(usize, serde_json::Value)> {
    let mut seen: Vec<_> = probe
        .requests()
        .into_iter()
        .filter(|r| r.command == "disconnect")
        .map(|r| (r.connection, r.arguments.unwrap_or_default()))
        .collect();
    seen.sort_by_key(|(c, _)| *c);
    seen
}

fn all_stopped(sessions: &[SessionHandle]) -> bool {
    sessions
        .iter()
        .all(|s| s.actor().get_status() == ActorStatus::Stopped)
}

#[tokio::test(start_paused = true)]
async fn every_adapter_gets_a_disconnect_and_the_sessions_end_at_once() {
    // Each adapter takes a second to answer its disconnect.
    let fake = FakeAdapter::new()
        .keep_running()
        .late_answer("disconnect", Duration::from_secs(1));
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    let sessions = launched(&runtime, SESSIONS).await;
    let supervisor = runtime.supervisor();

    let began = Instant::now();
    runtime.shutdown().await;
    let took = began.elapsed();
    // One disconnect's time, not twenty: they ran side by side.
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(2),
        "{took:?}"
    );
    let seen = disconnects(&probe);
    assert_eq!(seen.len(), SESSIONS, "{seen:?}");
    for (connection, args) in &seen {
        assert_eq!(args["terminateDebuggee"], true, "connection {connection}");
    }
    // In order: every session had ended when the shutdown was answered.
    assert!(all_stopped(&sessions));
    supervisor.wait(Some(Duration::from_secs(1))).await.unwrap();
    assert!(matches!(
        runtime.new_session().await.unwrap_err(),
        SessionError::RuntimeStopped
    ));
}

#[tokio::test(start_paused = true)]
async fn an_adapter_that_never_answers_is_cut_off_at_the_grace() {
    let fake = FakeAdapter::new().keep_running().hang_on("disconnect");
    let config = RuntimeConfig::default()
        .shutdown_grace(Duration::from_secs(1))
        .session_stop_wait(Duration::from_secs(3));
    let (runtime, probe) = runtime(fake, config).await;
    let sessions = launched(&runtime, SESSIONS).await;

    let began = Instant::now();
    runtime.shutdown().await;
    let took = began.elapsed();
    // The grace, once: neither the disconnect's own 5 s deadline nor 20 graces.
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(2),
        "{took:?}"
    );
    assert_eq!(disconnects(&probe).len(), SESSIONS);
    assert!(all_stopped(&sessions));
    probe.wait_until(|log| log.closed == SESSIONS).await;
}

#[tokio::test(start_paused = true)]
async fn the_supervisor_answers_at_once_while_it_shuts_down() {
    let fake = FakeAdapter::new().keep_running().hang_on("disconnect");
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    launched(&runtime, 3).await;

    let shutting = tokio::spawn({
        let runtime = runtime.clone();
        async move { runtime.shutdown().await }
    });
    probe
        .wait_until(|log| log.requests.iter().any(|r| r.command == "disconnect"))
        .await;
    let asked = Instant::now();
    let refused = runtime.new_session().await.unwrap_err();
    assert!(
        matches!(refused, SessionError::RuntimeStopped),
        "{refused:?}"
    );
    assert_eq!(
        asked.elapsed(),
        Duration::ZERO,
        "not queued behind the shutdown"
    );
    assert!(!shutting.is_finished());
    shutting.await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn an_attached_process_is_detached_from_not_ended() {
    let (runtime, probe) =
        runtime(FakeAdapter::new().keep_running(), RuntimeConfig::default()).await;
    let target = session_support::LiveProcess::start();
    let mut spec = AttachSpec::default();
    spec.pid = Some(target.pid());
    spec.adapter = Some("fake".into());
    spec.breakpoints = vec![InitialBreakpoint::new("src/lib.rs", 3)];
    runtime.attach(spec).await.unwrap();
    runtime.shutdown().await;
    let seen = disconnects(&probe);
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].1["terminateDebuggee"], false);
}

/// The requests the adapter received that end a session, with their arguments.
fn ending_requests(probe: &FakeAdapterProbe) -> Vec<(String, serde_json::Value)> {
    probe
        .requests()
        .into_iter()
        .filter(|r| r.command == "terminate" || r.command == "disconnect")
        .map(|r| (r.command, r.arguments.unwrap_or_default()))
        .collect()
}

#[tokio::test(start_paused = true)]
async fn ending_an_attached_session_detaches_from_its_program() {
    let (runtime, probe) =
        runtime(FakeAdapter::new().keep_running(), RuntimeConfig::default()).await;
    let target = session_support::LiveProcess::start();
    let mut spec = AttachSpec::default();
    spec.pid = Some(target.pid());
    spec.adapter = Some("fake".into());
    let session = runtime.attach(spec).await.unwrap();
    runtime.end_session(session.id()).await.unwrap();
    let seen = ending_requests(&probe);
    assert_eq!(seen.len(), 1, "a disconnect only, no terminate: {seen:?}");
    assert_eq!(seen[0].0, "disconnect");
    assert_eq!(seen[0].1["terminateDebuggee"], false, "{seen:?}");
    assert!(runtime.session(session.id()).is_none());
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn ending_a_launched_session_ends_its_program() {
    let (runtime, probe) =
        runtime(FakeAdapter::new().keep_running(), RuntimeConfig::default()).await;
    let session = launched(&runtime, 1).await.remove(0);
    runtime.end_session(session.id()).await.unwrap();
    let seen = ending_requests(&probe);
    let commands: Vec<&str> = seen.iter().map(|(c, _)| c.as_str()).collect();
    // The graceful way first (the fake takes `terminate`), then the adapter let go.
    assert_eq!(commands, ["terminate", "disconnect"], "{seen:?}");
    assert_eq!(seen[1].1["terminateDebuggee"], true, "{seen:?}");
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn dropping_the_runtime_ends_its_sessions_in_order_too() {
    let fake = FakeAdapter::new()
        .keep_running()
        .late_answer("disconnect", Duration::from_millis(200));
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    let sessions = launched(&runtime, 4).await;
    let supervisor = runtime.supervisor();
    drop(runtime);
    supervisor
        .wait(Some(Duration::from_secs(10)))
        .await
        .unwrap();
    // The supervisor's own end came after every session's.
    assert!(all_stopped(&sessions));
    assert_eq!(disconnects(&probe).len(), 4);
    probe.wait_until(|log| log.closed == 4).await;
}
