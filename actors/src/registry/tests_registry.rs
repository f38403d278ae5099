//! Selection, lookup and resolution, against fake executables and the real adapters
//! installed on this machine.

use std::path::PathBuf;

use super::detect::tests::TempDir;
use super::{AdapterDef, AdapterFlavor, AdapterRegistry, Environment, RegistryError};
use crate::launch::{AttachSpec, LaunchSpec};

fn select(program: &str) -> Result<String, RegistryError> {
    AdapterRegistry::builtin()
        .select_for_launch(&LaunchSpec::new(program))
        .map(|d| d.name.clone())
}

#[test]
fn selects_by_extension() {
    assert_eq!(select("/srv/app/main.py").unwrap(), "debugpy");
    assert_eq!(select("/srv/app/main.c").unwrap(), "lldb-dap");
    assert_eq!(select("/srv/app/lib.RS").unwrap(), "lldb-dap");
    assert_eq!(select("/srv/app/main.go").unwrap(), "dlv");
    assert_eq!(select("/srv/app/index.mjs").unwrap(), "js-debug");
    assert_eq!(select("/srv/app/target/debug/prog").unwrap(), "lldb-dap");
}

#[test]
fn native_candidates_prefer_lldb_dap_then_gdb_then_codelldb() {
    let registry = AdapterRegistry::builtin();
    let names: Vec<_> = registry
        .candidates_for_launch(&LaunchSpec::new("/srv/app/main.cpp"))
        .unwrap()
        .iter()
        .map(|d| d.name.clone())
        .collect();
    assert_eq!(names, ["lldb-dap", "gdb", "codelldb"]);
}

#[test]
fn unknown_extension_names_supported_ones() {
    let err = select("/srv/app/data.xyz").unwrap_err();
    assert!(matches!(
        &err,
        RegistryError::NoAdapterForProgram { extension: Some(e), .. } if e == "xyz"
    ));
    let text = err.to_string();
    for part in ["/srv/app/data.xyz", ".xyz", ".py", ".go", ".c", "`adapter`"] {
        assert!(text.contains(part), "{part} missing from: {text}");
    }
}

#[test]
fn go_package_folders_select_dlv_and_other_folders_fail() {
    let dir = TempDir::new("select-go");
    let folder = dir.0.to_string_lossy().into_owned();
    let err = select(&folder).unwrap_err();
    assert!(err.to_string().contains("Go package"), "{err}");
    std::fs::write(dir.0.join("go.mod"), "module example\n").unwrap();
    assert_eq!(select(&folder).unwrap(), "dlv");
}

#[test]
fn aliases_and_languages_find_adapters() {
    let registry = AdapterRegistry::builtin();
    let name = |key: &str| registry.get(key).map(|d| d.name.as_str());
    for (alias, target) in [
        ("lldb-vscode", "lldb-dap"),
        ("lldb", "lldb-dap"),
        ("LLDB-DAP", "lldb-dap"),
        ("delve", "dlv"),
        ("go", "dlv"),
        ("python", "debugpy"),
        ("codelldb", "codelldb"),
        ("gdb", "gdb"),
        ("js-debug", "js-debug"),
        ("node", "js-debug"),
        ("rust", "lldb-dap"),
        ("c", "lldb-dap"),
    ] {
        assert_eq!(name(alias), Some(target), "{alias}");
    }
    assert_eq!(name("cobol"), None);
}

#[test]
fn explicit_adapter_wins_over_extension() {
    let registry = AdapterRegistry::builtin();
    let spec = LaunchSpec::new("/srv/app/main.c").adapter("gdb");
    assert_eq!(registry.select_for_launch(&spec).unwrap().name, "gdb");
    let spec = LaunchSpec::new("/srv/app/data.xyz").adapter("python");
    assert_eq!(registry.select_for_launch(&spec).unwrap().name, "debugpy");
}

#[test]
fn unknown_adapter_lists_known_ones() {
    let spec = LaunchSpec::new("/srv/app/main.py").adapter("pdb");
    let err = AdapterRegistry::builtin()
        .select_for_launch(&spec)
        .unwrap_err();
    let RegistryError::UnknownAdapter { name, known } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(name, "pdb");
    assert_eq!(
        known,
        &["debugpy", "lldb-dap", "dlv", "gdb", "codelldb", "js-debug", "rdbg", "java"]
    );
    assert!(err.to_string().contains("debugpy, lldb-dap, dlv"), "{err}");
}

#[test]
fn attach_selection() {
    let registry = AdapterRegistry::builtin();
    let pick = |spec: AttachSpec| registry.select_for_attach(&spec).map(|d| d.name.clone());
    let port = AttachSpec {
        port: Some(5678),
        ..AttachSpec::default()
    };
    let pid = AttachSpec {
        pid: Some(42),
        ..AttachSpec::default()
    };
    assert_eq!(pick(port.clone()).unwrap(), "debugpy");
    assert_eq!(pick(pid.clone()).unwrap(), "lldb-dap");
    let go = AttachSpec {
        program: Some("/srv/app/main.go".into()),
        ..pid.clone()
    };
    assert_eq!(pick(go).unwrap(), "dlv");
    let named = AttachSpec {
        adapter: Some("delve".into()),
        ..port
    };
    assert_eq!(pick(named).unwrap(), "dlv");
    assert_eq!(
        pick(AttachSpec::default()),
        Err(RegistryError::MissingAttachTarget)
    );
}

#[test]
fn rdbg_refuses_an_attach_by_pid_saying_to_start_under_it_and_attach_by_port() {
    let registry = AdapterRegistry::builtin();
    let spec = AttachSpec {
        program: Some("/srv/app/worker.rb".into()),
        pid: Some(4242),
        ..AttachSpec::default()
    };
    let def = registry.select_for_attach(&spec).unwrap();
    assert_eq!(def.name, "rdbg");
    // Refused before anything is looked for: an empty PATH would fail otherwise.
    let dir = TempDir::new("rdbg-pid");
    let err = registry
        .resolve_for_attach_in(def, &spec, &fake_env(&dir))
        .unwrap_err();
    assert!(matches!(err, RegistryError::NoPidAttach { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("cannot attach to a running process by pid"),
        "{text}"
    );
    assert!(
        text.contains("--open") && text.contains("attach by `port`"),
        "{text}"
    );
    assert_eq!(err.adapter(), None, "an argument error");
    let by_port = AttachSpec {
        port: Some(12345),
        pid: None,
        ..spec
    };
    let resolved = registry
        .resolve_for_attach_in(def, &by_port, &fake_env(&dir))
        .unwrap();
    assert_eq!(resolved.name, "rdbg");
}

#[test]
fn java_refuses_an_attach_by_pid_saying_to_attach_to_the_jvms_debug_agent_by_port() {
    let registry = AdapterRegistry::builtin();
    let spec = AttachSpec {
        program: Some("/srv/app/Worker.java".into()),
        pid: Some(4242),
        ..AttachSpec::default()
    };
    let def = registry.select_for_attach(&spec).unwrap();
    assert_eq!(def.name, "java");
    let dir = TempDir::new("java-pid");
    let err = registry
        .resolve_for_attach_in(def, &spec, &fake_env(&dir))
        .unwrap_err();
    assert!(matches!(err, RegistryError::NoPidAttach { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("-agentlib:jdwp") && text.contains("attach by `port`"),
        "{text}"
    );
}

/// A java install is the classes and the program's `java` in the home folder, with
/// `java` on PATH: the adapter runs as `java -cp CLASSES ... JdiDapServer --port {port}`.
#[test]
fn java_resolves_to_the_installed_classes_under_the_java_on_path() {
    let registry = AdapterRegistry::builtin();
    let def = registry.get("jdi").unwrap();
    let dir = TempDir::new("java-home");
    let env = fake_env(&dir);
    let missing = registry.resolve_in(def, &env).unwrap_err().to_string();
    assert!(
        missing.contains("dapvisor adapters install java"),
        "{missing}"
    );
    let java = dir.file("java", 0o755);
    let installed = dir.0.join("home/java");
    std::fs::create_dir_all(installed.join("classes")).unwrap();
    std::fs::create_dir_all(installed.join("bin")).unwrap();
    std::fs::write(installed.join("classes/JdiDapServer.class"), "").unwrap();
    let debuggee = installed.join("bin/debuggee-java");
    std::fs::write(&debuggee, "").unwrap();
    let still = registry.resolve_in(def, &env).unwrap_err().to_string();
    assert!(still.contains("debuggee-java"), "not executable: {still}");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&debuggee, std::fs::Permissions::from_mode(0o755)).unwrap();
    let resolved = registry.resolve_in(def, &env).unwrap();
    assert_eq!(resolved.program, java);
    let classes = installed.join("classes").display().to_string();
    assert_eq!(resolved.args[..2], ["-cp".to_string(), classes]);
    assert_eq!(
        resolved.args[resolved.args.len() - 3..],
        ["JdiDapServer", "--port", "{port}"]
    );
    // The program runs under the home's `debuggee-java` (this environment's home, not
    // the process's), unless the launch names its own `javaPath`.
    let spec = crate::LaunchSpec::new("/srv/app/Worker.java");
    let arguments = resolved.launch_arguments(&spec);
    assert_eq!(arguments["javaPath"], debuggee.display().to_string());
    let mut own = spec.clone();
    own.extra
        .insert("javaPath".into(), "/opt/jdk/bin/java".into());
    assert_eq!(
        resolved.launch_arguments(&own)["javaPath"],
        "/opt/jdk/bin/java"
    );
}

#[test]
fn register_adds_or_replaces_by_name() {
    let mut registry = AdapterRegistry::empty();
    assert!(registry.get("debugpy").is_none());
    let mut def = AdapterDef::generic("mydbg", "mydbg-adapter");
    def.extensions = vec!["xyz".into()];
    registry.register(def.clone());
    assert_eq!(select_in(&registry, "/a/b.xyz"), "mydbg");
    def.args = vec!["--dap".into()];
    registry.register(def);
    assert_eq!(registry.list().count(), 1);
    assert_eq!(registry.get("MYDBG").unwrap().args, ["--dap"]);
}

fn select_in(registry: &AdapterRegistry, program: &str) -> String {
    registry
        .select_for_launch(&LaunchSpec::new(program))
        .unwrap()
        .name
        .clone()
}

/// An environment whose PATH is only `dir`, and with no venvs to find.
fn fake_env(dir: &TempDir) -> Environment {
    Environment {
        path: dir.0.clone().into_os_string(),
        python: None,
        dapvisor_home: dir.0.join("home"),
        cwd: dir.0.clone(),
        js_debug_server: None,
        probe_timeout: super::DEFAULT_PROBE_TIMEOUT,
    }
}

#[test]
fn resolve_scans_path_for_versioned_lldb_dap() {
    let dir = TempDir::new("resolve-lldb");
    dir.file("lldb-dap-17", 0o755);
    let newest = dir.file("lldb-dap-19", 0o755);
    dir.file("lldb-vscode", 0o755);
    let registry = AdapterRegistry::builtin();
    let resolved = registry
        .resolve_in(registry.get("lldb-dap").unwrap(), &fake_env(&dir))
        .unwrap();
    assert_eq!(resolved.program, newest);
    assert_eq!(resolved.adapter_id, "lldb-dap");
}

#[test]
fn missing_adapters_say_what_was_tried_and_how_to_install() {
    let dir = TempDir::new("resolve-none");
    let registry = AdapterRegistry::builtin();
    let err = registry
        .resolve_in(registry.get("dlv").unwrap(), &fake_env(&dir))
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, RegistryError::NotInstalled { .. }));
    assert!(
        text.contains("`dlv`") && text.contains("apt-get install delve"),
        "{text}"
    );
    let err = registry
        .resolve_in(registry.get("lldb-dap").unwrap(), &fake_env(&dir))
        .unwrap_err();
    assert!(err.to_string().contains("lldb-dap-<version>"), "{err}");
}

#[test]
fn gdb_must_be_new_enough() {
    let dir = TempDir::new("resolve-gdb");
    let gdb = dir.0.join("gdb");
    let registry = AdapterRegistry::builtin();
    let def = registry.get("gdb").unwrap();
    let write_gdb = |line: &str| {
        std::fs::write(&gdb, format!("#!/bin/sh\necho '{line}'\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&gdb, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    write_gdb("GNU gdb (Debian 13.1-3) 13.1");
    let err = registry.resolve_in(def, &fake_env(&dir)).unwrap_err();
    assert!(
        matches!(&err, RegistryError::VersionTooOld { found, .. } if found.starts_with("13.1")),
        "{err}"
    );
    assert!(err.to_string().contains("lldb-dap"), "{err}");
    write_gdb("GNU gdb (GDB) 15.1");
    let resolved = registry.resolve_in(def, &fake_env(&dir)).unwrap();
    assert_eq!(resolved.args, ["-i", "dap"]);
}

#[test]
fn installed_selection_falls_back_and_reports_every_candidate() {
    let dir = TempDir::new("installed");
    let registry = AdapterRegistry::builtin();
    let spec = LaunchSpec::new("/srv/app/main.c");
    let err = registry
        .select_installed_for_launch_in(&spec, &fake_env(&dir))
        .unwrap_err();
    let text = err.to_string();
    for part in ["lldb-dap, gdb or codelldb", "lldb-22", "CodeLLDB"] {
        assert!(text.contains(part), "{part} missing from: {text}");
    }
    dir.file("codelldb", 0o755);
    let resolved = registry
        .select_installed_for_launch_in(&spec, &fake_env(&dir))
        .unwrap();
    assert_eq!(resolved.name, "codelldb");
}

#[test]
fn a_broken_dapvisor_python_is_reported_not_replaced() {
    let dir = TempDir::new("badpython");
    let registry = AdapterRegistry::builtin();
    let env = fake_env(&dir).with_python("/bin/false");
    let err = registry
        .resolve_in(registry.get("debugpy").unwrap(), &env)
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("DAPVISOR_PYTHON") && text.contains("cannot import debugpy"),
        "{text}"
    );
}

// The adapters ADAPTERS.md says are installed on these machines: these fail loudly if not.

#[test]
fn resolves_the_real_lldb_dap_and_dlv() {
    let registry = AdapterRegistry::builtin();
    let env = Environment::from_process();
    let lldb = registry
        .resolve_in(registry.get("lldb-dap").unwrap(), &env)
        .unwrap();
    assert_eq!(lldb.program, PathBuf::from("/usr/bin/lldb-dap-22"));
    let dlv = registry
        .resolve_in(registry.get("dlv").unwrap(), &env)
        .unwrap();
    assert!(dlv.program.ends_with("dlv"), "{dlv:?}");
    assert_eq!(dlv.args, ["dap", "--client-addr", "127.0.0.1:{port}"]);
}

#[test]
fn resolves_the_real_debugpy_through_dapvisor_python() {
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python");
    let registry = AdapterRegistry::builtin();
    let env = Environment::from_process().with_python(&python);
    let resolved = registry
        .resolve_in(registry.get("debugpy").unwrap(), &env)
        .unwrap();
    assert_eq!(resolved.program, python);
    assert_eq!(resolved.args, ["-m", "debugpy.adapter"]);
    let args = resolved.launch_arguments(&LaunchSpec::new("/srv/app/main.py"));
    assert_eq!(args["python"], serde_json::json!(python.to_string_lossy()));
}

#[test]
fn finds_debugpy_in_a_parent_venv() {
    let dir = TempDir::new("parent-venv");
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let env = fake_env(&dir).with_cwd(crate_dir.join("src"));
    let registry = AdapterRegistry::builtin();
    let resolved = registry
        .resolve_in(registry.get("debugpy").unwrap(), &env)
        .unwrap();
    assert_eq!(
        resolved.program,
        crate_dir.parent().unwrap().join(".venv/bin/python")
    );
}

#[test]
fn the_adapters_that_page_variables_are_the_ones_checked_to() {
    let registry = AdapterRegistry::builtin();
    let pages = |name: &str| registry.get(name).unwrap().pages_variables;
    // lldb-dap 19 and dlv 1.20 answer `variables` from `start`; debugpy 1.8 ignores it.
    assert!(pages("lldb-dap") && pages("dlv"));
    assert!(!pages("debugpy"));
    // Unchecked adapters are asked from the first child, which is right either way.
    assert!(!pages("gdb") && !pages("codelldb") && !pages("js-debug"));
}

#[test]
fn installed_codelldb_and_js_debug_are_found_in_dapvisor_home_after_path() {
    let dir = TempDir::new("home-installs");
    let registry = AdapterRegistry::builtin();
    let env = fake_env(&dir);
    let codelldb = registry.get("codelldb").unwrap();
    let err = registry.resolve_in(codelldb, &env).unwrap_err().to_string();
    assert!(err.contains("home/codelldb/adapter/codelldb"), "{err}");
    assert!(err.contains("dapvisor adapters install codelldb"), "{err}");

    // Where `dapvisor adapters install` puts them.
    std::fs::create_dir_all(dir.0.join("home/codelldb/adapter")).unwrap();
    dir.file("home/codelldb/adapter/codelldb", 0o755);
    std::fs::create_dir_all(dir.0.join("home/js-debug/src")).unwrap();
    dir.file("home/js-debug/src/dapDebugServer.js", 0o644);
    dir.file("node", 0o755);
    let found = registry.resolve_in(codelldb, &env).unwrap();
    assert_eq!(found.program, dir.0.join("home/codelldb/adapter/codelldb"));
    let js = registry
        .resolve_in(registry.get("js-debug").unwrap(), &env)
        .unwrap();
    assert_eq!(js.program, dir.0.join("node"));
    assert_eq!(
        js.args[0],
        dir.0
            .join("home/js-debug/src/dapDebugServer.js")
            .display()
            .to_string()
    );

    // One on PATH comes first.
    let on_path = dir.file("codelldb", 0o755);
    assert_eq!(
        registry.resolve_in(codelldb, &env).unwrap().program,
        on_path
    );
}

#[test]
fn adapter_flavor_all_lists_every_family_once_in_order() {
    // Exhaustive: a new family does not compile here until it has its place in ALL.
    fn place(flavor: AdapterFlavor) -> usize {
        match flavor {
            AdapterFlavor::Debugpy => 0,
            AdapterFlavor::LldbDap => 1,
            AdapterFlavor::Delve => 2,
            AdapterFlavor::Gdb => 3,
            AdapterFlavor::CodeLldb => 4,
            AdapterFlavor::JsDebug => 5,
            AdapterFlavor::Rdbg => 6,
            AdapterFlavor::Jdi => 7,
            AdapterFlavor::Generic => 8,
        }
    }
    for (at, flavor) in AdapterFlavor::ALL.into_iter().enumerate() {
        assert_eq!(place(flavor), at, "{flavor:?}");
    }
}
