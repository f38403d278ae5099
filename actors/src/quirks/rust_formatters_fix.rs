//! dapvisor's corrections to the Rust toolchain's LLDB formatters, loaded into lldb-dap
//! right after them (`rust_formatters_fix.py`, ours).
//!
//! Why: lldb names a Rust enum's variants by their discriminant cut to 32 bits, and the
//! toolchain's enum provider matches the discriminant read from memory against those
//! names. An enum whose niche is a String's or Vec's capacity (`enum Shape {
//! Named(String), Empty }`) has discriminants of 2^63 and up, so `Empty` was read as a
//! `Named` String of garbage length: its summary failed (a Python traceback in the
//! output), and the fallback summary then walked its trillions of characters, keeping
//! lldb busy for minutes and the request past its timeout. A moved String or hash map
//! did the same from stale memory, and a hash map asked for more children than it
//! found raised `IndexError`.
//!
//! How: the script is handed to lldb inline (hex, so no character of it is taken for
//! lldb's own syntax) into a module of its own, and its providers are registered in a
//! category of ours, enabled after the toolchain's `Rust` and so consulted first. On
//! lldb-dap each command carries its `?` prefix: it is neither echoed into the output
//! nor reported unless it fails (CodeLLDB knows no prefix, and fails a launch on a
//! command it does not know).

/// The script, as lldb runs it.
const FIX_SCRIPT: &str = include_str!("rust_formatters_fix.py");

/// The module the script becomes inside lldb's Python.
const MODULE: &str = "dapvisor_rust";

/// The formatter category the corrections live in.
const CATEGORY: &str = "dapvisor-rust";

/// lldb-dap's `initCommands` that load the corrections quietly, after the toolchain's
/// formatters.
pub(crate) fn lldb_dap_commands() -> Vec<String> {
    commands().into_iter().map(|c| format!("?{c}")).collect()
}

/// The lldb commands that load the corrections, after the toolchain's formatters
/// (whose module the hash map correction wraps).
pub(crate) fn commands() -> Vec<String> {
    let load = format!(
        "script import sys, types; {MODULE} = sys.modules.setdefault(\"{MODULE}\", \
         types.ModuleType(\"{MODULE}\")); exec(bytes.fromhex(\"{}\").decode(), \
         {MODULE}.__dict__)",
        hex(FIX_SCRIPT)
    );
    let mut commands = vec![load];
    commands.extend(
        [
            format!("type synthetic add -l {MODULE}.EnumProvider --recognizer-function {MODULE}.is_enum"),
            format!("type summary add -F {MODULE}.enum_summary -e -h --recognizer-function {MODULE}.is_enum"),
            format!("type summary add -F {MODULE}.string_summary -e -h -x \"{STRING}\""),
            format!("type synthetic add -l {MODULE}.CountedProvider -x \"{HASH_MAP}\""),
            format!("type synthetic add -l {MODULE}.CountedProvider -x \"{HASH_SET}\""),
        ]
        .into_iter()
        .map(|command| format!("{command} --category {CATEGORY}")),
    );
    commands.push(format!("type category enable {CATEGORY}"));
    commands
}

/// `alloc::string::String`, as the toolchain's own formatters name it.
const STRING: &str = "^(alloc::([a-z_]+::)+)String$";
/// `std::collections::hash::map::HashMap<...>`.
const HASH_MAP: &str = "^(std::collections::([a-z_]+::)+)HashMap<.+>$";
/// `std::collections::hash::set::HashSet<...>`.
const HASH_SET: &str = "^(std::collections::([a-z_]+::)+)HashSet<.+>$";

/// Lowercase hex of `text`'s bytes.
fn hex(text: &str) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(text.len() * 2);
    for byte in text.bytes() {
        out.push(DIGITS[usize::from(byte >> 4)] as char);
        out.push(DIGITS[usize::from(byte & 0xf)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_spells_every_byte_in_two_digits() {
        assert_eq!(hex("a\n\"é"), "610a22c3a9");
    }

    #[test]
    fn the_script_is_loaded_first_and_every_command_is_ours() {
        let commands = commands();
        assert!(
            commands[0].contains(&hex(FIX_SCRIPT)),
            "{}",
            &commands[0][..80]
        );
        assert_eq!(
            commands.last().unwrap(),
            "type category enable dapvisor-rust"
        );
        for command in &commands[1..commands.len() - 1] {
            assert!(command.ends_with(" --category dapvisor-rust"), "{command}");
        }
    }

    #[test]
    fn lldb_dap_runs_each_quietly() {
        let quiet = lldb_dap_commands();
        assert_eq!(quiet.len(), commands().len());
        for (quiet, plain) in quiet.iter().zip(commands()) {
            assert_eq!(*quiet, format!("?{plain}"));
        }
    }
}
