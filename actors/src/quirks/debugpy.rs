//! debugpy (Python).
//! - An attach by pid injects pydevd into the process with gdb. When that fails the
//!   adapter never sends `initialized`; the line it prints, `Code injection into
//!   PID=... failed`, is the only word of why (`core/pid_injection.rs` turns it into
//!   advice).
//! - Its `uncaught` filter stops where an exception nothing handles is raised; its
//!   `raised` filter at every exception, the library's own too, so a session with it
//!   stops only at the program's own (`debugpy_raised.rs`).
//!
//! (That it sends `initialized` only after `launch`, and answers `launch` only after
//! `configurationDone`, the launch handshake handles for every adapter alike.)
//!
//! Its dialect: a launch runs the program under the Python found (`python`), or runs
//! a `module` instead of the program. An attach to a port is to a debug server that
//! speaks DAP itself (`connect`), reached directly; by pid it injects itself. Either
//! way it names no program, debugs library code too, and does not stop at a
//! `SystemExit`. Path mappings are its `pathMappings`
//! (`localRoot`, `remoteRoot`).

use std::path::Path;

use serde_json::{json, Map, Value};

use super::debugpy_raised::raised_arguments;
use super::dialect::path_value;
use super::dialect::{default_to_adapter, AttachDraft, Dialect, LaunchDraft};
use super::Quirks;
use crate::launch::LaunchSpec;

pub(super) const QUIRKS: Quirks = Quirks {
    injection_failed_marker: Some("Code injection into PID="),
    uncaught_exception_filters: &["uncaught"],
    attach_port_speaks_dap: true,
    dialect: Dialect {
        launch,
        after_extra,
        attach,
        launch_with_adapter,
        ..Dialect::PLAIN
    },
    ..Quirks::NONE
};

/// A program given a stdin file is started by dapvisor (`runInTerminal`), which
/// gives it that file (debugpy's own start gives it `/dev/null`); its output then
/// comes through dapvisor's pipes, not debugpy's redirection (which would say it
/// twice).
fn launch(draft: &mut LaunchDraft<'_>) {
    for (key, value) in raised_arguments(&draft.spec.exception_filters) {
        draft.put(key, value);
    }
    // A call trace reads each return value in the caller's locals after a step out,
    // where pydevd shows it only when asked to.
    if !draft.spec.calls.is_empty() {
        draft.put("showReturnValue", json!(true));
    }
    if draft.spec.stdin.is_some() {
        draft.put("console", json!("integratedTerminal"));
        draft.put("redirectOutput", json!(false));
    }
}

/// debugpy runs a module (`module: pytest`) instead of a program, and refuses both; the
/// program then only chose the adapter.
fn after_extra(out: &mut Map<String, Value>) {
    if out.contains_key("module") {
        out.remove("program");
    }
}

fn attach(draft: &mut AttachDraft<'_>) {
    if let Some(port) = draft.spec.port {
        draft.put("connect", json!({"host": draft.host, "port": port}));
    } else if let Some(pid) = draft.spec.pid {
        draft.put("processId", json!(pid));
    }
    // As a launch's defaults say: the library's code is debugged too.
    draft.put("justMyCode", json!(false));
    for (key, value) in raised_arguments(&draft.spec.exception_filters) {
        draft.put(key, value);
    }
    if !draft.spec.calls.is_empty() {
        draft.put("showReturnValue", json!(true));
    }
    // As for a launch (see the debugpy definition's defaults): a SystemExit ends a
    // program; it is no exception to stop at.
    draft.put("breakOnSystemExit", json!([]));
    draft.program = None;
    let mappings = &draft.spec.path_mappings;
    if !mappings.is_empty() {
        let pairs: Vec<_> = mappings
            .iter()
            .map(
                |m| json!({"localRoot": path_value(&m.local), "remoteRoot": path_value(&m.remote)}),
            )
            .collect();
        draft.put("pathMappings", json!(pairs));
    }
}

/// The program runs under the Python that has debugpy, unless the launch names another.
fn launch_with_adapter(out: &mut Map<String, Value>, python: &Path, _spec: &LaunchSpec) {
    default_to_adapter(out, "python", python);
}
