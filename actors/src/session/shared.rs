//! [`SessionShared`]: what a session shares with its handles and its supervisor,
//! readable without a message to the actor.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::SessionError;

/// What a session shares with its handles and its supervisor.
#[derive(Debug)]
pub struct SessionShared {
    /// Agent calls queued or in flight: each handle call holds a place from when it
    /// is made until it is answered or given up on.
    pub queued: AtomicUsize,
    /// The number of the next agent call (see [`Self::new_token`]).
    next_token: AtomicU64,
    /// The current adapter's pid (0 when none); the transport fills it in.
    pub adapter_pid: Arc<AtomicU32>,
    /// When an agent last asked anything of the session, or last had an answer (tokio's
    /// clock, so paused-time tests can age a session; what counts is
    /// [`Command::counts_as_use`](crate::core::command::Command::counts_as_use)). The
    /// one record of it: the supervisor's idle sweep reads it, and snapshots show it.
    last_used: Mutex<tokio::time::Instant>,
    /// Why the session ended, once its actor is gone for a reason worth telling
    /// (reaped, failed); handles answer with it.
    ended: Mutex<Option<SessionError>>,
    /// What passed between the session and its adapters; its transports count.
    pub traffic: Arc<crate::transport::traffic::Traffic>,
    /// Who the session belongs to and who else may drive it: one record for a session
    /// and its child sessions, which are part of its debugging (a change to either's
    /// is a change to all of theirs, with no moment between).
    pub ownership: Arc<Mutex<super::owner::Ownership>>,
    /// Whether the current adapter's frames go stale once an evaluation ran code
    /// (see `stale_frames.rs`); set as each adapter starts, so that handles know
    /// without a snapshot.
    pub stales_frames: std::sync::atomic::AtomicBool,
    /// The snapshot as the actor last published it (the actor is its only writer).
    pub snapshot: super::published::PublishedSnapshot,
    /// The places for child sessions of the session's tree, shared with its parent
    /// and children (see [`crate::transport::ChildSlots`]).
    pub child_slots: crate::transport::ChildSlots,
}

impl Default for SessionShared {
    fn default() -> Self {
        Self {
            queued: AtomicUsize::new(0),
            next_token: AtomicU64::new(1),
            adapter_pid: Arc::default(),
            last_used: Mutex::new(tokio::time::Instant::now()),
            ended: Mutex::new(None),
            traffic: Arc::default(),
            ownership: Arc::default(),
            stales_frames: Default::default(),
            snapshot: Default::default(),
            child_slots: Default::default(),
        }
    }
}

impl SessionShared {
    /// What a new session shares: its ownership record `ownership` (for a child
    /// session, its parent's own record) and its tree's places for child sessions,
    /// `child_slots`.
    pub(crate) fn new(
        ownership: Arc<Mutex<super::owner::Ownership>>,
        child_slots: crate::transport::ChildSlots,
    ) -> Self {
        Self {
            ownership,
            child_slots,
            ..Self::default()
        }
    }

    /// A number for a new agent call, unique in the session: the session answers it
    /// by that number, and the call withdraws it by that number if given up on.
    pub fn new_token(&self) -> crate::core::command::Token {
        self.next_token.fetch_add(1, Ordering::Relaxed)
    }

    pub(crate) fn clone_pid_slot(&self) -> Arc<AtomicU32> {
        self.adapter_pid.clone()
    }

    /// The adapter is gone: no pid is named any more.
    pub fn forget_adapter(&self) {
        self.adapter_pid.store(0, Ordering::Relaxed);
    }

    /// When an agent last used the session.
    pub fn last_used(&self) -> tokio::time::Instant {
        *self.last_used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Mark the session used now.
    pub fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(|e| e.into_inner()) = tokio::time::Instant::now();
    }

    /// Why the session ended, if that was recorded.
    pub fn ended(&self) -> Option<SessionError> {
        self.ended.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Who the session belongs to and who else may drive it.
    pub fn ownership(&self) -> super::owner::Ownership {
        self.ownership
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Change the ownership with `change`, at once (no other change comes between
    /// what `change` reads and what it writes); what `change` answers.
    pub fn update_ownership<R>(&self, change: impl FnOnce(&mut super::owner::Ownership) -> R) -> R {
        change(&mut self.ownership.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Record why the session ended (the first reason wins).
    pub fn set_ended(&self, why: SessionError) {
        let mut ended = self.ended.lock().unwrap_or_else(|e| e.into_inner());
        ended.get_or_insert(why);
    }
}
