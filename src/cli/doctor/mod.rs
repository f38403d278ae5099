//! `dapvisor doctor`: whether this machine can do dapvisor's main job, each thing
//! checked with the fix when it does not hold. Exits 0 when nothing failed, 1 when
//! something the main job needs does not hold; warnings (core dumps, an adapter you do
//! not need) do not change the exit code. `--json` prints the report for scripts.
//!
//! Each group of checks is a file: a pure check over what was read (so a failing
//! input can be fed to it in a test) and a thin reader.
//!
//! - `adapters.rs`: every adapter found, its version, started and asked `initialize`;
//! - `ptrace.rs`: Yama's `ptrace_scope`, `CAP_SYS_PTRACE`, a container;
//! - `cores.rs`: `ulimit -c` and `core_pattern`;
//! - `home.rs`: dapvisor's home folder, its owner and permissions;
//! - `token.rs`: the HTTP token file's mode, owner and token;
//! - `http.rs`: with `--http ADDR`, whether ADDR can be listened on;
//! - `report.rs`: the checks, printed, and the exit code.

pub mod adapters;
pub mod cores;
pub mod home;
pub mod http;
pub mod ptrace;
pub mod report;
pub mod token;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use crate::registry::{dapvisor_home, AdapterDef, AdapterFlavor, AdapterRegistry};
use report::{Check, Report};

/// How long each adapter may take to start and answer `initialize`, and each probe
/// that finds one or asks its version: 20 s (an adapter on a loaded machine starts in
/// a few). Set with `--timeout`, 1 to [`MAX_ADAPTER_TIMEOUT`] seconds.
pub const DEFAULT_ADAPTER_TIMEOUT: Duration = Duration::from_secs(20);

/// The longest `--timeout` taken: 300 s.
pub const MAX_ADAPTER_TIMEOUT: Duration = Duration::from_secs(300);

/// Flags of `dapvisor doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// An adapter you debug with (name, alias or language; repeatable): only these are
    /// checked, and each must work. Default: every adapter, each needed but gdb
    /// (whose DAP mode is unproven) unless --config names it.
    #[arg(long = "adapter", value_name = "NAME")]
    pub adapters: Vec<String>,
    /// Check that `dapvisor mcp --http ADDR` could listen at ADDR.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// The token file to check, as `dapvisor mcp --token-file` takes it [default:
    /// mcp-token in dapvisor's home].
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Adapters added or overridden in a TOML file, as `dapvisor mcp --config` takes.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Seconds each adapter may take to start and answer `initialize` [default: 20,
    /// at most 300].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=300))]
    pub timeout: Option<u64>,
}

/// Run every check, print the report, exit 0 when nothing failed and 1 otherwise.
pub async fn run(args: DoctorArgs) -> ExitCode {
    let report = examine(&args).await;
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_text());
    }
    ExitCode::from(report.exit_code())
}

/// Every check, in the order printed.
pub async fn examine(args: &DoctorArgs) -> Report {
    let timeout = args
        .timeout
        .map_or(DEFAULT_ADAPTER_TIMEOUT, Duration::from_secs)
        .min(MAX_ADAPTER_TIMEOUT);
    let mut checks = Vec::new();
    let mut registry = AdapterRegistry::builtin();
    // The adapters the config file adds or changes: it names them, so they count.
    let mut configured: Vec<String> = Vec::new();
    if let Some(path) = &args.config {
        let before = registry.clone();
        match super::config::apply_file(path, &mut registry) {
            Ok(()) => {
                configured = registry
                    .list()
                    .filter(|def| before.get(&def.name) != Some(*def))
                    .map(|def| def.name.clone())
                    .collect();
                checks.push(Check::ok("config", format!("{} read", path.display())));
            }
            Err(why) => checks.push(Check::fail(
                "config",
                why,
                "fix the file: `[adapters.NAME]` tables as `dapvisor mcp --config` takes them",
            )),
        }
    }
    let (named, unknown) = named_adapters(&registry, &args.adapters);
    for name in unknown {
        checks.push(Check::fail(
            format!("adapter {name}"),
            "no adapter has this name, alias or language",
            format!("name one of: {}", registry.names().join(", ")),
        ));
    }
    // Named adapters are the only ones checked, and each is needed; by default every
    // adapter is, and each is needed but gdb (unless --config adds or changes it).
    let chosen: Vec<(AdapterDef, bool)> = registry
        .list()
        .filter_map(|def| match &named {
            Some(names) => names.contains(&def.name).then_some((def.clone(), true)),
            None => {
                let needed = def.flavor != AdapterFlavor::Gdb || configured.contains(&def.name);
                Some((def.clone(), needed))
            }
        })
        .collect();
    let launch_traces = chosen
        .iter()
        .any(|(def, needed)| *needed && traces_its_launch(def));
    let readings = adapters::read_all(&registry, chosen, timeout).await;
    checks.extend(readings.iter().map(adapters::check));
    checks.push(ptrace::check(&ptrace::read(launch_traces)));
    let cores = cores::read();
    checks.push(cores::check_limit(&cores));
    checks.push(cores::check_pattern(&cores));
    let home = dapvisor_home();
    checks.push(home::check(&home::read(&home)));
    let token_file = match &args.token_file {
        Some(file) => token::read(file, true),
        None => token::read(&home.join(super::http_token::TOKEN_FILE), false),
    };
    checks.push(token::check(&token_file));
    if let Some(addr) = &args.http {
        checks.push(http::check(&http::read(addr)));
    }
    Report { checks }
}

/// The adapters `--adapter` names, by their registry names (`None` when none is
/// named), and the names no adapter answers to.
fn named_adapters(
    registry: &AdapterRegistry,
    names: &[String],
) -> (Option<Vec<String>>, Vec<String>) {
    if names.is_empty() {
        return (None, Vec::new());
    }
    let (mut found, mut unknown) = (Vec::new(), Vec::new());
    for name in names {
        match registry.get(name) {
            Some(def) => found.push(def.name.clone()),
            None => unknown.push(name.clone()),
        }
    }
    (Some(found), unknown)
}

/// Whether the adapter traces the programs it launches (ptrace), which debugpy and
/// js-debug do not.
fn traces_its_launch(def: &AdapterDef) -> bool {
    matches!(
        def.flavor,
        AdapterFlavor::LldbDap
            | AdapterFlavor::CodeLldb
            | AdapterFlavor::Delve
            | AdapterFlavor::Gdb
    )
}
