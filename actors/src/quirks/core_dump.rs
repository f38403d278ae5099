//! How an adapter family opens a core dump, for the families that can
//! ([`Quirks::core_dump`](super::Quirks::core_dump)): which request carries it and the
//! arguments that name the program and its dump.

use std::path::Path;

use serde_json::{Map, Value};

/// The request a family opens a core dump with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoreRequest {
    /// `launch` (dlv: `mode: core`).
    Launch,
    /// `attach` (lldb-dap's `coreFile`, CodeLLDB's `target create -c`).
    Attach,
}

/// How a family opens a core dump.
#[derive(Debug, Clone, Copy)]
pub struct CoreDump {
    /// The request that opens it.
    pub request: CoreRequest,
    /// Write that request's arguments for `program` (made absolute) and its dump
    /// `core` (absolute) into the map: an error says why this dump cannot be named to
    /// the adapter.
    pub arguments: fn(&mut Map<String, Value>, &Path, &Path) -> Result<(), String>,
}

/// `path` as one argument of an lldb command, in double quotes. A path holding a
/// character lldb's command line reads specially even in quotes (a backtick runs
/// an expression; a quote or backslash ends or escapes) or a control character is
/// refused rather than escaped: only plain text goes into a command.
pub(crate) fn lldb_quoted(path: &Path) -> Result<String, String> {
    let text = path
        .to_str()
        .ok_or_else(|| format!("{} is not valid UTF-8", path.display()))?;
    let special = |c: char| matches!(c, '"' | '\\' | '`' | '\'' | '$') || c.is_control();
    if let Some(c) = text.chars().find(|c| special(*c)) {
        return Err(format!(
            "{text} holds {c:?}, which an lldb command line reads specially: rename the \
             file, or link it from a plain path"
        ));
    }
    Ok(format!("\"{text}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_path_is_quoted_and_a_special_one_refused() {
        assert_eq!(
            lldb_quoted(Path::new("/tmp/my cores/core.12")).unwrap(),
            "\"/tmp/my cores/core.12\""
        );
        for bad in ["/tmp/a`ls`", "/tmp/a\"b", "/tmp/a\\b", "/tmp/a\nb", "/tmp/$x", "/tmp/a'b"] {
            assert!(lldb_quoted(Path::new(bad)).is_err(), "{bad:?}");
        }
    }
}
