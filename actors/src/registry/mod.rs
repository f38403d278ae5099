//! The adapter registry: which debug adapters exist, which one a program needs, and
//! where its executable is.
//!
//! Selection ([`AdapterRegistry::select_for_launch`], [`AdapterRegistry::select_for_attach`])
//! is cheap and runs nothing: an explicit adapter name wins, otherwise the program's
//! extension decides, in registration order (the built-ins prefer lldb-dap, then gdb,
//! then CodeLLDB for native code). Resolution ([`AdapterRegistry::resolve`]) finds the
//! executable and checks that it works; it blocks on short probe subprocesses.

mod arguments;
pub(crate) use crate::quirks::dialect::absolute;
pub(crate) use arguments::DEFAULT_ATTACH_HOST;
mod banner;
mod builtin;
mod debugpy_probe;
mod definition;
mod detect;
mod error;
mod go_binary;
mod probe;
mod process_kind;
mod resolve;
mod select;
mod version;

pub mod install;
#[cfg(test)]
mod tests_arguments;
#[cfg(test)]
mod tests_path_mappings;
#[cfg(test)]
mod tests_registry;

use std::collections::BTreeMap;
use std::path::Path;

pub use banner::parse_listen_banner;
pub use builtin::builtin_adapters;
pub use definition::{AdapterDef, AdapterFlavor, ResolvedAdapter, ServedCommands, TransportKind};
pub use detect::{dapvisor_home, Environment, DEFAULT_PROBE_TIMEOUT};
pub use error::RegistryError;
pub use install::{
    install_codelldb, install_debugpy, install_java, install_js_debug, InstallRecord,
    InstallSource, Unpinned,
};
pub use probe::{parse_gdb_version, MIN_GDB_VERSION};
pub use version::{adapter_version, first_version};

use crate::launch::{AttachSpec, LaunchSpec};

/// The adapters a runtime can use, in preference order, with their aliases.
#[derive(Debug, Clone)]
pub struct AdapterRegistry {
    defs: Vec<AdapterDef>,
    /// Lowercase alias -> adapter name.
    aliases: BTreeMap<String, String>,
}

impl AdapterRegistry {
    /// The six built-in adapters (debugpy, lldb-dap, dlv, gdb, codelldb, js-debug) and
    /// their aliases (`python`, `lldb`, `lldb-vscode`, `delve`, `go`, `node`, ...).
    pub fn builtin() -> Self {
        let mut registry = Self::empty();
        for def in builtin_adapters() {
            registry.register(def);
        }
        for (alias, name) in builtin::BUILTIN_ALIASES {
            registry.alias(*alias, *name);
        }
        registry
    }

    /// A registry with no adapters.
    pub fn empty() -> Self {
        Self {
            defs: Vec::new(),
            aliases: BTreeMap::new(),
        }
    }

    /// Add `def`, or replace the one with its name (which keeps its place in the
    /// preference order). New adapters go last: among adapters that serve the same
    /// extension, the earlier registered is selected first.
    pub fn register(&mut self, def: AdapterDef) {
        match self
            .defs
            .iter_mut()
            .find(|d| d.name.eq_ignore_ascii_case(&def.name))
        {
            Some(slot) => *slot = def,
            None => self.defs.push(def),
        }
    }

    /// Let `alias` stand for the adapter named `name` in [`get`](Self::get) and in specs.
    pub fn alias(&mut self, alias: impl Into<String>, name: impl Into<String>) {
        self.aliases
            .insert(alias.into().to_ascii_lowercase(), name.into());
    }

    /// The adapter called `name` (case-insensitive): by its name, else an alias (such as
    /// `lldb-vscode`, `delve`, `python`, `node`), else the first adapter for that
    /// language (such as `rust` or `c`).
    pub fn get(&self, name: &str) -> Option<&AdapterDef> {
        let key = name.trim().to_ascii_lowercase();
        self.by_name(&key)
            .or_else(|| {
                self.aliases
                    .get(&key)
                    .and_then(|target| self.by_name(target))
            })
            .or_else(|| {
                self.defs
                    .iter()
                    .find(|d| d.languages.iter().any(|l| l.eq_ignore_ascii_case(&key)))
            })
    }

    /// Every adapter, in preference order.
    pub fn list(&self) -> impl Iterator<Item = &AdapterDef> {
        self.defs.iter()
    }

    /// The adapters' names, in preference order.
    pub fn names(&self) -> Vec<String> {
        self.defs.iter().map(|d| d.name.clone()).collect()
    }

    /// The adapter for a launch: `spec.adapter` if given, else the first one serving the
    /// program (see [`candidates_for_launch`](Self::candidates_for_launch)). Runs nothing.
    pub fn select_for_launch(&self, spec: &LaunchSpec) -> Result<&AdapterDef, RegistryError> {
        Ok(self.candidates_for_launch(spec)?[0])
    }

    /// Every adapter that could run `spec`, most preferred first: only the named one when
    /// `spec.adapter` is given, else those serving the program. A folder holding Go code
    /// counts as `.go`; an extensionless file as a native binary (unless its `#!` line
    /// names python or node); so does a file whose unknown extension hides an ELF or
    /// Mach-O binary. Reads at most a folder listing and a file's first bytes.
    pub fn candidates_for_launch(
        &self,
        spec: &LaunchSpec,
    ) -> Result<Vec<&AdapterDef>, RegistryError> {
        match &spec.adapter {
            Some(name) => Ok(vec![self.named(name)?]),
            None => self.serving(&spec.program),
        }
    }

    /// The adapter for an attach: `spec.adapter` if given; else by `spec.program` when
    /// given (as for a launch); else debugpy when a `port` is given (a debug server);
    /// else, for a `pid`, by what the process is (`process_kind.rs`: a Python, node,
    /// ruby or Go process gets its language's adapter), the preferred native debugger
    /// (lldb-dap) for any other.
    pub fn select_for_attach(&self, spec: &AttachSpec) -> Result<&AdapterDef, RegistryError> {
        if let Some(name) = &spec.adapter {
            return self.named(name);
        }
        if let Some(program) = &spec.program {
            return Ok(self.serving(program)?[0]);
        }
        if spec.port.is_some() {
            return self.first_of_flavor(AdapterFlavor::Debugpy, "debugpy");
        }
        if let Some(pid) = spec.pid {
            // By what the process is: an interpreter's own debugger, else the native one.
            let key = process_kind::process_key(pid).unwrap_or("");
            if let Some(def) = self.serving_key(Some(key)).first() {
                return Ok(def);
            }
            return match self.defs.iter().find(|d| d.serves_extension("")) {
                Some(def) => Ok(def),
                None => self.named("lldb-dap"),
            };
        }
        Err(RegistryError::MissingAttachTarget)
    }

    /// Find and check `def`'s executable in the process's environment (see
    /// [`resolve_in`](Self::resolve_in)). Blocks for up to a few probe timeouts: call it
    /// off async executors' worker threads (`spawn_blocking`).
    pub fn resolve(&self, def: &AdapterDef) -> Result<ResolvedAdapter, RegistryError> {
        self.resolve_in(def, &Environment::from_process())
    }

    /// Find and check `def`'s executable in `env`: the first command candidate on
    /// `env.path`; for debugpy the first Python that can import it; gdb must be 14 or
    /// newer. Blocking: it may run `python -c "import debugpy"` or `gdb --version`, each
    /// bounded by `env.probe_timeout`.
    pub fn resolve_in(
        &self,
        def: &AdapterDef,
        env: &Environment,
    ) -> Result<ResolvedAdapter, RegistryError> {
        resolve::resolve(def, env)
    }

    /// Like [`resolve`](Self::resolve), for an attach: debugpy, dlv and rdbg given a
    /// `port` are debug servers already speaking DAP, so they are connected to directly
    /// ([`TransportKind::TcpConnect`]) and need nothing installed here. An attach by pid
    /// to a family that cannot attach to a running process (rdbg) is refused
    /// ([`RegistryError::NoPidAttach`]), saying what to do instead.
    pub fn resolve_for_attach(
        &self,
        def: &AdapterDef,
        spec: &AttachSpec,
    ) -> Result<ResolvedAdapter, RegistryError> {
        self.resolve_for_attach_in(def, spec, &Environment::from_process())
    }

    /// [`resolve_for_attach`](Self::resolve_for_attach) in `env`.
    pub fn resolve_for_attach_in(
        &self,
        def: &AdapterDef,
        spec: &AttachSpec,
        env: &Environment,
    ) -> Result<ResolvedAdapter, RegistryError> {
        match spec.port {
            Some(port) if def.flavor.quirks().attach_port_speaks_dap => {
                let host = spec
                    .host
                    .clone()
                    .unwrap_or_else(|| DEFAULT_ATTACH_HOST.to_string());
                Ok(ResolvedAdapter::connecting(def, host, port))
            }
            None if spec.pid.is_some() => match def.flavor.quirks().no_pid_attach {
                Some(instead) => Err(RegistryError::NoPidAttach {
                    adapter: def.name.clone(),
                    instead: instead.to_string(),
                }),
                None => self.resolve_in(def, env),
            },
            _ => self.resolve_in(def, env),
        }
    }

    /// The first installed adapter among [`candidates_for_launch`](Self::candidates_for_launch),
    /// resolved, in the process's environment. Blocking, like [`resolve`](Self::resolve).
    pub fn select_installed_for_launch(
        &self,
        spec: &LaunchSpec,
    ) -> Result<ResolvedAdapter, RegistryError> {
        self.select_installed_for_launch_in(spec, &Environment::from_process())
    }

    /// [`select_installed_for_launch`](Self::select_installed_for_launch) in `env`. When
    /// none resolves: a single candidate's own error, else `NotInstalled` naming them all,
    /// with everything tried and every hint.
    pub fn select_installed_for_launch_in(
        &self,
        spec: &LaunchSpec,
        env: &Environment,
    ) -> Result<ResolvedAdapter, RegistryError> {
        let candidates = self.candidates_for_launch(spec)?;
        let mut errors = Vec::new();
        for def in &candidates {
            match self.resolve_in(def, env) {
                Ok(resolved) => return Ok(resolved),
                Err(err) => errors.push((def.name.clone(), err)),
            }
        }
        if errors.len() == 1 {
            return Err(errors.remove(0).1);
        }
        let (mut tried, mut hints) = (Vec::new(), Vec::new());
        for (name, err) in errors {
            match err {
                RegistryError::NotInstalled { tried: t, hint, .. } => {
                    tried.extend(t.into_iter().map(|t| format!("{name}: {t}")));
                    hints.push(format!("for {name}: {hint}"));
                }
                RegistryError::VersionTooOld {
                    found,
                    required,
                    hint,
                    ..
                } => {
                    tried.push(format!("{name}: version {found}, needs {required}"));
                    hints.push(format!("for {name}: {hint}"));
                }
                other => tried.push(format!("{name}: {other}")),
            }
        }
        let names: Vec<&str> = candidates.iter().map(|d| d.name.as_str()).collect();
        let adapter = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.concat(),
        };
        Err(RegistryError::NotInstalled {
            adapter,
            tried,
            hint: format!("Install one: {}", hints.join("; ")),
        })
    }

    fn by_name(&self, name: &str) -> Option<&AdapterDef> {
        self.defs.iter().find(|d| d.name.eq_ignore_ascii_case(name))
    }

    fn named(&self, name: &str) -> Result<&AdapterDef, RegistryError> {
        self.get(name).ok_or_else(|| RegistryError::UnknownAdapter {
            name: name.to_string(),
            known: self.names(),
        })
    }

    fn first_of_flavor(
        &self,
        flavor: AdapterFlavor,
        name: &str,
    ) -> Result<&AdapterDef, RegistryError> {
        match self.defs.iter().find(|d| d.flavor == flavor) {
            Some(def) => Ok(def),
            None => self.named(name),
        }
    }

    /// Adapters serving `program`, most preferred first; never empty when `Ok`.
    fn serving(&self, program: &Path) -> Result<Vec<&AdapterDef>, RegistryError> {
        let key = select::program_key(program);
        let mut found = self.serving_key(key.as_deref());
        // A binary named like `server-1.2` looks as if it had an extension.
        if found.is_empty()
            && key.as_deref().is_some_and(|k| !k.is_empty())
            && select::is_native_binary(program)
        {
            found = self.serving_key(Some(""));
        }
        if found.is_empty() {
            let extension = program
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            return Err(RegistryError::NoAdapterForProgram {
                program: program.to_path_buf(),
                extension,
                supported: self.supported_extensions(),
                adapters: self.names(),
            });
        }
        Ok(found)
    }

    fn serving_key(&self, key: Option<&str>) -> Vec<&AdapterDef> {
        let Some(key) = key else { return Vec::new() };
        self.defs
            .iter()
            .filter(|d| d.serves_extension(key))
            .collect()
    }

    /// The served extensions as shown in errors: `.py`, ..., and last `none` for binaries.
    fn supported_extensions(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for ext in self.defs.iter().flat_map(|d| &d.extensions) {
            let shown = format!(".{ext}");
            if !ext.is_empty() && !out.contains(&shown) {
                out.push(shown);
            }
        }
        if self.defs.iter().any(|d| d.serves_extension("")) {
            out.push("none (native binaries)".to_string());
        }
        out
    }
}
