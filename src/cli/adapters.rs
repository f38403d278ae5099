//! `dapvisor adapters`: the built-in adapters, whether each is installed here, and how
//! to install the missing ones; `dapvisor adapters install debugpy` provisions debugpy
//! into dapvisor's own virtual environment.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde_json::{json, Value};

use crate::registry::{install_debugpy, AdapterRegistry};

/// Flags of `dapvisor adapters`.
#[derive(Debug, Args)]
pub struct AdaptersArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// What to do (default: list).
    #[command(subcommand)]
    pub action: Option<AdaptersAction>,
}

/// What `dapvisor adapters` can do besides listing.
#[derive(Debug, Subcommand)]
pub enum AdaptersAction {
    /// Install an adapter dapvisor can provision itself (debugpy).
    Install {
        /// The adapter: debugpy.
        name: String,
    },
}

/// Run it.
pub async fn run(args: AdaptersArgs) -> ExitCode {
    match args.action {
        None => list(args.json).await,
        Some(AdaptersAction::Install { name }) => install(&name).await,
    }
}

async fn list(as_json: bool) -> ExitCode {
    // Probing runs interpreters (`python -c "import debugpy"`): off the async threads.
    let found = tokio::task::spawn_blocking(|| {
        let registry = AdapterRegistry::builtin();
        registry
            .list()
            .map(|def| {
                let (installed, at) = match registry.resolve(def) {
                    Ok(resolved) => (true, resolved.program.display().to_string()),
                    Err(err) => (false, err.to_string()),
                };
                json!({
                    "name": def.name,
                    "languages": def.languages,
                    "extensions": def.extensions,
                    "installed": installed,
                    "path": if installed { json!(at) } else { Value::Null },
                    "problem": if installed { Value::Null } else { json!(at) },
                    "install": def.install_hint,
                })
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    if as_json {
        println!("{}", json!({ "adapters": found }));
        return ExitCode::SUCCESS;
    }
    for a in &found {
        let name = a["name"].as_str().unwrap_or("");
        let langs: Vec<&str> = a["languages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        if a["installed"] == json!(true) {
            println!(
                "{name:<10} installed  {}  ({})",
                a["path"].as_str().unwrap_or(""),
                langs.join(", ")
            );
        } else {
            println!("{name:<10} missing    ({})", langs.join(", "));
            println!(
                "           install: {}",
                a["install"].as_str().unwrap_or("")
            );
        }
    }
    ExitCode::SUCCESS
}

async fn install(name: &str) -> ExitCode {
    let registry = AdapterRegistry::builtin();
    let is_debugpy = registry.get(name).is_some_and(|d| d.name == "debugpy");
    if !is_debugpy {
        let how = registry
            .get(name)
            .map(|d| format!("install it yourself: {}", d.install_hint))
            .unwrap_or_else(|| format!("known adapters: {}", registry.names().join(", ")));
        eprintln!("dapvisor: only debugpy can be installed by dapvisor; for `{name}`, {how}");
        return ExitCode::from(2);
    }
    println!("installing debugpy into dapvisor's virtual environment...");
    match tokio::task::spawn_blocking(install_debugpy).await {
        Ok(Ok(python)) => {
            println!("debugpy is installed for {}", python.display());
            ExitCode::SUCCESS
        }
        Ok(Err(e)) => {
            eprintln!("dapvisor: {e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("dapvisor: the installer stopped: {e}");
            ExitCode::FAILURE
        }
    }
}
