//! lldb-dap (formerly lldb-vscode), from LLVM.
//! - Its `repl` context answers with lldb's command output (`(int) $0 = 85`), and runs
//!   lldb commands: an evaluation that names no context gets `watch`, which answers
//!   with the plain value. An agent can still ask for `repl`.
//! - lldb-dap 19 and older read a disassembly's `instructionOffset` as bytes and
//!   ignore `offset` ([`reads_instruction_offset_as_bytes`]).
//! - lldb has only throw and catch exception filters (a C++ throw may well be
//!   caught): none is set by default. A Rust program gets a function breakpoint on
//!   `rust_panic` instead, which every panic passes through.
//! - It opens a core dump on `attach` with `coreFile`; the stop comes as `entry`,
//!   its description naming the signal (`SIGSEGV: address not mapped to object`).
//! - Its dialect: `env` is a list of `K=V` strings (lldb-dap 19); an attach to a port
//!   is to a gdb-remote server (`gdb-remote-port`, such as `lldb-server gdbserver`);
//!   with neither pid nor port it attaches by the program's name. Path mappings are
//!   its `sourceMap` (pairs of the debug info's folder and the local one). Every session first keeps lldb off debuginfod
//!   ([`NO_DEBUGINFOD`]), and a Rust program's gets the toolchain's Rust formatters.

use std::path::Path;

use serde_json::{json, Map, Value};

use super::dialect::path_value;
use super::dialect::{is_rust_program, stdio_with_stdin, AttachDraft, Dialect, LaunchDraft};
use super::rust_formatters::{
    lldb_init_commands as lldb_rust_formatters, missing_note as missing_rust_formatters_note,
};
use super::{CoreDump, CoreRequest, Quirks};
use crate::launch::LaunchSpec;
use crate::wire::types::Capabilities;

pub(super) const QUIRKS: Quirks = Quirks {
    plain_evaluate_context: "watch",
    dialect: Dialect {
        launch,
        attach,
        launch_with_adapter,
        attach_with_adapter,
        launch_notes,
        ..Dialect::PLAIN
    },
    launch_timeout: crate::limits::NATIVE_LAUNCH_TIMEOUT,
    rust_panic_functions: &["rust_panic"],
    core_dump: Some(CoreDump {
        request: CoreRequest::Attach,
        arguments: core_arguments,
    }),
    target_lost_exit_code: Some(LLDB_LOST_CONNECTION),
    ..Quirks::NONE
};

/// The lldb command that keeps lldb-dap from asking debuginfod servers for the symbols
/// of every library the program loads. Debian's LLDB names one by default; without a
/// network each lookup waits out a DNS timeout (a `runInTerminal` launch, which loads
/// lldb-dap's own libraries, took 16 s instead of 1), and with one it fetches from the
/// network unasked. An `initCommands` of the caller's, run after it, can set servers.
pub(crate) const NO_DEBUGINFOD: &str =
    "settings clear plugin.symbol-locator.debuginfod.server-urls";

/// The exit status lldb gives a process whose gdb-remote server dropped the
/// connection: `Process 7 exited with status = -1 (0xffffffff) lost connection`.
pub(crate) const LLDB_LOST_CONNECTION: i64 = -1;

/// lldb-dap 19 takes the environment as a list of `K=V` strings. The program's stdin
/// is the launch's file, or empty (see [`stdio_with_stdin`]).
fn launch(draft: &mut LaunchDraft<'_>) {
    let stdio = stdio_with_stdin(draft.spec);
    draft.put("stdio", stdio);
    let env = &draft.spec.env;
    draft.env = (!env.is_empty()).then(|| {
        json!(env
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>())
    });
}

/// A port is a gdb-remote server's; else a pid.
fn attach(draft: &mut AttachDraft<'_>) {
    if let Some(port) = draft.spec.port {
        draft.put("gdb-remote-port", json!(port));
        draft.put("gdb-remote-hostname", json!(draft.host));
        // A gdb-remote server holds the program stopped (at its entry, or where it
        // attached). Left to itself, lldb-dap reports that stop and then resumes the
        // program on its own, so the stop is gone before it can be read: it stays,
        // and the agent sees it and continues.
        draft.put("stopOnEntry", json!(true));
    } else if let Some(pid) = draft.spec.pid {
        draft.put("pid", json!(pid));
    }
    let mappings = &draft.spec.path_mappings;
    if !mappings.is_empty() {
        // lldb's `target.source-map`: the path in the debug info, then where it is here.
        let pairs: Vec<_> = mappings
            .iter()
            .map(|m| json!([path_value(&m.remote), path_value(&m.local)]))
            .collect();
        draft.put("sourceMap", json!(pairs));
    }
}

/// A core dump is an `attach` naming `coreFile` beside the program.
fn core_arguments(out: &mut Map<String, Value>, program: &Path, core: &Path) -> Result<(), String> {
    out.insert("program".into(), path_value(program));
    out.insert("coreFile".into(), path_value(core));
    Ok(())
}

/// Keep lldb off debuginfod; for a Rust program, load the toolchain's Rust formatters
/// next (see [`launch_notes`] for when there are none). Blocking: it may run
/// `rustc --print sysroot` once per process.
fn launch_with_adapter(out: &mut Map<String, Value>, _adapter: &Path, spec: &LaunchSpec) {
    let mut first = vec![NO_DEBUGINFOD.to_string()];
    if is_rust_program(spec) {
        if let Ok(commands) = lldb_rust_formatters() {
            first.extend(commands.iter().cloned());
        }
    }
    prepend_init_commands(out, first);
}

/// Keep lldb off debuginfod, as for a launch.
fn attach_with_adapter(out: &mut Map<String, Value>) {
    prepend_init_commands(out, vec![NO_DEBUGINFOD.to_string()]);
}

/// For a Rust program with no toolchain formatters to load: that its values show raw,
/// and why.
fn launch_notes(spec: &LaunchSpec) -> Vec<String> {
    if !is_rust_program(spec) {
        return Vec::new();
    }
    match lldb_rust_formatters() {
        Ok(_) => Vec::new(),
        Err(why) => vec![missing_rust_formatters_note(why)],
    }
}

/// Put `first` before the `initCommands` already in `out` (the caller's own).
fn prepend_init_commands(out: &mut Map<String, Value>, first: Vec<String>) {
    let mut init: Vec<Value> = first.into_iter().map(Value::String).collect();
    if let Some(Value::Array(own)) = out.get("initCommands") {
        init.extend(own.iter().cloned());
    }
    out.insert("initCommands".into(), Value::Array(init));
}

/// Whether the adapter is an lldb-dap that reads `instructionOffset` as bytes and
/// ignores `offset`: 19 and older, as its version in the `__lldb` capability says.
pub(crate) fn reads_instruction_offset_as_bytes(capabilities: &Capabilities) -> bool {
    let Some(version) = capabilities
        .other
        .get("__lldb")
        .and_then(|l| l.get("version"))
        .and_then(|v| v.as_str())
    else {
        return false;
    };
    let major = version
        .split_whitespace()
        .find_map(|word| word.split('.').next()?.parse::<u32>().ok());
    major.is_some_and(|m| m <= 19)
}
