//! The supervisor of a runtime's sessions.

pub mod actor;
mod children;
mod crashes;
pub mod ended;
mod reaper;
pub mod restart_tracker;
mod shutdown;
mod spawn_error;

pub use actor::{SupervisorActor, SupervisorArgs, SupervisorMsg};
pub use ended::EndedSessions;
pub use restart_tracker::{RestartDecision, RestartTracker};
pub(crate) use spawn_error::SpawnError;
