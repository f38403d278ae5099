//! Child sessions: the supervisor starts the session an adapter asked for with
//! `startDebugging`, remembers whose child it is, and ends the children with their
//! parent.

use std::collections::HashMap;

use ractor::ActorRef;

use crate::core::command::StartPlan;
use crate::events::{EventKind, SessionEvent};
use crate::session::SessionId;
use crate::supervisor::actor::{SupervisorMsg, SupervisorState};
use crate::transport::ChildSlot;

/// Which sessions are whose children: a child leaves its parent's list when it ends
/// on its own, so a long-lived parent's list holds only its live children.
#[derive(Debug, Default)]
pub(super) struct ChildTree(HashMap<SessionId, Vec<SessionId>>);

impl ChildTree {
    /// `child` is `parent`'s.
    pub(super) fn add(&mut self, parent: SessionId, child: SessionId) {
        self.0.entry(parent).or_default().push(child);
    }

    /// `parent`'s children, taken out (the parent is ending).
    pub(super) fn take(&mut self, parent: SessionId) -> Vec<SessionId> {
        self.0.remove(&parent).unwrap_or_default()
    }

    /// `child` has ended: out of its parent's list (and the list, once empty).
    pub(super) fn forget(&mut self, child: SessionId) {
        self.0.retain(|_, children| {
            children.retain(|c| *c != child);
            !children.is_empty()
        });
    }

    /// Forget them all.
    pub(super) fn clear(&mut self) {
        self.0.clear();
    }

    /// How many children are held, of every parent.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.0.values().map(Vec::len).sum()
    }
}

impl SupervisorState {
    /// Create the child session and start it from a task (starting waits on the
    /// adapter; the supervisor's mailbox must keep flowing).
    pub(super) async fn spawn_child(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        plan: StartPlan,
        slot: ChildSlot,
    ) {
        let Some(parent) = plan.parent else {
            return;
        };
        // A child is part of its parent's debugging: it has the parent's ownership,
        // the same record, so a share or handover of either is of both at once (no
        // child started meanwhile keeps what the parent had), and counts in the same
        // tree's child places.
        let Some((ownership, tree)) = self
            .sessions
            .get(&parent)
            .map(|h| (h.shared().ownership.clone(), h.shared().child_slots.clone()))
        else {
            return; // the parent ended meanwhile
        };
        let spawned = self
            .spawn_in_tree(myself, Some(parent), ownership, tree, Some(slot))
            .await;
        let child = match spawned {
            Ok(child) => child,
            Err(err) => {
                tracing::warn!(%parent, %err, "could not create a child session");
                self.hub.publish(SessionEvent {
                    session_id: parent,
                    kind: EventKind::Adapter {
                        event: "dapvisor/childFailed".into(),
                        body: Some(serde_json::json!({ "error": err.to_string() })),
                    },
                });
                return;
            }
        };
        let id = child.id();
        self.children.add(parent, id);
        tracing::info!(%parent, child = %id, program = ?plan.program, "starting a child session");
        if let Some(parent_handle) = self.sessions.get(&parent).map(|h| h.value().clone()) {
            let event = std::sync::Arc::new(SessionEvent {
                session_id: parent,
                kind: EventKind::ChildSession { child: id },
            });
            parent_handle.hub().publish_arc(event.clone());
            self.hub.publish_arc(event);
            // The parent ends its children when it is terminated or disconnected.
            let started = crate::session::SessionMsg::ChildStarted(child.clone());
            let _ = parent_handle.actor_ref().cast(started);
        }
        tokio::spawn(async move {
            if let Err(err) = child.start(plan).await {
                tracing::warn!(child = %id, %err, "a child session did not start");
            }
        });
    }

    /// End every child of `parent` (and theirs).
    pub(super) fn remove_children(&mut self, parent: SessionId, why: &str) {
        for child in self.children.take(parent) {
            self.end_session(child, why, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 27: a child that ended on its own stayed in its parent's list for as long
    /// as the parent lived.
    #[test]
    fn a_child_that_ends_leaves_its_parents_list() {
        let mut tree = ChildTree::default();
        let (parent, a, b) = (SessionId(1), SessionId(2), SessionId(3));
        tree.add(parent, a);
        tree.add(parent, b);
        tree.forget(a);
        assert_eq!(tree.len(), 1);
        tree.forget(b);
        assert!(tree.0.is_empty(), "the emptied list goes too");
        tree.add(parent, a);
        assert_eq!(tree.take(parent), [a]);
        assert_eq!(tree.len(), 0);
    }
}
