//! The exact launch and attach arguments each built-in adapter is given.

use std::path::PathBuf;

use serde_json::{json, Map, Value};

use super::{AdapterRegistry, ResolvedAdapter, TransportKind};
use crate::launch::{AttachSpec, LaunchSpec};

fn def(name: &str) -> super::AdapterDef {
    AdapterRegistry::builtin().get(name).unwrap().clone()
}

fn spec(program: &str) -> LaunchSpec {
    let mut spec = LaunchSpec::new(program).args(["--n", "3"]);
    spec.cwd = Some("/srv/work".into());
    spec.env.insert("MODE".into(), "test".into());
    spec.stop_on_entry = true;
    spec
}

fn launch(name: &str, spec: &LaunchSpec) -> Value {
    Value::Object(def(name).launch_arguments(spec))
}

#[test]
fn debugpy_launch() {
    assert_eq!(
        launch("debugpy", &spec("/srv/app/main.py")),
        json!({
            "type": "python", "request": "launch", "program": "/srv/app/main.py",
            "console": "internalConsole", "justMyCode": false, "redirectOutput": true, "breakOnSystemExit": [],
            "args": ["--n", "3"], "cwd": "/srv/work", "env": {"MODE": "test"},
            "stopOnEntry": true,
        })
    );
}

#[test]
fn debugpy_runs_a_module_instead_of_the_program() {
    let mut spec =
        LaunchSpec::new("/srv/app/tests/test_cart.py").args(["tests/test_cart.py::test_total"]);
    spec.extra.insert("module".into(), json!("pytest"));
    let args = launch("debugpy", &spec);
    assert_eq!(args["module"], "pytest");
    assert_eq!(args["args"], json!(["tests/test_cart.py::test_total"]));
    assert!(args.get("program").is_none(), "{args}");
}

#[test]
fn debugpy_resolved_launch_pins_the_interpreter_unless_overridden() {
    let def = def("debugpy");
    let resolved = ResolvedAdapter::running(
        &def,
        PathBuf::from("/opt/venv/bin/python"),
        def.args.clone(),
    );
    let args = resolved.launch_arguments(&LaunchSpec::new("/srv/app/main.py"));
    assert_eq!(args["python"], json!("/opt/venv/bin/python"));
    assert_eq!(args["stopOnEntry"], json!(false));
    let mut spec = LaunchSpec::new("/srv/app/main.py");
    spec.extra
        .insert("python".into(), json!("/usr/bin/python3.11"));
    assert_eq!(
        resolved.launch_arguments(&spec)["python"],
        json!("/usr/bin/python3.11")
    );
}

#[test]
fn lldb_dap_launch_takes_env_as_a_list() {
    let mut spec = spec("/srv/app/prog");
    spec.env.insert("A".into(), "1".into());
    assert_eq!(
        launch("lldb-dap", &spec),
        json!({
            "program": "/srv/app/prog", "args": ["--n", "3"], "cwd": "/srv/work",
            "env": ["A=1", "MODE=test"], "stopOnEntry": true,
            // Its stdin empty, never a terminal nothing writes to.
            "stdio": ["/dev/null", null, null],
        })
    );
    spec.stdin = Some("/srv/input.txt".into());
    assert_eq!(
        launch("lldb-dap", &spec)["stdio"],
        json!(["/srv/input.txt", null, null])
    );
}

#[test]
fn dlv_launch_builds_source_in_its_folder_and_execs_binaries() {
    let mut source = LaunchSpec::new("/srv/app/main.go");
    source.stop_on_entry = true;
    let mut args = launch("dlv", &source);
    // dlv's build goes to a fresh temp file, not into the user's folder.
    let output = args["output"].take();
    assert!(output
        .as_str()
        .is_some_and(|o| o.starts_with(std::env::temp_dir().to_str().unwrap())));
    args.as_object_mut().unwrap().remove("output");
    assert_eq!(
        args,
        json!({
            "mode": "debug", "program": "/srv/app/main.go", "cwd": "/srv/app",
            "args": [], "stopOnEntry": true,
        })
    );
    assert_eq!(
        launch("dlv", &spec("/srv/app/bin/server")),
        json!({
            "mode": "exec", "program": "/srv/app/bin/server", "cwd": "/srv/work",
            "args": ["--n", "3"], "env": {"MODE": "test"}, "stopOnEntry": true,
        })
    );
}

#[test]
fn dlv_launch_of_a_package_folder_runs_in_it() {
    let dir = super::detect::tests::TempDir::new("gopkg");
    let folder = dir.0.to_string_lossy().into_owned();
    let args = launch("dlv", &LaunchSpec::new(&folder));
    assert_eq!(args["mode"], json!("debug"));
    assert_eq!(args["cwd"], json!(folder));
}

#[test]
fn gdb_launch_names_its_stop_flag() {
    assert_eq!(
        launch("gdb", &spec("/srv/app/prog")),
        json!({
            "program": "/srv/app/prog", "args": ["--n", "3"], "cwd": "/srv/work",
            "env": {"MODE": "test"}, "stopAtBeginningOfMainSubprogram": true,
        })
    );
}

#[test]
fn codelldb_and_js_debug_launch() {
    let common = |program: &str| {
        json!({
            "program": program, "args": ["--n", "3"], "cwd": "/srv/work",
            "env": {"MODE": "test"}, "stopOnEntry": true, "request": "launch",
        })
    };
    // CodeLLDB: the program's output comes as events, not through a terminal.
    let mut expected = common("/srv/app/prog");
    expected["type"] = json!("lldb");
    expected["terminal"] = json!("console");
    expected["stdio"] = json!(["/dev/null", null, null]);
    assert_eq!(launch("codelldb", &spec("/srv/app/prog")), expected);
    // js-debug has dapvisor start the program, whose output it then leaves to
    // dapvisor, and resolves source maps in the working directory.
    let mut expected = common("/srv/app/index.js");
    expected["type"] = json!("pwa-node");
    expected["console"] = json!("integratedTerminal");
    expected["outputCapture"] = json!("std");
    expected["__workspaceFolder"] = json!("/srv/work");
    assert_eq!(launch("js-debug", &spec("/srv/app/index.js")), expected);
    // Without a working directory, the program's own folder is the workspace.
    let args = launch("js-debug", &LaunchSpec::new("/srv/app/dist/index.js"));
    assert_eq!(args["__workspaceFolder"], json!("/srv/app/dist"));
    assert!(
        args.get("cwd").is_none(),
        "js-debug's default cwd is the workspace"
    );
}

#[test]
fn lldb_dap_loads_the_toolchains_rust_formatters_for_a_rust_program_only() {
    let def = def("lldb-dap");
    let resolved = ResolvedAdapter::running(&def, PathBuf::from("/usr/bin/lldb-dap"), vec![]);
    // This test runs inside an executable rustc built; /bin/sh is not Rust.
    let me = std::env::current_exe().unwrap();
    let mut spec = LaunchSpec::new(&me);
    spec.extra
        .insert("initCommands".into(), json!(["settings show target.arg0"]));
    let args = resolved.launch_arguments(&spec);
    let init: Vec<&str> = args["initCommands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    // dapvisor's corrections to them come after, each quiet (`?`).
    let corrections = &init[3..init.len() - 1];
    assert!(!corrections.is_empty(), "{args:?}");
    assert!(corrections.iter().all(|c| c.starts_with('?')), "{init:?}");
    assert_eq!(init[0], NO_DEBUGINFOD);
    assert!(init[1].starts_with("command script import"), "{init:?}");
    assert!(
        init[1].ends_with("lib/rustlib/etc/lldb_lookup.py\""),
        "{init:?}"
    );
    assert!(
        init[2].ends_with("lib/rustlib/etc/lldb_commands\""),
        "{init:?}"
    );
    assert_eq!(
        init[init.len() - 1],
        "settings show target.arg0",
        "the caller's come after"
    );
    assert!(
        resolved.launch_notes(&spec).is_empty(),
        "the toolchain is here"
    );

    // Not Rust: only debuginfod is turned off, in a launch and in an attach.
    let c = resolved.launch_arguments(&LaunchSpec::new("/bin/sh"));
    assert_eq!(c["initCommands"], json!([NO_DEBUGINFOD]), "{c:?}");
    let attach = resolved.attach_arguments(&by_pid(42));
    assert_eq!(attach["initCommands"], json!([NO_DEBUGINFOD]), "{attach:?}");
    // Said to be Rust: loaded too.
    let mut said = LaunchSpec::new("/bin/sh");
    said.extra.insert("sourceLanguages".into(), json!(["rust"]));
    assert_eq!(
        resolved.launch_arguments(&said)["initCommands"]
            .as_array()
            .map(Vec::len),
        Some(init.len() - 1)
    );
}

/// What lldb-dap is told first, as arguments.rs writes it.
const NO_DEBUGINFOD: &str = "settings clear plugin.symbol-locator.debuginfod.server-urls";

#[test]
fn codelldb_is_told_a_rust_program_is_rust() {
    // This test runs inside an executable rustc built; /bin/sh is not Rust.
    let me = std::env::current_exe().unwrap();
    let rust = launch("codelldb", &LaunchSpec::new(&me));
    assert_eq!(rust["sourceLanguages"], json!(["rust"]));
    // With dapvisor's corrections to the toolchain formatters it then loads.
    assert!(rust["preRunCommands"][0]
        .as_str()
        .is_some_and(|c| c.starts_with("script ")));
    let c = launch("codelldb", &LaunchSpec::new("/bin/sh"));
    assert!(c.get("sourceLanguages").is_none(), "{c}");
    assert!(c.get("preRunCommands").is_none(), "{c}");
    // lldb-dap is not told (it does not know the key).
    let other = launch("lldb-dap", &LaunchSpec::new(&me));
    assert!(other.get("sourceLanguages").is_none(), "{other}");
}

#[test]
fn debugpy_with_the_raised_filter_debugs_only_the_programs_code_unless_told() {
    let mut spec = LaunchSpec::new("/srv/app/main.py");
    assert_eq!(
        def("debugpy").launch_arguments(&spec)["justMyCode"],
        json!(false)
    );
    spec.exception_filters = vec!["raised".into(), "uncaught".into()];
    assert_eq!(
        def("debugpy").launch_arguments(&spec)["justMyCode"],
        json!(true)
    );
    spec.extra = Map::from_iter([("justMyCode".to_string(), json!(false))]);
    assert_eq!(
        def("debugpy").launch_arguments(&spec)["justMyCode"],
        json!(false)
    );
    let mut attach_spec = by_port(5678);
    attach_spec.exception_filters = vec!["raised".into()];
    assert_eq!(attach("debugpy", &attach_spec)["justMyCode"], json!(true));
}

#[test]
fn extra_overrides_defaults_and_spec_fields() {
    let mut spec = LaunchSpec::new("/srv/app/main.py");
    spec.extra = Map::from_iter([
        ("justMyCode".to_string(), json!(true)),
        ("args".to_string(), json!(["x"])),
        ("subProcess".to_string(), json!(false)),
    ]);
    let args = def("debugpy").launch_arguments(&spec);
    assert_eq!(args["justMyCode"], json!(true));
    assert_eq!(args["args"], json!(["x"]));
    assert_eq!(args["subProcess"], json!(false));
}

#[test]
fn relative_programs_become_absolute() {
    let args = def("lldb-dap").launch_arguments(&LaunchSpec::new("target/debug/app"));
    let expected = std::env::current_dir().unwrap().join("target/debug/app");
    assert_eq!(args["program"], json!(expected.to_string_lossy()));
}

pub(super) fn attach(name: &str, spec: &AttachSpec) -> Value {
    Value::Object(def(name).attach_arguments(spec))
}

fn by_pid(pid: u32) -> AttachSpec {
    AttachSpec {
        pid: Some(pid),
        ..AttachSpec::default()
    }
}

pub(super) fn by_port(port: u16) -> AttachSpec {
    AttachSpec {
        port: Some(port),
        ..AttachSpec::default()
    }
}

#[test]
fn attach_shapes() {
    assert_eq!(
        attach("debugpy", &by_port(5678)),
        json!({"connect": {"host": "127.0.0.1", "port": 5678}, "justMyCode": false,
               "breakOnSystemExit": []})
    );
    assert_eq!(
        attach("debugpy", &by_pid(42)),
        json!({"processId": 42, "justMyCode": false, "breakOnSystemExit": []})
    );
    let with_program = AttachSpec {
        program: Some("/srv/app/prog".into()),
        ..by_pid(42)
    };
    assert_eq!(
        attach("lldb-dap", &with_program),
        json!({"pid": 42, "program": "/srv/app/prog"})
    );
    assert_eq!(
        attach("dlv", &by_pid(42)),
        json!({"mode": "local", "processId": 42})
    );
    assert_eq!(attach("dlv", &by_port(2345)), json!({"mode": "remote"}));
    assert_eq!(attach("gdb", &by_pid(42)), json!({"pid": 42}));
    let remote = AttachSpec {
        host: Some("10.0.0.2".into()),
        ..by_port(1234)
    };
    assert_eq!(attach("gdb", &remote), json!({"target": "10.0.0.2:1234"}));
    assert_eq!(
        attach("codelldb", &by_pid(42)),
        json!({"type": "lldb", "request": "attach", "pid": 42})
    );
    assert_eq!(
        attach("js-debug", &by_port(9229)),
        json!({"type": "pwa-node", "request": "attach", "address": "127.0.0.1", "port": 9229})
    );
}

#[test]
fn attach_extra_is_merged_last() {
    let mut spec = by_pid(7);
    spec.extra.insert("justMyCode".into(), json!(true));
    assert_eq!(
        attach("debugpy", &spec),
        json!({"processId": 7, "justMyCode": true, "breakOnSystemExit": []})
    );
}

#[test]
fn debugpy_and_dlv_attach_by_port_connect_directly() {
    let registry = AdapterRegistry::builtin();
    let spec = AttachSpec {
        host: Some("localhost".into()),
        ..by_port(5678)
    };
    for name in ["debugpy", "dlv"] {
        let resolved = registry
            .resolve_for_attach(registry.get(name).unwrap(), &spec)
            .unwrap();
        assert_eq!(
            resolved.transport,
            TransportKind::TcpConnect {
                host: "localhost".into(),
                port: 5678
            }
        );
        assert_eq!(resolved.program, PathBuf::new());
    }
}

#[test]
fn attach_by_port_by_pid_and_by_name_in_each_remaining_dialect() {
    // lldb-dap attaches to a gdb-remote server by port, and by name with neither.
    assert_eq!(
        attach("lldb-dap", &by_port(1234)),
        json!({"gdb-remote-port": 1234, "gdb-remote-hostname": "127.0.0.1",
               "stopOnEntry": true})
    );
    let by_name = AttachSpec {
        program: Some("/srv/app/prog".into()),
        ..AttachSpec::default()
    };
    assert_eq!(
        attach("lldb-dap", &by_name),
        json!({"program": "/srv/app/prog"})
    );
    // js-debug takes a pid as a string.
    assert_eq!(
        attach("js-debug", &by_pid(42)),
        json!({"type": "pwa-node", "request": "attach", "processId": "42"})
    );
    // debugpy has no `program` to attach to; the port wins over the pid.
    let both = AttachSpec {
        program: Some("/srv/app/main.py".into()),
        pid: Some(42),
        ..by_port(5678)
    };
    assert_eq!(
        attach("debugpy", &both),
        json!({"connect": {"host": "127.0.0.1", "port": 5678}, "justMyCode": false,
               "breakOnSystemExit": []})
    );
}

#[test]
fn a_generic_adapter_gets_plain_dap_arguments() {
    let generic = super::AdapterDef::generic("mydbg", "mydbg-adapter");
    assert_eq!(
        Value::Object(generic.launch_arguments(&spec("/srv/app/prog"))),
        json!({
            "program": "/srv/app/prog", "args": ["--n", "3"], "cwd": "/srv/work",
            "env": {"MODE": "test"}, "stopOnEntry": true,
        })
    );
    let remote = AttachSpec {
        host: Some("10.0.0.2".into()),
        program: Some("/srv/app/prog".into()),
        ..by_port(4711)
    };
    assert_eq!(
        Value::Object(generic.attach_arguments(&remote)),
        json!({"host": "10.0.0.2", "port": 4711, "program": "/srv/app/prog"})
    );
    assert_eq!(
        Value::Object(generic.attach_arguments(&by_pid(42))),
        json!({"processId": 42})
    );
    let resolved = ResolvedAdapter::running(&generic, PathBuf::from("/usr/bin/mydbg"), vec![]);
    let me = std::env::current_exe().unwrap();
    let rust = LaunchSpec::new(&me);
    assert_eq!(
        resolved.launch_arguments(&rust),
        generic.launch_arguments(&rust),
        "nothing depends on the executable"
    );
    assert!(resolved.launch_notes(&rust).is_empty());
}

#[test]
fn js_debug_runs_the_program_under_the_node_found_unless_told_otherwise() {
    let def = def("js-debug");
    let resolved = ResolvedAdapter::running(&def, PathBuf::from("/usr/bin/node"), vec![]);
    let args = resolved.launch_arguments(&LaunchSpec::new("/srv/app/index.js"));
    assert_eq!(args["runtimeExecutable"], json!("/usr/bin/node"));
    assert!(args.get("python").is_none(), "{args:?}");
    let mut spec = LaunchSpec::new("/srv/app/index.js");
    spec.extra
        .insert("runtimeExecutable".into(), json!("/opt/node22/bin/node"));
    assert_eq!(
        resolved.launch_arguments(&spec)["runtimeExecutable"],
        json!("/opt/node22/bin/node")
    );
    // Attached to a server found elsewhere, nothing is run here: no executable to name.
    let connected = ResolvedAdapter::connecting(&def, "127.0.0.1".into(), 4711);
    let args = connected.launch_arguments(&LaunchSpec::new("/srv/app/index.js"));
    assert!(args.get("runtimeExecutable").is_none(), "{args:?}");
}

#[test]
fn debugpy_drops_the_program_for_a_module_even_one_passed_in_extra() {
    let mut spec = LaunchSpec::new("/srv/app/tests/test_cart.py");
    spec.extra.insert("module".into(), json!("pytest"));
    spec.extra
        .insert("program".into(), json!("/srv/app/other.py"));
    let args = launch("debugpy", &spec);
    assert!(args.get("program").is_none(), "{args}");
    // Only debugpy knows `module`: another adapter keeps its program.
    let args = launch("lldb-dap", &spec);
    assert_eq!(args["program"], json!("/srv/app/other.py"));
}
