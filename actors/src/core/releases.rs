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
//! what still holds it (`SessionCore::timers_held`, `SessionCore::tokens_held`), so no
//! path that drops a timer or a request has to remember to.

use std::collections::BTreeSet;

use crate::core::command::{Effect, TimerId, Token};

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

    /// Whether nothing waits to be given back.
    pub(crate) fn is_empty(&self) -> bool {
        self.timers.is_empty() && self.withdrawn.is_empty()
    }

    /// What to give back, given what still holds timers and calls: the timers
    /// nothing waits on are cancelled, the withdrawn calls nothing holds released.
    pub(crate) fn let_go(
        &mut self,
        timers_held: &BTreeSet<TimerId>,
        tokens_held: &BTreeSet<Token>,
    ) -> Vec<Effect> {
        let (kept, gone): (BTreeSet<_>, BTreeSet<_>) = std::mem::take(&mut self.timers)
            .into_iter()
            .partition(|id| timers_held.contains(id));
        self.timers = kept;
        let mut effects: Vec<Effect> = gone
            .into_iter()
            .map(|id| Effect::CancelTimer { id })
            .collect();
        let (kept, gone): (BTreeSet<_>, BTreeSet<_>) = std::mem::take(&mut self.withdrawn)
            .into_iter()
            .partition(|token| tokens_held.contains(token));
        self.withdrawn = kept;
        effects.extend(gone.into_iter().map(|token| Effect::Release { token }));
        effects
    }
}
