//! Adapters that run as tasks in this process, reached over an in-memory stream.
//!
//! For tests and benchmarks: they exercise the whole runtime (framing, the actors, the
//! session core) with no process start-up and no OS I/O, so paused tokio time works.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::io::DuplexStream;

/// Opens a connection to an in-process adapter: returns the client's end of a stream
/// whose other end a freshly started adapter task serves.
pub type InProcessConnect = Arc<dyn Fn() -> DuplexStream + Send + Sync>;

/// The in-process adapters a runtime knows, by name. Cheap to clone.
#[derive(Clone, Default)]
pub struct InProcessAdapters {
    connectors: Arc<HashMap<String, InProcessConnect>>,
}

impl std::fmt::Debug for InProcessAdapters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.connectors.keys()).finish()
    }
}

impl InProcessAdapters {
    /// Add or replace the adapter `name`.
    pub fn insert(&mut self, name: impl Into<String>, connect: InProcessConnect) {
        Arc::make_mut(&mut self.connectors).insert(name.into(), connect);
    }

    /// Connect to the adapter `name`, if there is one.
    pub fn connect(&self, name: &str) -> Option<DuplexStream> {
        self.connectors.get(name).map(|connect| connect())
    }
}
