//! The adapter families: the key of the quirks table, and what a registry definition
//! names to say which family an adapter belongs to.

use serde::{Deserialize, Serialize};

/// Which adapter family a definition belongs to. The registry reads it for how to find
/// the family's executable; how the family departs from plain DAP, its argument
/// dialect included, is its row in the crate's quirks table (`quirks/<family>.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum AdapterFlavor {
    /// debugpy (Python), started as `<python> -m debugpy.adapter`. Sends `initialized` only
    /// after `launch`, and answers `launch` only after `configurationDone`.
    Debugpy,
    /// lldb-dap (formerly lldb-vscode), from LLVM. Answers `launch` before `initialized`;
    /// `env` is a list of `K=V` strings.
    LldbDap,
    /// Delve (`dlv dap`), Go. TCP only, one client per server; answers `launch` before
    /// `configurationDone`.
    Delve,
    /// gdb's built-in DAP mode (`gdb -i dap`), gdb 14 or newer.
    Gdb,
    /// CodeLLDB, an LLDB-based adapter that dials the runtime back
    /// ([`crate::registry::TransportKind::ConnectBack`]). Shows Rust values as Rust once told the program
    /// is Rust (`sourceLanguages`).
    CodeLldb,
    /// js-debug (Node.js, JavaScript and TypeScript), run as a DAP server under node.
    /// The launch's own connection only bootstraps: js-debug asks for the program's
    /// session with `startDebugging` (carrying `__pendingTargetId`), which must be a new
    /// connection to the same server. The session adopts that connection as its own
    /// (see `core/bootstrap.rs`); later children (workers, subprocesses) are child
    /// sessions on the same server.
    JsDebug,
    /// rdbg, the `debug` gem's debugger (Ruby). It is no separate adapter: `rdbg --open`
    /// runs the program with a DAP server inside it, so a launch puts the program on
    /// its command line and the process's exit is the program's (see `quirks/ruby.rs`).
    Rdbg,
    /// JdiDapServer (Java), a single-file DAP server on the JDK's JDI, from the npm
    /// package js-debug and CodeLLDB come from, compiled with `javac` at install. It
    /// listens on a port it is told (it refuses to pick one) and starts the program
    /// itself through a `java` of dapvisor's (see `quirks/java.rs`).
    Jdi,
    /// Any other adapter: standard DAP arguments, no special handling.
    Generic,
}

impl AdapterFlavor {
    /// Every family, in a stable order (for tables that must cover each one).
    pub const ALL: [AdapterFlavor; 9] = [
        AdapterFlavor::Debugpy,
        AdapterFlavor::LldbDap,
        AdapterFlavor::Delve,
        AdapterFlavor::Gdb,
        AdapterFlavor::CodeLldb,
        AdapterFlavor::JsDebug,
        AdapterFlavor::Rdbg,
        AdapterFlavor::Jdi,
        AdapterFlavor::Generic,
    ];
}
