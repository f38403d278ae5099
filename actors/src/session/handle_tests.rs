//! A handle view with its own deadline ([`SessionHandle::with_timeout`]) on the
//! in-process fake adapter under paused tokio time: every typed call of the view gives
//! the adapter that long, the handle it came from keeps the session's default.

use std::time::Duration;

use tokio::time::Instant;

use super::test_support::stopped_on;
use crate::testing::FakeAdapter;
use crate::{SessionError, SessionState};

/// The timeout's command and deadline, and how long the call took.
async fn timed_out<T: std::fmt::Debug>(
    call: impl std::future::Future<Output = Result<T, SessionError>>,
) -> (String, Duration, Duration) {
    let began = Instant::now();
    match call.await {
        Err(SessionError::Timeout { command, after, .. }) => (command, after, began.elapsed()),
        other => panic!("want a timeout, got {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_view_with_a_deadline_gives_its_typed_calls_that_long() {
    let fake = FakeAdapter::new().hang_on("evaluate").hang_on("stackTrace");
    let (runtime, session, _) = stopped_on(fake).await;
    let patient = session.with_timeout(Duration::from_secs(120));
    assert_eq!(patient.timeout(), Some(Duration::from_secs(120)));
    assert_eq!(patient.id(), session.id());

    let (command, after, took) = timed_out(patient.evaluate("x", None, None)).await;
    assert_eq!(
        (command.as_str(), after),
        ("evaluate", Duration::from_secs(120))
    );
    assert!(
        took >= after && took < after + Duration::from_secs(1),
        "{took:?}"
    );
    let (command, after, _) = timed_out(patient.stack_trace(Some(1), None)).await;
    assert_eq!(
        (command.as_str(), after),
        ("stackTrace", Duration::from_secs(120))
    );

    // The handle it came from keeps the session's default.
    assert_eq!(session.timeout(), None);
    let (_, after, _) = timed_out(session.evaluate("x", None, None)).await;
    assert_eq!(after, crate::limits::DEFAULT_REQUEST_TIMEOUT);
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_view_deadline_covers_control_and_is_clamped() {
    let fake = FakeAdapter::new().hang_on("next").hang_on("slowThing");
    let (runtime, session, _) = stopped_on(fake).await;
    let hasty = session.with_timeout(Duration::from_millis(10));
    let (command, after, _) = timed_out(hasty.next(None)).await;
    assert_eq!(
        (command.as_str(), after),
        ("next", crate::limits::MIN_REQUEST_TIMEOUT)
    );
    // Unanswered, the step may have started: the session runs until the adapter
    // says it stopped. A call naming its own deadline keeps it.
    assert_eq!(session.state().await.unwrap(), SessionState::Running);
    let (_, after, _) = timed_out(hasty.request(
        crate::Operation::CustomRequest,
        "slowThing",
        None,
        Some(Duration::from_secs(9)),
    ))
    .await;
    assert_eq!(after, Duration::from_secs(9));
    runtime.shutdown().await;
}
