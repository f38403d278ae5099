//! Turning a launch or an attach into a plan the session starts from: paths made
//! absolute, the adapter chosen and checked installed (off the async threads: it may
//! run the adapter's interpreter), and its arguments.

use std::path::{Path, PathBuf};

use crate::core::command::StartPlan;
use crate::core::state::Operation;
use crate::error::SessionError;
use crate::launch::{AttachSpec, InitialBreakpoint, LaunchSpec};
use crate::registry::{RegistryError, ResolvedAdapter};
use crate::runtime::Runtime;

impl Runtime {
    /// Resolve a launch into a plan: the adapter (checked installed; this may run the
    /// adapter's interpreter once, off the async threads) and its launch arguments.
    /// A spec with `core` opens that core dump instead (`core_dump.rs`).
    pub async fn plan_launch(&self, mut spec: LaunchSpec) -> Result<StartPlan, SessionError> {
        if spec.core.is_some() {
            return self.plan_core(spec).await;
        }
        spec.program = absolute(&spec.program);
        if let Some(cwd) = &spec.cwd {
            spec.cwd = Some(absolute(cwd));
        }
        absolutize(&mut spec.breakpoints);
        if let Some(stdin) = spec.stdin.as_deref().filter(|f| !f.exists()) {
            return Err(SessionError::InvalidArgument(format!(
                "the program's stdin file {} does not exist",
                stdin.display()
            )));
        }
        if !spec.program.exists() {
            return Err(SessionError::InvalidArgument(format!(
                "the program {} does not exist",
                spec.program.display()
            )));
        }
        if let Some(language) = crate::SourceLanguage::of(&spec.program) {
            // No adapter runs a source file (lldb-dap answers "Expected process to be
            // stopped"): say how to build it.
            let binary = spec.program.with_extension("");
            return Err(SessionError::InvalidArgument(format!(
                "{} is a source file: build it first (`{}`) and launch the binary, or \
                 launch it through dapvisor's tools (`dapvisor debug`, debug.launch), \
                 which build it",
                spec.program.display(),
                language.build_command(&spec.program, &binary).join(" ")
            )));
        }
        let registry = self.inner.config.registry.clone();
        let probe = spec.clone();
        // Finding the adapter and its arguments may run probes (an interpreter, rustc):
        // off the async threads.
        let (mut adapter, arguments, notes) = tokio::task::spawn_blocking(move || {
            let mut adapter = registry.select_installed_for_launch(&probe)?;
            adapter.prepare_for_launch(&probe);
            let arguments = adapter.launch_arguments(&probe);
            let notes = adapter.launch_notes(&probe);
            Ok::<_, RegistryError>((adapter, arguments, notes))
        })
        .await
        .map_err(|e| SessionError::internal("looking up the adapter", e))?
        .map_err(SessionError::Registry)?;
        adapter.cwd = arguments
            .get("cwd")
            .and_then(|c| c.as_str())
            .map(PathBuf::from);
        adapter.stdin = spec.stdin.as_deref().map(absolute);
        Ok(StartPlan {
            operation: Operation::Launch,
            program: Some(spec.program.display().to_string()),
            adapter,
            arguments,
            breakpoints: spec.breakpoints,
            function_breakpoints: start_function_breakpoints(
                spec.function_breakpoints,
                spec.conditional_function_breakpoints,
            ),
            exception_filters: spec.exception_filters,
            calls: spec.calls,
            parent: None,
            attach_target: None,
            launch_timeout: spec.launch_timeout,
            notes,
            replay_check: None,
            core_file: None,
            core_signal: None,
            path_map: Default::default(),
        })
    }

    /// Resolve an attach into a plan.
    pub async fn plan_attach(&self, mut spec: AttachSpec) -> Result<StartPlan, SessionError> {
        if spec.pid.is_none() && spec.port.is_none() {
            return Err(SessionError::InvalidArgument(
                "attach needs a pid, or a port (and host) of a debug server".into(),
            ));
        }
        spec.program = spec.program.as_deref().map(absolute);
        absolutize(&mut spec.breakpoints);
        crate::path_map::check(&spec.path_mappings).map_err(SessionError::InvalidArgument)?;
        let path_map = crate::path_map::PathMap::new(&spec.path_mappings);
        let registry = self.inner.config.registry.clone();
        let probe = spec.clone();
        let adapter =
            tokio::task::spawn_blocking(move || -> Result<ResolvedAdapter, RegistryError> {
                let def = registry.select_for_attach(&probe)?;
                registry.resolve_for_attach(def, &probe)
            })
            .await
            .map_err(|e| SessionError::internal("looking up the adapter", e))?
            .map_err(SessionError::Registry)?;
        let needs_program = adapter.flavor.quirks().port_attach_needs_program;
        if let Some(why) = needs_program.filter(|_| spec.port.is_some() && spec.program.is_none()) {
            return Err(SessionError::InvalidArgument(why.to_string()));
        }
        let arguments = adapter.attach_arguments(&spec);
        let attach_target = Self::target_of(&spec);
        Ok(StartPlan {
            operation: Operation::Attach,
            program: spec
                .program
                .as_ref()
                .map(|p| p.display().to_string())
                .or_else(|| spec.pid.map(|p| format!("pid {p}")))
                .or_else(|| spec.port.map(|p| format!("port {p}"))),
            adapter,
            arguments,
            breakpoints: spec.breakpoints,
            function_breakpoints: start_function_breakpoints(
                spec.function_breakpoints,
                spec.conditional_function_breakpoints,
            ),
            exception_filters: spec.exception_filters,
            calls: spec.calls,
            parent: None,
            attach_target,
            launch_timeout: spec.launch_timeout,
            notes: Vec::new(),
            replay_check: None,
            core_file: None,
            core_signal: None,
            path_map,
        })
    }
}

/// A start's function breakpoints, as plans carry them: the plain names, then those
/// with conditions.
fn start_function_breakpoints(
    names: Vec<String>,
    conditional: Vec<crate::wire::types::FunctionBreakpoint>,
) -> Vec<crate::wire::types::FunctionBreakpoint> {
    names
        .into_iter()
        .map(crate::core::session::function_breakpoint)
        .chain(conditional)
        .collect()
}

fn absolute(path: &Path) -> PathBuf {
    // A remote target's file no mapping covers is the target's path, kept as it is.
    if crate::path_map::is_remote(path) {
        return path.to_path_buf();
    }
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn absolutize(breakpoints: &mut [InitialBreakpoint]) {
    for bp in breakpoints {
        bp.file = absolute(&bp.file);
    }
}
