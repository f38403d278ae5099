//! What an attach reached, kept in its plan so that a restart after a crash can tell
//! whether there is still something to attach to (see `session/reattach.rs`).

/// The process or debug server an attach reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachTarget {
    /// A local process, attached to by pid.
    Process {
        /// Its pid.
        pid: u32,
        /// Its start time (clock ticks since boot, from `/proc/PID/stat`) when the
        /// agent attached. A later process that reuses the pid has another, so it is
        /// not mistaken for this one; `None` when `/proc` could not say.
        start: Option<u64>,
    },
    /// A debug server (`debugpy --listen`, `dlv --headless`, a gdb-remote stub)
    /// listening at `host:port`.
    Server {
        /// Its host.
        host: String,
        /// Its port.
        port: u16,
    },
}
