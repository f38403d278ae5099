//! Turning an adapter-neutral [`LaunchSpec`] / [`AttachSpec`] into the `launch` /
//! `attach` arguments each adapter understands, in one order for every family.
//!
//! Order: the definition's `launch_defaults`, then the spec's fields in the adapter's
//! dialect, then `spec.extra` merged last (key by key, replacing whole values), so an
//! agent can always override what the registry chose. How each family spells things
//! (its [`Dialect`](crate::quirks::Dialect)) is in its row of the crate's quirks table; nothing here names a
//! family.

use serde_json::{json, Map, Value};

use super::definition::{AdapterDef, ResolvedAdapter};
use crate::launch::{AttachSpec, LaunchSpec};
use crate::quirks::dialect::{absolute, path_value, AttachDraft, LaunchDraft};

/// Host used for attach by port when the spec names none.
pub(crate) const DEFAULT_ATTACH_HOST: &str = "127.0.0.1";

impl AdapterDef {
    /// The `launch` arguments for `spec` in this adapter's dialect.
    ///
    /// Relative `program` and `cwd` are made absolute against the process's working
    /// directory, so every adapter reads them the same way. Prefer
    /// [`ResolvedAdapter::launch_arguments`], which adds what depends on the executable
    /// found (such as the interpreter a program runs under).
    pub fn launch_arguments(&self, spec: &LaunchSpec) -> Map<String, Value> {
        let dialect = self.flavor.quirks().dialect;
        let mut draft = LaunchDraft {
            spec,
            out: self.launch_defaults.clone(),
            program: absolute(&spec.program),
            cwd: spec.cwd.as_deref().map(absolute),
            env: (!spec.env.is_empty()).then(|| json!(spec.env)),
            stop_key: "stopOnEntry",
        };
        (dialect.launch)(&mut draft);
        let LaunchDraft {
            mut out,
            program,
            cwd,
            env,
            stop_key,
            ..
        } = draft;
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
        (dialect.after_extra)(&mut out);
        out
    }

    /// The `attach` arguments for `spec` in this adapter's dialect.
    ///
    /// A `port` means a debug server to attach to and wins over `pid` when both are
    /// given: debugpy and dlv are then reached over TCP directly (see
    /// [`AdapterRegistry::resolve_for_attach`](super::AdapterRegistry::resolve_for_attach)),
    /// lldb-dap and gdb connect to a gdb-remote server, js-debug to a Node inspector port.
    pub fn attach_arguments(&self, spec: &AttachSpec) -> Map<String, Value> {
        let mut draft = AttachDraft {
            spec,
            host: spec.host.as_deref().unwrap_or(DEFAULT_ATTACH_HOST),
            out: Map::new(),
            program: spec.program.as_deref().map(absolute),
        };
        (self.flavor.quirks().dialect.attach)(&mut draft);
        let AttachDraft {
            mut out, program, ..
        } = draft;
        if let Some(program) = &program {
            out.insert("program".into(), path_value(program));
        }
        if let Some(cwd) = &spec.cwd {
            out.insert("cwd".into(), path_value(&absolute(cwd)));
        }
        merge(&mut out, &spec.extra);
        out
    }
}

impl ResolvedAdapter {
    /// The definition's launch arguments plus what depends on the resolved executable,
    /// as the family's dialect says: debugpy gets `python` (the interpreter that has
    /// debugpy, so the program runs under it) and js-debug `runtimeExecutable` (the node
    /// found), unless the definition's defaults or `spec.extra` name one; lldb-dap gets
    /// its `initCommands` first (for a Rust program, loading the toolchain's Rust
    /// formatters: see [`Self::launch_notes`] for when there are none). Blocking: it may
    /// run `rustc --print sysroot` once per process.
    pub fn launch_arguments(&self, spec: &LaunchSpec) -> Map<String, Value> {
        let mut out = self.def.launch_arguments(spec);
        (self.flavor.quirks().dialect.launch_with_adapter)(&mut out, &self.program, spec);
        out
    }

    /// What dapvisor says in the session's output before the adapter does: for a Rust
    /// program under lldb-dap with no toolchain formatters to load, that its values show
    /// raw, and why.
    pub fn launch_notes(&self, spec: &LaunchSpec) -> Vec<String> {
        (self.flavor.quirks().dialect.launch_notes)(spec)
    }

    /// Put what a launch of `spec` adds to the adapter's own command line into its
    /// arguments: the program, its arguments and its environment, for an adapter that
    /// runs the program as its own process (rdbg); nothing for any other.
    pub fn prepare_for_launch(&mut self, spec: &LaunchSpec) {
        (self.flavor.quirks().dialect.adapter_args)(&mut self.args, spec);
    }

    /// The definition's attach arguments (see [`AdapterDef::attach_arguments`]) plus
    /// what the adapter needs whatever is attached to (lldb-dap is kept off the network
    /// as for a launch).
    pub fn attach_arguments(&self, spec: &AttachSpec) -> Map<String, Value> {
        let mut out = self.def.attach_arguments(spec);
        (self.flavor.quirks().dialect.attach_with_adapter)(&mut out);
        out
    }
}

/// `extra`'s keys into `into`, each replacing the whole value there.
fn merge(into: &mut Map<String, Value>, extra: &Map<String, Value>) {
    for (key, value) in extra {
        into.insert(key.clone(), value.clone());
    }
}
