//! Faults injected into a live session's actors, so that tests can make the session
//! actor or its transport fail after start-up (a handler returning an error, or
//! panicking) and check what supervision does about it. A testing hook: nothing in
//! the runtime sends these, and no adapter can trigger them.

use ractor::ActorProcessingErr;

use crate::session::{SessionHandle, SessionMsg};

/// Which actor fails, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InjectedFault {
    /// The session actor's handler returns an error.
    SessionError,
    /// The session actor's handler panics.
    SessionPanic,
    /// The handler of the session's current transport returns an error.
    TransportError,
    /// The handler of the session's current transport panics.
    TransportPanic,
}

impl InjectedFault {
    /// Whether the fault is for the transport (the session passes it on).
    pub(crate) fn is_transport(self) -> bool {
        matches!(
            self,
            InjectedFault::TransportError | InjectedFault::TransportPanic
        )
    }

    /// Fail the handler of `actor` ("session" or "transport") as the fault says.
    pub(crate) fn fail(self, actor: &str) -> Result<(), ActorProcessingErr> {
        match self {
            InjectedFault::SessionPanic | InjectedFault::TransportPanic => {
                panic!("a panic injected into the {actor} actor (testing hook)")
            }
            InjectedFault::SessionError | InjectedFault::TransportError => {
                Err(format!("an error injected into the {actor} actor (testing hook)").into())
            }
        }
    }
}

/// Make `session`'s actor (or its current transport) fail as `fault` says, from its
/// next message on. False if the session actor is already gone. A transport fault
/// does nothing while the session has no adapter.
pub fn inject_fault(session: &SessionHandle, fault: InjectedFault) -> bool {
    session
        .actor_ref()
        .cast(SessionMsg::InjectFault(fault))
        .is_ok()
}
