//! What a session tells the supervisor that owns it. The session layer names these
//! and holds only a [`DerivedActorRef`] to send them through; the supervisor, the
//! layer above, takes them as its own messages, so no import runs back up.

use ractor::DerivedActorRef;

use crate::core::command::StartPlan;
use crate::core::session_id::SessionId;
use crate::error::AdapterExit;

/// A session's report to its supervisor.
pub enum SessionReport {
    /// The session's adapter crashed while the session was live: decide whether and
    /// when to restart it.
    AdapterCrashed {
        /// Which session.
        session: SessionId,
        /// How the adapter ended.
        exit: AdapterExit,
    },
    /// The session's adapter, restarted after a crash, finished its handshake: the
    /// period that proves it stable starts now.
    AdapterRestarted {
        /// Which session.
        session: SessionId,
    },
    /// Start a child session (its plan names its parent).
    SpawnChild {
        /// The child's plan.
        plan: Box<StartPlan>,
        /// Its place in its tree's bound on child sessions, held for its life.
        slot: crate::transport::ChildSlot,
    },
}

/// Where a session sends its reports.
pub type Supervisor = DerivedActorRef<SessionReport>;
