//! JdiDapServer, the Java adapter (a single-file DAP server on the JDK's JDI, from
//! `@debugmcp/mcp-debugger`; see `registry/install/java.rs`).
//! - It listens only on a port it is told (`--port 0` is refused), so its definition
//!   asks for `{port}`, which the transport fills with a free loopback port; it says
//!   `[JdiDapServer] JdiDapServer listening on port N` on stderr once it holds it.
//! - A launch names the class to run and its classpath (`mainClass`, `classpath`); it
//!   has no `program`. A `.java` program runs in Java's source-file mode (`mainClass`
//!   is the file, compiled in memory with its locals), a `.class` file as its class
//!   from its folder, a `.jar` as the `Main-Class` its manifest names; `launch_args`
//!   `mainClass` and `classpath` override each (a class in a package, a jar with none).
//! - It starts the program itself, with `javaPath`: dapvisor's `debuggee-java` (set when
//!   the adapter is resolved, `registry/resolve.rs`), which
//!   keeps the debug agent JdiDapServer asks for on every interface (`address=*:PORT`)
//!   on loopback, and gives the program the adapter's stdin. The program runs in the
//!   adapter's working folder (the launch's `cwd`). JdiDapServer reads no `env`: each
//!   variable goes to `debuggee-java` as a `-Ddapvisor.env=` option (the `K=V` text in
//!   octal escapes, whole whatever it holds), which exports it and drops the option.
//! - It resumes the program at `configurationDone` without waiting for the VM's start
//!   event, but the JVM's debug agent takes the connection before it suspends the VM
//!   for that event: a resume that comes in between is lost, and the program waits,
//!   suspended, for ever (seen once in ~80 launches on a loaded machine). So a launch's
//!   `configurationDone` waits until a stack trace shows the program held
//!   (`core/held_start.rs`); JdiDapServer answers a thread that is not suspended
//!   with no frames and a `message`.
//! - The program's output comes as `output` events, a line at a time; its exit code in
//!   `exited`. The `uncaught` filter (on by default) stops at an exception nothing
//!   catches, `caught` at every one.
//! - Every object shows as its class and id (`java.util.ArrayList@2176`), its fields
//!   as its children: the session handle previews it from them (a record as
//!   `Parcel[to="Lyon", grams=3500]`, a list as `[...]`, a map as `{k=v}`).
//! - An attach is to a JVM's debug agent by port (JdiDapServer attaches through JDI);
//!   one by pid is refused before anything starts, saying so. No exit code comes then.
//! - In source-file mode an exception nothing catches stops twice: where it was thrown,
//!   and where Java's launcher, which called `main`, throws it again.
//! - An evaluation that calls a method resumes the thread for the call, after which the
//!   adapter's frames of that stop are stale ("Thread has been resumed") until a stack
//!   trace is asked again: the session handle asks one before an `evaluate` or a
//!   `variables` (the stop cache answers it while nothing ran). Within one expression
//!   nothing can: a local read after a method call fails (`a.x() * a.y()`).

use serde_json::{json, Map, Value};

use super::dialect::LaunchDraft;
use super::dialect::{absolute, path_value};
use super::{Dialect, Quirks};

pub(super) const QUIRKS: Quirks = Quirks {
    listen_banner_on_stderr: true,
    objects_show_as_ids: true,
    evaluation_stales_frames: true,
    resume_lost_before_start_hold: true,
    uncaught_exception_filters: &["uncaught"],
    no_pid_attach: Some(
        "JdiDapServer attaches only to a JVM's debug agent, by port. Start the program \
         with `java -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:N \
         ...` and attach by `port` N, or launch it under the debugger instead",
    ),
    dialect: Dialect {
        launch,
        after_extra,
        ..Dialect::PLAIN
    },
    ..Quirks::NONE
};

/// The class to run and its classpath, by the program's kind.
fn launch(draft: &mut LaunchDraft<'_>) {
    let program = draft.program.clone();
    let folder = program
        .parent()
        .map(|f| f.to_path_buf())
        .unwrap_or_default();
    let extension = program
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let stem = program
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match extension.as_str() {
        "java" => {
            draft.put("mainClass", path_value(&program));
            draft.put("classpath", path_value(&folder));
        }
        "jar" => {
            if let Some(main) = jar_main_class(&program) {
                draft.put("mainClass", json!(main));
            }
            draft.put("classpath", path_value(&program));
        }
        _ => {
            draft.put("mainClass", json!(stem));
            draft.put("classpath", path_value(&folder));
        }
    }
}

/// The environment, which JdiDapServer does not read, handed to `debuggee-java` as
/// leading `vmArgs` (an agent's own `vmArgs` follow them).
fn after_extra(out: &mut Map<String, Value>) {
    let Some(Value::Object(env)) = out.remove("env") else {
        return;
    };
    let mut options: Vec<String> = env
        .iter()
        .map(|(key, value)| {
            let value = value
                .as_str()
                .map_or_else(|| value.to_string(), str::to_string);
            format!(
                "-Ddapvisor.env={}",
                octal_escaped(&format!("{key}={value}"))
            )
        })
        .collect();
    if let Some(own) = out.get("vmArgs").and_then(Value::as_str) {
        options.push(own.to_string());
    }
    out.insert("vmArgs".into(), json!(options.join(" ")));
}

/// Every byte of `text` as `\ooo`: no whitespace (JdiDapServer splits `vmArgs` on it)
/// and nothing a shell or `printf` reads as more than a byte.
fn octal_escaped(text: &str) -> String {
    text.bytes().map(|b| format!("\\{b:03o}")).collect()
}

/// The `Main-Class` a jar's manifest names, if it can be read.
fn jar_main_class(jar: &std::path::Path) -> Option<String> {
    use std::io::Read;
    let file = std::fs::File::open(absolute(jar)).ok()?;
    let mut archive = zip::ZipArchive::new(file).ok()?;
    let manifest = archive.by_name("META-INF/MANIFEST.MF").ok()?;
    let mut text = String::new();
    // A manifest is small; a larger one is no manifest to trust.
    manifest.take(64 * 1024).read_to_string(&mut text).ok()?;
    text.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim().eq_ignore_ascii_case("Main-Class")).then(|| value.trim().to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::LaunchSpec;

    fn launched(program: &str, extra: Value) -> Map<String, Value> {
        let mut spec = LaunchSpec::new(program);
        spec.env.insert("MODE".into(), "a b".into());
        if let Value::Object(extra) = extra {
            spec.extra = extra;
        }
        crate::registry::builtin_adapters()
            .into_iter()
            .find(|d| d.name == "java")
            .unwrap()
            .launch_arguments(&spec)
    }

    #[test]
    fn a_source_file_runs_as_itself_and_a_class_from_its_folder() {
        let source = launched("/src/Shop.java", json!({}));
        assert_eq!(source["mainClass"], "/src/Shop.java");
        assert_eq!(source["classpath"], "/src");
        let class = launched("/out/Shop.class", json!({}));
        assert_eq!(class["mainClass"], "Shop");
        assert_eq!(class["classpath"], "/out");
        let named = launched(
            "/out/com/x/App.class",
            json!({ "mainClass": "com.x.App", "classpath": "/out" }),
        );
        assert_eq!(named["mainClass"], "com.x.App");
        assert_eq!(named["classpath"], "/out");
    }

    #[test]
    fn the_environment_goes_to_the_programs_java_escaped_before_the_agents_vm_args() {
        let args = launched("/src/Shop.java", json!({ "vmArgs": "-Xmx64m" }));
        assert!(args.get("env").is_none(), "{args:?}");
        let mode = octal_escaped("MODE=a b");
        assert!(mode.starts_with("\\115\\117") && !mode.contains(' '));
        assert_eq!(args["vmArgs"], format!("-Ddapvisor.env={mode} -Xmx64m"));
    }
}
