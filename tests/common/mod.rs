//! Helpers shared by the integration tests: paths of the example programs, finding a
//! line by its text, building the C and Go programs for debugging, bounded waits, and
//! (in [`procs`]) the processes under an adapter.
#![allow(dead_code)]

pub mod procs;
#[allow(unused_imports)] // not every test looks at processes
pub use procs::*;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use dapvisor::{
    LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle, StopInfo, StopOutcome,
};

/// How long a test waits for a stop before calling it a failure. Not a performance
/// bound: real adapters on a loaded 2-core machine are slow to start.
pub const STOP_WAIT: Duration = Duration::from_secs(60);

/// How long an actor may take to stop.
pub const ACTOR_WAIT: Duration = Duration::from_secs(30);

/// A bound on any one request, wait or event an MCP client or a stress driver makes;
/// past it, something hung.
pub const ANSWER_WAIT: Duration = Duration::from_secs(120);

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// An example program's path.
pub fn program(relative: &str) -> PathBuf {
    root().join("examples/programs").join(relative)
}

/// The 1-based line of `file` that contains `needle` (which must be unique).
pub fn line_of(file: impl AsRef<Path>, needle: &str) -> i64 {
    let file = file.as_ref();
    let text = std::fs::read_to_string(file).unwrap();
    let hits: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "`{needle}` should be on exactly one line of {}",
        file.display()
    );
    hits[0] as i64
}

/// Where the tests build the example programs.
pub fn build_dir() -> PathBuf {
    let dir = root().join("target/test-programs");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `examples/programs/c/<name>.c` built with `-g -O0` into a file of this test
/// binary's own.
pub fn build_c(name: &str) -> PathBuf {
    let out = build_dir().join(format!("{name}-{}", std::process::id()));
    let status = Command::new("cc")
        .args(["-g", "-O0", "-Wall", "-o"])
        .arg(&out)
        .arg(program(&format!("c/{name}.c")))
        .status()
        .expect("cc must be installed (scripts/provision installs it)");
    assert!(status.success(), "building {name}.c failed");
    out
}

/// The Go module `examples/programs/go/<dir>` built without optimizations into a
/// file of this test binary's own.
pub fn build_go(dir: &str) -> PathBuf {
    // `-go`: a C program of the same name (ticker.c, go/ticker) must not be built
    // over by this one, nor this one over it, while another test runs it.
    let out = build_dir().join(format!("{dir}-go-{}", std::process::id()));
    let status = Command::new("go")
        .args(["build", "-gcflags=all=-N -l", "-o"])
        .arg(&out)
        .arg(".")
        .current_dir(program(&format!("go/{dir}")))
        .env("GOFLAGS", "-mod=mod")
        .status()
        .expect("go must be installed (scripts/provision installs it)");
    assert!(status.success(), "building the Go module {dir} failed");
    out
}

/// `examples/programs/cpp/<name>.cpp` built with `-g -O0` into a file of this test
/// binary's own (once per test binary and program).
pub fn build_cpp(name: &str) -> PathBuf {
    build_once(&format!("{name}-cpp"), || {
        let out = build_dir().join(format!("{name}-cpp-{}", std::process::id()));
        let status = Command::new("c++")
            .args(["-g", "-O0", "-Wall", "-o"])
            .arg(&out)
            .arg(program(&format!("cpp/{name}.cpp")))
            .status()
            .expect("c++ must be installed (scripts/provision installs g++)");
        assert!(status.success(), "building {name}.cpp failed");
        out
    })
}

/// `examples/programs/rust/<name>.rs` built with `rustc -g` into a file of this test
/// binary's own (once per test binary and program).
pub fn build_rust(name: &str) -> PathBuf {
    build_once(&format!("{name}-rs"), || {
        let out = build_dir().join(format!("{name}-rs-{}", std::process::id()));
        let status = Command::new("rustc")
            .args(["-g", "-C", "opt-level=0", "-o"])
            .arg(&out)
            .arg(program(&format!("rust/{name}.rs")))
            .status()
            .expect("rustc must be installed (it builds dapvisor itself)");
        assert!(status.success(), "building {name}.rs failed");
        out
    })
}

/// `build` run once per test binary for `key`; its output path every time.
fn build_once(key: &str, build: impl FnOnce() -> PathBuf) -> PathBuf {
    static BUILT: std::sync::Mutex<Vec<(String, PathBuf)>> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, path)) = built.iter().find(|(k, _)| k == key) {
        return path.clone();
    }
    let path = build();
    built.push((key.to_string(), path.clone()));
    path
}

/// `examples/programs/c/average.c` built with `-g -O0` (once per test binary).
pub fn c_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let out = build_dir().join(format!("average-{}", std::process::id()));
            let status = Command::new("cc")
                .args(["-g", "-O0", "-Wall", "-o"])
                .arg(&out)
                .arg(program("c/average.c"))
                .status()
                .expect("cc must be installed (scripts/provision installs it)");
            assert!(status.success(), "building average.c failed");
            out
        })
        .clone()
}

/// `examples/programs/go/inventory` built without optimizations (once per test binary).
pub fn go_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let out = build_dir().join(format!("inventory-{}", std::process::id()));
            let status = Command::new("go")
                .args(["build", "-gcflags=all=-N -l", "-o"])
                .arg(&out)
                .arg(".")
                .current_dir(program("go/inventory"))
                .env("GOFLAGS", "-mod=mod")
                .status()
                .expect("go must be installed (scripts/provision installs it)");
            assert!(status.success(), "building the Go example failed");
            out
        })
        .clone()
}

/// Wait for the first stop after `ticket`; fail the test on anything else.
pub async fn expect_stop(session: &SessionHandle, ticket: RunTicket) -> StopInfo {
    match session.wait_for_stop(ticket, STOP_WAIT).await.unwrap() {
        StopOutcome::Stopped(stop) => stop,
        other => panic!("expected a stop, got {other:?}"),
    }
}

/// Wait for the debuggee to end; returns its exit code.
pub async fn expect_exit(session: &SessionHandle, ticket: RunTicket) -> Option<i64> {
    match session.wait_for_stop(ticket, STOP_WAIT).await.unwrap() {
        StopOutcome::Terminated { exit_code } => exit_code,
        other => panic!("expected the program to end, got {other:?}"),
    }
}
/// average.c under lldb-dap, stopped at the first hit of the line holding `needle`.
pub async fn average_c_stopped_at(needle: &str) -> (Runtime, SessionHandle, i64) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("c/average.c");
    let line = line_of(&source, needle);
    let session = runtime
        .launch(LaunchSpec::new(c_binary()).breakpoint(&source, line))
        .await
        .unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    (runtime, session, line)
}

/// orders.rs (built with `rustc -g`) under `adapter`, stopped at its `let total = ...`
/// line: the runtime, the session, the source and that line. No `sourceLanguages` is
/// given: the binary is recognised as Rust.
pub async fn orders_stopped_at_total(adapter: &str) -> (Runtime, SessionHandle, PathBuf, i64) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("rust/orders.rs");
    let binary = build_rust("orders");
    let line = line_of(
        &source,
        "let total = order_total(&items, &prices, shipping)",
    );
    let session = runtime
        .launch(
            LaunchSpec::new(&binary)
                .adapter(adapter)
                .breakpoint(&source, line),
        )
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    (runtime, session, source, line)
}

/// At orders.rs's `let total = ...` line, stopped in `frame`: the locals read as Rust
/// values (the toolchain's formatters at work), not addresses or C++-looking types:
/// `coupon` `Some(15)`, the enums, the `Vec<String>`'s strings and the `HashMap`'s pairs.
pub async fn assert_orders_locals_read_as_rust(session: &SessionHandle, frame: i64) {
    let scopes = session.scopes(frame).await.unwrap();
    let locals = session
        .variables(scopes[0].variables_reference)
        .await
        .unwrap();
    let value = |name: &str| {
        locals
            .iter()
            .find(|v| v.name == name)
            .unwrap_or_else(|| panic!("no local `{name}` in {locals:#?}"))
            .clone()
    };
    assert_eq!(value("coupon").value, "Some(15)");
    assert_eq!(value("shipping").value, "Pickup");
    assert_eq!(value("express").value, "Courier{days:1}");
    let items = value("items");
    assert_eq!(items.value, "size=2");
    let elements = session.variables(items.variables_reference).await.unwrap();
    let shown: Vec<(&str, &str)> = elements
        .iter()
        .map(|v| (v.name.as_str(), v.value.as_str()))
        .take(2)
        .collect();
    assert_eq!(shown, [("[0]", "\"tea\""), ("[1]", "\"honey\"")]);
    let prices = value("prices");
    assert_eq!(prices.value, "size=2");
    let entries = session.variables(prices.variables_reference).await.unwrap();
    let mut pairs = Vec::new();
    for entry in entries.iter().filter(|e| e.variables_reference > 0) {
        let pair = session.variables(entry.variables_reference).await.unwrap();
        pairs.extend(pair.iter().map(|v| v.value.clone()));
    }
    for want in ["\"tea\"", "450", "\"honey\"", "899"] {
        assert!(pairs.iter().any(|k| k == want), "{want} in {pairs:?}");
    }
}

/// The value of local `name` in the top frame of the stopped thread.
pub async fn local(session: &SessionHandle, name: &str) -> String {
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    let scopes = session.scopes(frames[0].id).await.unwrap();
    for scope in scopes {
        if scope.variables_reference == 0 {
            continue;
        }
        let vars = session.variables(scope.variables_reference).await.unwrap();
        if let Some(v) = vars.iter().find(|v| v.name == name) {
            return v.value.clone();
        }
    }
    panic!("no local `{name}` in the top frame");
}

/// An example program under its adapter, launched to a breakpoint on a line that runs
/// once, with what is true there and at the end. Values are unique to each program.
#[derive(Debug, Clone)]
pub struct Example {
    /// Launches the program with the breakpoint set.
    pub spec: LaunchSpec,
    /// The breakpoint's line.
    pub line: i64,
    /// Part of the top frame's name at the breakpoint.
    pub function: &'static str,
    /// A local there, and its value.
    pub local: (&'static str, &'static str),
    /// Part of the debuggee's command line, to find it among the adapter's processes.
    pub debuggee: String,
    /// A line the program prints.
    pub prints: &'static str,
    /// Its exit code.
    pub exit_code: i64,
}

impl Example {
    fn new(program: PathBuf, source: PathBuf, needle: &str) -> Self {
        let line = line_of(&source, needle);
        Example {
            spec: LaunchSpec::new(&program).breakpoint(&source, line),
            line,
            function: "",
            local: ("", ""),
            debuggee: program.display().to_string(),
            prints: "",
            exit_code: 0,
        }
    }
}

/// discount.py under debugpy, stopped in `main` after the total is computed.
pub fn discount_example() -> Example {
    let file = program("python/discount.py");
    Example {
        function: "main",
        local: ("total", "5525"),
        prints: "Order total: 55.25",
        exit_code: 3,
        ..Example::new(file.clone(), file, "print(\"Order total: \"")
    }
}

/// average.c under lldb-dap, stopped on the integer division in `mean_of`.
pub fn average_example() -> Example {
    Example {
        function: "mean_of",
        local: ("sum", "426"),
        prints: "average of 5 scores: 85.00",
        exit_code: 4,
        ..Example::new(
            c_binary(),
            program("c/average.c"),
            "double mean = sum / count;",
        )
    }
}

/// cart.js under js-debug, stopped in `main` before the total is printed.
pub fn cart_example() -> Example {
    let file = program("javascript/cart.js");
    Example {
        function: "main",
        local: ("total", "5546"),
        // js-debug starts `node ./cart.js` in the program's folder.
        debuggee: "cart.js".into(),
        prints: "cart total: 55.46",
        exit_code: 6,
        ..Example::new(file.clone(), file, "console.log(`cart total:")
    }
}

/// shelf.cpp under CodeLLDB, stopped in `main` before the orders are printed.
pub fn shelf_example() -> Example {
    let mut example = Example {
        function: "main",
        local: ("total", "3"),
        prints: "ordered 3 units of 2 items",
        exit_code: 10,
        ..Example::new(
            build_cpp("shelf"),
            program("cpp/shelf.cpp"),
            "std::printf(\"ordered %d units",
        )
    };
    example.spec.adapter = Some("codelldb".into());
    example
}

/// The Go inventory under dlv, stopped in `main.main` before the summary is printed.
pub fn inventory_example() -> Example {
    Example {
        function: "main.main",
        local: ("total", "73"),
        prints: "ordered 73 units across 2 items",
        exit_code: 5,
        ..Example::new(
            go_binary(),
            program("go/inventory/main.go"),
            "fmt.Printf(\"ordered %d units",
        )
    }
}

/// The Python that runs debugpy and the tests' own adapters (`DAPVISOR_PYTHON`, which
/// scripts/test sets to the project's venv).
pub fn python() -> String {
    std::env::var("DAPVISOR_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// `tests/support/hostile_adapter.py`, the adapter that misbehaves on purpose.
pub fn hostile_script() -> PathBuf {
    root().join("tests/support/hostile_adapter.py")
}

/// The hostile adapter registered as `name`, with these `--fault`s (none:
/// well-behaved).
pub fn hostile_adapter(name: &str, faults: &[&str]) -> dapvisor::registry::AdapterDef {
    let mut def = dapvisor::registry::AdapterDef::generic(name, python());
    def.args = vec![hostile_script().display().to_string()];
    for fault in faults {
        def.args.extend(["--fault".to_string(), fault.to_string()]);
    }
    def
}
