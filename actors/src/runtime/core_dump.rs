//! Opening a core dump (post-mortem): a [`LaunchSpec`] with `core` is planned here
//! rather than as a launch. The program is not run: the adapter that can open a dump
//! of it (lldb-dap and CodeLLDB with `attach`, dlv with a `launch` in `core` mode; see
//! each family's [`CoreDump`](crate::quirks::CoreDump)) is asked to, and the session
//! stops where the process died. The session core then refuses whatever would move
//! or change the program (`core/post_mortem.rs`).

use std::path::Path;

use serde_json::Map;

use crate::core::command::StartPlan;
use crate::core::state::Operation;
use crate::error::SessionError;
use crate::launch::LaunchSpec;
use crate::quirks::CoreRequest;
use crate::registry::{absolute, AdapterRegistry, ResolvedAdapter};
use crate::runtime::Runtime;

impl Runtime {
    /// Resolve the opening of `spec.core`, a core dump of `spec.program`, into a plan.
    /// Refused (an argument error) when the dump or the program is missing, when the
    /// spec asks for what only a running program does (arguments, environment,
    /// stdin, breakpoints, exception filters), or when the adapter chosen cannot open
    /// a dump (the error names those that can).
    pub(crate) async fn plan_core(&self, mut spec: LaunchSpec) -> Result<StartPlan, SessionError> {
        let core = spec
            .core
            .as_deref()
            .map(absolute)
            .ok_or_else(|| SessionError::InvalidArgument("no core file to open".into()))?;
        spec.program = absolute(&spec.program);
        refuse_what_needs_a_run(&spec)?;
        if !core.is_file() {
            return Err(SessionError::InvalidArgument(format!(
                "the core file {} does not exist (or is not a file)",
                core.display()
            )));
        }
        if !is_core_file(&core) {
            return Err(SessionError::InvalidArgument(format!(
                "{} is not a core dump (an ELF core file): pass the file the crash left \
                 (`dapvisor doctor` says where this system puts them)",
                core.display()
            )));
        }
        if !spec.program.is_file() {
            return Err(SessionError::InvalidArgument(format!(
                "the program {} does not exist: a core dump is opened with the binary \
                 that dumped it",
                spec.program.display()
            )));
        }
        if crate::SourceLanguage::of(&spec.program).is_some() {
            return Err(SessionError::InvalidArgument(format!(
                "{} is a source file: a core dump is opened with the binary that dumped it",
                spec.program.display()
            )));
        }
        let registry = self.registry().clone();
        let (probe, dump) = (spec.clone(), core.clone());
        // Finding the adapter may run probes, and the signal is read from the file.
        let (adapter, signal) = tokio::task::spawn_blocking(move || {
            let adapter = core_adapter(&registry, &probe)?;
            Ok::<_, SessionError>((adapter, crate::core_signal::signal_of_core(&dump)))
        })
        .await
        .map_err(|e| SessionError::internal("looking up the adapter", e))??;
        let opens = adapter
            .flavor
            .core_dump()
            .expect("core_adapter picks a family that opens cores");
        let mut arguments = Map::new();
        (opens.arguments)(&mut arguments, &spec.program, &core).map_err(|why| {
            SessionError::InvalidArgument(format!(
                "{} cannot be given to {}: {why}",
                core.display(),
                adapter.name
            ))
        })?;
        let operation = match opens.request {
            CoreRequest::Launch => Operation::Launch,
            CoreRequest::Attach => {
                (adapter.flavor.quirks().dialect.attach_with_adapter)(&mut arguments);
                Operation::Attach
            }
        };
        for (key, value) in &spec.extra {
            arguments.insert(key.clone(), value.clone());
        }
        Ok(StartPlan {
            operation,
            program: Some(spec.program.display().to_string()),
            adapter,
            arguments,
            breakpoints: Vec::new(),
            function_breakpoints: Vec::new(),
            exception_filters: Vec::new(),
            parent: None,
            attach_target: None,
            launch_timeout: spec.launch_timeout,
            notes: vec![format!(
                "dapvisor: opened the core dump {}: the program is stopped where it \
                 died and cannot run\n",
                core.display()
            )],
            replay_check: None,
            core_file: Some(core),
            core_signal: signal,
            path_map: Default::default(),
            calls: Vec::new(),
        })
    }
}

/// Refuse the parts of `spec` that only a running program has.
fn refuse_what_needs_a_run(spec: &LaunchSpec) -> Result<(), SessionError> {
    let asked: Vec<&str> = [
        ("args", !spec.args.is_empty()),
        ("env", !spec.env.is_empty()),
        ("stdin", spec.stdin.is_some()),
        ("breakpoints", !spec.breakpoints.is_empty()),
        (
            "function_breakpoints",
            !spec.function_breakpoints.is_empty()
                || !spec.conditional_function_breakpoints.is_empty(),
        ),
        ("exception_filters", !spec.exception_filters.is_empty()),
    ]
    .into_iter()
    .filter_map(|(name, given)| given.then_some(name))
    .collect();
    if asked.is_empty() {
        return Ok(());
    }
    Err(SessionError::InvalidArgument(format!(
        "a core dump does not run, so it takes no {}: leave them out to open the dump, \
         or launch the program without `core` to run it",
        asked.join(", ")
    )))
}

/// The first installed adapter for `spec.program` that opens core dumps: the one
/// `spec.adapter` names, else the program's own (lldb-dap for a native binary, dlv
/// for a Go one). An adapter that cannot open one is refused, naming those that can.
fn core_adapter(
    registry: &AdapterRegistry,
    spec: &LaunchSpec,
) -> Result<ResolvedAdapter, SessionError> {
    let candidates = registry.candidates_for_launch(spec)?;
    let able: Vec<_> = candidates
        .iter()
        .filter(|def| def.flavor.core_dump().is_some())
        .collect();
    if able.is_empty() {
        let named = candidates
            .iter()
            .map(|def| def.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        return Err(SessionError::InvalidArgument(format!(
            "{named} cannot open a core dump; {} can: pass one as `adapter` (dlv for a Go \
             program)",
            openers(registry).join(", ")
        )));
    }
    let mut first_error = None;
    for def in able {
        match registry.resolve(def) {
            Ok(adapter) => return Ok(adapter),
            Err(err) => {
                first_error.get_or_insert(err);
            }
        }
    }
    Err(first_error.map_or_else(
        || SessionError::InvalidArgument("no adapter opens core dumps".into()),
        SessionError::Registry,
    ))
}

/// The names of the registry's adapters that open core dumps.
fn openers(registry: &AdapterRegistry) -> Vec<String> {
    registry
        .list()
        .filter(|def| def.flavor.core_dump().is_some())
        .map(|def| def.name.clone())
        .collect()
}

/// Whether `path` is a core dump file by its header: an ELF file of type `ET_CORE`.
/// Reads its first 18 bytes.
pub fn is_core_file(path: &Path) -> bool {
    use std::io::Read as _;
    let mut head = [0u8; 18];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head));
    // e_type, 2 bytes at offset 16 in the byte order EI_DATA (offset 5) says, is 4:
    // ET_CORE.
    let e_type = match head[5] {
        1 => u16::from_le_bytes([head[16], head[17]]),
        2 => u16::from_be_bytes([head[16], head[17]]),
        _ => 0,
    };
    read.is_ok() && head.starts_with(b"\x7fELF") && e_type == 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_elf_core_is_taken_for_a_core_file() {
        let dir = std::env::temp_dir().join(format!("dapvisor-core-head-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        };
        let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
        elf.resize(16, 0);
        let core = write("core", &[elf.as_slice(), &[4, 0]].concat());
        let exec = write("exec", &[elf.as_slice(), &[2, 0]].concat());
        let text = write("text", b"not an elf file at all");
        assert!(is_core_file(&core));
        assert!(!is_core_file(&exec));
        assert!(!is_core_file(&text));
        assert!(!is_core_file(&dir.join("missing")));
        assert!(!is_core_file(&std::env::current_exe().unwrap()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn what_needs_a_run_is_refused_by_name() {
        let open = LaunchSpec::new("/bin/true").core("/tmp/core");
        assert!(refuse_what_needs_a_run(&open).is_ok());
        let mut asked = open.clone().breakpoint("/tmp/a.c", 3);
        asked.args = vec!["x".into()];
        let err = refuse_what_needs_a_run(&asked).unwrap_err().to_string();
        assert!(err.contains("takes no args, breakpoints"), "{err}");
    }
}
