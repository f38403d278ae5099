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
//! 3. the supervisor answers every shutdown caller and stops itself.
//!
//! A supervisor stopped without a shutdown (its runtime dropped) runs the same steps
//! from its `post_stop`. One that is killed (a host that failed or was killed takes
//! its children with it) skips them: the process groups still go, from the
//! transports' `Drop`, but the adapters get no `disconnect`.

use std::time::Duration;

use futures::future::join_all;
use ractor::{ActorRef, RpcReplyPort};

use crate::core::state::Operation;
use crate::session::SessionHandle;
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
        tokio::spawn(async move {
            end_sessions(handles, grace, wait).await;
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
/// then each actor stopped within `wait`, or killed. Returns once every one has ended
/// (in at most `grace + wait`, plus the moment a kill takes).
pub(super) async fn end_sessions(sessions: Vec<SessionHandle>, grace: Duration, wait: Duration) {
    join_all(
        sessions
            .into_iter()
            .map(|session| end_session(session, grace, wait, SHUTDOWN_REASON)),
    )
    .await;
}

/// End one session: a `disconnect` within `grace`, then its actor stopped (with
/// `reason`) within `wait`, or killed.
pub(super) async fn end_session(
    session: SessionHandle,
    grace: Duration,
    wait: Duration,
    reason: &str,
) {
    let _ = tokio::time::timeout(grace, disconnect(&session)).await;
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
