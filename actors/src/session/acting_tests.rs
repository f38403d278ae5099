//! A handle view acting for a client ([`SessionHandle::acting_as`]) on the in-process
//! fake adapter: the session checks, as it takes each call, that the client may drive
//! it then; a view made while it could is refused once the session changed hands.

use super::test_support::stopped_on;
use crate::testing::FakeAdapter;
use crate::{Owner, SessionError};

fn client(id: &str) -> Owner {
    Owner::new(id).unwrap()
}

/// The owner and client a refusal names, or what came instead.
fn refused<T: std::fmt::Debug>(result: Result<T, SessionError>) -> (String, String) {
    match result {
        Err(SessionError::NotOwner { owner, client, .. }) => (owner, client),
        other => panic!("want a refusal for the owner, got {other:?}"),
    }
}

#[tokio::test]
async fn a_view_for_a_client_acts_only_while_the_client_may_drive_the_session() {
    let (runtime, session, _) = stopped_on(FakeAdapter::new()).await;
    session.update_ownership(|o| o.owner = Some(client("c1")));
    let theirs = session.acting_as(client("c2"));
    assert_eq!(theirs.acting_for(), Some(&client("c2")));

    let err = theirs.evaluate("x", None, None).await.unwrap_err();
    assert!(matches!(err, SessionError::NotOwner { .. }), "{err}");
    assert!(
        err.hint().contains("ask client c1 to share it with c2"),
        "{err}"
    );
    assert_eq!(
        refused(theirs.threads().await),
        ("c1".to_string(), "c2".to_string())
    );

    // Shared, the same view acts; handed over to a third, it is refused again.
    session.update_ownership(|o| o.share(Some(client("c2"))));
    assert!(theirs.threads().await.is_ok());
    session.update_ownership(|o| o.hand_over(client("c3")));
    assert_eq!(
        refused(theirs.continue_(None).await),
        ("c3".to_string(), "c2".to_string())
    );
    assert!(theirs.snapshot().await.is_ok(), "reading acts on nothing");
    assert!(
        theirs.output(0, 100).await.is_ok(),
        "reading acts on nothing"
    );

    // The new owner's view, and the host's own handle, act.
    assert!(session.acting_as(client("c3")).threads().await.is_ok());
    assert!(session.threads().await.is_ok());
    runtime.shutdown().await;
}
