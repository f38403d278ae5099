//! A handle's snapshot read from the copy the session published: taken only while the
//! session has handled nothing since, so a caller never sees less than it has already
//! been answered; and never once the session is gone.

use super::test_support::stopped_on;
use crate::testing::FakeAdapter;
use crate::wire::types::SourceBreakpoint;
use crate::SessionState;

#[tokio::test(start_paused = true)]
async fn the_published_copy_holds_until_the_session_handles_anything() {
    let (runtime, session, _) = stopped_on(FakeAdapter::new()).await;
    let published = || session.shared().snapshot.current();
    assert!(published().is_none(), "nothing published before a snapshot");
    let first = session.snapshot().await.unwrap();
    assert_eq!(first.state, SessionState::Stopped);
    let copy = published().expect("a snapshot answered by the actor is published");
    assert_eq!(copy.breakpoints.count(), first.breakpoints.count());
    session.snapshot().await.unwrap();
    assert!(
        published().is_some(),
        "reading a snapshot leaves the copy standing"
    );

    // A call that changes the session: the copy goes before the answer comes, so
    // the next snapshot shows what the call did.
    let line = SourceBreakpoint {
        line: 9,
        ..Default::default()
    };
    let file = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    session.add_breakpoint(&file, line).await.unwrap();
    assert!(published().is_none(), "stale once a message was handled");
    let after = session.snapshot().await.unwrap();
    assert_eq!(after.breakpoints.count(), first.breakpoints.count() + 1);
    runtime.end_session(session.id()).await.unwrap();
    assert!(
        session.snapshot().await.is_err(),
        "an ended session has no snapshot, published or not"
    );
    runtime.shutdown().await;
}
