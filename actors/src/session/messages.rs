//! What a session actor is sent: agents' commands, its transport's output, timers,
//! the supervisor's decisions about crashes.

use std::time::Duration;

use ractor::RpcReplyPort;

use crate::core::command::{Answer, Command, TimerId, Token};
use crate::error::SessionError;
use crate::session::SessionHandle;
use crate::transport::TransportOutput;

/// Messages a session handles.
pub enum SessionMsg {
    /// An agent's command; the answer goes to `reply`.
    Agent {
        /// The call's number, unique in the session (the handle draws it from
        /// [`SessionShared::new_token`](crate::session::SessionShared::new_token)).
        token: Token,
        /// The client the call is made for ([`SessionHandle::acting_as`]): the
        /// session refuses the call unless that client may drive it when the call is
        /// taken. `None`: no check (the host's own calls, and reads).
        client: Option<crate::session::Owner>,
        /// What is asked.
        command: Command,
        /// Where the answer goes.
        reply: RpcReplyPort<Result<Answer, SessionError>>,
    },
    /// The agent gave up on call `token` (its future was dropped before the answer):
    /// the session forgets it, and gives its place in the queue back once no request
    /// of it is pending.
    Withdraw {
        /// The call's number.
        token: Token,
        /// Its place is the session's to give back (a call that sends requests); a
        /// call that sends none (a wait for a stop) gave it back itself.
        place: bool,
    },
    /// Output of the transport of adapter `generation` (older generations are ignored).
    Transport {
        /// Which adapter start it came from.
        generation: u64,
        /// What it reported.
        output: TransportOutput,
    },
    /// A core timer fired.
    Timer(TimerId),
    /// The supervisor's decision about a crash this session reported.
    Supervision(CrashDecision),
    /// Whether an attach's debug server is still there, checked off the handler
    /// before restart `attempt` (for the supervisor's crash `crash`).
    Reattach {
        /// The restart's number in its series.
        attempt: u32,
        /// The crash it answers.
        crash: u64,
        /// Why the server is gone; `None` while its port accepts connections.
        gone: Option<String>,
    },
    /// The supervisor started a child session for this one (its adapter asked with
    /// `startDebugging`); the child ends when this session is terminated or
    /// disconnected.
    ChildStarted(SessionHandle),
    /// Testing hook: fail this actor or its transport (see
    /// [`crate::testing::inject_fault`]). Nothing in the runtime sends it.
    #[cfg(any(test, feature = "testing"))]
    #[doc(hidden)]
    InjectFault(crate::transport::injected_fault::InjectedFault),
}

/// What the supervisor decided about a session's crashed adapter.
#[derive(Debug, Clone)]
pub enum CrashDecision {
    /// A new adapter starts after `after`; restart `attempt` of the series.
    Scheduled {
        /// The restart's number in its series.
        attempt: u32,
        /// The backoff.
        after: Duration,
        /// The supervisor's number for the crash this answers (1 for the session's
        /// first crash): a [`Self::RestartNow`] for an older crash is stale.
        crash: u64,
    },
    /// The backoff is over: start the new adapter now.
    RestartNow {
        /// The restart's number in its series.
        attempt: u32,
        /// The crash this restart answers.
        crash: u64,
    },
    /// The budget is spent: the session fails with this reason.
    GiveUp {
        /// Why.
        reason: String,
    },
}
