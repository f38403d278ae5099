//! Turning a definition into a [`ResolvedAdapter`]: find its executable and check that it
//! works, each flavor its own way. Blocking (it may run short probe subprocesses).

use std::path::{Path, PathBuf};

use super::debugpy_probe::probe_debugpy;
use super::definition::{AdapterDef, AdapterFlavor, ResolvedAdapter, TransportKind};
use super::detect::{expand_candidate, find_executable, is_executable, Environment};
use super::error::RegistryError;
use super::install::{codelldb_adapter, debuggee_java, java_classes, js_debug_server};
use super::probe::{parse_gdb_version, MIN_GDB_VERSION};
use crate::host_probe::{run_probe, ProbeOutcome};
use crate::quirks::dialect::path_value;

/// Find `def`'s executable in `env` and check it.
pub(crate) fn resolve(
    def: &AdapterDef,
    env: &Environment,
) -> Result<ResolvedAdapter, RegistryError> {
    match &def.transport {
        TransportKind::TcpConnect { host, port } => {
            return Ok(ResolvedAdapter::connecting(def, host.clone(), *port));
        }
        TransportKind::InProcess { .. } => {
            return Ok(ResolvedAdapter::running(def, PathBuf::new(), Vec::new()));
        }
        TransportKind::Stdio | TransportKind::TcpListen | TransportKind::ConnectBack => {}
    }
    match def.flavor {
        AdapterFlavor::Debugpy => resolve_debugpy(def, env),
        AdapterFlavor::JsDebug => resolve_js_debug(def, env),
        AdapterFlavor::CodeLldb => resolve_codelldb(def, env),
        AdapterFlavor::Rdbg => resolve_rdbg(def, env),
        AdapterFlavor::Jdi => resolve_java(def, env),
        AdapterFlavor::Gdb => {
            let resolved = resolve_command(def, env)?;
            check_gdb(def, &resolved.program, env)?;
            Ok(resolved)
        }
        _ => resolve_command(def, env),
    }
}

/// The first command candidate that exists, run with the definition's arguments.
fn resolve_command(def: &AdapterDef, env: &Environment) -> Result<ResolvedAdapter, RegistryError> {
    let (program, tried) = first_command(def, env);
    match program {
        Some(program) => Ok(ResolvedAdapter::running(def, program, def.args.clone())),
        None => Err(not_installed(def, tried, def.install_hint.clone())),
    }
}

/// The first existing executable among `def.commands`, and what was tried on the way.
fn first_command(def: &AdapterDef, env: &Environment) -> (Option<PathBuf>, Vec<String>) {
    for candidate in &def.commands {
        if let Some(found) = expand_candidate(candidate, env).into_iter().next() {
            return (Some(found), Vec::new());
        }
    }
    (
        None,
        def.commands.iter().map(|c| describe_missing(c)).collect(),
    )
}

fn describe_missing(candidate: &str) -> String {
    match candidate.strip_suffix("-*") {
        Some(base) => format!("`{base}-<version>` (none on PATH)"),
        None if candidate.contains('/') => format!("`{candidate}` (no such executable)"),
        None => format!("`{candidate}` (not on PATH)"),
    }
}

/// debugpy runs inside a Python: the first of `DAPVISOR_PYTHON` (alone, when set), the
/// dapvisor venv, a `.venv` in the working directory or a parent, then `def.commands` on
/// `PATH`, that can import debugpy.
fn resolve_debugpy(def: &AdapterDef, env: &Environment) -> Result<ResolvedAdapter, RegistryError> {
    if let Some(python) = &env.python {
        return resolve_explicit_python(def, python, env);
    }
    let home = &env.dapvisor_home;
    let mut tried = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut try_python = |python: PathBuf, tried: &mut Vec<String>| {
        if seen.contains(&python) || !is_executable(&python) {
            return None;
        }
        seen.push(python.clone());
        match probe_debugpy(&python, env.probe_timeout) {
            ProbeOutcome::Success(_) => {
                Some(ResolvedAdapter::running(def, python, def.args.clone()))
            }
            failed => {
                let why = failed.describe(env.probe_timeout);
                tried.push(format!(
                    "`{}` (cannot import debugpy: {why})",
                    python.display()
                ));
                None
            }
        }
    };
    let own = home.join("venv/bin/python");
    if !is_executable(&own) {
        tried.push(format!("`{}` (missing)", own.display()));
    } else if let Some(found) = try_python(own, &mut tried) {
        return Ok(found);
    }
    let venvs: Vec<PathBuf> = env
        .cwd
        .ancestors()
        .map(|dir| dir.join(".venv/bin/python"))
        .collect();
    if !venvs.iter().any(|p| is_executable(p)) {
        tried.push(format!(
            "`.venv/bin/python` in {} or a parent (none)",
            env.cwd.display()
        ));
    }
    for python in venvs {
        if let Some(found) = try_python(python, &mut tried) {
            return Ok(found);
        }
    }
    for command in &def.commands {
        let found = expand_candidate(command, env);
        if found.is_empty() {
            tried.push(describe_missing(command));
        }
        for python in found {
            if let Some(found) = try_python(python, &mut tried) {
                return Ok(found);
            }
        }
    }
    let venv_hint = format!(
        "{}. For dapvisor's own venv: `python3 -m venv {h}/venv && {h}/venv/bin/python -m pip \
         install debugpy` (on Debian, `apt-get install python3-venv` first)",
        def.install_hint,
        h = home.display()
    );
    Err(not_installed(def, tried, venv_hint))
}

/// `DAPVISOR_PYTHON` was set: use it or say why not. An explicit choice that fails is
/// reported, not silently replaced by another Python.
fn resolve_explicit_python(
    def: &AdapterDef,
    python: &Path,
    env: &Environment,
) -> Result<ResolvedAdapter, RegistryError> {
    let Some(found) = find_executable(&python.to_string_lossy(), env) else {
        let tried = vec![format!(
            "DAPVISOR_PYTHON=`{}` (no such executable)",
            python.display()
        )];
        let hint = "Fix DAPVISOR_PYTHON (or unset it to search the usual places)".to_string();
        return Err(not_installed(def, tried, hint));
    };
    match probe_debugpy(&found, env.probe_timeout) {
        ProbeOutcome::Success(_) => Ok(ResolvedAdapter::running(def, found, def.args.clone())),
        failed => {
            let why = failed.describe(env.probe_timeout);
            let tried = vec![format!(
                "DAPVISOR_PYTHON=`{}` (cannot import debugpy: {why})",
                found.display()
            )];
            let hint = format!(
                "Run `{} -m pip install debugpy`, or point DAPVISOR_PYTHON at a Python that has it",
                found.display()
            );
            Err(not_installed(def, tried, hint))
        }
    }
}

/// js-debug is node running `dapDebugServer.js`: from `DAPVISOR_JS_DEBUG`, else the one
/// `dapvisor adapters install js-debug` put in the dapvisor home folder.
fn resolve_js_debug(def: &AdapterDef, env: &Environment) -> Result<ResolvedAdapter, RegistryError> {
    let (node, mut tried) = first_command(def, env);
    let script = match &env.js_debug_server {
        Some(script) => env.cwd.join(script),
        None => js_debug_server(&env.dapvisor_home),
    };
    if !script.is_file() {
        let source = if env.js_debug_server.is_some() {
            "DAPVISOR_JS_DEBUG="
        } else {
            ""
        };
        tried.push(format!("{source}`{}` (no such file)", script.display()));
    }
    match node {
        Some(node) if tried.is_empty() => {
            let mut args = vec![script.to_string_lossy().into_owned()];
            args.extend(def.args.iter().cloned());
            Ok(ResolvedAdapter::running(def, node, args))
        }
        _ => Err(not_installed(def, tried, def.install_hint.clone())),
    }
}

/// CodeLLDB: `codelldb` on PATH, else the one `dapvisor adapters install codelldb` put in
/// the dapvisor home folder.
fn resolve_codelldb(def: &AdapterDef, env: &Environment) -> Result<ResolvedAdapter, RegistryError> {
    let (program, mut tried) = first_command(def, env);
    if let Some(program) = program {
        return Ok(ResolvedAdapter::running(def, program, def.args.clone()));
    }
    let installed = codelldb_adapter(&env.dapvisor_home);
    if is_executable(&installed) {
        return Ok(ResolvedAdapter::running(def, installed, def.args.clone()));
    }
    tried.push(format!("`{}` (not installed there)", installed.display()));
    Err(not_installed(def, tried, def.install_hint.clone()))
}

/// JdiDapServer is the `java` on PATH running the classes `dapvisor adapters install
/// java` compiled into the dapvisor home folder, beside the `java` it starts programs
/// with.
fn resolve_java(def: &AdapterDef, env: &Environment) -> Result<ResolvedAdapter, RegistryError> {
    let (java, mut tried) = first_command(def, env);
    let classes = java_classes(&env.dapvisor_home);
    if !classes.join("JdiDapServer.class").is_file() {
        tried.push(format!("`{}` (not installed there)", classes.display()));
    }
    let debuggee = debuggee_java(&env.dapvisor_home);
    if !is_executable(&debuggee) {
        tried.push(format!("`{}` (not installed there)", debuggee.display()));
    }
    match java {
        Some(java) if tried.is_empty() => {
            let mut args = vec!["-cp".to_string(), classes.to_string_lossy().into_owned()];
            args.extend(def.args.iter().cloned());
            // The program runs under dapvisor's `debuggee-java` unless the launch's
            // own arguments name another `javaPath` (they are merged over these).
            let mut def = def.clone();
            def.launch_defaults
                .entry("javaPath")
                .or_insert_with(|| path_value(&debuggee));
            Ok(ResolvedAdapter::running(&def, java, args))
        }
        _ => Err(not_installed(def, tried, def.install_hint.clone())),
    }
}

/// rdbg is Ruby running the `debug` gem's `exe/rdbg`, which Ruby's gems say where to
/// find (Debian's Ruby bundles the gem without putting `rdbg` on PATH).
fn resolve_rdbg(def: &AdapterDef, env: &Environment) -> Result<ResolvedAdapter, RegistryError> {
    let (ruby, tried) = first_command(def, env);
    let Some(ruby) = ruby else {
        return Err(not_installed(def, tried, def.install_hint.clone()));
    };
    let finding = r#"print Gem.bin_path("debug", "rdbg")"#;
    match run_probe(&ruby, &["-e", finding], env.probe_timeout) {
        ProbeOutcome::Success(rdbg) if Path::new(rdbg.trim()).is_file() => {
            let mut args = vec![rdbg.trim().to_string()];
            args.extend(def.args.iter().cloned());
            Ok(ResolvedAdapter::running(def, ruby, args))
        }
        ProbeOutcome::Success(rdbg) => {
            let tried = vec![format!("`{}` (no such file)", rdbg.trim())];
            Err(not_installed(def, tried, def.install_hint.clone()))
        }
        failed => {
            let tried = vec![format!(
                "`{}` has no `debug` gem ({})",
                ruby.display(),
                failed.describe(env.probe_timeout)
            )];
            Err(not_installed(def, tried, def.install_hint.clone()))
        }
    }
}

/// gdb speaks DAP from version 14 on.
fn check_gdb(def: &AdapterDef, gdb: &Path, env: &Environment) -> Result<(), RegistryError> {
    let output = match run_probe(gdb, &["--version"], env.probe_timeout) {
        ProbeOutcome::Success(output) => output,
        failed => {
            let tried = vec![format!(
                "`{} --version` ({})",
                gdb.display(),
                failed.describe(env.probe_timeout)
            )];
            return Err(not_installed(def, tried, def.install_hint.clone()));
        }
    };
    // An unreadable version is let through: `gdb -i dap` then says for itself.
    match parse_gdb_version(&output) {
        Some(found) if found < MIN_GDB_VERSION => Err(RegistryError::VersionTooOld {
            adapter: def.name.clone(),
            found: format!("{}.{} ({})", found.0, found.1, gdb.display()),
            required: format!(">= {}", MIN_GDB_VERSION.0),
            hint: def.install_hint.clone(),
        }),
        _ => Ok(()),
    }
}

fn not_installed(def: &AdapterDef, tried: Vec<String>, hint: String) -> RegistryError {
    RegistryError::NotInstalled {
        adapter: def.name.clone(),
        tried,
        hint,
    }
}
