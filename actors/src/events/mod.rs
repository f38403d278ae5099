//! Events sessions publish to agents, and the hub that fans them out without
//! losing lifecycle events.

pub mod hub;
pub mod session_event;

pub use hub::{EventHub, EventStream, Lossy, Received, TryRecvError};
pub use session_event::{EventKind, SessionEvent};
