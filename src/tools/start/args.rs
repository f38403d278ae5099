//! The arguments of the tools that start and end sessions: `debug.launch`'s, and those
//! naming one session or none.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::tools::breakpoints::at_start::StartBreakpoint;

/// Arguments of `debug.launch`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct LaunchArgs {
    /// The program: a script (.py, .js, .mjs, .cjs, .rb), a Go source file or package
    /// folder, or a binary; with `test`, the test's file or folder.
    pub(super) program: Option<String>,
    /// One test to run instead (pytest node id, Go test, Rust test path, node:test
    /// name, `file.rb::Class#test_x`); the end says if it passed.
    pub(super) test: Option<String>,
    /// pytest, go, cargo, node or minitest, if `test` does not tell.
    pub(super) runner: Option<String>,
    /// The program's arguments.
    #[serde(default)]
    pub(super) args: Vec<String>,
    /// The working directory (default: the program's folder).
    pub(super) cwd: Option<String>,
    /// Added to the program's environment.
    #[serde(default)]
    pub(super) env: BTreeMap<String, String>,
    /// debugpy, lldb-dap, dlv, js-debug, codelldb, rdbg, java, or a language.
    pub(super) adapter: Option<String>,
    /// debugpy: run this module (-m) instead.
    pub(super) module: Option<String>,
    /// The adapter's own launch arguments, over dapvisor's.
    pub(super) launch_args: Option<serde_json::Map<String, Value>>,
    /// Stop at the program's first line.
    #[serde(default)]
    pub(super) stop_on_entry: bool,
    /// Breakpoints set before the program runs.
    #[serde(default)]
    pub(super) breakpoints: Vec<StartBreakpoint>,
    /// Exception filters to stop on (debugpy: `raised`, `uncaught`; js-debug: `all`,
    /// `uncaught`; CodeLLDB: `cpp_throw`, `rust_panic`); default uncaught, []: none.
    pub(super) filters: Option<Vec<String>>,
    /// Expressions shown at each stop (as debug.watch).
    #[serde(default)]
    pub(super) watch: Vec<String>,
    /// Record each call of these functions, arguments and return value, without stopping (debug.trace).
    #[serde(default)]
    pub(super) calls: Vec<String>,
    /// Seconds to wait for the first stop (and a slow debugger start).
    pub(super) timeout: Option<f64>,
    /// The program's stdin, as text (default: empty).
    pub(super) stdin: Option<String>,
    /// The program's stdin, as a file.
    pub(super) stdin_file: Option<String>,
    /// A core dump of `program` to open instead of running it (lldb-dap, codelldb,
    /// dlv): stopped where it died; it cannot run.
    pub(super) core: Option<String>,
}

/// Arguments naming one session.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SessionArgs {
    /// The session, as debug.launch returned it (`s1`).
    pub session_id: String,
}

/// No arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoArgs {}
