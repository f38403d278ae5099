//! The Python that has debugpy, debugpy's Nagle delay, and a scratch folder for
//! generated programs (see [`super::token`]).

use std::path::{Path, PathBuf};

/// The interpreter with debugpy: `$DAPVISOR_PYTHON`, else the project's `.venv`
/// (where `scripts/provision` installs debugpy), else `python3`.
pub fn python() -> PathBuf {
    if let Some(path) = std::env::var_os("DAPVISOR_PYTHON") {
        return PathBuf::from(path);
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    if venv.exists() {
        venv
    } else {
        PathBuf::from("python3")
    }
}

/// An expression that, evaluated in a debuggee stopped under debugpy, sets
/// `TCP_NODELAY` on pydevd's socket to the adapter. debugpy 1.8 writes each message's
/// header and body in two `sendall`s on that socket
/// (`_pydevd_bundle/pydevd_net_command.py`, `NetCommand.send`), so without it
/// Nagle's algorithm holds every body until the adapter's delayed ACK: ~44 ms per
/// request that reaches the debuggee.
pub const PYDEVD_NODELAY: &str = "__import__('pydevd').get_global_debugger().writer.sock\
    .setsockopt(__import__('socket').IPPROTO_TCP, __import__('socket').TCP_NODELAY, 1)";

/// A scratch folder for this process's generated programs.
pub fn scratch_dir(label: &str) -> PathBuf {
    std::env::temp_dir().join(format!("dapvisor-{label}-{}", std::process::id()))
}
