//! Faults injected into a live session's actors, so that tests can make the session
//! actor or its transport fail after start-up (a handler returning an error, or
//! panicking) and check what supervision does about it. A testing hook: nothing in
//! the runtime sends these, and no adapter can trigger them.

use crate::session::{SessionHandle, SessionMsg};
pub use crate::transport::injected_fault::InjectedFault;

/// Make `session`'s actor (or its current transport) fail as `fault` says, from its
/// next message on. False if the session actor is already gone. A transport fault
/// does nothing while the session has no adapter.
pub fn inject_fault(session: &SessionHandle, fault: InjectedFault) -> bool {
    session
        .actor_ref()
        .cast(SessionMsg::InjectFault(fault))
        .is_ok()
}
