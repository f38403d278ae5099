//! What a found adapter says its version is (for `dapvisor doctor`): each family asked
//! its own way, the answer read for its first dotted number. Blocking, each probe
//! bounded by a deadline; callers on an async runtime use `spawn_blocking`.

use std::time::Duration;

use super::definition::{AdapterFlavor, ResolvedAdapter};
use crate::host_probe::{run_probe, ProbeOutcome};

/// The arguments that make `flavor`'s executable print its version, where it has
/// them. CodeLLDB has no such flag, js-debug runs under node and JdiDapServer under
/// java (whose versions are theirs): their versions are in dapvisor's install record,
/// where it installed them.
fn version_arguments(flavor: AdapterFlavor) -> Option<&'static [&'static str]> {
    match flavor {
        // The program is the Python that imports debugpy.
        AdapterFlavor::Debugpy => Some(&["-c", "import debugpy; print(debugpy.__version__)"]),
        AdapterFlavor::LldbDap | AdapterFlavor::Gdb => Some(&["--version"]),
        AdapterFlavor::Delve => Some(&["version"]),
        // The program is Ruby; the `debug` gem says its own version.
        AdapterFlavor::Rdbg => Some(&["-e", "require 'debug/version'; print DEBUGGER__::VERSION"]),
        _ => None,
    }
}

/// The version `adapter`'s executable reports (`22.1.8` for lldb-dap 22, `1.20.2` for
/// dlv), asked with a deadline of `timeout`; `None` where its family has no way to
/// ask, or it did not answer in time with a version.
pub fn adapter_version(adapter: &ResolvedAdapter, timeout: Duration) -> Option<String> {
    let args = version_arguments(adapter.flavor)?;
    if adapter.program.as_os_str().is_empty() {
        return None;
    }
    match run_probe(&adapter.program, args, timeout) {
        ProbeOutcome::Success(stdout) => first_version(&stdout),
        _ => None,
    }
}

/// The first dotted number in `text` (`13.1` in `GNU gdb (Debian 13.1-3) 13.1`,
/// `1.20.2` in `Version: 1.20.2`); a number without a dot is no version.
pub fn first_version(text: &str) -> Option<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|word| word.trim_matches('.'))
        .find(|word| word.contains('.') && word.split('.').all(|part| !part.is_empty()))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_dotted_number_is_the_version() {
        let cases = [
            (
                "lldb-dap: Debian LLVM version 22.1.8\n  Optimized build.",
                Some("22.1.8"),
            ),
            (
                "Delve Debugger\nVersion: 1.20.2\nBuild: $Id: e0c2 $",
                Some("1.20.2"),
            ),
            ("GNU gdb (Debian 13.1-3) 13.1\nCopyright", Some("13.1")),
            ("1.8.22\n", Some("1.8.22")),
            ("version 3. or 4..5", None),
            ("lldb-dap-22 has no dotted version", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(first_version(text).as_deref(), want, "{text:?}");
        }
    }

    #[test]
    fn families_without_a_version_flag_are_not_run() {
        for flavor in [
            AdapterFlavor::CodeLldb,
            AdapterFlavor::JsDebug,
            AdapterFlavor::Jdi,
            AdapterFlavor::Generic,
        ] {
            assert!(version_arguments(flavor).is_none(), "{flavor:?}");
        }
        let def = crate::registry::AdapterDef::generic("mine", "/bin/echo");
        let resolved = ResolvedAdapter::running(&def, "/bin/echo".into(), Vec::new());
        assert_eq!(adapter_version(&resolved, Duration::from_secs(5)), None);
    }
}
