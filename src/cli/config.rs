//! `dapvisor mcp --config FILE`: adapters added or overridden, and what redaction
//! adds, in a TOML file.
//!
//! ```toml
//! [redact]                           # the flags of the same names add to these
//! level = "strict"                   # default, strict or off (--redact overrides it)
//! names = ["ssn", "*_pin"]           # as --redact-name
//! patterns = ['ACME-\d{6}']          # as --redact-pattern
//!
//! [adapters.debugpy]                 # override a built-in: only the fields given change
//! commands = ["/opt/py/bin/python"]
//! launch_defaults = { justMyCode = false }
//!
//! [adapters.go]                      # an alias or language names the built-in (dlv)
//! args = ["dap", "--listen", "127.0.0.1:0", "--log"]
//!
//! [adapters.mydbg]                   # a new adapter: `command` (or `commands`) required
//! command = "/usr/local/bin/mydbg"
//! args = ["--dap"]
//! transport = "stdio"                # or "tcp_listen", "tcp_connect" with host and port,
//!                                    # or "connect_back" (args name "{port}", "{token}")
//! extensions = ["my"]
//! languages = ["mylang"]
//! install_hint = "build mydbg from source"
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::registry::{AdapterDef, AdapterRegistry, TransportKind};

/// The file's shape.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// Adapters by name.
    #[serde(default)]
    pub adapters: BTreeMap<String, AdapterEntry>,
    /// What redaction adds.
    #[serde(default)]
    pub redact: RedactSection,
}

/// The `[redact]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedactSection {
    /// `default`, `strict` or `off`.
    pub level: Option<String>,
    /// Names whose values are hidden, as `--redact-name` takes them.
    #[serde(default)]
    pub names: Vec<String>,
    /// Regular expressions whose matches are hidden, as `--redact-pattern` takes them.
    #[serde(default)]
    pub patterns: Vec<String>,
}

/// One adapter's fields; absent ones keep the built-in's (or the generic default).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdapterEntry {
    /// The executable (shorthand for a one-element `commands`).
    pub command: Option<String>,
    /// Executable candidates, tried in order.
    pub commands: Option<Vec<String>>,
    /// Arguments it is started with.
    pub args: Option<Vec<String>>,
    /// `stdio`, `tcp_listen` or `tcp_connect`.
    pub transport: Option<String>,
    /// With `tcp_connect`: the host.
    pub host: Option<String>,
    /// With `tcp_connect`: the port.
    pub port: Option<u16>,
    /// Program extensions it serves, without the dot (`""` for binaries).
    pub extensions: Option<Vec<String>>,
    /// Languages it debugs.
    pub languages: Option<Vec<String>>,
    /// Launch arguments every launch starts from.
    pub launch_defaults: Option<toml::Table>,
    /// How to install it.
    pub install_hint: Option<String>,
    /// The `adapterID` sent in `initialize`.
    pub adapter_id: Option<String>,
}

/// Read the config file at `path`.
pub fn read(path: &Path) -> Result<ConfigFile, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the config file {}: {e}", path.display()))?;
    toml::from_str(&text)
        .map_err(|e| format!("the config file {} is not valid: {e}", path.display()))
}

/// Read `path` and apply its adapters to `registry`.
pub fn apply_file(path: &Path, registry: &mut AdapterRegistry) -> Result<(), String> {
    let file = read(path)?;
    for (name, entry) in file.adapters {
        let def = adapter(&name, entry, registry)
            .map_err(|e| format!("{}: adapter `{name}`: {e}", path.display()))?;
        registry.register(def);
    }
    Ok(())
}

fn adapter(
    name: &str,
    entry: AdapterEntry,
    registry: &AdapterRegistry,
) -> Result<AdapterDef, String> {
    let commands = match (entry.command, entry.commands) {
        (Some(_), Some(_)) => return Err("give `command` or `commands`, not both".into()),
        (Some(c), None) => Some(vec![c]),
        (None, list) => list,
    };
    // A table named by an adapter's name, alias or language (`python`, `delve`, `go`)
    // changes that adapter; only a name the registry does not know adds one.
    let existing = registry.get(name).cloned();
    let mut def = match (existing, &commands) {
        (Some(def), _) => def,
        (None, Some(list)) if !list.is_empty() => AdapterDef::generic(name, list[0].clone()),
        (None, _) => {
            return Err("a new adapter needs `command` (the executable to start)".into());
        }
    };
    if let Some(list) = commands {
        def.commands = list;
    }
    if let Some(args) = entry.args {
        def.args = args;
    }
    if let Some(kind) = entry.transport.as_deref() {
        def.transport = match kind {
            "stdio" => TransportKind::Stdio,
            "tcp_listen" => TransportKind::TcpListen,
            "connect_back" => TransportKind::ConnectBack,
            "tcp_connect" => TransportKind::TcpConnect {
                host: entry.host.unwrap_or_else(|| "127.0.0.1".into()),
                port: entry.port.ok_or("`tcp_connect` needs `port`")?,
            },
            other => {
                return Err(format!(
                "unknown transport `{other}`; use stdio, tcp_listen, connect_back or tcp_connect"
            ))
            }
        };
    }
    if let Some(extensions) = entry.extensions {
        def.extensions = extensions
            .into_iter()
            .map(|e| e.trim_start_matches('.').to_ascii_lowercase())
            .collect();
    }
    if let Some(languages) = entry.languages {
        def.languages = languages;
    }
    if let Some(defaults) = entry.launch_defaults {
        // Key by key: overriding `justMyCode` keeps a built-in's `console` and the rest.
        let value = serde_json::to_value(defaults).map_err(|e| e.to_string())?;
        if let Value::Object(map) = value {
            def.launch_defaults.extend(map);
        }
    }
    if let Some(hint) = entry.install_hint {
        def.install_hint = hint;
    }
    if let Some(id) = entry.adapter_id {
        def.adapter_id = id;
    }
    Ok(def)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_new_adapters_and_overrides_fields_of_builtins() {
        let dir = std::env::temp_dir().join(format!("dapvisor-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("adapters.toml");
        std::fs::write(
            &path,
            r#"
            [adapters.debugpy]
            launch_defaults = { justMyCode = false }

            [adapters.mydbg]
            command = "/usr/local/bin/mydbg"
            args = ["--dap"]
            transport = "tcp_listen"
            extensions = [".My"]
            "#,
        )
        .unwrap();
        let mut registry = AdapterRegistry::builtin();
        apply_file(&path, &mut registry).unwrap();
        let debugpy = registry.get("debugpy").unwrap();
        assert_eq!(debugpy.launch_defaults["justMyCode"], Value::Bool(false));
        assert!(debugpy.serves_extension("py"), "other fields are kept");
        let mine = registry.get("mydbg").unwrap();
        assert_eq!(mine.commands, vec!["/usr/local/bin/mydbg".to_string()]);
        assert_eq!(mine.transport, TransportKind::TcpListen);
        assert!(mine.serves_extension("my"));

        // An alias (or a language) names the built-in: no new adapter, no `command`.
        let before = registry.names().len();
        std::fs::write(
            &path,
            "[adapters.python]\nlaunch_defaults = { subProcess = false }\n\n\
             [adapters.delve]\nargs = [\"dap\", \"--log\"]\n",
        )
        .unwrap();
        apply_file(&path, &mut registry).unwrap();
        assert_eq!(registry.names().len(), before, "{:?}", registry.names());
        let debugpy = registry.get("debugpy").unwrap();
        assert_eq!(debugpy.launch_defaults["subProcess"], Value::Bool(false));
        assert_eq!(
            debugpy.launch_defaults["justMyCode"],
            Value::Bool(false),
            "kept"
        );
        assert_eq!(
            debugpy.launch_defaults["console"], "internalConsole",
            "kept"
        );
        assert_eq!(registry.get("dlv").unwrap().args, ["dap", "--log"]);

        std::fs::write(&path, "[adapters.nocommand]\nargs = []\n").unwrap();
        let err = apply_file(&path, &mut registry).unwrap_err();
        assert!(err.contains("needs `command`"), "{err}");
        std::fs::write(&path, "[adapters.x]\ncommand = \"x\"\ncolour = 1\n").unwrap();
        assert!(apply_file(&path, &mut registry)
            .unwrap_err()
            .contains("colour"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
