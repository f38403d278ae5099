//! The Rust toolchain's LLDB formatters, for a Rust program under lldb-dap: without them
//! a `Vec<String>` reads `alloc::vec::Vec<alloc::string::String, ...>`, with them
//! `size=2`, an `Option` `Some(15)`, an enum `Courier{days:1}`. The toolchain ships them
//! in `$(rustc --print sysroot)/lib/rustlib/etc/` (`lldb_lookup.py` and the
//! `lldb_commands` that register it); lldb-dap loads them through `initCommands`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::host_probe::DEFAULT_PROBE_TIMEOUT;
use crate::host_probe::{run_probe, ProbeOutcome};

/// Where the formatters sit inside a sysroot.
const FORMATTERS_DIR: &str = "lib/rustlib/etc";

/// The `initCommands` that load the formatters of the toolchain `rustc` on PATH names,
/// or why there are none (said once in the session's output). Found once per process:
/// the toolchain does not change under a running dapvisor.
pub(crate) fn lldb_init_commands() -> &'static Result<Vec<String>, String> {
    static FOUND: OnceLock<Result<Vec<String>, String>> = OnceLock::new();
    FOUND.get_or_init(|| init_commands_in(&toolchain_sysroot()?))
}

/// The sysroot of the `rustc` on PATH.
fn toolchain_sysroot() -> Result<PathBuf, String> {
    match run_probe(
        Path::new("rustc"),
        &["--print", "sysroot"],
        DEFAULT_PROBE_TIMEOUT,
    ) {
        ProbeOutcome::Success(out) => Ok(PathBuf::from(out.trim())),
        failed => Err(format!(
            "no Rust toolchain found (`rustc --print sysroot`: {})",
            failed.describe(DEFAULT_PROBE_TIMEOUT)
        )),
    }
}

/// The commands that load the formatters of the toolchain at `sysroot`.
fn init_commands_in(sysroot: &Path) -> Result<Vec<String>, String> {
    let dir = sysroot.join(FORMATTERS_DIR);
    let lookup = dir.join("lldb_lookup.py");
    let commands = dir.join("lldb_commands");
    if !lookup.is_file() || !commands.is_file() {
        return Err(format!(
            "the Rust toolchain at {} has no LLDB formatters ({} and lldb_commands)",
            sysroot.display(),
            lookup.display()
        ));
    }
    let mut init = vec![
        format!("command script import \"{}\"", lookup.display()),
        // -s 1 (silent run): lldb does not echo each of the file's hundred commands
        // into the console.
        format!("command source -s 1 \"{}\"", commands.display()),
    ];
    // Their enums, Strings and hash maps corrected (see rust_formatters_fix.rs).
    init.extend(super::rust_formatters_fix::lldb_dap_commands());
    Ok(init)
}

/// The line a Rust session's output starts with when the formatters are missing.
pub(crate) fn missing_note(why: &str) -> String {
    format!(
        "dapvisor: {why}; Rust values show as lldb's raw types (install a Rust toolchain, \
         or debug with CodeLLDB)\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sysroot_with_the_formatters_gives_the_commands_that_load_them() {
        let sysroot = std::env::temp_dir().join(format!("dapvisor-sysroot-{}", std::process::id()));
        let etc = sysroot.join(FORMATTERS_DIR);
        std::fs::create_dir_all(&etc).unwrap();
        let err = init_commands_in(&sysroot).unwrap_err();
        assert!(err.contains("has no LLDB formatters"), "{err}");

        std::fs::write(etc.join("lldb_lookup.py"), "").unwrap();
        std::fs::write(etc.join("lldb_commands"), "").unwrap();
        let commands = init_commands_in(&sysroot).unwrap();
        assert_eq!(
            commands[..2],
            [
                format!("command script import \"{}/lldb_lookup.py\"", etc.display()),
                format!("command source -s 1 \"{}/lldb_commands\"", etc.display()),
            ]
        );
        assert_eq!(
            commands[2..],
            super::super::rust_formatters_fix::lldb_dap_commands()
        );
        std::fs::remove_dir_all(&sysroot).unwrap();
    }

    #[test]
    fn the_toolchain_that_builds_dapvisor_has_them() {
        let found = lldb_init_commands().as_ref().unwrap();
        assert!(found[0].contains("lldb_lookup.py"), "{found:?}");
    }
}
