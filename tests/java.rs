//! The runtime against the real Java adapter (JdiDapServer on Debian's OpenJDK 17,
//! installed by `dapvisor adapters install java`): a compiled class by `mainClass` and
//! `classpath` with its input, environment, folder and arguments; a jar by its
//! manifest; stepping through the Java example; an exception nothing catches; and
//! dapvisor's `java` for the program, which keeps the debug agent on loopback.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use common::*;
use dapvisor::{InitialBreakpoint, LaunchSpec, RunTicket, Runtime, RuntimeConfig};
use serde_json::json;

/// `tests/support/java/shop/Echo.java` compiled with `-g` into a folder of this test
/// binary's own, and packed into a jar whose manifest names it: (classes, jar).
fn echo_classes_and_jar() -> &'static (PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let classes = build_dir().join(format!("java-classes-{}", std::process::id()));
        let status = Command::new("javac")
            .args(["-g", "-d"])
            .arg(&classes)
            .arg(root().join("tests/support/java/shop/Echo.java"))
            .status()
            .expect("javac must be installed (scripts/provision installs openjdk-17-jdk-headless)");
        assert!(status.success(), "compiling Echo.java failed");
        let jar = build_dir().join(format!("echo-{}.jar", std::process::id()));
        let status = Command::new("jar")
            .args(["--create", "--main-class", "shop.Echo", "--file"])
            .arg(&jar)
            .arg("-C")
            .arg(&classes)
            .arg(".")
            .status()
            .expect("jar comes with the JDK");
        assert!(status.success(), "packing echo.jar failed");
        (classes, jar)
    })
}

/// The command line of the program JdiDapServer started from `classes` (it marks its
/// programs with `-Dmcp.debugger.jvm=true`), its arguments joined by spaces.
fn debuggee_command_line(classes: &std::path::Path) -> String {
    let classes = classes.display().to_string();
    let lines = std::fs::read_dir("/proc").unwrap().filter_map(|entry| {
        let raw = std::fs::read(entry.ok()?.path().join("cmdline")).ok()?;
        let line = String::from_utf8_lossy(&raw).replace('\0', " ");
        (line.contains("-Dmcp.debugger.jvm=true") && line.contains(&classes)).then_some(line)
    });
    let found: Vec<String> = lines.collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found[0].clone()
}

/// A file holding `text`, for a program's stdin.
fn input_file(text: &str) -> PathBuf {
    let file = build_dir().join(format!("java-stdin-{}", std::process::id()));
    std::fs::write(&file, text).unwrap();
    file
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_by_main_class_and_classpath_gets_its_input_environment_folder_and_arguments() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let (classes, _) = echo_classes_and_jar();
    let source = root().join("tests/support/java/shop/Echo.java");
    let line = line_of(&source, "System.out.println(\"read \"");
    let mut spec = LaunchSpec::new(classes.join("shop/Echo.class")).breakpoint(&source, line);
    spec.extra.insert("mainClass".into(), json!("shop.Echo"));
    spec.extra
        .insert("classpath".into(), json!(classes.display().to_string()));
    spec.args = vec!["a b".into(), "$HOME".into()];
    spec.env
        .insert("SHOP_MODE".into(), "late 'night' $x %s".into());
    spec.cwd = Some(root().join("tests/support"));
    spec.stdin = Some(input_file("two pens\n"));
    let session = runtime.launch(spec).await.unwrap();
    assert_eq!(
        session.snapshot().await.unwrap().adapter.as_deref(),
        Some("java")
    );
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("shop.Echo.main", line)
    );
    assert_eq!(local(&session, "line").await, "\"two pens\"");
    assert_eq!(local(&session, "mode").await, "\"late 'night' $x %s\"");
    // The program was started through dapvisor's `java`: its debug agent listened on
    // loopback, where JdiDapServer asks for every interface (`address=*:PORT`).
    let agent = debuggee_command_line(classes);
    assert!(
        agent.contains("address=127.0.0.1:") && agent.contains("quiet=y"),
        "{agent}"
    );
    assert!(!agent.contains("address=*:"), "{agent}");
    // The breakpoint, pending until its class loaded, is reported set.
    let snapshot = session.snapshot().await.unwrap();
    let record = &snapshot.breakpoints.file(&source)[0];
    let actual = record.actual.as_ref().expect("the adapter's breakpoint");
    assert!(actual.verified, "{record:?}");
    assert_eq!(record.actual_line(), Some(line));

    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(22));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(
        out.contains("read two pens; mode late 'night' $x %s; in support; args a b,$HOME"),
        "{out:?}"
    );
    assert!(!out.contains("Listening for transport"), "{out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_jar_runs_as_the_main_class_its_manifest_names() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let (_, jar) = echo_classes_and_jar();
    let mut spec = LaunchSpec::new(jar);
    spec.args = vec!["one".into()];
    let session = runtime.launch(spec).await.unwrap();
    // No stdin file: an empty input, read at once.
    assert_eq!(
        expect_exit(&session, RunTicket { epoch: 0 }).await,
        Some(21)
    );
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("read null; mode null;"), "{out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_in_and_out_through_the_parcels_example_with_a_conditional_breakpoint() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("java/Parcels.java");
    let line = line_of(&source, "int cents = charge(parcel);");
    let mut spec = LaunchSpec::new(&source);
    spec.breakpoints.push({
        let mut at = InitialBreakpoint::new(source.clone(), line);
        at.condition = Some("parcel.grams() == 3001".into());
        at
    });
    let session = runtime.launch(spec).await.unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    // The condition held only for the last parcel: three were charged before it.
    assert_eq!(local(&session, "total").await, "4840");

    let ticket = session.step_in(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(2)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[1].name.as_str()),
        ("Parcels.charge", "Parcels.main"),
        "{frames:?}"
    );
    let ticket = session.step_out(None).await.unwrap();
    expect_stop(&session, ticket).await;
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(frames[0].name, "Parcels.main", "{frames:?}");
    let ticket = session.next(None).await.unwrap();
    expect_stop(&session, ticket).await;
    assert_eq!(local(&session, "cents").await, "540");

    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(14));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exception_nothing_catches_stops_where_it_was_thrown_by_default() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = root().join("tests/support/java/Raises.java");
    let mut spec = LaunchSpec::new(&source);
    // As debug.launch does when the agent names no filters.
    spec.exception_filters = vec!["uncaught".into()];
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "exception");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        frames[0].line,
        line_of(&source, "throw new IllegalStateException")
    );
    let info = session.exception_info(None).await.unwrap();
    assert!(
        info.exception_id.contains("IllegalStateException"),
        "{info:?}"
    );
    assert_eq!(local(&session, "shelves").await, "0");

    // Java's source-file launcher, which called `main`, throws the exception again
    // from its own frame: a second stop there, the same exception.
    let ticket = session.continue_(None).await.unwrap();
    let again = expect_stop(&session, ticket).await;
    assert_eq!(again.reason, "exception");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert!(frames[0].name.contains("launcher"), "{frames:?}");

    // The caught one did not stop the program; the uncaught one ends it with 1.
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(1));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(
        out.contains("caught: For input string: \"twelve\""),
        "{out:?}"
    );
    assert!(
        out.contains("Exception in thread \"main\" java.lang.IllegalStateException"),
        "{out:?}"
    );
    runtime.shutdown().await;
}

/// JdiDapServer shows objects as `Class@id`: the locals show previews read from their
/// children instead, and the children are still there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn objects_show_as_previews_of_their_fields_elements_and_entries() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = root().join("tests/support/java/Shelf.java");
    let line = line_of(&source, "System.out.println(\"shelf \"");
    let session = runtime
        .launch(LaunchSpec::new(&source).breakpoint(&source, line))
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(local(&session, "stock").await, "{\"pen\"=12}");
    assert_eq!(local(&session, "reserved").await, "3");
    assert_eq!(local(&session, "names").await, "[\"pen\", \"pad\"]");
    // One level down: the record's list is previewed, not its elements' fields.
    assert_eq!(
        local(&session, "bin").await,
        "Bin[label=\"A1\", items=[\"pen\", \"pad\"]]"
    );
    assert_eq!(
        local(&session, "many").await,
        "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, …]"
    );
    runtime.shutdown().await;
}

/// A JVM someone started with its debug agent on a loopback port is attached to by
/// that port: a breakpoint set then stops it, and a detach lets it run to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attaches_by_port_to_a_jvm_started_with_its_debug_agent() {
    use std::io::{BufRead, Write};
    let (classes, _) = echo_classes_and_jar();
    let mut started = Command::new("java")
        .arg("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0")
        .arg("-cp")
        .arg(classes)
        .arg("shop.Echo")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // `Listening for transport dt_socket at address: PORT`, then it waits for a line.
    let mut stdout = std::io::BufReader::new(started.stdout.take().unwrap());
    let mut banner = String::new();
    stdout.read_line(&mut banner).unwrap();
    let port: u16 = banner
        .trim_end()
        .rsplit_once(' ')
        .and_then(|(_, p)| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {banner:?}"));

    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut spec = dapvisor::AttachSpec::default();
    spec.adapter = Some("java".into());
    spec.port = Some(port);
    let session = runtime.attach(spec).await.unwrap();
    let source = root().join("tests/support/java/shop/Echo.java");
    let line = line_of(&source, "System.out.println(\"read \"");
    let set = session
        .set_breakpoints(
            &source,
            vec![dapvisor::wire::types::SourceBreakpoint {
                line,
                ..Default::default()
            }],
        )
        .await
        .unwrap();
    assert!(
        set[0].actual.as_ref().is_some_and(|b| b.verified),
        "{set:?}"
    );
    let mut stdin = started.stdin.take().unwrap();
    stdin.write_all(b"one crate\n").unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    assert_eq!(local(&session, "line").await, "\"one crate\"");
    session.disconnect(false).await.unwrap();
    runtime.shutdown().await;
    assert_eq!(
        started.wait().unwrap().code(),
        Some(20),
        "a detach lets it run on"
    );
    let mut said = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut said).unwrap();
    assert!(said.contains("read one crate;"), "{said:?}");
}

/// The `java` JdiDapServer starts programs with, run on a stand-in `java` that prints
/// what it was given: the debug agent JdiDapServer asks for on every interface goes
/// on loopback, an agent of another shape is refused, the environment is exported.
#[test]
fn the_programs_java_keeps_the_debug_agent_on_loopback() {
    let home = dapvisor::registry::dapvisor_home();
    let debuggee_java = home.join("java/bin/debuggee-java");
    assert!(
        debuggee_java.is_file(),
        "{} is missing: run `dapvisor adapters install java`",
        debuggee_java.display()
    );
    let stand_in = build_dir().join(format!("java-stand-in-{}", std::process::id()));
    std::fs::create_dir_all(&stand_in).unwrap();
    let java = stand_in.join("java");
    std::fs::write(
        &java,
        "#!/bin/sh\nprintf '<%s>' \"$@\"; printf '%s' \"$SHOP_MODE\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&java, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = |args: &[&str]| {
        Command::new(&debuggee_java)
            .args(args)
            .env("PATH", format!("{}:/usr/bin:/bin", stand_in.display()))
            .output()
            .unwrap()
    };
    // `SHOP_MODE=a b` in octal escapes, as the Java dialect writes it.
    let mode = r"-Ddapvisor.env=\123\110\117\120\137\115\117\104\105\075\141\040\142";
    let given = run(&[
        mode,
        "-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=*:4711",
        "-cp",
        "a b",
        "Main",
    ]);
    assert!(given.status.success(), "{given:?}");
    assert_eq!(
        String::from_utf8_lossy(&given.stdout),
        "<-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:4711,quiet=y>\
         <-cp><a b><Main>a b"
    );
    let refused = run(&["-agentlib:jdwp=transport=dt_socket,server=y,address=0.0.0.0:4711"]);
    assert_eq!(refused.status.code(), Some(125), "{refused:?}");
    assert!(refused.stdout.is_empty(), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("not the debug agent option"),
        "{refused:?}"
    );
}
