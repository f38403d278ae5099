//! CodeLLDB (C, C++, Rust, on LLDB).
//! - CodeLLDB 1.11 reports a stop made by an exception filter (`cpp_throw`,
//!   `rust_panic`) as a `breakpoint` stop that hits a breakpoint it set for the
//!   filter, which is none of the session's: the core reads it as an exception stop.
//! - `rust_panic` stops a Rust program where it panics, so it is set by default.
//! - Its dialect: it loads the toolchain's Rust formatters only when told the program
//!   is Rust (`sourceLanguages`); then a `Vec<String>` reads `size=2`, an `Option`
//!   `Some(15)`, with dapvisor's corrections to them (`preRunCommands`, see
//!   `rust_formatters_fix.rs`). CodeLLDB 1.11 reads no `coreFile`: a core dump is an `attach` whose
//!   target is created by `target create -c CORE PROGRAM` and whose process is the
//!   dump's (no `processCreateCommands`). An attach names its `type` and `request`,
//!   and attaches by pid, or to a gdb-remote server (`lldb-server gdbserver`) by
//!   running `gdb-remote HOST:PORT` as its `processCreateCommands`. Path mappings are
//!   its `sourceMap`, an object from the debug info's folder to the local one.

use std::path::Path;

use serde_json::{json, Map, Value};

use super::core_dump::lldb_quoted;
use super::dialect::path_value;
use super::dialect::{is_rust_program, stdio_with_stdin, AttachDraft, Dialect, LaunchDraft};
use super::{CoreDump, CoreRequest, Quirks};

pub(super) const QUIRKS: Quirks = Quirks {
    exception_stops_look_like_breakpoints: true,
    uncaught_exception_filters: &["rust_panic"],
    dialect: Dialect {
        launch,
        attach,
        ..Dialect::PLAIN
    },
    launch_timeout: crate::limits::NATIVE_LAUNCH_TIMEOUT,
    core_dump: Some(CoreDump {
        request: CoreRequest::Attach,
        arguments: core_arguments,
    }),
    // CodeLLDB runs on lldb too (it says only `Process exited with code -1.`).
    target_lost_exit_code: Some(super::lldb_dap::LLDB_LOST_CONNECTION),
    port_attach_needs_program: Some(
        "CodeLLDB attaches to a gdb-remote server only with the program's binary, which it \
         reads symbols from (it answers `Either \"program\" or \"pid\" is required`): pass \
         `program`, the binary the server runs or a copy of it here",
    ),
    ..Quirks::NONE
};

/// The program's stdin is the launch's file, or empty (see [`stdio_with_stdin`]).
fn launch(draft: &mut LaunchDraft<'_>) {
    let stdio = stdio_with_stdin(draft.spec);
    draft.put("stdio", stdio);
    if is_rust_program(draft.spec) {
        draft.put("sourceLanguages", json!(["rust"]));
        // The toolchain's formatters it loads misread enums too: corrected as on lldb-dap.
        draft.put(
            "preRunCommands",
            json!(super::rust_formatters_fix::commands()),
        );
    }
}

fn attach(draft: &mut AttachDraft<'_>) {
    draft.put("type", json!("lldb"));
    draft.put("request", json!("attach"));
    if let Some(port) = draft.spec.port {
        // CodeLLDB has no key for a gdb-remote server: the attach runs lldb's own
        // command instead of attaching by pid (its `processCreateCommands`).
        let command = format!("gdb-remote {}:{port}", draft.host);
        draft.put("processCreateCommands", json!([command]));
    } else if let Some(pid) = draft.spec.pid {
        draft.put("pid", json!(pid));
    }
    let mappings = &draft.spec.path_mappings;
    if !mappings.is_empty() {
        // CodeLLDB's `sourceMap` is an object: the debug info's folder to the local one.
        let pairs: serde_json::Map<_, _> = mappings
            .iter()
            .map(|m| (m.remote.display().to_string(), path_value(&m.local)))
            .collect();
        draft.put("sourceMap", serde_json::Value::Object(pairs));
    }
}

/// A core dump: an `attach` that creates the target from the dump and the program,
/// and attaches to nothing more.
fn core_arguments(out: &mut Map<String, Value>, program: &Path, core: &Path) -> Result<(), String> {
    let create = format!(
        "target create -c {} {}",
        lldb_quoted(core)?,
        lldb_quoted(program)?
    );
    out.insert("type".into(), json!("lldb"));
    out.insert("request".into(), json!("attach"));
    out.insert("targetCreateCommands".into(), json!([create]));
    out.insert("processCreateCommands".into(), json!([]));
    Ok(())
}
