//! What an adapter is: how to find it, how to talk to it, and what it is for.
//!
//! An [`AdapterDef`] is data: the registry holds them, selects one for a program, and
//! resolves it into a [`ResolvedAdapter`] (an executable that exists and works). The
//! launch and attach arguments are written in `arguments.rs`, each flavor's way as its
//! row in the crate's quirks table spells them.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use crate::quirks::AdapterFlavor;

/// How the runtime exchanges DAP messages with an adapter.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum TransportKind {
    /// DAP over the adapter's stdin and stdout.
    Stdio,
    /// The adapter listens on a port it picks itself (its arguments ask for port 0) and
    /// prints a banner naming `host:port` on stdout; the runtime reads the banner (see
    /// [`parse_listen_banner`](super::parse_listen_banner)) and connects. An adapter
    /// that cannot pick its own port (JdiDapServer) is told one: each `{port}` in its
    /// arguments is replaced by a loopback port free just before it starts, and its
    /// banner, printed once it holds that port, is still what is waited for.
    TcpListen,
    /// The adapter dials in: the runtime listens on a loopback port it picked
    /// (`127.0.0.1:0`) and starts the adapter with that port in its arguments, where
    /// each `{port}` is replaced by it (CodeLLDB's `--connect {port}`, dlv's
    /// `--client-addr 127.0.0.1:{port}`), and each
    /// `{token}` by a fresh random token that the adapter must send first, as the line
    /// `Auth-Token: <token>` (CodeLLDB's `--auth-token {token}`). Nothing is reserved
    /// and released, so nothing races for the port; a connection from another user,
    /// or without the token, is refused and the listener waits on (see the
    /// transport's `connect_back.rs`).
    ConnectBack,
    /// Connect to an adapter or debug server that is already running; nothing is spawned.
    TcpConnect {
        /// Host to connect to (an IP address or `localhost`).
        host: String,
        /// Port to connect to.
        port: u16,
    },
    /// An adapter that runs as a task in this process, reached over an in-memory stream
    /// (see [`crate::RuntimeConfig::in_process_adapter`]): for tests and benchmarks that
    /// measure the runtime without an adapter's start-up.
    InProcess {
        /// The name it was registered under.
        name: String,
    },
}

/// A debug adapter the registry knows: where to find it, how to start it, which programs
/// it serves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdapterDef {
    /// Unique name, such as `debugpy`, `lldb-dap` or `dlv`.
    pub name: String,
    /// Adapter family, which decides the argument dialect and how it is found.
    pub flavor: AdapterFlavor,
    /// Languages it debugs, lowercase (`python`, `c`, `cpp`, `rust`, `go`, ...);
    /// [`AdapterRegistry::get`](super::AdapterRegistry::get) accepts these as names.
    pub languages: Vec<String>,
    /// Program extensions it serves, lowercase and without the dot. The empty string
    /// stands for files without an extension (native binaries).
    pub extensions: Vec<String>,
    /// Executable candidates, tried in order: a name looked up on `PATH`, or a path. A
    /// candidate ending in `-*` stands for every `name-N` on `PATH` (N a version such as
    /// `19` or `19.1`), highest version first. For [`AdapterFlavor::Debugpy`] these are
    /// the Python interpreters to try; for [`AdapterFlavor::JsDebug`] the node executable.
    pub commands: Vec<String>,
    /// Arguments the adapter is started with.
    pub args: Vec<String>,
    /// How DAP messages reach it.
    pub transport: TransportKind,
    /// Launch arguments every launch starts from (the spec's fields go over them).
    pub launch_defaults: Map<String, Value>,
    /// How to install it, shown when it cannot be found.
    pub install_hint: String,
    /// The `adapterID` sent in `initialize`, such as `python`, `lldb-dap` or `go`.
    pub adapter_id: String,
    /// For an adapter that dies on a command it does not know: the commands it
    /// serves. Any other is refused before it is sent (see [`ServedCommands`]).
    /// `None` (the default) for adapters that answer an unknown command with an error.
    #[serde(default)]
    pub served_commands: Option<ServedCommands>,
    /// Whether the adapter answers `variables` with the `start` and `count` it is
    /// given, so that a page of children can be asked for where it begins. An adapter
    /// that ignores them answers with every child from the first, and a page far in
    /// must then be cut from all of them. Checked by hand on the adapters here:
    /// lldb-dap 19 and dlv 1.20 page, debugpy 1.8 does not. `false` by default.
    #[serde(default)]
    pub pages_variables: bool,
}

/// The commands an adapter serves, kept for adapters that die on any other (lldb-dap 19
/// aborts with SIGABRT on a command it does not know, such as `locations`). The
/// session core refuses a command outside the list with 501 naming `reason`, before
/// anything is sent, unless the adapter advertised the command's capability (a later
/// version that adds a request says so in its capabilities).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServedCommands {
    /// The commands, by their DAP names.
    pub commands: Vec<String>,
    /// Why other commands are not sent, for the refusal.
    pub reason: String,
}

impl ServedCommands {
    /// Whether `command` is among them.
    pub fn serves(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }
}

impl AdapterDef {
    /// A [`AdapterFlavor::Generic`] stdio adapter named `name`, started as `command`
    /// with no arguments; adjust the public fields before registering it.
    pub fn generic(name: impl Into<String>, command: impl Into<String>) -> Self {
        let name = name.into();
        let command = command.into();
        Self {
            install_hint: format!(
                "put `{command}` on PATH, or register `{name}` with the path to its executable"
            ),
            adapter_id: name.clone(),
            name,
            flavor: AdapterFlavor::Generic,
            languages: Vec::new(),
            extensions: Vec::new(),
            commands: vec![command],
            args: Vec::new(),
            transport: TransportKind::Stdio,
            launch_defaults: Map::new(),
            served_commands: None,
            pages_variables: false,
        }
    }

    /// An adapter served in-process under `name` (register its connector with
    /// [`crate::RuntimeConfig::in_process_adapter`]).
    pub fn in_process(name: impl Into<String>) -> Self {
        let name = name.into();
        Self {
            transport: TransportKind::InProcess { name: name.clone() },
            commands: Vec::new(),
            install_hint: format!("register `{name}` with RuntimeConfig::in_process_adapter"),
            ..Self::generic(name, String::new())
        }
    }

    /// Whether this adapter serves programs with `extension` (lowercase, no dot; empty
    /// for files without one).
    pub fn serves_extension(&self, extension: &str) -> bool {
        self.extensions
            .iter()
            .any(|e| e.eq_ignore_ascii_case(extension))
    }
}

/// An adapter that was found and checked: the executable to run (or the address to
/// connect to) and the definition it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResolvedAdapter {
    /// The definition's name.
    pub name: String,
    /// The definition's flavor.
    pub flavor: AdapterFlavor,
    /// Absolute path of the executable to run; for debugpy the Python that has debugpy,
    /// for js-debug node. Empty for [`TransportKind::TcpConnect`], where nothing is run.
    pub program: PathBuf,
    /// Arguments to run `program` with.
    pub args: Vec<String>,
    /// How to reach the adapter once it runs.
    pub transport: TransportKind,
    /// The `adapterID` to send in `initialize`.
    pub adapter_id: String,
    /// Working directory of the adapter process; the launch's `cwd` where it has one
    /// (dlv builds a Go program from source in its own working directory).
    pub cwd: Option<PathBuf>,
    /// The file a launched program reads as its standard input, where dapvisor
    /// starts the program (`runInTerminal`) or the program inherits the adapter's
    /// (dlv): `/dev/null` when `None`. Adapters that open it themselves are told it in
    /// their launch arguments (lldb-dap's `stdio`).
    pub stdin: Option<PathBuf>,
    /// The definition it was resolved from.
    pub def: AdapterDef,
}

impl ResolvedAdapter {
    /// A resolved adapter that runs `program` with `args` over the definition's transport.
    pub(crate) fn running(def: &AdapterDef, program: PathBuf, args: Vec<String>) -> Self {
        Self {
            name: def.name.clone(),
            flavor: def.flavor,
            program,
            args,
            transport: def.transport.clone(),
            adapter_id: def.adapter_id.clone(),
            cwd: None,
            stdin: None,
            def: def.clone(),
        }
    }

    /// A resolved adapter reached at `host:port`, with nothing to run.
    pub(crate) fn connecting(def: &AdapterDef, host: String, port: u16) -> Self {
        Self {
            transport: TransportKind::TcpConnect { host, port },
            ..Self::running(def, PathBuf::new(), Vec::new())
        }
    }
}
