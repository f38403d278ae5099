//! Memory: disassembly, reading and writing.

use serde::{Deserialize, Serialize};

use super::Source;

/// Arguments of the `disassemble` request (`supportsDisassembleRequest`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DisassembleArguments {
    /// Memory reference to the base location of the instructions.
    pub memory_reference: String,
    /// Offset in bytes applied to the reference first; may be negative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
    /// Offset in instructions applied after the byte offset; may be negative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction_offset: Option<i64>,
    /// Number of instructions to return; the adapter pads unavailable ones with
    /// invalid-instruction entries.
    pub instruction_count: i64,
    /// Resolve addresses and values to symbol names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolve_symbols: Option<bool>,
}

/// Body of the `disassemble` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DisassembleResponseBody {
    /// The disassembled instructions.
    #[serde(default)]
    pub instructions: Vec<DisassembledInstruction>,
}

/// One disassembled instruction.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DisassembledInstruction {
    /// The instruction's address (hex if prefixed with `0x`, else decimal).
    #[serde(default)]
    pub address: String,
    /// The raw bytes of the instruction, in an adapter-defined format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction_bytes: Option<String>,
    /// The instruction and its operands as text.
    #[serde(default)]
    pub instruction: String,
    /// The symbol at this location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// The source this instruction comes from; may be left out when it is the same as
    /// the previous instruction's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Source>,
    /// The source line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<i64>,
    /// The source column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// The end line of the source range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// The end column of the source range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
    /// `normal`, or `invalid` for filler the program cannot reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presentation_hint: Option<String>,
}

/// Arguments of the `readMemory` request (`supportsReadMemoryRequest`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadMemoryArguments {
    /// Memory reference to the base location to read from.
    pub memory_reference: String,
    /// Offset in bytes applied to the reference; may be negative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
    /// Number of bytes to read.
    pub count: i64,
}

/// Body of the `readMemory` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadMemoryResponseBody {
    /// Address of the first byte returned (hex if prefixed with `0x`, else decimal).
    #[serde(default)]
    pub address: String,
    /// Number of unreadable bytes after the last byte read, to skip before reading on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreadable_bytes: Option<i64>,
    /// The bytes read, in base64. Fewer than asked for, with no `unreadable_bytes`,
    /// means the end of readable memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
}

/// Arguments of the `writeMemory` request (`supportsWriteMemoryRequest`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteMemoryArguments {
    /// Memory reference to the base location to write to.
    pub memory_reference: String,
    /// Offset in bytes applied to the reference; may be negative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
    /// Write as much as possible and report it, instead of failing when part of the
    /// range is not writable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_partial: Option<bool>,
    /// The bytes to write, in base64.
    pub data: String,
}

/// Body of the `writeMemory` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteMemoryResponseBody {
    /// With `allow_partial`: offset of the first byte written; may be negative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
    /// With `allow_partial`: number of bytes written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_written: Option<i64>,
}
