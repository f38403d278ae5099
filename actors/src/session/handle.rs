//! [`SessionHandle`]: how agents talk to a session, with typed methods. This file
//! holds the handle and its plumbing (starting, the snapshot, output, ending); the
//! typed methods are grouped in files by concept: `handle_breakpoints.rs`,
//! `handle_execution.rs`, `handle_inspect.rs`, and the rest of the protocol in the
//! `requests*.rs` files.
//!
//! Every method is one message to the session's actor and one answer back, but for a
//! snapshot while nothing has changed since the session last answered one: that is
//! read from the copy the session published (see [`crate::session::published`]).
//! Calls that need no adapter I/O (snapshot, output, cached breakpoints) are answered at once;
//! the others when the adapter answers or the request's deadline passes. No call can
//! hang: every request has a deadline. A call given up on (its future dropped) is
//! withdrawn from the session at once: a wait for a stop is forgotten, and a request
//! the adapter is still working on is cancelled where the adapter takes DAP's
//! `cancel`. Its place in the queue comes back once nothing of it is left in the
//! session: at once for a wait, when the adapter answers (or the deadline passes) for
//! a request, so that calls given up on still count against `max_queued_requests`.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use ractor::rpc::CallResult;
use ractor::ActorRef;

use crate::core::command::{Answer, Command, StartPlan, Token};
use crate::core::output::OutputSlice;
use crate::core::snapshot::SessionSnapshot;
use crate::core::state::SessionState;
use crate::core::trace::TraceSlice;
use crate::error::SessionError;
use crate::events::{EventHub, EventStream, SessionEvent};
use crate::session::messages::SessionMsg;
use crate::session::shared::SessionShared;
use crate::session::SessionId;

/// Proof that execution resumed, to wait for the next stop with
/// [`SessionHandle::wait_for_stop`]. A stop that arrives between the resume and the
/// wait is not missed: the ticket remembers which stops came before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunTicket {
    /// The number of stops the session had seen when execution resumed.
    pub epoch: u64,
}

/// A cheap, cloneable handle to one session.
#[derive(Clone)]
pub struct SessionHandle {
    id: SessionId,
    actor: ActorRef<SessionMsg>,
    hub: EventHub<SessionEvent>,
    shared: Arc<SessionShared>,
    max_queued: usize,
    /// The deadline of the adapter requests this view's calls send; the session's
    /// default when `None`.
    timeout: Option<Duration>,
    /// The client this view's calls are made for (see [`Self::acting_as`]).
    acting_as: Option<crate::session::Owner>,
}

impl std::fmt::Debug for SessionHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionHandle")
            .field("id", &self.id)
            .finish()
    }
}

impl SessionHandle {
    pub(crate) fn new(
        id: SessionId,
        actor: ActorRef<SessionMsg>,
        hub: EventHub<SessionEvent>,
        shared: Arc<SessionShared>,
        max_queued: usize,
    ) -> Self {
        Self {
            id,
            actor,
            hub,
            shared,
            max_queued,
            timeout: None,
            acting_as: None,
        }
    }

    /// A view of this session whose calls give the adapter `timeout` to answer
    /// (instead of the session's default, [`crate::limits::DEFAULT_REQUEST_TIMEOUT`]
    /// unless configured), clamped to
    /// [`crate::limits::MIN_REQUEST_TIMEOUT`]..=[`crate::limits::MAX_REQUEST_TIMEOUT`]:
    /// `session.with_timeout(Duration::from_secs(120)).evaluate(..)`. A call past it
    /// fails with [`SessionError::Timeout`]. The deadline a call names itself (the
    /// `timeout` of [`Self::request`], of [`Self::wait_for_stop`]) still wins. A
    /// [`Self::start`] through the view gives the launch handshake `timeout` (clamped
    /// to 5 s..30 min instead) unless its plan names a `launch_timeout` of its own. The
    /// view is the same session: it shares everything else with this handle.
    pub fn with_timeout(&self, timeout: Duration) -> SessionHandle {
        SessionHandle {
            timeout: Some(timeout),
            ..self.clone()
        }
    }

    /// The deadline this view gives adapter requests, if it names one (see
    /// [`Self::with_timeout`]).
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// A view of this session whose calls are made for client `client`: the session
    /// refuses each one ([`SessionError::NotOwner`]) unless `client` may drive it
    /// ([`Ownership::may_drive`](crate::Ownership::may_drive)) at the moment the
    /// session takes the call from its queue, not when the view was made: a call that
    /// waited behind others while the session was handed over or stopped being shared
    /// does nothing. Reading what the session holds (its snapshot, output, trace rows)
    /// acts on nothing and is not checked. A host that serves several clients drives a
    /// session through such a view for every call that does more than read.
    pub fn acting_as(&self, client: crate::session::Owner) -> SessionHandle {
        SessionHandle {
            acting_as: Some(client),
            ..self.clone()
        }
    }

    /// The client this view's calls are made for, if any (see [`Self::acting_as`]).
    pub fn acting_for(&self) -> Option<&crate::session::Owner> {
        self.acting_as.as_ref()
    }

    /// The session's id.
    pub fn id(&self) -> SessionId {
        self.id
    }

    /// The client the session belongs to; `None`: anyone's (see
    /// [`crate::Runtime::owned_by`]).
    pub fn owner(&self) -> Option<crate::session::Owner> {
        self.shared.ownership().owner
    }

    /// Who the session belongs to and who else may drive it.
    pub fn ownership(&self) -> crate::session::Ownership {
        self.shared.ownership()
    }

    /// Change who the session belongs to or whom it is shared with, at once: `change`
    /// reads and writes the ownership with no other change between, so a host can
    /// check that its caller is the owner and hand the session over in one step.
    /// Answers what `change` answers.
    pub fn update_ownership<R>(
        &self,
        change: impl FnOnce(&mut crate::session::Ownership) -> R,
    ) -> R {
        self.shared.update_ownership(change)
    }

    /// What the session shares with its supervisor.
    pub(crate) fn shared(&self) -> &Arc<SessionShared> {
        &self.shared
    }

    /// The session's event hub.
    pub(crate) fn hub(&self) -> &EventHub<SessionEvent> {
        &self.hub
    }

    /// The session actor, for hosts that monitor or link to it. Its messages are the
    /// runtime's own: drive the session through this handle.
    pub fn actor(&self) -> ractor::ActorCell {
        self.actor.get_cell()
    }

    /// The session actor, for the runtime's own messages.
    pub(crate) fn actor_ref(&self) -> &ActorRef<SessionMsg> {
        &self.actor
    }

    /// The current adapter's process id, while one runs.
    pub fn adapter_pid(&self) -> Option<u32> {
        match self.shared.adapter_pid.load(Ordering::Relaxed) {
            0 => None,
            pid => Some(pid),
        }
    }

    /// This session's events, from now on. Lifecycle events are never dropped; if
    /// output piles up unread, the stream says how much was missed.
    pub fn subscribe(&self) -> EventStream<SessionEvent> {
        self.hub.subscribe()
    }

    pub(super) async fn ask(&self, command: Command) -> Result<Answer, SessionError> {
        // Reading the cached state sends nothing, and is not use of the session.
        let reads_state = command.reads_state();
        // A call that sends the adapter nothing holds nothing once given up on: its
        // place comes back at once. Others keep it until their requests are gone.
        let sends_requests = !reads_state && !matches!(command, Command::WaitForStop { .. });
        let queued = self.shared.queued.fetch_add(1, Ordering::Relaxed);
        let token = self.shared.new_token();
        // Holds the call's place in the queue until it is answered or given up on
        // (this future dropped), whichever comes first; given up on, the session is
        // told, so that what the call holds there goes at once too.
        let call = Call {
            handle: self,
            token,
            is_use: command.counts_as_use(),
            sends_requests,
            answered: false,
        };
        // The calls that end the session or read its state have a reserve of their own.
        let ends =
            reads_state || matches!(command, Command::Terminate | Command::Disconnect { .. });
        let limit = match ends {
            true => self.max_queued + crate::limits::ENDING_PLACES,
            false => self.max_queued,
        };
        if queued >= limit {
            call.answered();
            if self.actor.get_status() != ractor::ActorStatus::Running {
                // Places a gone session never gave back say nothing of it.
                return Err(self.ended_error());
            }
            return Err(SessionError::Busy { queued, limit });
        }
        let command = match self.timeout {
            Some(timeout) if !reads_state => Command::WithTimeout {
                timeout,
                command: Box::new(command),
            },
            _ => command,
        };
        let result = self
            .actor
            .call(
                |reply| SessionMsg::Agent {
                    token,
                    client: self.acting_as.clone(),
                    command,
                    reply,
                },
                None,
            )
            .await;
        call.answered();
        match result {
            Ok(CallResult::Success(answer)) => answer,
            // The actor is gone; whatever it held was not answered.
            Ok(_) | Err(_) => Err(self.ended_error()),
        }
    }

    /// Why the session is gone: reaped or failed where that was recorded, else ended.
    pub(crate) fn ended_error(&self) -> SessionError {
        self.shared
            .ended()
            .unwrap_or_else(|| SessionError::SessionEnded(self.id.to_string()))
    }

    /// What passed between the session and its adapters so far: DAP requests sent,
    /// events received, bytes each way (every adapter run of the session counted).
    pub fn traffic(&self) -> crate::core::snapshot::TrafficCounts {
        self.shared.traffic.counts()
    }

    /// Start the adapter and launch or attach as `plan` says; answers once the
    /// debuggee runs (or stopped at entry, or already ended).
    pub async fn start(&self, plan: StartPlan) -> Result<SessionSnapshot, SessionError> {
        match self.ask(Command::Start(Box::new(plan))).await? {
            Answer::Snapshot(s) => Ok(*s),
            other => Err(unexpected(other)),
        }
    }

    /// The session's cached state, with no adapter round trip. While the session has
    /// handled no message since it last answered a snapshot, this is the copy it
    /// published then, read without a message to its actor; otherwise the actor
    /// answers (and publishes again).
    pub async fn snapshot(&self) -> Result<SessionSnapshot, SessionError> {
        let running = self.actor.get_status() == ractor::ActorStatus::Running;
        match running.then(|| self.shared.snapshot.current()).flatten() {
            Some(published) => Ok(self.filled_in(SessionSnapshot::clone(&published))),
            None => self.snapshot_through_mailbox().await,
        }
    }

    /// The snapshot as the session's actor answers it, never the published copy:
    /// [`Self::snapshot`]'s route after a change. Public for the benchmarks that
    /// compare the two routes.
    #[doc(hidden)]
    pub async fn snapshot_through_mailbox(&self) -> Result<SessionSnapshot, SessionError> {
        match self.ask(Command::Snapshot).await? {
            Answer::Snapshot(s) => Ok(self.filled_in(*s)),
            other => Err(unexpected(other)),
        }
    }

    /// `snapshot` with what the session's shared record holds (the core leaves it out).
    fn filled_in(&self, snapshot: SessionSnapshot) -> SessionSnapshot {
        SessionSnapshot {
            traffic: self.traffic(),
            last_used: Some(self.shared.last_used().into_std()),
            ..snapshot
        }
    }

    /// The session's state.
    pub async fn state(&self) -> Result<SessionState, SessionError> {
        Ok(self.snapshot().await?.state)
    }

    /// Captured output from cursor `since` (0 for the start), at most `max_bytes`.
    pub async fn output(&self, since: u64, max_bytes: usize) -> Result<OutputSlice, SessionError> {
        match self.ask(Command::Output { since, max_bytes }).await? {
            Answer::Output(slice) => Ok(slice),
            other => Err(unexpected(other)),
        }
    }

    /// Tracepoint rows from cursor `since` (0 for the first), at most `max_rows` and at
    /// least one where one waits (a `max_rows` of 0 reads one), so that reading while
    /// `more` always ends.
    pub async fn trace(&self, since: u64, max_rows: usize) -> Result<TraceSlice, SessionError> {
        match self.ask(Command::Trace { since, max_rows }).await? {
            Answer::Trace(slice) => Ok(slice),
            other => Err(unexpected(other)),
        }
    }

    /// End the debuggee and the adapter. The session stays, and can launch again.
    pub async fn terminate(&self) -> Result<(), SessionError> {
        self.ask(Command::Terminate).await?;
        Ok(())
    }

    /// Detach from the debuggee (ending it if `terminate_debuggee`) and stop the adapter.
    pub async fn disconnect(&self, terminate_debuggee: bool) -> Result<(), SessionError> {
        self.ask(Command::Disconnect { terminate_debuggee }).await?;
        Ok(())
    }
}

/// An agent call under way: its place in the session's request queue, given back
/// when the call is answered. A call dropped before [`Self::answered`] was given up
/// on: the session is told to withdraw it, and gives its place back once no request
/// of it is pending any more (`core/releases.rs`); like an answer would, it marks the
/// session used (the agent was busy with it until now).
struct Call<'a> {
    handle: &'a SessionHandle,
    token: Token,
    is_use: bool,
    /// Its place is given back by the session, once no request of it is pending.
    sends_requests: bool,
    answered: bool,
}

impl Call<'_> {
    fn answered(mut self) {
        self.answered = true;
    }
}

impl Drop for Call<'_> {
    fn drop(&mut self) {
        let shared = &self.handle.shared;
        if !self.answered {
            if self.is_use {
                shared.touch();
            }
            // The session gives the place back once the call holds nothing there; a
            // session that is gone cannot, and holds nothing.
            let withdraw = SessionMsg::Withdraw {
                token: self.token,
                place: self.sends_requests,
            };
            if self.handle.actor.cast(withdraw).is_ok() && self.sends_requests {
                return;
            }
        }
        // Marked used first, so that the idle sweep never sees the call neither in
        // flight nor as use.
        shared.queued.fetch_sub(1, Ordering::Release);
    }
}

pub(super) fn unexpected(answer: Answer) -> SessionError {
    SessionError::internal("reading the session's answer", format!("{answer:?}"))
}

/// Breakpoint files are keyed by absolute path, as adapters report them; a remote
/// target's file no mapping covers (`remote:/usr/lib/a.py`, see
/// [`crate::path_map::REMOTE_MARK`]) is the target's path, kept as it is.
pub(super) fn absolute(path: &Path) -> PathBuf {
    if crate::path_map::is_remote(path) {
        return path.to_path_buf();
    }
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
