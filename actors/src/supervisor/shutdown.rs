//! Shutting a runtime down in order: every session ends before the supervisor does.
//!
//! The sessions end all at once, from a task, so that the supervisor's mailbox keeps
//! flowing (a new session is refused at once rather than queued behind the shutdown)
//! and a hundred sessions take as long as the slowest one, not the sum:
//!
//! 1. each live adapter is asked to end with a DAP `disconnect` (ending a launched
//!    debuggee, detaching from an attached one), for at most the shutdown grace;
//! 2. each session actor is stopped, its transport and the adapter's process group
//!    with it, waiting at most the session stop wait; one still running is killed;
//!    then `SessionClosed` is published and the session's event stream ends;
//! 3. the supervisor answers every shutdown caller and stops itself; the runtime's
//!    event stream ends with it.
//!
//! A supervisor stopped without a shutdown (its runtime dropped) runs the same steps
//! from its `post_stop`. One that is killed (a host that failed or was killed takes
//! its children with it) skips them: the process groups still go, from the
//! transports' `Drop`, but the adapters get no `disconnect`.

use std::sync::Arc;
use std::time::Duration;

use futures::future::join_all;
use ractor::{ActorRef, RpcReplyPort};

use crate::core::state::Operation;
use crate::events::{EventHub, EventKind, SessionEvent};
use crate::session::{SessionHandle, SessionId};
use crate::supervisor::actor::{SupervisorMsg, SupervisorState};

/// Why the sessions are stopped, as their actors and the host see it.
pub(super) const SHUTDOWN_REASON: &str = "runtime shutdown";

impl SupervisorState {
    /// A shutdown was asked for: refuse new sessions, take every session out of the
    /// map, and end them from a task that reports back with
    /// [`SupervisorMsg::ShutdownDone`]. `reply` is answered once all have ended.
    pub(super) fn begin_shutdown(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        reply: RpcReplyPort<()>,
    ) {
        self.shutdown_waiters.push(reply);
        if self.shutting_down {
            return; // already under way; this caller is answered with the others
        }
        self.shutting_down = true;
        let handles = self.take_all();
        let (grace, wait) = (self.config.shutdown_grace, self.config.session_stop_wait);
        let me = myself.clone();
        let hub = self.hub.clone();
        tokio::spawn(async move {
            end_sessions(handles, grace, wait, &hub).await;
            let _ = me.cast(SupervisorMsg::ShutdownDone);
        });
    }

    /// Every session has ended: answer the callers and stop.
    pub(super) fn finish_shutdown(&mut self, myself: &ActorRef<SupervisorMsg>) {
        for reply in self.shutdown_waiters.drain(..) {
            let _ = reply.send(());
        }
        myself.stop(Some(SHUTDOWN_REASON.into()));
    }

    /// Empty the map (and what hangs off it), returning the sessions it held.
    pub(super) fn take_all(&mut self) -> Vec<SessionHandle> {
        let handles = self.sessions.iter().map(|e| e.value().clone()).collect();
        self.sessions.clear();
        self.by_actor.clear();
        self.restarts.clear();
        self.children.clear();
        handles
    }
}

/// End `sessions` all at once: a `disconnect` for each live adapter within `grace`,
/// then each actor stopped within `wait`, or killed, and its end announced to its own
/// and `runtime_hub`'s subscribers (its stream ends there). Returns once every one has
/// ended (in at most `grace + wait`, plus the moment a kill takes).
pub(super) async fn end_sessions(
    sessions: Vec<SessionHandle>,
    grace: Duration,
    wait: Duration,
    runtime_hub: &EventHub<SessionEvent>,
) {
    join_all(sessions.into_iter().map(|session| async move {
        end_session(&session, grace, wait, SHUTDOWN_REASON).await;
        announce_closed(
            session.id(),
            Some(&session),
            runtime_hub,
            SHUTDOWN_REASON,
            None,
        );
    }))
    .await;
}

/// End one session: a `disconnect` within `grace`, then its actor stopped (with
/// `reason`) within `wait`, or killed.
pub(super) async fn end_session(
    session: &SessionHandle,
    grace: Duration,
    wait: Duration,
    reason: &str,
) {
    let _ = tokio::time::timeout(grace, disconnect(session)).await;
    stop_session(session, wait, reason).await;
}

/// Stop a session's actor (with `reason`) and wait up to `wait` for it; kill it past
/// that. Its transport, a linked child, goes with it.
pub(super) async fn stop_session(session: &SessionHandle, wait: Duration, reason: &str) {
    let actor = session.actor();
    actor.stop(Some(reason.into()));
    if actor.wait(Some(wait)).await.is_err() {
        tracing::warn!(session = %session.id(), ?wait, "a session did not stop in time; killed");
        actor.kill();
        let _ = actor.wait(Some(wait)).await;
        // Killed, it had no `post_stop` to say its adapter is gone.
        session.shared().forget_adapter();
    }
}

/// Announce the end of session `id`, whose actor has stopped (so nothing of its own can
/// follow): `announce` first where given (`SessionReaped`, `SessionFailed`), then
/// `SessionClosed` with `reason`, to the session's subscribers and `runtime_hub`'s;
/// then the session's stream ends.
pub(super) fn announce_closed(
    id: SessionId,
    session: Option<&SessionHandle>,
    runtime_hub: &EventHub<SessionEvent>,
    reason: &str,
    announce: Option<EventKind>,
) {
    let closed = EventKind::SessionClosed {
        reason: reason.to_string(),
    };
    for kind in announce.into_iter().chain([closed]) {
        let event = Arc::new(SessionEvent {
            session_id: id,
            kind,
        });
        if let Some(session) = session {
            session.hub().publish_arc(event.clone());
        }
        runtime_hub.publish_arc(event);
    }
    if let Some(session) = session {
        session.hub().close();
    }
}

/// Ask a live session's adapter to end: a launched debuggee ends with it, an attached
/// process (not ours to end) is detached from.
async fn disconnect(session: &SessionHandle) {
    let Ok(snapshot) = session.snapshot().await else {
        return;
    };
    if snapshot.state.is_live() {
        let attached = snapshot.operation == Some(Operation::Attach);
        let _ = session.disconnect(!attached).await;
    }
}
