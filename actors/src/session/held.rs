//! What a session's actor holds for its core, given up with the actor however it
//! ends (a stop, a failure that skips `post_stop`, a kill): the tasks of its timers,
//! each aborted once the core cancels it ([`Effect::CancelTimer`]) or the actor goes,
//! and the queue places of calls withdrawn by their agents, each given back once the
//! core releases the call ([`Effect::Release`]) or the actor goes.
//!
//! [`Effect::CancelTimer`]: crate::core::command::Effect::CancelTimer
//! [`Effect::Release`]: crate::core::command::Effect::Release

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use ractor::ActorRef;
use tokio::task::AbortHandle;

use crate::core::command::{TimerId, Token};
use crate::session::messages::SessionMsg;
use crate::session::shared::SessionShared;

/// The timers running for the core, by id.
#[derive(Default)]
pub(crate) struct Timers {
    running: HashMap<TimerId, AbortHandle>,
}

impl Timers {
    /// Send [`SessionMsg::Timer`] with `id` to `myself` after `after`.
    pub(crate) fn start(&mut self, myself: &ActorRef<SessionMsg>, id: TimerId, after: Duration) {
        let task = myself.send_after(after, move || SessionMsg::Timer(id));
        self.running.insert(id, task.abort_handle());
    }

    /// Timer `id` fired: its task has ended.
    pub(crate) fn fired(&mut self, id: TimerId) {
        self.running.remove(&id);
    }

    /// The core no longer waits on timer `id`: its task ends now.
    pub(crate) fn cancel(&mut self, id: TimerId) {
        if let Some(task) = self.running.remove(&id) {
            task.abort();
        }
    }
}

impl Drop for Timers {
    fn drop(&mut self) {
        for (_, task) in self.running.drain() {
            task.abort();
        }
    }
}

/// The queue places still held by calls their agents withdrew (see
/// `core/releases.rs`).
pub(crate) struct WithdrawnPlaces {
    shared: Arc<SessionShared>,
    held: HashSet<Token>,
}

impl WithdrawnPlaces {
    pub(crate) fn new(shared: Arc<SessionShared>) -> Self {
        Self {
            shared,
            held: HashSet::new(),
        }
    }

    /// The withdrawn call `token` went to the core, keeping its place until released.
    pub(crate) fn keep(&mut self, token: Token) {
        self.held.insert(token);
    }

    /// Give one place back: that of a withdrawn call that held nothing here.
    pub(crate) fn give_back(&self) {
        self.shared.queued.fetch_sub(1, Ordering::Release);
    }

    /// The core released the call `token`: its place comes back, if it kept one.
    pub(crate) fn released(&mut self, token: Token) {
        if self.held.remove(&token) {
            tracing::trace!(token, "a withdrawn call's place comes back");
            self.give_back();
        }
    }
}

impl Drop for WithdrawnPlaces {
    fn drop(&mut self) {
        self.shared
            .queued
            .fetch_sub(self.held.len(), Ordering::Release);
    }
}
