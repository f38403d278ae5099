//! dapvisor's runtime: Debug Adapter Protocol sessions as supervised ractor actors.
//!
//! What an embedder uses:
//!
//! - [`Runtime`], started from a [`RuntimeConfig`] (a builder whose setters clamp,
//!   checked as a whole at start), launches ([`LaunchSpec`]) or attaches
//!   ([`AttachSpec`]) and hands back a [`SessionHandle`] to drive the session.
//! - Events: [`SessionEvent`]s of an [`EventKind`], read from an [`EventStream`].
//! - Errors: [`SessionError`], whose `code`, `kind` and `hint` say what to do next;
//!   a configuration [`Runtime::start`] refuses is a [`ConfigError`] inside it.
//! - What a session holds: [`SessionSnapshot`], [`SessionState`], [`StopInfo`],
//!   [`OutputSlice`], [`TraceSlice`], [`BreakpointCache`].
//! - [`registry`]: the adapters dapvisor knows and how to start each;
//!   [`check_initialize`] starts one on its own and asks it `initialize`.
//! - [`wire`]: DAP's framing, message envelope and typed bodies (pure).
//! - [`limits`]: every limit, with its default.
//! - `testing` (feature `testing`): a scripted adapter, injected faults and the
//!   internals the crate's own tests drive; off for embedders.
//!
//! Inside (crate-private): the pure session core, one transport actor per adapter
//! process or socket, one actor per session, and a supervisor that owns a runtime's
//! sessions, restarts crashed adapters ([`RestartPolicy`]) and reaps idle sessions.
//! Their actors are the runtime's own: a host monitors or links to them as
//! `ActorCell`s ([`Runtime::supervisor`], [`SessionHandle::actor`]).
#![warn(missing_docs)]
#![warn(unnameable_types)]

pub(crate) mod adapter_check;
pub(crate) mod clean_start;
pub(crate) mod config;
pub(crate) mod core;
pub(crate) mod core_signal;
pub(crate) mod error;
pub(crate) mod events;
pub(crate) mod host_probe;
pub(crate) mod launch;
pub mod limits;
pub mod path_map;
pub(crate) mod quirks;
pub mod registry;
pub(crate) mod runtime;
pub(crate) mod session;
pub(crate) mod session_state;
pub(crate) mod source_build;
pub(crate) mod supervisor;
pub(crate) mod test_run;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub(crate) mod transport;
pub mod wire;

pub use adapter_check::check_initialize;
pub use config::RestartPolicy;
pub use config::RuntimeConfig;
pub use core::attach_target::AttachTarget;
pub use core::breakpoints::{BreakpointCache, FunctionBreakpointRecord, SourceBreakpointRecord};
pub use core::call_patterns::{glob as call_glob, CallPattern};
pub use core::command::{StartPlan, StopOutcome};
pub use core::output::{OutputEntry, OutputSlice};
pub use core::post_mortem::signal_in as core_dump_signal;
pub use core::snapshot::StopInfo;
pub use core::snapshot::TrafficCounts;
pub use core::snapshot::{SessionSnapshot, TopFrame};
pub use core::start_plan::ReplayCheck;
/// The expressions a tracepoint's log message records (`None` when the message is
/// not a tracepoint's).
pub use core::trace::collected as tracepoint_expressions;
pub use core::trace::{
    CallEvent, CallRecord, TraceRoute, TraceRow, TraceSlice, TraceValue, Tracepoint,
};
pub use core_signal::{signal_of_core, MAX_CORE_NOTE_BYTES};
pub use error::{
    AdapterExit, ConfigError, ConfigRule, ProtocolError, SessionError, TransportError,
    UnmatchedResponse,
};
pub use events::{EventKind, EventStream, Received, SessionEvent, TryRecvError};
pub use launch::{AttachSpec, InitialBreakpoint, LaunchSpec};
pub use path_map::PathMapping;
pub use runtime::core_dump::is_core_file;
pub use runtime::Runtime;
pub use session::{Owner, Ownership, RunTicket, SessionHandle, SessionId, SharedWith, StepKind};
pub use session_state::{Operation, SessionState};
pub use source_build::{
    BuiltSource, SourceBuildError, SourceLanguage, MAX_SOURCE_BUILD_MESSAGE_BYTES,
};
pub use test_run::{TestOutcome, TestRequest, TestRunError, TestRunner};
pub use transport::InProcessConnect;
pub use transport::{all_process_groups_swept, unswept_process_groups};
