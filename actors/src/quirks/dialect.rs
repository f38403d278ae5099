//! How an adapter family spells its `launch` and `attach` arguments: its dialect, the
//! few functions a family's row carries in [`Quirks::dialect`](super::Quirks::dialect).
//!
//! The registry writes the arguments in one order for every family
//! (`registry/arguments.rs`): the definition's `launch_defaults`; [`Dialect::launch`]
//! on a [`LaunchDraft`]; the spec's fields, as the draft now spells them; `spec.extra`
//! merged last, so an agent can override anything; then [`Dialect::after_extra`]. An
//! attach is the same with an [`AttachDraft`] and [`Dialect::attach`], and nothing
//! after `spec.extra`. What needs the executable found
//! ([`Dialect::launch_with_adapter`], [`Dialect::attach_with_adapter`]) and what
//! dapvisor says before the adapter does ([`Dialect::launch_notes`]) come after, and
//! last what a launch adds to the adapter's own command line ([`Dialect::adapter_args`]).
//!
//! Each function writes only where its family departs from plain DAP, which
//! [`Dialect::PLAIN`] spells.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::rust_binary::is_rust_binary;
use crate::launch::{AttachSpec, LaunchSpec};

/// A `launch` request's arguments while they are written: what a dialect may change
/// before the registry writes the spec's fields.
#[derive(Debug)]
pub struct LaunchDraft<'a> {
    /// The launch asked for.
    pub spec: &'a LaunchSpec,
    /// The arguments so far: the definition's `launch_defaults`, and what the dialect
    /// adds. The spec's fields go in after it, then `spec.extra`.
    pub out: Map<String, Value>,
    /// The program, made absolute; written as `program`.
    pub program: PathBuf,
    /// The working directory, made absolute; written as `cwd` when there is one.
    pub cwd: Option<PathBuf>,
    /// The environment, written as `env`: a `{"K": "V"}` object, or `None` (not
    /// written) when the spec sets none.
    pub env: Option<Value>,
    /// The key `spec.stop_on_entry` is written under: `stopOnEntry`.
    pub stop_key: &'static str,
}

/// An `attach` request's arguments while they are written.
#[derive(Debug)]
pub struct AttachDraft<'a> {
    /// The attach asked for: its `pid` or `port` say what to attach to (a port wins).
    pub spec: &'a AttachSpec,
    /// The host of a debug server attached to by port: the spec's, else
    /// [`DEFAULT_ATTACH_HOST`](crate::registry::DEFAULT_ATTACH_HOST).
    pub host: &'a str,
    /// The arguments so far (none at first); the program, `cwd` and `spec.extra` go in
    /// after the dialect.
    pub out: Map<String, Value>,
    /// The program, made absolute, written as `program`; a dialect that has no such key
    /// sets it to `None`.
    pub program: Option<PathBuf>,
}

/// How a family spells `launch` and `attach` arguments (see the module's doc for the
/// order the registry calls these in).
#[derive(Debug, Clone, Copy)]
pub struct Dialect {
    /// Shape a launch before the spec's fields are written: add the family's own keys,
    /// or change the draft's `cwd`, `env` or `stop_key`.
    pub launch: fn(&mut LaunchDraft<'_>),
    /// Finish a launch's arguments after `spec.extra` is merged, where a key the agent
    /// may pass changes what else is sent.
    pub after_extra: fn(&mut Map<String, Value>),
    /// Say what to attach to (the spec's `port` or `pid`) in the family's keys.
    pub attach: fn(&mut AttachDraft<'_>),
    /// Add to a launch's finished arguments what depends on the executable found (the
    /// adapter's `program`, empty when nothing is run). Blocking: it may run a probe.
    pub launch_with_adapter: fn(&mut Map<String, Value>, &Path, &LaunchSpec),
    /// Add to an attach's finished arguments what the family needs whatever is attached to.
    pub attach_with_adapter: fn(&mut Map<String, Value>),
    /// What dapvisor says in a launched session's output before the adapter does.
    pub launch_notes: fn(&LaunchSpec) -> Vec<String>,
    /// Write a launch's program onto the adapter's command line (`args`, as resolved),
    /// for an adapter that runs the program as its own process (rdbg).
    pub adapter_args: fn(&mut Vec<String>, &LaunchSpec),
}

impl Dialect {
    /// Plain DAP: a launch is the spec's fields as DAP's own clients spell them; an
    /// attach names `host` and `port`, or `processId`.
    pub const PLAIN: Dialect = Dialect {
        launch: |_| {},
        after_extra: |_| {},
        attach: plain_attach,
        launch_with_adapter: |_, _, _| {},
        attach_with_adapter: |_| {},
        launch_notes: |_| Vec::new(),
        adapter_args: |_, _| {},
    };
}

/// Attach to a port as `host` and `port`, else to `processId`.
fn plain_attach(draft: &mut AttachDraft<'_>) {
    if let Some(port) = draft.spec.port {
        draft.put("host", json!(draft.host));
        draft.put("port", json!(port));
    } else if let Some(pid) = draft.spec.pid {
        draft.put("processId", json!(pid));
    }
}

impl LaunchDraft<'_> {
    /// Set `key` in the arguments.
    pub fn put(&mut self, key: &str, value: Value) {
        self.out.insert(key.to_string(), value);
    }
}

impl AttachDraft<'_> {
    /// Set `key` in the arguments.
    pub fn put(&mut self, key: &str, value: Value) {
        self.out.insert(key.to_string(), value);
    }
}

/// Set `key` to the adapter's executable unless the arguments already name one (from
/// the definition's defaults or `spec.extra`); nothing when no executable is run.
pub(crate) fn default_to_adapter(out: &mut Map<String, Value>, key: &str, adapter: &Path) {
    if !adapter.as_os_str().is_empty() {
        out.entry(key).or_insert_with(|| path_value(adapter));
    }
}

/// Whether a launch's program is Rust: built by rustc, or said to be (`sourceLanguages`
/// naming `rust` among the spec's extra arguments, as CodeLLDB spells it).
pub(crate) fn is_rust_program(spec: &LaunchSpec) -> bool {
    let said = spec
        .extra
        .get("sourceLanguages")
        .and_then(Value::as_array)
        .is_some_and(|langs| langs.iter().any(|l| l == "rust"));
    said || is_rust_binary(&absolute(&spec.program))
}

/// The program's standard streams for an adapter that opens them itself (lldb-dap's
/// and CodeLLDB's `stdio`): stdin from the spec's file, else `/dev/null` (left to the
/// adapter it would be a terminal nothing writes to, where a read waits forever);
/// stdout and stderr the adapter's own, which it passes on as output.
pub(crate) fn stdio_with_stdin(spec: &LaunchSpec) -> Value {
    let stdin = spec
        .stdin
        .as_deref()
        .map_or_else(|| json!("/dev/null"), |file| path_value(&absolute(file)));
    json!([stdin, null, null])
}

/// `path` made absolute against the process's working directory (no file system access,
/// links are kept).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `path` as a JSON string.
pub(crate) fn path_value(path: &Path) -> Value {
    Value::String(path.to_string_lossy().into_owned())
}
