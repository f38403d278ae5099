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

/// Writes a core dump's request arguments for a program and its dump (both
/// absolute); an error says why this dump cannot be named to the adapter.
pub type CoreArguments = fn(&mut Map<String, Value>, &Path, &Path) -> Result<(), String>;

/// How a family opens a core dump.
#[derive(Debug, Clone, Copy)]
pub struct CoreDump {
    /// The request that opens it.
    pub request: CoreRequest,
    /// Write that request's arguments for the program and its dump into the map.
    pub arguments: CoreArguments,
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
    use crate::quirks::AdapterFlavor;
    use serde_json::json;

    fn opened(flavor: AdapterFlavor, core: &str) -> (CoreRequest, Result<Value, String>) {
        let opens = flavor.core_dump().expect("opens cores");
        let mut out = Map::new();
        let written = (opens.arguments)(&mut out, Path::new("/p/crash"), Path::new(core));
        (opens.request, written.map(|()| Value::Object(out)))
    }

    #[test]
    fn each_family_that_opens_a_core_names_it_in_its_own_request() {
        let (request, args) = opened(AdapterFlavor::LldbDap, "/c/core");
        assert_eq!(request, CoreRequest::Attach);
        assert_eq!(
            args.unwrap(),
            json!({ "program": "/p/crash", "coreFile": "/c/core" })
        );
        let (request, args) = opened(AdapterFlavor::CodeLldb, "/c/core 1");
        assert_eq!(request, CoreRequest::Attach);
        assert_eq!(
            args.unwrap(),
            json!({ "type": "lldb", "request": "attach",
                    "targetCreateCommands": ["target create -c \"/c/core 1\" \"/p/crash\""],
                    "processCreateCommands": [] })
        );
        assert!(opened(AdapterFlavor::CodeLldb, "/c/`rm`").1.is_err());
        let (request, args) = opened(AdapterFlavor::Delve, "/c/core");
        assert_eq!(request, CoreRequest::Launch);
        assert_eq!(
            args.unwrap(),
            json!({ "mode": "core", "program": "/p/crash", "coreFilePath": "/c/core",
                    "stopOnEntry": true })
        );
        for flavor in [
            AdapterFlavor::Debugpy,
            AdapterFlavor::JsDebug,
            AdapterFlavor::Gdb,
            AdapterFlavor::Rdbg,
            AdapterFlavor::Jdi,
            AdapterFlavor::Generic,
        ] {
            assert!(!flavor.opens_core_dumps(), "{flavor:?}");
        }
    }

    #[test]
    fn a_plain_path_is_quoted_and_a_special_one_refused() {
        assert_eq!(
            lldb_quoted(Path::new("/tmp/my cores/core.12")).unwrap(),
            "\"/tmp/my cores/core.12\""
        );
        for bad in [
            "/tmp/a`ls`",
            "/tmp/a\"b",
            "/tmp/a\\b",
            "/tmp/a\nb",
            "/tmp/$x",
            "/tmp/a'b",
        ] {
            assert!(lldb_quoted(Path::new(bad)).is_err(), "{bad:?}");
        }
    }
}
