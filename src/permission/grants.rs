//! [`SessionGrants`]: what a user approved for the rest of one debug session, as a
//! tool and an effect, so that the same kind of call on that session runs without
//! asking again.

use std::collections::HashSet;
use std::sync::Mutex;

use super::effect::Effect;

/// Approvals for the rest of a debug session: `(session, tool, effect)`. Shared by
/// every clone of a gate.
#[derive(Debug, Default)]
pub struct SessionGrants {
    granted: Mutex<HashSet<(String, String, Effect)>>,
}

impl SessionGrants {
    /// Let `tool` have `effect` on `session` from now on.
    pub fn grant(&self, session: &str, tool: &str, effect: Effect) {
        self.lock()
            .insert((session.to_string(), tool.to_string(), effect));
    }

    /// Whether `tool` may have `effect` on `session`.
    pub fn allows(&self, session: &str, tool: &str, effect: Effect) -> bool {
        self.lock()
            .contains(&(session.to_string(), tool.to_string(), effect))
    }

    /// Forget the approvals of every session for which `live` says no: an ended
    /// session's ids are never used again, so what it was granted only takes room.
    pub fn retain_sessions(&self, live: impl Fn(&str) -> bool) {
        self.lock().retain(|(session, _, _)| live(session));
    }

    /// How many approvals are held.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether none are held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<(String, String, Effect)>> {
        // A panic while holding the set leaves it whole: each change is one insert or
        // one retain.
        self.granted.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_approval_holds_for_its_session_tool_and_effect_only() {
        let grants = SessionGrants::default();
        grants.grant("s1", "debug.evaluate", Effect::Code);
        assert!(grants.allows("s1", "debug.evaluate", Effect::Code));
        assert!(!grants.allows("s2", "debug.evaluate", Effect::Code));
        assert!(!grants.allows("s1", "debug.set_variable", Effect::Code));
        assert!(!grants.allows("s1", "debug.evaluate", Effect::Host));
        grants.grant("s2", "debug.evaluate", Effect::Host);
        grants.retain_sessions(|s| s == "s2");
        assert_eq!(grants.len(), 1);
        assert!(grants.allows("s2", "debug.evaluate", Effect::Host));
    }
}
