//! What the shell holds for the core, given back once the core no longer needs it:
//!
//! - a timer ([`Effect::StartTimer`]) whose purpose ended first (a wait for a stop
//!   answered by the stop, a handshake that finished, a grace the debuggee did not
//!   need) is cancelled ([`Effect::CancelTimer`]); left alone, it would sleep its whole
//!   period (up to an hour for a wait) and outlive the session;
//! - a call its agent gave up on ([`Input::Withdraw`](crate::core::command::Input))
//!   keeps its place in the session's request queue while a request of it is still
//!   pending here (and so in the transport, until the adapter answers or the deadline
//!   passes); once none is, the place comes back ([`Effect::Release`]). A client that
//!   retries a slow request with a short timeout is then refused as busy, rather than
//!   piling up requests the queue's bound no longer counts.
//!
//! After every input the core compares what it started or was told to give up on with
//! what still holds it, so no path that drops a timer or a request has to remember to.

use std::collections::BTreeSet;

use crate::core::command::{Effect, TimerId, Token};
use crate::core::phase::Phase;
use crate::core::session::{Pending, SessionCore};

/// The timers running and the withdrawn calls, as far as the core knows.
#[derive(Debug, Default)]
pub(crate) struct Releases {
    /// Started and neither fired nor cancelled.
    timers: BTreeSet<TimerId>,
    /// Withdrawn and not yet released.
    withdrawn: BTreeSet<Token>,
}

impl Releases {
    /// Timer `id` was started.
    pub(crate) fn started(&mut self, id: TimerId) {
        self.timers.insert(id);
    }

    /// Timer `id` fired: nothing is left of it to cancel.
    pub(crate) fn fired(&mut self, id: TimerId) {
        self.timers.remove(&id);
    }

    /// The call `token` was withdrawn: its place goes once nothing holds it.
    pub(crate) fn withdrawn(&mut self, token: Token) {
        self.withdrawn.insert(token);
    }
}

impl SessionCore {
    /// Cancel the timers and release the withdrawn calls nothing holds any more.
    pub(super) fn release_what_is_let_go(&mut self) {
        if !self.releases.timers.is_empty() {
            let held: BTreeSet<TimerId> = self.timers_held().collect();
            let (kept, gone) = std::mem::take(&mut self.releases.timers)
                .into_iter()
                .partition(|id| held.contains(id));
            self.releases.timers = kept;
            let gone: Vec<TimerId> = gone.into_iter().collect();
            self.effects
                .extend(gone.into_iter().map(|id| Effect::CancelTimer { id }));
        }
        if !self.releases.withdrawn.is_empty() {
            let held: BTreeSet<Token> = self.tokens_held().collect();
            let (kept, gone) = std::mem::take(&mut self.releases.withdrawn)
                .into_iter()
                .partition(|token| held.contains(token));
            self.releases.withdrawn = kept;
            let gone: Vec<Token> = gone.into_iter().collect();
            self.effects
                .extend(gone.into_iter().map(|token| Effect::Release { token }));
        }
    }

    /// Every timer some part of the core still waits on.
    fn timers_held(&self) -> impl Iterator<Item = TimerId> + '_ {
        let phase = match &self.phase {
            Phase::Starting { handshake, .. } => Some(handshake.timer),
            Phase::Ending {
                graceful: Some(graceful),
                ..
            } => Some(graceful.timer),
            Phase::Severed { timer, .. } => Some(*timer),
            _ => None,
        };
        let waiters = self.waiters.iter().map(|w| w.timer);
        let bootstrap = self.bootstrap.iter().flat_map(|b| b.timers());
        phase.into_iter().chain(waiters).chain(bootstrap)
    }

    /// Every call some part of the core still holds: requests of it pending, a start
    /// or an end under way for it.
    fn tokens_held(&self) -> impl Iterator<Item = Token> + '_ {
        let pending = self.pending.values().filter_map(|pending| match pending {
            Pending::Agent { token, .. } => Some(*token),
            Pending::Ending { token } => *token,
            Pending::Startup(_) | Pending::TraceStop(_) => None,
        });
        let startup = self.phase.handshake().and_then(|h| h.starter.token());
        let graceful = self.phase.graceful().and_then(|g| g.answered);
        let relaunch = self.phase.relaunch().map(|r| r.token);
        let waiters = self.waiters.iter().map(|w| w.token);
        pending
            .chain(startup)
            .chain(graceful)
            .chain(relaunch)
            .chain(waiters)
    }
}
