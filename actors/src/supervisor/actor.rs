//! The SupervisorActor: owns the sessions of one runtime. It spawns them (linked, so
//! their ends reach it), keeps the id -> handle map, enforces the session limit,
//! decides about crashed adapters (`crashes.rs`), reaps idle sessions (`reaper.rs`),
//! and stops everything in order on shutdown. It registers no global name, so several
//! runtimes live side by side in one process, and it can itself be spawned linked
//! under a host's supervisor.
//!
//! A session that failed past its restart budget stays in the map, in `Failed`, so
//! that its snapshot and output can still be read to see why; every other request
//! answers with the failure. It leaves when a host or agent ends it or when the idle
//! reaper takes it, and from then on [`EndedSessions`] and its handles still answer
//! with the failure (not "reaped", not "not found"), as long as it is remembered.

use std::collections::HashMap;
use std::sync::Arc;

use dashmap::DashMap;
use ractor::{Actor, ActorId, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};

use crate::config::RuntimeConfig;
use crate::core::session::CoreConfig;
use crate::error::SessionError;
use crate::events::{EventHub, EventKind, SessionEvent};
use crate::session::report::SessionReport;
use crate::session::{SessionActor, SessionArgs, SessionHandle, SessionId, SessionShared};
use crate::supervisor::ended::EndedSessions;
use crate::supervisor::shutdown::{announce_closed, end_sessions, stop_session};
use crate::supervisor::{RestartTracker, SpawnError};
use crate::transport::{ChildSlot, ChildSlots};

/// Messages the supervisor handles.
pub enum SupervisorMsg {
    /// Create a session (not started).
    Spawn {
        /// The client the session belongs to, if any.
        owner: Option<crate::session::Owner>,
        /// The new session's handle, or why not.
        reply: RpcReplyPort<Result<SessionHandle, SpawnError>>,
    },
    /// Stop a session's actor and forget it: the last step of
    /// [`crate::Runtime::end_session`] (which first ends its adapter).
    EndSession {
        /// Which.
        id: SessionId,
        /// Whether it existed, answered once its actor has stopped.
        reply: RpcReplyPort<bool>,
    },
    /// Stop every session, then the supervisor (see `shutdown.rs`).
    Shutdown {
        /// Answered when everything has stopped.
        reply: RpcReplyPort<()>,
    },
    /// Every session has ended (from the shutdown's task): stop.
    ShutdownDone,
    /// A restart's backoff is over.
    RestartDue {
        /// Which session.
        session: SessionId,
        /// The restart's number in its series.
        attempt: u32,
        /// The crash it answers (see [`crate::session::CrashDecision::Scheduled`]).
        crash: u64,
    },
    /// Time to look for idle sessions.
    Sweep,
    /// A session's report: a crash, a restart come up, a child to start.
    Session(SessionReport),
}

/// What the supervisor is started with.
pub struct SupervisorArgs {
    /// The runtime's configuration.
    pub config: Arc<RuntimeConfig>,
    /// The live sessions, shared with the runtime for lock-free lookups.
    pub sessions: Arc<DashMap<SessionId, SessionHandle>>,
    /// The runtime-wide event hub.
    pub hub: EventHub<SessionEvent>,
    /// How ended sessions ended, shared with the runtime.
    pub ended: Arc<EndedSessions>,
}

/// The actor; see the module docs.
pub struct SupervisorActor;

/// The supervisor's state.
pub struct SupervisorState {
    pub(super) config: Arc<RuntimeConfig>,
    pub(super) sessions: Arc<DashMap<SessionId, SessionHandle>>,
    pub(super) by_actor: HashMap<ActorId, SessionId>,
    pub(super) hub: EventHub<SessionEvent>,
    pub(super) ended: Arc<EndedSessions>,
    /// Each session's crash history.
    pub(super) restarts: HashMap<SessionId, RestartTracker>,
    /// Each parent's child sessions.
    pub(super) children: super::children::ChildTree,
    /// State of the jitter's random numbers.
    pub(super) rng: u64,
    next_id: u64,
    /// A shutdown is under way: no new sessions.
    pub(super) shutting_down: bool,
    /// Who asked for the shutdown, answered once every session has ended.
    pub(super) shutdown_waiters: Vec<RpcReplyPort<()>>,
}

impl Actor for SupervisorActor {
    type Msg = SupervisorMsg;
    type State = SupervisorState;
    type Arguments = SupervisorArgs;

    async fn pre_start(
        &self,
        myself: ActorRef<Self::Msg>,
        args: SupervisorArgs,
    ) -> Result<Self::State, ActorProcessingErr> {
        // A bad policy would otherwise surface as a wrong backoff at the first crash,
        // a bad limit as a hang at the first session.
        args.config.validate()?;
        if let Some(every) = args.config.idle_sweep_interval() {
            // A ractor timer: the sweep is a message like any other.
            myself.send_interval(every, || SupervisorMsg::Sweep);
        }
        Ok(SupervisorState {
            config: args.config,
            sessions: args.sessions,
            by_actor: HashMap::new(),
            hub: args.hub,
            ended: args.ended,
            restarts: HashMap::new(),
            children: Default::default(),
            rng: seed(),
            next_id: 1,
            shutting_down: false,
            shutdown_waiters: Vec::new(),
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<Self::Msg>,
        message: Self::Msg,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            SupervisorMsg::Spawn { owner, reply } => {
                let ownership = crate::session::Ownership::new(owner);
                let ownership = Arc::new(std::sync::Mutex::new(ownership));
                let result = state.spawn_session(&myself, ownership).await;
                let id = result.as_ref().ok().map(SessionHandle::id);
                if reply.send(result).is_err() {
                    // Its creator gave up before the answer: no one holds it.
                    if let Some(id) = id {
                        state.end_session(id, "its creator went away", None);
                    }
                }
            }
            SupervisorMsg::EndSession { id, reply } => state.end_session(id, "ended", Some(reply)),
            SupervisorMsg::Session(SessionReport::AdapterCrashed { session, exit }) => {
                state.on_adapter_crashed(&myself, session, exit);
            }
            SupervisorMsg::RestartDue {
                session,
                attempt,
                crash,
            } => state.on_restart_due(session, attempt, crash),
            SupervisorMsg::Session(SessionReport::AdapterRestarted { session }) => {
                state.on_adapter_restarted(session)
            }
            SupervisorMsg::Session(SessionReport::SpawnChild { plan, slot }) => {
                state.spawn_child(&myself, *plan, slot).await
            }
            SupervisorMsg::Sweep => {
                if !state.shutting_down {
                    state.sweep(tokio::time::Instant::now());
                }
            }
            SupervisorMsg::Shutdown { reply } => state.begin_shutdown(&myself, reply),
            SupervisorMsg::ShutdownDone => state.finish_shutdown(&myself),
        }
        Ok(())
    }

    /// Stopped without a shutdown (its runtime dropped, or a host stopping it): end
    /// the sessions in order all the same. Skipped by ractor when the supervisor is
    /// killed; the adapters' process groups then go from the transports' `Drop`.
    async fn post_stop(
        &self,
        _myself: ActorRef<Self::Msg>,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        state.shutting_down = true;
        let handles = state.take_all();
        let (grace, wait) = (state.config.shutdown_grace, state.config.session_stop_wait);
        end_sessions(handles, grace, wait, &state.hub).await;
        for reply in state.shutdown_waiters.drain(..) {
            let _ = reply.send(());
        }
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        _myself: ActorRef<Self::Msg>,
        event: SupervisionEvent,
        state: &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        // The default would stop the supervisor when a session stops; a session's end
        // is only that session's business.
        let (cell, reason, failed) = match event {
            SupervisionEvent::ActorTerminated(cell, _, reason) => (cell, reason, false),
            SupervisionEvent::ActorFailed(cell, err) => (
                cell,
                Some(crate::session::actor::failure_reason(&err)),
                true,
            ),
            _ => return Ok(()),
        };
        if let Some(id) = state.by_actor.remove(&cell.get_id()) {
            let reason = reason.unwrap_or_else(|| "stopped".into());
            let announce = failed.then(|| {
                // A bug in the session's own code, not the adapter's: not restarted
                // (its state is gone), but its handles and the runtime say why, and
                // the transport's process group went with the actor.
                if let Some(handle) = state.sessions.get(&id) {
                    handle.shared().set_ended(SessionError::SessionFailed {
                        reason: reason.clone(),
                    });
                }
                EventKind::SessionFailed {
                    reason: reason.clone(),
                }
            });
            let handle = state.forget(id, &format!("its parent session {id} ended"));
            // The actor has stopped: nothing of the session's can follow this.
            announce_closed(id, handle.as_ref(), &state.hub, &reason, announce);
        }
        Ok(())
    }
}

impl SupervisorState {
    /// Create a session with no parent, whose ownership record is `ownership`.
    pub(super) async fn spawn_session(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        ownership: Arc<std::sync::Mutex<crate::session::Ownership>>,
    ) -> Result<SessionHandle, SpawnError> {
        let tree = ChildSlots::new(self.config.max_child_sessions);
        self.spawn_in_tree(myself, None, ownership, tree, None)
            .await
    }

    /// Create a session in the tree whose child places are `tree` (a child of
    /// `parent`, holding `slot`, if given), whose ownership record is `ownership` (a
    /// child's is its parent's own record).
    pub(super) async fn spawn_in_tree(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        parent: Option<SessionId>,
        ownership: Arc<std::sync::Mutex<crate::session::Ownership>>,
        tree: ChildSlots,
        slot: Option<ChildSlot>,
    ) -> Result<SessionHandle, SpawnError> {
        if self.shutting_down {
            return Err(SpawnError::ShuttingDown);
        }
        if self.sessions.len() >= self.config.max_sessions {
            return Err(SpawnError::AtCapacity {
                limit: self.config.max_sessions,
            });
        }
        let id = SessionId(self.next_id);
        self.next_id += 1;
        let hub = self.config.event_hub();
        let shared = Arc::new(SessionShared::new(ownership, tree));
        let args = SessionArgs {
            id,
            core: CoreConfig {
                parent,
                ..self.config.core()
            },
            transport: self.config.transport(),
            hub: hub.clone(),
            runtime_hub: self.hub.clone(),
            shared: shared.clone(),
            supervisor: myself.get_derived(),
            slot,
        };
        // Session start-up does no I/O; awaiting it does not wait on any adapter.
        let (actor, _) = Actor::spawn_linked(None, SessionActor, args, myself.get_cell())
            .await
            .map_err(|e| SpawnError::ActorFailed(e.to_string()))?;
        let handle = SessionHandle::new(id, actor, hub, shared, self.config.max_queued_requests);
        self.by_actor.insert(handle.actor().get_id(), id);
        self.sessions.insert(id, handle.clone());
        Ok(handle)
    }

    /// Forget session `id` and stop its actor (its transport, a linked child, goes
    /// with it, and the adapter's process group with the transport), from a task:
    /// once it has stopped, `SessionClosed` is published, the session's stream ends,
    /// and `reply` (if any) is answered. False at once if there is no such session.
    pub(super) fn end_session(
        &mut self,
        id: SessionId,
        why: &str,
        reply: Option<RpcReplyPort<bool>>,
    ) {
        let Some(handle) = self.forget(id, why) else {
            if let Some(reply) = reply {
                let _ = reply.send(false);
            }
            return;
        };
        let (hub, wait, why) = (
            self.hub.clone(),
            self.config.session_stop_wait,
            why.to_string(),
        );
        tokio::spawn(async move {
            stop_session(&handle, wait, &why).await;
            announce_closed(id, Some(&handle), &hub, &why, None);
            if let Some(reply) = reply {
                let _ = reply.send(true);
            }
        });
    }

    /// Take session `id` (and its children, which are stopped) out of the map,
    /// remembering how it ended (failed, reaped, else ended as asked), so that a
    /// request after the removal still says so rather than "not found"; the caller
    /// ends its actor and announces its end once it has stopped ([`announce_closed`]).
    pub(super) fn forget(&mut self, id: SessionId, why: &str) -> Option<SessionHandle> {
        self.remove_children(id, why);
        self.children.forget(id);
        let (_, handle) = self.sessions.remove(&id)?;
        self.by_actor.remove(&handle.actor().get_id());
        self.restarts.remove(&id);
        let ended = handle.shared().ended();
        let ended = ended.unwrap_or_else(|| SessionError::SessionEnded(id.to_string()));
        self.ended.record(id, ended);
        Some(handle)
    }
}

impl Drop for SupervisorState {
    /// However the supervisor ends (a shutdown, a kill that skipped `post_stop`), no
    /// stream waits on it for ever: the runtime's ends, and so does that of any
    /// session still held.
    fn drop(&mut self) {
        for entry in self.sessions.iter() {
            entry.value().hub().close();
        }
        self.hub.close();
    }
}

/// A seed for the jitter: it need not be secure, only differ between runtimes.
fn seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) | 1
}

impl From<SessionReport> for SupervisorMsg {
    fn from(report: SessionReport) -> Self {
        SupervisorMsg::Session(report)
    }
}

/// Gives a report back to its session when the supervisor could not take it (it has
/// stopped), as ractor's derived references need.
impl TryFrom<SupervisorMsg> for SessionReport {
    type Error = ();

    fn try_from(message: SupervisorMsg) -> Result<Self, ()> {
        match message {
            SupervisorMsg::Session(report) => Ok(report),
            _ => Err(()),
        }
    }
}
