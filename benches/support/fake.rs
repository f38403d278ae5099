//! A runtime whose sessions run on the in-process [`FakeAdapter`]: the runtime's own
//! costs (actors, framing over an in-memory stream, the session core) without an
//! adapter process's start-up or the OS's pipes.

use std::path::PathBuf;

use dapvisor::testing::{FakeAdapter, FakeAdapterProbe};
use dapvisor::InProcessConnect;
use dapvisor::{LaunchSpec, Runtime, RuntimeConfig, SessionError, SessionHandle};

/// The name the fake adapter is registered under.
pub const FAKE: &str = "fake";

/// The fake's "program": any file that exists will do, since the fake runs nothing.
pub fn program() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")
}

/// A runtime with `connect` registered as the adapter [`FAKE`], allowing
/// `max_sessions` sessions at once.
pub async fn runtime_with(connect: InProcessConnect, max_sessions: usize) -> Runtime {
    let config = RuntimeConfig::default()
        .max_sessions(max_sessions)
        .in_process_adapter(FAKE, connect);
    Runtime::start(config).await.expect("the runtime starts")
}

/// As [`runtime_with`], with `deadline` for every request.
pub async fn runtime_with_deadline(
    connect: InProcessConnect,
    max_sessions: usize,
    deadline: std::time::Duration,
) -> Runtime {
    let config = RuntimeConfig::default()
        .max_sessions(max_sessions)
        .request_timeout(deadline)
        .in_process_adapter(FAKE, connect);
    Runtime::start(config).await.expect("the runtime starts")
}

/// A runtime on a well-behaved fake whose program keeps running once launched (so
/// sessions stay live and idle), and the fake's probe.
pub async fn idle_runtime(max_sessions: usize) -> (Runtime, FakeAdapterProbe) {
    let (connect, probe) = FakeAdapter::new().keep_running().connector();
    (runtime_with(connect, max_sessions).await, probe)
}

/// Launch the fake program, with a breakpoint at `line` if given (the fake stops
/// there once, then runs on).
pub async fn launch(runtime: &Runtime, line: Option<i64>) -> Result<SessionHandle, SessionError> {
    let mut spec = LaunchSpec::new(program()).adapter(FAKE);
    if let Some(line) = line {
        spec = spec.breakpoint(program(), line);
    }
    runtime.launch(spec).await
}
