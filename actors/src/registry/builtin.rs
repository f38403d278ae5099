//! The eight built-in adapters, in preference order: where several serve one extension
//! (C: lldb-dap, gdb, CodeLLDB), the earlier one is chosen first.

use serde_json::{json, Map, Value};

use super::definition::{AdapterDef, AdapterFlavor, ServedCommands, TransportKind};
use crate::wire::DapCommand;
/// The DAP requests, short, for the lists of the requests an adapter serves.
use crate::wire::DapCommand as C;

/// The built-in adapter definitions, in preference order: debugpy, lldb-dap, dlv, gdb,
/// codelldb, js-debug, rdbg, java.
pub fn builtin_adapters() -> Vec<AdapterDef> {
    vec![
        debugpy(),
        lldb_dap(),
        dlv(),
        gdb(),
        codelldb(),
        js_debug(),
        rdbg(),
        java(),
    ]
}

/// Other names the built-ins answer to: `(alias, adapter name)`.
pub(crate) const BUILTIN_ALIASES: &[(&str, &str)] = &[
    ("python", "debugpy"),
    ("py", "debugpy"),
    ("lldb", "lldb-dap"),
    ("lldb-vscode", "lldb-dap"),
    ("delve", "dlv"),
    ("go", "dlv"),
    ("gdb-dap", "gdb"),
    ("lldb-codelldb", "codelldb"),
    ("node", "js-debug"),
    ("pwa-node", "js-debug"),
    ("javascript", "js-debug"),
    ("typescript", "js-debug"),
    ("ruby", "rdbg"),
    ("rb", "rdbg"),
    ("debug", "rdbg"),
    ("jdi", "java"),
    ("jdk", "java"),
];

/// Extensions of native programs' sources and binaries; "" is a file without extension.
const NATIVE: &[&str] = &["c", "cc", "cpp", "cxx", "c++", "h", "hpp", "rs", "out", ""];

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The names of the DAP requests `dap` and of the adapter's own requests `own`.
fn served(dap: &[DapCommand], own: &[&str]) -> Vec<String> {
    let dap = dap.iter().map(|c| c.name().to_string());
    dap.chain(own.iter().map(|c| c.to_string())).collect()
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn debugpy() -> AdapterDef {
    AdapterDef {
        name: "debugpy".into(),
        flavor: AdapterFlavor::Debugpy,
        languages: strings(&["python"]),
        extensions: strings(&["py", "pyw"]),
        // The interpreters tried last, after DAPVISOR_PYTHON and the venvs (see resolve.rs).
        commands: strings(&["python3", "python"]),
        args: strings(&["-m", "debugpy.adapter"]),
        transport: TransportKind::Stdio,
        launch_defaults: object(json!({
            "type": "python",
            "request": "launch",
            "console": "internalConsole",
            "justMyCode": false,
            "redirectOutput": true,
            // `sys.exit(N)` is how a program ends, not a crash: with the `uncaught` filter
            // on, pydevd would stop at a non-zero SystemExit. An empty list of exit codes
            // to break on stops at none (a non-numeric code still stops).
            "breakOnSystemExit": [],
        })),
        install_hint: "Run `dapvisor adapters install debugpy` (it makes a virtual \
                       environment with debugpy that dapvisor finds by itself), or install \
                       debugpy into a Python 3 (`python3 -m pip install debugpy`, inside a \
                       virtual environment on Debian), or set DAPVISOR_PYTHON to a Python \
                       that has it"
            .into(),
        adapter_id: "python".into(),
        served_commands: None,
        pages_variables: false,
    }
}

fn lldb_dap() -> AdapterDef {
    let mut extensions = strings(NATIVE);
    extensions.extend(strings(&["hh", "swift", "m", "mm", "zig"]));
    AdapterDef {
        name: "lldb-dap".into(),
        flavor: AdapterFlavor::LldbDap,
        languages: strings(&["c", "cpp", "rust", "swift", "objective-c", "zig"]),
        extensions,
        commands: strings(&["lldb-dap", "lldb-dap-*", "lldb-vscode", "lldb-vscode-*"]),
        args: Vec::new(),
        transport: TransportKind::Stdio,
        launch_defaults: Map::new(),
        install_hint: "lldb-dap ships with LLDB: `apt-get install lldb-22` on Debian 12 \
                       (it installs lldb-dap-22), or install your platform's LLVM/LLDB \
                       package and put lldb-dap (lldb-vscode before LLVM 18) on PATH. \
                       Build programs with `-g -O0` to debug them"
            .into(),
        adapter_id: "lldb-dap".into(),
        served_commands: Some(lldb_dap_19_commands()),
        pages_variables: true,
    }
}

/// The commands lldb-dap 19 serves. Sent any other (`locations`, `goto`,
/// `readMemory`, a made-up name), it never answers, loses the requests after it, and
/// aborts ("terminate called without an active exception"): each was tried by hand
/// on lldb-dap 19.1.7 stopped in a program, and `protocol_lldb` proves the refusal.
fn lldb_dap_19_commands() -> ServedCommands {
    ServedCommands {
        commands: served(
            &[
                C::Attach,
                C::Completions,
                C::ConfigurationDone,
                C::Continue,
                C::DataBreakpointInfo,
                C::Disassemble,
                C::Disconnect,
                C::Evaluate,
                C::ExceptionInfo,
                C::Initialize,
                C::Launch,
                C::Modules,
                C::Next,
                C::Pause,
                C::Restart,
                C::Scopes,
                C::SetBreakpoints,
                C::SetDataBreakpoints,
                C::SetExceptionBreakpoints,
                C::SetFunctionBreakpoints,
                C::SetVariable,
                C::Source,
                C::StackTrace,
                C::StepIn,
                C::StepInTargets,
                C::StepOut,
                C::Threads,
                C::Variables,
            ],
            &["compileUnits"],
        ),
        reason: "lldb-dap 19 aborts on any command it does not serve, so it is not sent".into(),
    }
}

fn dlv() -> AdapterDef {
    AdapterDef {
        name: "dlv".into(),
        flavor: AdapterFlavor::Delve,
        languages: strings(&["go"]),
        extensions: strings(&["go"]),
        commands: strings(&["dlv"]),
        // dlv dials a port of ours (`--client-addr`): it accepts no connection, so its
        // check of who connects (through `/proc/net/tcp`, which races on a loaded
        // machine and then refuses its own client) never runs, and no port is raced for.
        args: strings(&["dap", "--client-addr", "127.0.0.1:{port}"]),
        transport: TransportKind::ConnectBack,
        launch_defaults: Map::new(),
        install_hint:
            "Install it with `apt-get install delve golang-go` on Debian, or install Delve with \
                       `go install` and put `dlv` on PATH"
                .into(),
        adapter_id: "go".into(),
        served_commands: None,
        pages_variables: true,
    }
}

fn gdb() -> AdapterDef {
    AdapterDef {
        name: "gdb".into(),
        flavor: AdapterFlavor::Gdb,
        languages: strings(&["c", "cpp", "rust", "fortran", "ada"]),
        extensions: {
            let mut e = strings(NATIVE);
            e.extend(strings(&["f", "f90", "adb"]));
            e
        },
        commands: strings(&["gdb"]),
        args: strings(&["-i", "dap"]),
        transport: TransportKind::Stdio,
        launch_defaults: Map::new(),
        install_hint: "gdb has a DAP mode from version 14 (Debian 12 ships 13.1, which has \
                       none): install gdb 14 or newer and put it first on PATH, or use \
                       lldb-dap instead (`apt-get install lldb-22`)"
            .into(),
        adapter_id: "gdb".into(),
        served_commands: None,
        pages_variables: false,
    }
}

/// CodeLLDB prints no port banner, so it dials back instead: the runtime listens on a
/// loopback port it picked and starts `codelldb --connect PORT --auth-token TOKEN`. Its
/// console is in `evaluate` mode, so that `evaluate` in the `repl` context evaluates an
/// expression as in every other adapter (an lldb command needs `/cmd ` or a backtick
/// in front); the program's output comes as `output` events (`terminal: console`).
fn codelldb() -> AdapterDef {
    AdapterDef {
        name: "codelldb".into(),
        flavor: AdapterFlavor::CodeLldb,
        languages: strings(&["c", "cpp", "rust"]),
        extensions: strings(NATIVE),
        commands: strings(&["codelldb"]),
        args: strings(&[
            "--connect",
            "{port}",
            "--auth-token",
            "{token}",
            "--settings",
            r#"{"consoleMode":"evaluate"}"#,
        ]),
        transport: TransportKind::ConnectBack,
        launch_defaults: object(json!({
            "type": "lldb",
            "request": "launch",
            "terminal": "console",
        })),
        install_hint: "Run `dapvisor adapters install codelldb` (it needs npm), or \
                       `dapvisor adapters install codelldb --from FILE.vsix` with a CodeLLDB \
                       release you downloaded, or put its `adapter/codelldb` on PATH"
            .into(),
        adapter_id: "lldb".into(),
        served_commands: None,
        pages_variables: false,
    }
}

/// js-debug's DAP server under node, `node <dapDebugServer.js> 0 127.0.0.1` (the
/// script is found in resolve.rs); it prints `Debug server listening at HOST:PORT`.
/// The program runs in a session js-debug asks for (see [`AdapterFlavor::JsDebug`]).
/// `integratedTerminal`: js-debug has dapvisor start the program (`runInTerminal`),
/// which gives it its stdin (js-debug's own start holds a pipe open that nothing
/// writes to, where a read waits forever) and reads all its output (`outputCapture:
/// std`: js-debug's own capture of `console.*` misses `process.stdout.write`); the
/// transport says how it ended (`Quirks::terminal_exit_line`).
fn js_debug() -> AdapterDef {
    AdapterDef {
        name: "js-debug".into(),
        flavor: AdapterFlavor::JsDebug,
        languages: strings(&["javascript", "typescript"]),
        extensions: strings(&["js", "mjs", "cjs", "ts", "mts", "cts"]),
        commands: strings(&["node", "nodejs"]),
        args: strings(&["0", "127.0.0.1"]),
        transport: TransportKind::TcpListen,
        launch_defaults: object(json!({
            "type": "pwa-node",
            "request": "launch",
            "console": "integratedTerminal",
            "outputCapture": "std",
        })),
        install_hint: "Run `dapvisor adapters install js-debug` (it needs npm), or \
                       `dapvisor adapters install js-debug --from FILE.tar.gz` with a \
                       js-debug-dap release you downloaded, or set DAPVISOR_JS_DEBUG to its \
                       `js-debug/src/dapDebugServer.js`; node must be on PATH"
            .into(),
        adapter_id: "pwa-node".into(),
        served_commands: None,
        pages_variables: false,
    }
}

/// rdbg, the `debug` gem's debugger: Ruby runs `exe/rdbg` (found in resolve.rs; it is
/// not on PATH where the gem came with Ruby, as on Debian), which runs the program with
/// a DAP server in it on a port it picks and names on stderr. Postmortem mode makes it
/// stop where an exception nothing rescued was raised, but for an `exit` (see
/// `quirks/ruby.rs`). The `-e` debug commands run at rdbg's first stop.
fn rdbg() -> AdapterDef {
    AdapterDef {
        name: "rdbg".into(),
        flavor: AdapterFlavor::Rdbg,
        languages: strings(&["ruby"]),
        extensions: strings(&["rb"]),
        commands: strings(&["ruby"]),
        args: strings(&[
            "--open",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "-e",
            "config set postmortem true",
            // An `exit` raises SystemExit, which postmortem mode would stop at: a hook
            // that runs before rdbg's own turns it off for that one.
            "-e",
            "p at_exit { DEBUGGER__::CONFIG[:postmortem] = false if $!.is_a?(SystemExit) }",
            // Ruby buffers a pipe's output until exit: written at once, what the program
            // printed is there at the stop that follows.
            "-e",
            "p $stdout.sync = true",
        ]),
        transport: TransportKind::TcpListen,
        launch_defaults: Map::new(),
        install_hint: "Install Ruby, whose `debug` gem has rdbg (`apt-get install ruby` on \
                       Debian 12), or `gem install debug`; `ruby` must be on PATH"
            .into(),
        adapter_id: "rdbg".into(),
        served_commands: Some(rdbg_commands()),
        pages_variables: false,
    }
}

/// JdiDapServer under the JDK's `java`, from the classes `dapvisor adapters install
/// java` compiled (resolve.rs puts `-cp CLASSES` first): it listens on the loopback
/// port it is told and names it on stderr. The JVM flags keep a small adapter small:
/// one GC thread's worth of collector, no optimizing compiler.
fn java() -> AdapterDef {
    AdapterDef {
        name: "java".into(),
        flavor: AdapterFlavor::Jdi,
        languages: strings(&["java"]),
        extensions: strings(&["java", "class", "jar"]),
        commands: strings(&["java"]),
        args: strings(&[
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "JdiDapServer",
            "--port",
            "{port}",
        ]),
        transport: TransportKind::TcpListen,
        launch_defaults: Map::new(),
        install_hint: "Install a JDK 17 or newer (`apt-get install openjdk-17-jdk-headless` on \
                       Debian 12), then run `dapvisor adapters install java` (it fetches the \
                       adapter's source with npm and compiles it with javac)"
            .into(),
        adapter_id: "java".into(),
        served_commands: None,
        pages_variables: false,
    }
}

/// The requests rdbg 1.4 serves (`lib/debug/server_dap.rb`). Sent any other, it raises
/// on the thread that reads its socket, which ends the program.
fn rdbg_commands() -> ServedCommands {
    ServedCommands {
        commands: served(
            &[
                C::Initialize,
                C::Launch,
                C::Attach,
                C::SetBreakpoints,
                C::SetExceptionBreakpoints,
                C::ConfigurationDone,
                C::Disconnect,
                C::Continue,
                C::Next,
                C::StepIn,
                C::StepOut,
                C::Terminate,
                C::Pause,
                C::StepBack,
                C::Threads,
                C::StackTrace,
                C::Scopes,
                C::Variables,
                C::Evaluate,
                C::Source,
                C::Completions,
            ],
            &[],
        ),
        reason: "rdbg 1.4 ends the program on a request it does not serve, so it is not sent"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_missing_debugpy_hint_names_the_installer() {
        let hint = debugpy().install_hint;
        assert!(hint.contains("dapvisor adapters install debugpy"), "{hint}");
    }
}
