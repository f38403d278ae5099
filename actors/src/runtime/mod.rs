//! [`Runtime`]: the entry point. Start one from a [`RuntimeConfig`], launch or attach
//! sessions, subscribe to every session's events, shut it down.

use std::sync::Arc;

use dashmap::DashMap;
use ractor::rpc::CallResult;
use ractor::{Actor, ActorCell, ActorRef};

pub(crate) mod attach_claims;
pub(crate) mod core_dump;
mod plan;

use crate::config::RuntimeConfig;
use crate::core::command::StartPlan;
use crate::core::state::Operation;
use crate::error::SessionError;
use crate::events::{EventHub, EventStream, SessionEvent};
use crate::launch::{AttachSpec, LaunchSpec};
use crate::registry::AdapterRegistry;
#[cfg(doc)]
use crate::session::Ownership;
use crate::session::{Owner, SessionHandle, SessionId};
use crate::supervisor::{EndedSessions, SupervisorActor, SupervisorArgs, SupervisorMsg};

/// A running dapvisor runtime: a supervisor actor and its sessions.
///
/// Cheap to clone. When the last clone is dropped, the supervisor is stopped, which
/// ends every session as [`Runtime::shutdown`] does (without waiting for it).
///
/// A host serving several clients tags each session with the client that started
/// it: the sessions started through [`Runtime::owned_by`]`(owner)` belong to
/// `owner`, and [`Runtime::sessions_owned_by`] lists them. Untagged sessions are
/// anyone's.
#[derive(Clone)]
pub struct Runtime {
    inner: Arc<RuntimeInner>,
    /// Who the sessions started through this view belong to.
    owner: Option<Owner>,
}

struct RuntimeInner {
    supervisor: ActorRef<SupervisorMsg>,
    sessions: Arc<DashMap<SessionId, SessionHandle>>,
    hub: EventHub<SessionEvent>,
    config: Arc<RuntimeConfig>,
    ended: Arc<EndedSessions>,
    /// The attaches under way, each holding its target (`attach_claims.rs`).
    attach_claims: Arc<attach_claims::AttachClaims>,
}

impl Drop for RuntimeInner {
    fn drop(&mut self) {
        self.supervisor.stop(Some("runtime dropped".into()));
    }
}

impl Runtime {
    /// Start a runtime with its own, unlinked supervisor. A configuration that
    /// [`RuntimeConfig::validate`] refuses (a limit out of its range, a restart policy
    /// that is not valid) is refused with [`SessionError::Config`], whose
    /// [`ConfigError`](crate::ConfigError) names the field, its value and the rule it
    /// broke.
    pub async fn start(config: RuntimeConfig) -> Result<Self, SessionError> {
        Self::spawn(config, None).await
    }

    /// Start a runtime whose supervisor is linked under `host`: the host hears of the
    /// supervisor's end through its own supervision events, and stopping the host
    /// stops every session.
    pub async fn start_linked(
        config: RuntimeConfig,
        host: ActorCell,
    ) -> Result<Self, SessionError> {
        Self::spawn(config, Some(host)).await
    }

    async fn spawn(config: RuntimeConfig, host: Option<ActorCell>) -> Result<Self, SessionError> {
        config.validate()?;
        let config = Arc::new(config);
        let sessions = Arc::new(DashMap::new());
        let hub = config.event_hub();
        let ended = Arc::new(EndedSessions::new(config.ended_sessions_remembered));
        let args = SupervisorArgs {
            config: config.clone(),
            sessions: sessions.clone(),
            hub: hub.clone(),
            ended: ended.clone(),
        };
        let spawned = match host {
            Some(host) => Actor::spawn_linked(None, SupervisorActor, args, host).await,
            None => Actor::spawn(None, SupervisorActor, args).await,
        };
        let (supervisor, _) =
            spawned.map_err(|e| SessionError::internal("starting the runtime's supervisor", e))?;
        Ok(Self {
            inner: Arc::new(RuntimeInner {
                supervisor,
                sessions,
                hub,
                config,
                ended,
                attach_claims: Arc::default(),
            }),
            owner: None,
        })
    }

    /// This runtime as client `owner` uses it: the same sessions and limits, and every
    /// session started through the view ([`Self::launch`], [`Self::attach`],
    /// [`Self::new_session`]) belongs to `owner` (its child sessions too). The runtime
    /// records owners; the host decides what they may do (see
    /// [`Ownership::may_drive`]).
    pub fn owned_by(&self, owner: Owner) -> Runtime {
        Runtime {
            inner: self.inner.clone(),
            owner: Some(owner),
        }
    }

    /// Who the sessions started through this view belong to (see [`Self::owned_by`]).
    pub fn owner(&self) -> Option<&Owner> {
        self.owner.as_ref()
    }

    /// Every live session that belongs to `owner`, ordered by id.
    pub fn sessions_owned_by(&self, owner: &Owner) -> Vec<SessionHandle> {
        let mut list = self.sessions();
        list.retain(|s| s.owner().as_ref() == Some(owner));
        list
    }

    /// The supervisor actor, for hosts that monitor or link to it.
    pub fn supervisor(&self) -> ActorCell {
        self.inner.supervisor.get_cell()
    }

    /// The configuration in force.
    pub fn config(&self) -> &RuntimeConfig {
        &self.inner.config
    }

    /// How long a session may go without an agent request before it is reaped
    /// (`None`: never), as [`RuntimeConfig::idle_limit`] set it.
    pub fn idle_limit(&self) -> Option<std::time::Duration> {
        self.inner.config.idle_limit
    }

    /// The adapter registry in force.
    pub fn registry(&self) -> &AdapterRegistry {
        &self.inner.config.registry
    }

    /// Every session's events, from now on.
    pub fn subscribe(&self) -> EventStream<SessionEvent> {
        self.inner.hub.subscribe()
    }

    /// A session by id.
    pub fn session(&self, id: SessionId) -> Option<SessionHandle> {
        self.inner.sessions.get(&id).map(|e| e.value().clone())
    }

    /// A session by id, or why there is none: failed (with its reason, even after it
    /// was ended or reaped), reaped after N seconds idle, or never known. A session
    /// that failed past its restart budget stays listed, in `Failed`, until it is
    /// ended or reaped, so that its snapshot and output can be read.
    pub fn find(&self, id: SessionId) -> Result<SessionHandle, SessionError> {
        self.session(id).ok_or_else(|| {
            self.inner
                .ended
                .get(id)
                .unwrap_or_else(|| SessionError::NotFound(id.to_string()))
        })
    }

    /// Every live session, ordered by id.
    pub fn sessions(&self) -> Vec<SessionHandle> {
        let mut list: Vec<_> = self
            .inner
            .sessions
            .iter()
            .map(|e| e.value().clone())
            .collect();
        list.sort_by_key(|h| h.id());
        list
    }

    /// Create a session that has not started, to set breakpoints on before starting
    /// it with [`SessionHandle::start`] and a plan from [`Self::plan_launch`]. It
    /// belongs to this view's [`Self::owner`].
    pub async fn new_session(&self) -> Result<SessionHandle, SessionError> {
        let owner = self.owner.clone();
        let result = self
            .inner
            .supervisor
            .call(|reply| SupervisorMsg::Spawn { owner, reply }, None)
            .await;
        match result {
            Ok(CallResult::Success(r)) => r.map_err(SessionError::from),
            _ => Err(SessionError::RuntimeStopped),
        }
    }

    /// Launch a program: pick and check the adapter, create a session, and run the
    /// handshake. Answers once the program runs (or stopped at entry or a breakpoint,
    /// or already ended). On failure the session is removed and the error carries the
    /// adapter's own launch error and the output so far; given up on (this future
    /// dropped) before it answers, the session is ended and removed as by
    /// [`Self::end_session`].
    pub async fn launch(&self, spec: LaunchSpec) -> Result<SessionHandle, SessionError> {
        let plan = self.plan_launch(spec).await?;
        self.start_plan(plan).await
    }

    /// Attach to a process (by pid) or a debug server (by host and port); as
    /// [`Self::launch`], a session given up on before it answers is ended (detached
    /// from) and removed. A target a live session holds ([`Self::holder_of`]), or that
    /// another attach is reaching right now, is refused with
    /// [`SessionError::TargetHeld`], naming the session and its owner.
    pub async fn attach(&self, mut spec: AttachSpec) -> Result<SessionHandle, SessionError> {
        // The machine's own name is held as its address, which other names share.
        if let (Some(host), Some(port)) = (&spec.host, spec.port) {
            let deadline = self.inner.config.transport().connect_timeout;
            if let Some(address) =
                crate::core::attach_target::this_host_address(host, port, deadline).await
            {
                spec.host = Some(address);
            }
        }
        // Held until the session is started (its snapshot then names the target) or
        // the attach failed.
        let _claim = match Self::target_of(&spec) {
            Some(target) => Some(self.claim_target(&target).await?),
            None => None,
        };
        let plan = self.plan_attach(spec).await?;
        self.start_plan(plan).await
    }

    /// The attaches under way.
    pub(crate) fn attach_claims(&self) -> &Arc<attach_claims::AttachClaims> {
        &self.inner.attach_claims
    }

    /// Start a launch planned by [`Self::plan_launch`] (and perhaps adjusted, such as
    /// given a [`StartPlan::replay_check`]) in a new session, as [`Self::launch`] does.
    /// An attach's plan is refused: [`Self::attach`] holds its target while it starts.
    pub async fn start_launch_plan(&self, plan: StartPlan) -> Result<SessionHandle, SessionError> {
        // A core dump's plan may be an `attach` (lldb-dap's): it holds no live target.
        if plan.operation != Operation::Launch && plan.core_file.is_none() {
            return Err(SessionError::InvalidArgument(
                "start_launch_plan starts launches only: attach with Runtime::attach".into(),
            ));
        }
        self.start_plan(plan).await
    }

    async fn start_plan(&self, plan: StartPlan) -> Result<SessionHandle, SessionError> {
        let handle = self.new_session().await?;
        // Given up on (this future dropped) before the start is answered, the session
        // would run with no one holding it: it is ended instead.
        let abandoned = EndOnDrop {
            runtime: Some(self.clone()),
            id: handle.id(),
        };
        let started = handle.start(plan).await;
        let runtime = abandoned.disarm();
        match started {
            Ok(_) => Ok(handle),
            Err(err) => {
                let _ = runtime.end_session(handle.id()).await;
                Err(err)
            }
        }
    }

    /// End a session, then remove it: a program it launched is terminated with its
    /// adapter; a program it attached to is detached from (`disconnect` with
    /// `terminateDebuggee: false`) and runs on, as at shutdown and when the session is
    /// reaped: it is not dapvisor's to end (its own `terminate` does that, asked for).
    /// Errors only if there is no such session.
    pub async fn end_session(&self, id: SessionId) -> Result<(), SessionError> {
        let handle = self.find(id)?;
        if let Ok(snapshot) = handle.snapshot().await {
            if snapshot.state.is_live() {
                let _ = match snapshot.operation {
                    Some(Operation::Attach) => handle.disconnect(false).await,
                    _ => handle.terminate().await,
                };
            }
        }
        let removed = self
            .inner
            .supervisor
            .call(|reply| SupervisorMsg::EndSession { id, reply }, None)
            .await;
        match removed {
            Ok(CallResult::Success(_)) => Ok(()),
            _ => Err(SessionError::RuntimeStopped),
        }
    }

    /// Stop every session, then the supervisor. The sessions end all at once: each
    /// live adapter is asked to `disconnect` (ending a launched debuggee, detaching from
    /// an attached one) within [`RuntimeConfig::shutdown_grace`], then each session
    /// stops within [`RuntimeConfig::session_stop_wait`] or is killed; its adapter's
    /// process group goes with it either way. Answers once everything has ended.
    pub async fn shutdown(&self) {
        let _ = self
            .inner
            .supervisor
            .call(|reply| SupervisorMsg::Shutdown { reply }, None)
            .await;
    }
}

/// Ends session `id` (from a task) if dropped before [`Self::disarm`]: a launch or
/// attach its caller gave up on leaves no session behind.
struct EndOnDrop {
    runtime: Option<Runtime>,
    id: SessionId,
}

impl EndOnDrop {
    fn disarm(mut self) -> Runtime {
        self.runtime.take().expect("disarmed once")
    }
}

impl Drop for EndOnDrop {
    fn drop(&mut self) {
        let (Some(runtime), Ok(tokio)) =
            (self.runtime.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let id = self.id;
        tracing::debug!(session = %id, "a start was given up on; ending its session");
        tokio.spawn(async move {
            let _ = runtime.end_session(id).await;
        });
    }
}
