//! A fault a test injects into a live session's actors (see
//! [`crate::testing::inject_fault`]): the session actor or its transport fails after
//! start-up (a handler returning an error, or panicking), so that tests can check what
//! supervision does about it. It travels in the actors' own messages, hence its home
//! here, below both; nothing in the runtime sends it, and no adapter can trigger it.

use ractor::ActorProcessingErr;

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
