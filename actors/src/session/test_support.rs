//! What the session's in-crate tests share: a runtime with the in-process fake
//! adapter and a session stopped at its breakpoint.

use std::path::PathBuf;
use std::time::Duration;

use crate::testing::{FakeAdapter, FakeAdapterProbe};
use crate::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle, StopOutcome};

fn program() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")
}

/// A session on `fake` (registered as `fake`), stopped at its one breakpoint.
pub(super) async fn stopped_on(fake: FakeAdapter) -> (Runtime, SessionHandle, FakeAdapterProbe) {
    let (connect, probe) = fake.connector();
    let config = RuntimeConfig::default().in_process_adapter("fake", connect);
    let runtime = Runtime::start(config).await.unwrap();
    let spec = LaunchSpec::new(program())
        .adapter("fake")
        .breakpoint(program(), 3);
    let session = runtime.launch(spec).await.unwrap();
    let stop = session
        .wait_for_stop(RunTicket { epoch: 0 }, Duration::from_secs(5))
        .await
        .unwrap();
    assert!(matches!(stop, StopOutcome::Stopped(_)), "{stop:?}");
    (runtime, session, probe)
}
