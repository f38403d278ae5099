//! Sessions: the actor shell around the core, the handle agents hold, and ids.

#[cfg(test)]
mod acting_tests;
pub mod actor;
mod bootstrap;
#[cfg(test)]
mod children_tests;
pub mod handle;
mod handle_breakpoints;
mod handle_execution;
mod handle_inspect;
#[cfg(test)]
mod handle_tests;
mod held;
mod object_previews;
mod stale_frames;

mod effects;
pub mod messages;
pub mod owner;
pub mod published;
#[cfg(test)]
mod published_tests;
pub(crate) mod reattach;
pub(crate) mod report;
mod requests;
mod requests_disassemble;
mod requests_execution;
mod requests_inspect;
mod requests_memory;
#[cfg(test)]
mod requests_memory_tests;
pub mod shared;
#[cfg(test)]
mod test_support;

pub use crate::core::session_id::SessionId;
pub use actor::{SessionActor, SessionArgs};
pub use handle::{RunTicket, SessionHandle};
pub use handle_execution::StepKind;
pub use messages::{CrashDecision, SessionMsg};
pub use owner::{Owner, Ownership, SharedWith};
pub use shared::SessionShared;
