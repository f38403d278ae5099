//! The hub that fans a session's events out to agents without losing lifecycle
//! events. What a session announces ([`SessionEvent`], [`EventKind`]) is the session
//! core's output, in `core/session_event.rs`.

pub mod hub;

pub use crate::core::session_event::{EventKind, SessionEvent};
pub use hub::{EventHub, EventStream, Lossy, Received, TryRecvError};

/// A slow subscriber may miss what is not lifecycle (output, modules, progress): see
/// [`EventKind::is_lifecycle`].
impl Lossy for SessionEvent {
    fn is_lossy(&self) -> bool {
        !self.kind.is_lifecycle()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::session_id::SessionId;

    #[test]
    fn what_is_not_lifecycle_may_be_dropped_for_a_slow_subscriber() {
        let event = |kind| SessionEvent {
            session_id: SessionId(1),
            kind,
        };
        let output = EventKind::Output {
            category: "stdout".into(),
            output: "x".into(),
        };
        let failed = EventKind::SessionFailed { reason: "x".into() };
        assert!(event(output).is_lossy());
        assert!(!event(failed).is_lossy());
    }
}
