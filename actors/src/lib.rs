//! dapvisor's runtime: Debug Adapter Protocol sessions as supervised ractor actors.
//!
//! - [`wire`]: framing, the message envelope and typed bodies (pure).
//! - [`core`]: the session state machine, breakpoint cache and output ring (pure).
//! - [`transport`]: one actor per adapter process or socket.
//! - sessions: one actor per session, reached through the [`SessionHandle`] agents
//!   hold; a supervisor actor owns a runtime's sessions, restarts crashed adapters
//!   ([`RestartPolicy`]) and reaps idle sessions. Their actors and messages are the
//!   runtime's own: a host monitors or links to them as `ActorCell`s
//!   ([`Runtime::supervisor`], [`SessionHandle::actor`]).
//! - [`registry`]: the adapters dapvisor knows and how to start each.
//! - [`quirks`]: how each adapter family departs from plain DAP, one file a family.
//! - [`events`]: session events and the hub that fans them out.
//! - [`test_run`]: one test, named as its runner names it, as the launch that runs it.
//! - [`Runtime`]: the entry point.
//! - [`clean_start`]: every process dapvisor starts gets default signal dispositions.
#![warn(missing_docs)]

pub mod clean_start;
pub(crate) mod config;
pub mod core;
pub mod error;
pub mod events;
pub(crate) mod launch;
pub mod limits;
pub mod quirks;
pub mod registry;
pub(crate) mod runtime;
pub(crate) mod session;
pub(crate) mod supervisor;
pub mod test_run;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod transport;
pub mod wire;

pub use config::RuntimeConfig;
pub use core::command::{StopInfo, StopOutcome};
pub use core::snapshot::SessionSnapshot;
pub use core::snapshot::TrafficCounts;
pub use core::state::{Operation, SessionState};
pub use core::trace::{TraceRoute, TraceRow, TraceSlice, TraceValue, Tracepoint};
pub use error::{AdapterExit, SessionError};
pub use events::{EventKind, EventStream, Received, SessionEvent};
pub use launch::{AttachSpec, InitialBreakpoint, LaunchSpec};
pub use runtime::Runtime;
pub use session::{Owner, Ownership, RunTicket, SessionHandle, SessionId, SharedWith, StepKind};
pub use supervisor::RestartPolicy;
pub use test_run::{TestOutcome, TestRequest, TestRunError, TestRunner};
