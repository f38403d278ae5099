//! The transport: one actor per adapter process or socket, and the tasks that move
//! its bytes.

pub mod actor;
pub mod in_process;
pub mod io;
pub mod process;
pub mod reverse;
pub mod stderr_tail;

pub use actor::{
    TransportActor, TransportArgs, TransportConfig, TransportMsg, TransportOutput, TransportSink,
};
pub use in_process::{InProcessAdapters, InProcessConnect};
pub use process::ProcessGroup;
