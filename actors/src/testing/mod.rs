//! Helpers for tests and benchmarks: a scripted DAP adapter that runs as a tokio task
//! on an in-memory stream, a probe that shows what it received, and
//! [`inject_fault`], which makes a live session's actor or transport fail.
//!
//! ```no_run
//! # async fn demo() -> Result<(), dapvisor_actors::SessionError> {
//! use dapvisor_actors::testing::FakeAdapter;
//! use dapvisor_actors::{LaunchSpec, Runtime, RuntimeConfig};
//!
//! let (connect, probe) = FakeAdapter::new().hang_on("evaluate").connector();
//! let runtime = Runtime::start(RuntimeConfig::default().in_process_adapter("fake", connect)).await?;
//! let session = runtime
//!     .launch(LaunchSpec::new("Cargo.toml").adapter("fake").breakpoint("src/lib.rs", 3))
//!     .await?;
//! assert_eq!(probe.commands()[0], "initialize");
//! # drop(session);
//! # Ok(())
//! # }
//! ```
//!
//! Everything the fake does happens in tokio time, so it works under paused time
//! (`#[tokio::test(start_paused = true)]`): a [`FakeAdapter::late_answer`] or a paced
//! [`FakeAdapter::output_burst`] advances virtual time only.

mod fake_adapter;
mod faults;
mod memory;
mod probe;
mod program;

pub use fake_adapter::FakeAdapter;
pub use faults::{inject_fault, InjectedFault};
pub use probe::{FakeAdapterProbe, ProbeLog, ReceivedRequest, ReceivedResponse, SentMessage};

/// The runtime's own process plumbing, for tests that check it from outside: how an
/// adapter is spawned and a `runInTerminal` command run (each with default signal
/// dispositions), and whether a process is alive.
pub use crate::transport::io::spawn_adapter;
pub use crate::transport::procfs::is_alive;
pub use crate::transport::reverse::run_in_terminal;
pub use crate::transport::terminal::Terminal;

/// How every process the runtime starts gets default signal dispositions, for the
/// tests that check it.
pub mod clean_start {
    pub use crate::clean_start::{std_command, tokio_command};
}

/// The transport actor on its own, for the tests and benchmarks that drive one
/// adapter connection without a session.
pub mod transport {
    pub use crate::core::command::Tag;
    pub use crate::transport::io::ExitInfo;
    pub use crate::transport::messages::FrameLimits;
    pub use crate::transport::state::TransportState;
    pub use crate::transport::traffic::Traffic;
    pub use crate::transport::{
        ChildSlot, ChildSlots, FrameCredit, InProcessAdapters, TransportActor, TransportArgs,
        TransportConfig, TransportMsg, TransportOutput,
    };
}

/// The event hub on its own, for the fan-out benchmark.
pub use crate::events::{EventHub, Lossy};
