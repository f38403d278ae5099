//! debugpy (Python).
//! - An attach by pid injects pydevd into the process with gdb. When that fails the
//!   adapter never sends `initialized`; the line it prints, `Code injection into
//!   PID=... failed`, is the only word of why (`core/pid_injection.rs` turns it into
//!   advice).
//! - Its `uncaught` filter stops where an exception nothing handles is raised.
//!
//! (That it sends `initialized` only after `launch`, and answers `launch` only after
//! `configurationDone`, the launch handshake handles for every adapter alike.)

use super::Quirks;

pub(super) const QUIRKS: Quirks = Quirks {
    injection_failed_marker: Some("Code injection into PID="),
    uncaught_exception_filters: &["uncaught"],
    ..Quirks::NONE
};
