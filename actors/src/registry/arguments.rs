//! Turning an adapter-neutral [`LaunchSpec`] / [`AttachSpec`] into the `launch` /
//! `attach` arguments each adapter understands.
//!
//! Order: the definition's `launch_defaults`, then the spec's fields in the adapter's
//! dialect, then `spec.extra` merged last (key by key, replacing whole values), so an
//! agent can always override what the registry chose.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::definition::{AdapterDef, AdapterFlavor, ResolvedAdapter};
use crate::launch::{AttachSpec, LaunchSpec};

/// Host used for attach by port when the spec names none.
pub(crate) const DEFAULT_ATTACH_HOST: &str = "127.0.0.1";

impl AdapterDef {
    /// The `launch` arguments for `spec` in this adapter's dialect.
    ///
    /// Relative `program` and `cwd` are made absolute against the process's working
    /// directory, so every adapter reads them the same way. For debugpy, prefer
    /// [`ResolvedAdapter::launch_arguments`], which also pins the interpreter.
    pub fn launch_arguments(&self, spec: &LaunchSpec) -> Map<String, Value> {
        let mut out = self.launch_defaults.clone();
        let program = absolute(&spec.program);
        let mut cwd = spec.cwd.as_deref().map(absolute);
        let mut stop_key = "stopOnEntry";
        let mut env = env_object(spec);
        match self.flavor {
            AdapterFlavor::Delve => {
                let from_source = has_extension(&program, "go") || program.is_dir();
                if from_source {
                    // `dlv` builds from source in the working directory: it must sit in the
                    // module, or the build fails with "go.mod file not found".
                    if cwd.is_none() {
                        let folder = if program.is_dir() {
                            Some(program.as_path())
                        } else {
                            program.parent()
                        };
                        cwd = folder.map(Path::to_path_buf);
                    }
                }
                out.insert(
                    "mode".into(),
                    json!(if from_source { "debug" } else { "exec" }),
                );
                if from_source {
                    // dlv's build output would otherwise land in the user's folder.
                    out.insert("output".into(), path_value(&build_output_path()));
                }
            }
            // lldb-dap 19 takes the environment as a list of `K=V` strings.
            AdapterFlavor::LldbDap => env = env_list(spec),
            // CodeLLDB loads the toolchain's Rust formatters only when told the program
            // is Rust; then a `Vec<String>` reads `size=2`, an `Option` `Some(15)`.
            AdapterFlavor::CodeLldb if is_rust_program(&program, spec) => {
                out.insert("sourceLanguages".into(), json!(["rust"]));
            }
            // js-debug resolves `outFiles` and source-map locations against the
            // workspace folder (without one, breakpoints in TypeScript sources never
            // bind): the working directory, else the program's own folder.
            AdapterFlavor::JsDebug => {
                let folder = cwd
                    .clone()
                    .or_else(|| program.parent().map(Path::to_path_buf));
                if let Some(folder) = folder {
                    out.insert("__workspaceFolder".into(), path_value(&folder));
                }
            }
            AdapterFlavor::Gdb => stop_key = "stopAtBeginningOfMainSubprogram",
            _ => {}
        }
        out.insert("program".into(), path_value(&program));
        out.insert("args".into(), json!(spec.args));
        if let Some(cwd) = cwd {
            out.insert("cwd".into(), path_value(&cwd));
        }
        if let Some(env) = env {
            out.insert("env".into(), env);
        }
        out.insert(stop_key.into(), json!(spec.stop_on_entry));
        merge(&mut out, &spec.extra);
        // debugpy runs a module (`module: pytest`) instead of a program, and refuses
        // both; the program then only chose the adapter.
        if self.flavor == AdapterFlavor::Debugpy && out.contains_key("module") {
            out.remove("program");
        }
        out
    }

    /// The `attach` arguments for `spec` in this adapter's dialect.
    ///
    /// A `port` means a debug server to attach to and wins over `pid` when both are
    /// given: debugpy and dlv are then reached over TCP directly (see
    /// [`AdapterRegistry::resolve_for_attach`](super::AdapterRegistry::resolve_for_attach)),
    /// lldb-dap and gdb connect to a gdb-remote server, js-debug to a Node inspector port.
    pub fn attach_arguments(&self, spec: &AttachSpec) -> Map<String, Value> {
        let host = spec.host.as_deref().unwrap_or(DEFAULT_ATTACH_HOST);
        let program = spec.program.as_deref().map(absolute);
        let mut out = Map::new();
        let mut put = |key: &str, value: Value| {
            out.insert(key.to_string(), value);
        };
        match (self.flavor, spec.port, spec.pid) {
            (AdapterFlavor::Debugpy, port, pid) => {
                if let Some(port) = port {
                    put("connect", json!({"host": host, "port": port}));
                } else if let Some(pid) = pid {
                    put("processId", json!(pid));
                }
                put("justMyCode", json!(false));
                // As for a launch (see the debugpy definition's defaults): a SystemExit
                // ends a program; it is no exception to stop at.
                put("breakOnSystemExit", json!([]));
            }
            (AdapterFlavor::LldbDap, Some(port), _) => {
                put("gdb-remote-port", json!(port));
                put("gdb-remote-hostname", json!(host));
            }
            (AdapterFlavor::LldbDap | AdapterFlavor::Gdb, None, Some(pid)) => {
                put("pid", json!(pid))
            }
            (AdapterFlavor::Gdb, Some(port), _) => put("target", json!(format!("{host}:{port}"))),
            (AdapterFlavor::Delve, Some(_), _) => put("mode", json!("remote")),
            (AdapterFlavor::Delve, None, Some(pid)) => {
                put("mode", json!("local"));
                put("processId", json!(pid));
            }
            (AdapterFlavor::CodeLldb, _, pid) => {
                put("type", json!("lldb"));
                put("request", json!("attach"));
                if let Some(pid) = pid {
                    put("pid", json!(pid));
                }
            }
            (AdapterFlavor::JsDebug, port, pid) => {
                put("type", json!("pwa-node"));
                put("request", json!("attach"));
                if let Some(port) = port {
                    put("address", json!(host));
                    put("port", json!(port));
                } else if let Some(pid) = pid {
                    // js-debug takes the process id as a string.
                    put("processId", json!(pid.to_string()));
                }
            }
            (AdapterFlavor::Generic, port, pid) => {
                if let Some(port) = port {
                    put("host", json!(host));
                    put("port", json!(port));
                } else if let Some(pid) = pid {
                    put("processId", json!(pid));
                }
            }
            // Neither pid nor port: the program (lldb-dap attaches by name) and extra decide.
            _ => {}
        }
        if self.flavor != AdapterFlavor::Debugpy {
            if let Some(program) = &program {
                put("program", path_value(program));
            }
        }
        if let Some(cwd) = &spec.cwd {
            put("cwd", path_value(&absolute(cwd)));
        }
        merge(&mut out, &spec.extra);
        out
    }
}

impl ResolvedAdapter {
    /// The definition's launch arguments plus what depends on the resolved executable:
    /// debugpy gets `python` (the interpreter that has debugpy, so the program runs
    /// under it) and js-debug `runtimeExecutable` (the node found). Values from the
    /// definition's defaults or `spec.extra` are kept.
    ///
    /// lldb-dap, for a Rust program, gets the toolchain's Rust formatters loaded first
    /// among its `initCommands` (see [`Self::launch_notes`] for when there are none).
    /// Blocking: it may run `rustc --print sysroot` once per process.
    pub fn launch_arguments(&self, spec: &LaunchSpec) -> Map<String, Value> {
        let mut out = self.def.launch_arguments(spec);
        if self.flavor == AdapterFlavor::LldbDap {
            let mut first = vec![NO_DEBUGINFOD.to_string()];
            if is_rust_program(&absolute(&spec.program), spec) {
                if let Ok(commands) = super::rust_formatters::lldb_init_commands() {
                    first.extend(commands.iter().cloned());
                }
            }
            prepend_init_commands(&mut out, first);
        }
        let key = match self.flavor {
            AdapterFlavor::Debugpy => "python",
            AdapterFlavor::JsDebug => "runtimeExecutable",
            _ => return out,
        };
        if !self.program.as_os_str().is_empty() {
            out.entry(key).or_insert_with(|| path_value(&self.program));
        }
        out
    }

    /// What dapvisor says in the session's output before the adapter does: for a Rust
    /// program under lldb-dap with no toolchain formatters to load, that its values show
    /// raw, and why.
    pub fn launch_notes(&self, spec: &LaunchSpec) -> Vec<String> {
        if self.flavor != AdapterFlavor::LldbDap || !is_rust_program(&absolute(&spec.program), spec)
        {
            return Vec::new();
        }
        match super::rust_formatters::lldb_init_commands() {
            Ok(_) => Vec::new(),
            Err(why) => vec![super::rust_formatters::missing_note(why)],
        }
    }

    /// The definition's attach arguments (see [`AdapterDef::attach_arguments`]); lldb-dap
    /// is kept off the network as for a launch.
    pub fn attach_arguments(&self, spec: &AttachSpec) -> Map<String, Value> {
        let mut out = self.def.attach_arguments(spec);
        if self.flavor == AdapterFlavor::LldbDap {
            prepend_init_commands(&mut out, vec![NO_DEBUGINFOD.to_string()]);
        }
        out
    }
}

/// `path` made absolute against the process's working directory (no file system access,
/// links are kept).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The lldb command that keeps lldb-dap from asking debuginfod servers for the symbols
/// of every library the program loads. Debian's LLDB names one by default; without a
/// network each lookup waits out a DNS timeout (a `runInTerminal` launch, which loads
/// lldb-dap's own libraries, took 16 s instead of 1), and with one it fetches from the
/// network unasked. An `initCommands` of the caller's, run after it, can set servers.
const NO_DEBUGINFOD: &str = "settings clear plugin.symbol-locator.debuginfod.server-urls";

/// Put `first` before the `initCommands` already in `out` (the caller's own).
fn prepend_init_commands(out: &mut Map<String, Value>, first: Vec<String>) {
    let mut init: Vec<Value> = first.into_iter().map(Value::String).collect();
    if let Some(Value::Array(own)) = out.get("initCommands") {
        init.extend(own.iter().cloned());
    }
    out.insert("initCommands".into(), Value::Array(init));
}

/// Whether the program is Rust: built by rustc, or said to be (`sourceLanguages`
/// naming `rust` among the spec's extra arguments, as CodeLLDB spells it).
fn is_rust_program(program: &Path, spec: &LaunchSpec) -> bool {
    let said = spec
        .extra
        .get("sourceLanguages")
        .and_then(Value::as_array)
        .is_some_and(|langs| langs.iter().any(|l| l == "rust"));
    said || super::rust_binary::is_rust_binary(program)
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

fn path_value(path: &Path) -> Value {
    Value::String(path.to_string_lossy().into_owned())
}

fn env_object(spec: &LaunchSpec) -> Option<Value> {
    (!spec.env.is_empty()).then(|| json!(spec.env))
}

fn env_list(spec: &LaunchSpec) -> Option<Value> {
    (!spec.env.is_empty()).then(|| {
        json!(spec
            .env
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>())
    })
}

fn merge(into: &mut Map<String, Value>, extra: &Map<String, Value>) {
    for (key, value) in extra {
        into.insert(key.clone(), value.clone());
    }
}

/// A fresh path in the temp folder for a binary dlv builds from source.
fn build_output_path() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("dapvisor-dlv-{}-{n}", std::process::id()))
}
