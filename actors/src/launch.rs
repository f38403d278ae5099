//! What an agent asks for when it starts a session: a launch or an attach.
//!
//! These are adapter-neutral. The adapter registry turns them into each adapter's own
//! `launch` / `attach` arguments (see `crate::registry`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::wire::types::FunctionBreakpoint;

/// Start a program under a debug adapter.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LaunchSpec {
    /// The program: a script (`.py`), a Go source file or package folder, or a binary.
    pub program: PathBuf,
    /// Arguments passed to the program.
    #[serde(default)]
    pub args: Vec<String>,
    /// Working directory of the program; the adapter's default when absent.
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// Environment variables added to the program's environment.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Adapter name (`debugpy`, `lldb-dap`, `dlv`, ...); chosen from the program's
    /// extension when absent.
    #[serde(default)]
    pub adapter: Option<String>,
    /// Stop at the program's entry point.
    #[serde(default)]
    pub stop_on_entry: bool,
    /// Breakpoints set before the program runs, so that it cannot run past them.
    #[serde(default)]
    pub breakpoints: Vec<InitialBreakpoint>,
    /// Function breakpoints set before the program runs (names as the adapter spells them,
    /// such as `main.add` for dlv).
    #[serde(default)]
    pub function_breakpoints: Vec<String>,
    /// Function breakpoints with a `condition` or `hit_condition`, set before the program
    /// runs together with [`Self::function_breakpoints`] (plain names, which come
    /// first). See [`Self::function_breakpoint_if`].
    #[serde(default)]
    pub conditional_function_breakpoints: Vec<FunctionBreakpoint>,
    /// Functions whose calls are recorded, with their arguments and return values, as
    /// trace rows (`SessionHandle::trace`), without stopping: `name`, `module.name`,
    /// `file:function`, with `*` globs (see `SessionHandle::set_calls`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<String>,
    /// Exception filter ids set before the program runs (such as `raised`, `uncaught`).
    #[serde(default)]
    pub exception_filters: Vec<String>,
    /// Adapter-specific launch arguments, merged over the ones the registry builds.
    #[serde(default)]
    pub extra: Map<String, Value>,
    /// The deadline of the launch handshake, from `initialize` to the program running
    /// (a build included, such as dlv's), and of a relaunch or restart of it; the
    /// runtime's `launch_timeout` when absent. Clamped to 5 s..30 min.
    #[serde(default)]
    pub launch_timeout: Option<Duration>,
    /// A file the program reads as its standard input, from its start (again on a
    /// restart). Without one it reads an empty input (`/dev/null`): never the
    /// terminal dapvisor runs in.
    #[serde(default)]
    pub stdin: Option<PathBuf>,
    /// A core dump of `program` to open instead of running it (post-mortem): the
    /// session is stopped where the process died, and nothing can make it run.
    /// lldb-dap, CodeLLDB and dlv open cores (see `crate::runtime::core_dump`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core: Option<PathBuf>,
}

/// Attach to a running process, or to an adapter-side debug server.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AttachSpec {
    /// Process id of a local process to attach to.
    #[serde(default)]
    pub pid: Option<u32>,
    /// Host of a debug server to attach to (with `port`), such as `debugpy --listen`.
    #[serde(default)]
    pub host: Option<String>,
    /// Port of a debug server to attach to.
    #[serde(default)]
    pub port: Option<u16>,
    /// The program's path, where the adapter wants it for symbols.
    #[serde(default)]
    pub program: Option<PathBuf>,
    /// Working directory, for adapters that resolve paths against it.
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// Adapter name; required unless it can be told from `program` or `port`.
    #[serde(default)]
    pub adapter: Option<String>,
    /// Breakpoints set before the target resumes.
    #[serde(default)]
    pub breakpoints: Vec<InitialBreakpoint>,
    /// Function breakpoints set before the target resumes.
    #[serde(default)]
    pub function_breakpoints: Vec<String>,
    /// Function breakpoints with a `condition` or `hit_condition`, set before the target
    /// resumes together with [`Self::function_breakpoints`] (which come first).
    #[serde(default)]
    pub conditional_function_breakpoints: Vec<FunctionBreakpoint>,
    /// Functions whose calls are recorded (as [`LaunchSpec::calls`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<String>,
    /// Exception filter ids set before the target resumes.
    #[serde(default)]
    pub exception_filters: Vec<String>,
    /// Adapter-specific attach arguments, merged over the ones the registry builds.
    #[serde(default)]
    pub extra: Map<String, Value>,
    /// The deadline of the attach handshake (and of a re-attach after a crash); the
    /// runtime's `launch_timeout` when absent. Clamped to 5 s..30 min.
    #[serde(default)]
    pub launch_timeout: Option<Duration>,
    /// Where the target's files are the agent's under other folders (a container, a
    /// remote host): each agent folder (`local`) and the target's (`remote`). The
    /// adapter is told them in its own words, and every path the session sends or
    /// shows is mapped (see [`crate::path_map`]); at most
    /// [`MAX_PATH_MAPPINGS`](crate::path_map::MAX_PATH_MAPPINGS).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path_mappings: Vec<crate::path_map::PathMapping>,
}

/// A source breakpoint given at launch or attach time.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct InitialBreakpoint {
    /// Source file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: i64,
    /// Only stop when this expression is true.
    #[serde(default)]
    pub condition: Option<String>,
    /// Only stop when the hit count satisfies this (adapter syntax, such as `>= 3`).
    #[serde(default)]
    pub hit_condition: Option<String>,
    /// Log this message instead of stopping (a logpoint); `{expr}` is interpolated.
    #[serde(default)]
    pub log_message: Option<String>,
    /// Record these expressions' values at each hit instead of stopping (a
    /// tracepoint; read with `SessionHandle::trace`). Not with `log_message`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collect: Vec<String>,
}

impl InitialBreakpoint {
    /// A plain breakpoint at `line` of `file` (set `condition`, `hit_condition`,
    /// `log_message` or `collect` on it for more).
    pub fn new(file: impl Into<PathBuf>, line: i64) -> Self {
        Self {
            file: file.into(),
            line,
            ..Self::default()
        }
    }
}

impl LaunchSpec {
    /// A launch of `program` with everything else at its default.
    pub fn new(program: impl Into<PathBuf>) -> Self {
        Self {
            program: program.into(),
            ..Self::default()
        }
    }

    /// Add a source breakpoint at `file:line`.
    pub fn breakpoint(mut self, file: impl Into<PathBuf>, line: i64) -> Self {
        self.breakpoints.push(InitialBreakpoint {
            file: file.into(),
            line,
            ..InitialBreakpoint::default()
        });
        self
    }

    /// Add a function breakpoint on `name` that stops only when `condition` is true
    /// and the hit count satisfies `hit_condition` (adapter syntax, such as `>= 3`);
    /// either may be `None`. DAP's function breakpoints have no log message.
    pub fn function_breakpoint_if(
        mut self,
        name: impl Into<String>,
        condition: Option<String>,
        hit_condition: Option<String>,
    ) -> Self {
        self.conditional_function_breakpoints
            .push(FunctionBreakpoint {
                name: name.into(),
                condition,
                hit_condition,
            });
        self
    }

    /// Have the program read `file` as its standard input (the `stdin` field).
    pub fn stdin(mut self, file: impl Into<PathBuf>) -> Self {
        self.stdin = Some(file.into());
        self
    }

    /// Open `file`, a core dump of the program, instead of running it (the `core`
    /// field).
    pub fn core(mut self, file: impl Into<PathBuf>) -> Self {
        self.core = Some(file.into());
        self
    }

    /// Give the launch handshake `timeout` (the `launch_timeout` field).
    pub fn launch_timeout(mut self, timeout: Duration) -> Self {
        self.launch_timeout = Some(timeout);
        self
    }

    /// Name the adapter instead of choosing it from the program's extension.
    pub fn adapter(mut self, name: impl Into<String>) -> Self {
        self.adapter = Some(name.into());
        self
    }

    /// Set the program's arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args = args.into_iter().map(Into::into).collect();
        self
    }
}

impl AttachSpec {
    /// Map the agent's folder `local` to the target's folder `remote` (the
    /// `path_mappings` field).
    pub fn map_path(mut self, local: impl Into<PathBuf>, remote: impl Into<PathBuf>) -> Self {
        self.path_mappings
            .push(crate::path_map::PathMapping::new(local, remote));
        self
    }
}
