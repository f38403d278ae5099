//! lldb-dap (formerly lldb-vscode), from LLVM.
//! - Its `repl` context answers with lldb's command output (`(int) $0 = 85`), and runs
//!   lldb commands: an evaluation that names no context gets `watch`, which answers
//!   with the plain value. An agent can still ask for `repl`.
//! - lldb-dap 19 and older read a disassembly's `instructionOffset` as bytes and
//!   ignore `offset` ([`reads_instruction_offset_as_bytes`]).
//! - lldb has only throw and catch exception filters (a C++ throw may well be
//!   caught): none is set by default.

use super::Quirks;
use crate::wire::types::Capabilities;

pub(super) const QUIRKS: Quirks = Quirks {
    plain_evaluate_context: "watch",
    ..Quirks::NONE
};

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
