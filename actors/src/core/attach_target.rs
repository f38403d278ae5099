//! What an attach reached, kept in its plan so that a restart after a crash can tell
//! whether there is still something to attach to (see `session/reattach.rs`).

/// The process or debug server an attach reached.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
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

impl std::fmt::Display for AttachTarget {
    /// `pid 1234`, or `127.0.0.1:5678`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttachTarget::Process { pid, .. } => write!(f, "pid {pid}"),
            AttachTarget::Server { host, port } => write!(f, "{host}:{port}"),
        }
    }
}
