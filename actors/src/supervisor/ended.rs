//! [`EndedSessions`]: how recently ended sessions ended, so that a request to one gets
//! "reaped after 612s idle" rather than a bare "no such session". Bounded: the oldest
//! are forgotten first.
//!
//! Why a session ended has one record, its [`SessionShared`]'s `ended`, which its
//! handles read. Each cause writes it once, where it is known: the core's failure
//! (its `SessionFailed` event) through the session actor, a reap through the reaper,
//! a crash of the actor itself through the supervisor. When the supervisor forgets
//! the session (`SupervisorState::forget`, the one place), it copies that record
//! here, keyed by id, for the runtime to answer by id once no handle is left; a
//! session ended as asked (`end_session`, a shutdown) has none, and is remembered as
//! ended (`session_ended`), not as never known.
//!
//! [`SessionShared`]: crate::session::shared::SessionShared

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use crate::error::SessionError;
use crate::session::SessionId;

/// A bounded memory of ended sessions; shared by the supervisor (which writes) and the
/// runtime (which reads).
#[derive(Debug)]
pub struct EndedSessions {
    inner: Mutex<Inner>,
    capacity: usize,
}

#[derive(Debug, Default)]
struct Inner {
    why: HashMap<SessionId, SessionError>,
    order: VecDeque<SessionId>,
}

impl EndedSessions {
    /// Remember up to `capacity` sessions.
    pub fn new(capacity: usize) -> Self {
        Self {
            inner: Mutex::new(Inner::default()),
            capacity,
        }
    }

    /// Remember why `id` ended.
    pub fn record(&self, id: SessionId, why: SessionError) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if inner.why.insert(id, why).is_none() {
            inner.order.push_back(id);
        }
        while inner.order.len() > self.capacity {
            if let Some(old) = inner.order.pop_front() {
                inner.why.remove(&old);
            }
        }
    }

    /// Why `id` ended, if it is remembered.
    pub fn get(&self, id: SessionId) -> Option<SessionError> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.why.get(&id).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reaped(secs: u64) -> SessionError {
        SessionError::Reaped {
            session: "s".into(),
            idle_secs: secs,
        }
    }

    #[test]
    fn remembers_why_a_session_ended() {
        let ended = EndedSessions::new(4);
        ended.record(SessionId(7), reaped(600));
        assert!(matches!(
            ended.get(SessionId(7)),
            Some(SessionError::Reaped { idle_secs: 600, .. })
        ));
        assert!(ended.get(SessionId(8)).is_none());
    }

    #[test]
    fn forgets_the_oldest_past_capacity() {
        let ended = EndedSessions::new(2);
        for id in 1..=3 {
            ended.record(SessionId(id), reaped(id));
        }
        assert!(ended.get(SessionId(1)).is_none());
        assert!(ended.get(SessionId(2)).is_some());
        assert!(ended.get(SessionId(3)).is_some());
    }
}
