//! The supervisor of a runtime's sessions.

pub mod actor;

pub use actor::{SupervisorActor, SupervisorArgs, SupervisorMsg};
