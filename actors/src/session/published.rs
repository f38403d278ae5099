//! [`PublishedSnapshot`]: the session's snapshot as its actor last published it, so
//! that handles read it without a message to the actor while nothing has changed.
//!
//! The actor is the only writer. It marks the copy stale ([`PublishedSnapshot::invalidate`])
//! before it handles any message but a snapshot (which changes nothing), and publishes
//! a fresh copy after answering the first snapshot since. A handle takes the copy only while no message has
//! been handled since it was made; otherwise it asks the actor as before. So a read
//! never shows less than what its caller has already seen: every answer and event
//! comes from a message whose handling began by marking the copy stale.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::core::snapshot::SessionSnapshot;

/// The last published snapshot and the number of the message it reflects.
#[derive(Debug, Default)]
pub struct PublishedSnapshot {
    /// How many messages the actor has begun handling (bumped before each).
    revision: AtomicU64,
    /// The copy, with the revision it was made at.
    latest: Mutex<Option<(u64, Arc<SessionSnapshot>)>>,
}

impl PublishedSnapshot {
    /// The actor is about to handle a message that may change the session: the
    /// published copy no longer holds. Called by the actor only.
    pub(crate) fn invalidate(&self) {
        self.revision.fetch_add(1, Ordering::AcqRel);
    }

    /// Publish `snapshot`, the session as it is now, after the message being handled.
    /// Called by the actor only, with no change to the session since `snapshot` was
    /// taken.
    pub(crate) fn publish(&self, snapshot: SessionSnapshot) {
        let revision = self.revision.load(Ordering::Acquire);
        let mut latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        *latest = Some((revision, Arc::new(snapshot)));
    }

    /// The published copy, if no message has been handled since it was made.
    pub fn current(&self) -> Option<Arc<SessionSnapshot>> {
        let latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        let (made_at, snapshot) = latest.as_ref()?;
        (*made_at == self.revision.load(Ordering::Acquire)).then(|| snapshot.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::session::{CoreConfig, SessionCore};

    fn snapshot() -> SessionSnapshot {
        SessionCore::new(CoreConfig::default()).snapshot()
    }

    #[test]
    fn nothing_is_current_before_the_first_publication() {
        let published = PublishedSnapshot::default();
        assert!(published.current().is_none());
        published.invalidate();
        assert!(published.current().is_none());
    }

    #[test]
    fn a_publication_holds_until_the_next_message() {
        let published = PublishedSnapshot::default();
        published.invalidate();
        published.publish(snapshot());
        let first = published.current().expect("fresh");
        let again = published.current().expect("still fresh");
        assert!(
            Arc::ptr_eq(&first, &again),
            "read without copying the session"
        );
        published.invalidate();
        assert!(
            published.current().is_none(),
            "stale once a message is handled"
        );
        published.publish(snapshot());
        assert!(published.current().is_some());
    }
}
