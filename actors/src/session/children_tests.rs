//! Child sessions end with their parent's terminate or disconnect, on the in-process
//! fake adapter, whose every instance asks for a child (`startDebugging`) that runs
//! on an instance of its own: nothing but the parent's ending can end the child.

use serde_json::json;

use crate::testing::{FakeAdapter, FakeAdapterProbe};
use crate::{
    EventKind, EventStream, LaunchSpec, Received, Runtime, RuntimeConfig, SessionEvent,
    SessionHandle, SessionId, SessionState,
};

fn program() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")
}

/// The first event on `events` that `pick` takes.
async fn next_event<T>(
    events: &mut EventStream<SessionEvent>,
    mut pick: impl FnMut(&SessionEvent) -> Option<T>,
) -> T {
    loop {
        match events.recv().await {
            Some(Received::Event(event)) => {
                if let Some(found) = pick(&event) {
                    return found;
                }
            }
            Some(Received::Lagged { .. }) => {}
            Some(Received::CutOff { .. }) | None => panic!("the events ended"),
        }
    }
}

/// Wait until session `id` reaches `state`; fail after a minute (of paused time).
async fn reaches(events: &mut EventStream<SessionEvent>, id: SessionId, state: SessionState) {
    let reached = next_event(events, |e| match e.kind {
        EventKind::StateChanged { to, .. } if e.session_id == id && to == state => Some(()),
        _ => None,
    });
    if tokio::time::timeout(std::time::Duration::from_secs(60), reached)
        .await
        .is_err()
    {
        panic!("session {id} never reached {state}");
    }
}

/// A parent running on the fake, and its child running on a second instance (the
/// session limit of 2 stops the child's own child).
async fn parent_and_child() -> (
    Runtime,
    FakeAdapterProbe,
    EventStream<SessionEvent>,
    SessionHandle,
    SessionHandle,
) {
    let fake = FakeAdapter::new().keep_running().reverse_request(
        "startDebugging",
        json!({ "request": "launch", "configuration": { "program": "child.py" } }),
    );
    let (connect, probe) = fake.connector();
    let config = RuntimeConfig::default()
        .max_sessions(2)
        .in_process_adapter("fake", connect);
    let runtime = Runtime::start(config).await.unwrap();
    let mut events = runtime.subscribe();
    let parent = runtime
        .launch(LaunchSpec::new(program()).adapter("fake"))
        .await
        .unwrap();
    let child = next_event(&mut events, |e| match e.kind {
        EventKind::ChildSession { child } => Some(child),
        _ => None,
    })
    .await;
    reaches(&mut events, child, SessionState::Running).await;
    let child = runtime.session(child).unwrap();
    (runtime, probe, events, parent, child)
}

/// The `terminateDebuggee` of the `disconnect` the child's adapter (connection 2) got.
fn child_disconnect(probe: &FakeAdapterProbe) -> Option<bool> {
    probe
        .requests()
        .into_iter()
        .find(|r| r.connection == 2 && r.command == "disconnect")
        .map(|r| r.arguments.unwrap()["terminateDebuggee"] == json!(true))
}

#[tokio::test(start_paused = true)]
async fn terminating_the_parent_terminates_its_running_child() {
    let (runtime, probe, mut events, parent, child) = parent_and_child().await;
    assert_eq!(child_disconnect(&probe), None);
    parent.terminate().await.unwrap();
    reaches(&mut events, child.id(), SessionState::Terminated).await;
    assert_eq!(child.state().await.unwrap(), SessionState::Terminated);
    assert_eq!(
        child_disconnect(&probe),
        Some(true),
        "the child's debuggee ends"
    );
    // Both stay listed (the parent can launch again); they go when it is removed.
    assert_eq!(runtime.sessions().len(), 2);
    runtime.end_session(parent.id()).await.unwrap();
    assert!(runtime.sessions().is_empty());
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn detaching_from_the_parent_detaches_from_its_child() {
    let (runtime, probe, mut events, parent, child) = parent_and_child().await;
    parent.disconnect(false).await.unwrap();
    reaches(&mut events, child.id(), SessionState::Terminated).await;
    assert_eq!(
        child_disconnect(&probe),
        Some(false),
        "the child's debuggee is left running, like the parent's"
    );
    runtime.shutdown().await;
}
