//! Attach by pid to a running program, on real lldb-dap, CodeLLDB, dlv and debugpy
//! (which injects itself into the Python process with gdb): breakpoints and events as
//! after a launch; then either detach (`disconnect` without terminating: the program
//! runs on) or terminate (the program ends with the session).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use common::procs::{is_alive, runs_untraced, wait_gone};
use common::*;
use dapvisor::{
    AttachSpec, InitialBreakpoint, RunTicket, Runtime, RuntimeConfig, SessionError, SessionState,
};

/// A ticker running on its own, killed if the test ends first.
struct Target(Child);

impl Drop for Target {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Run `program`: a binary, or a Python script under the Python that has debugpy.
fn run(program: &Path) -> Target {
    let mut command = if program.extension().is_some_and(|e| e == "py") {
        let mut python = Command::new(python());
        python.arg(program);
        python
    } else {
        Command::new(program)
    };
    let child = command
        .stdout(Stdio::null())
        .spawn()
        .expect("the ticker starts");
    Target(child)
}

/// `examples/programs/c/ticker.c`, built once per test binary: the tests that
/// attach to it run in parallel, and one must not run it while another rewrites it.
fn c_ticker() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| build_c("ticker")).clone()
}

/// `examples/programs/go/ticker`, built once per test binary (see [`c_ticker`]).
fn go_ticker() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| build_go("ticker")).clone()
}

/// The Python the tests run debugpy with (`DAPVISOR_PYTHON`, as the README says).
fn python() -> String {
    std::env::var("DAPVISOR_PYTHON").unwrap_or_else(|_| "python3".into())
}

fn spec(adapter: &str, target: &Target, binary: PathBuf, source: PathBuf) -> AttachSpec {
    let line = line_of(&source, "return next");
    let mut spec = AttachSpec::default();
    spec.pid = Some(target.0.id());
    spec.program = Some(binary);
    spec.adapter = Some(adapter.into());
    spec.breakpoints = vec![InitialBreakpoint::new(source, line)];
    spec
}

/// Attach, stop in `tick`, read the count; returns the session and the line.
async fn attach_and_stop(runtime: &Runtime, spec: AttachSpec) -> dapvisor::SessionHandle {
    let line = spec.breakpoints[0].line;
    let session = runtime.attach(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(stop.thread_id, Some(1)).await.unwrap();
    assert!(frames[0].name.contains("tick"), "{}", frames[0].name);
    assert_eq!(frames[0].line, line);
    let count: i64 = local(&session, "count").await.parse().unwrap();
    assert!(count >= 0, "count {count}");
    session
}

/// How a test lets an attached program go.
#[derive(Debug, Clone, Copy, PartialEq)]
enum LetGo {
    /// `session.disconnect(false)`: the session stays.
    Disconnect,
    /// `runtime.end_session(id)`: the session is removed, and a program it attached
    /// to is not dapvisor's to end.
    EndSession,
}

async fn detach_leaves_the_program_running(
    adapter: &str,
    binary: PathBuf,
    source: PathBuf,
    how: LetGo,
) {
    let target = run(&binary);
    let pid = target.0.id();
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let session = attach_and_stop(&runtime, spec(adapter, &target, binary, source)).await;

    match how {
        LetGo::Disconnect => {
            session.disconnect(false).await.unwrap();
            assert_eq!(session.state().await.unwrap(), SessionState::Terminated);
        }
        LetGo::EndSession => {
            runtime.end_session(session.id()).await.unwrap();
            assert!(runtime.sessions().is_empty());
        }
    }
    runtime.shutdown().await;
    assert!(is_alive(pid), "a detached program runs on");
    // It runs, not stopped at the breakpoint: its state is not `t` (traced/stopped).
    assert!(runs_untraced(pid), "a detached program is not left stopped");
}

async fn terminate_ends_the_program(adapter: &str, binary: PathBuf, source: PathBuf) {
    let target = run(&binary);
    let pid = target.0.id();
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let session = attach_and_stop(&runtime, spec(adapter, &target, binary, source)).await;

    session.terminate().await.unwrap();
    runtime.shutdown().await;
    let mut target = target;
    let waited = tokio::task::spawn_blocking(move || target.0.wait());
    let status = tokio::time::timeout(STOP_WAIT, waited)
        .await
        .expect("the attached program ends with the session")
        .unwrap()
        .unwrap();
    // It runs for two minutes on its own; ending within STOP_WAIT means it was ended.
    // lldb-dap, CodeLLDB and dlv kill it; debugpy ends it with exit status 0.
    assert!(
        !status.success() || adapter == "debugpy",
        "the program was ended, not left to finish: {status}"
    );
    assert!(wait_gone(vec![pid]).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_attaches_by_pid_and_detaches() {
    let source = program("c/ticker.c");
    detach_leaves_the_program_running("lldb-dap", c_ticker(), source, LetGo::Disconnect).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_ending_an_attached_session_leaves_the_program_running() {
    let source = program("c/ticker.c");
    detach_leaves_the_program_running("lldb-dap", c_ticker(), source, LetGo::EndSession).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_attached_terminate_ends_the_program() {
    let source = program("c/ticker.c");
    terminate_ends_the_program("lldb-dap", c_ticker(), source).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_attaches_by_pid_and_detaches() {
    let source = program("c/ticker.c");
    detach_leaves_the_program_running("codelldb", c_ticker(), source, LetGo::Disconnect).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_attached_terminate_ends_the_program() {
    let source = program("c/ticker.c");
    terminate_ends_the_program("codelldb", c_ticker(), source).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_attaches_by_pid_and_detaches() {
    let source = program("go/ticker/main.go");
    detach_leaves_the_program_running("dlv", go_ticker(), source, LetGo::Disconnect).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_ending_an_attached_session_leaves_the_program_running() {
    let source = program("go/ticker/main.go");
    detach_leaves_the_program_running("dlv", go_ticker(), source, LetGo::EndSession).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_attached_terminate_ends_the_program() {
    let source = program("go/ticker/main.go");
    terminate_ends_the_program("dlv", go_ticker(), source).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_attaches_by_pid_and_detaches() {
    let source = program("python/ticker.py");
    detach_leaves_the_program_running("debugpy", source.clone(), source, LetGo::Disconnect).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_ending_an_attached_session_leaves_the_program_running() {
    let source = program("python/ticker.py");
    detach_leaves_the_program_running("debugpy", source.clone(), source, LetGo::EndSession).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_attached_terminate_ends_the_program() {
    let source = program("python/ticker.py");
    terminate_ends_the_program("debugpy", source.clone(), source).await;
}

/// Leave an attached session idle until the reaper takes it: the program it attached
/// to runs on, detached from, as after a `disconnect` (lldb-server and dlv would take
/// it with them if their adapter were simply killed).
async fn reaping_detaches_and_leaves_the_program_running(
    adapter: &str,
    binary: PathBuf,
    source: PathBuf,
) {
    use dapvisor::{EventKind, Received};

    let target = run(&binary);
    let pid = target.0.id();
    let config = RuntimeConfig::default().idle_limit(Some(std::time::Duration::from_secs(1)));
    let runtime = Runtime::start(config).await.unwrap();
    let mut events = runtime.subscribe();
    let session = attach_and_stop(&runtime, spec(adapter, &target, binary, source)).await;
    let adapter_pid = session.adapter_pid().unwrap();

    // Nothing asks anything of the session from here.
    loop {
        match tokio::time::timeout(STOP_WAIT, events.recv()).await {
            Ok(Some(Received::Event(event)))
                if matches!(event.kind, EventKind::SessionReaped { .. }) =>
            {
                break
            }
            Ok(Some(_)) => {}
            other => panic!("the session was never reaped: {other:?}"),
        }
    }
    assert!(
        wait_gone(vec![adapter_pid]).await.is_empty(),
        "the reaped session's adapter ends"
    );
    runtime.shutdown().await;
    assert!(is_alive(pid), "a program attached to outlives the reaping");
    assert!(
        runs_untraced(pid),
        "and runs on, not stopped at the breakpoint"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_reaping_detaches_and_leaves_the_program_running() {
    let (binary, source) = (c_ticker(), program("c/ticker.c"));
    reaping_detaches_and_leaves_the_program_running("lldb-dap", binary, source).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_reaping_detaches_and_leaves_the_program_running() {
    let (binary, source) = (go_ticker(), program("go/ticker/main.go"));
    reaping_detaches_and_leaves_the_program_running("dlv", binary, source).await;
}

/// Kill the adapter of an attached session. lldb-server and dlv trace the target
/// so that it dies with them: there is nothing to re-attach to, and the session
/// fails saying so (re-attaching to a live target is proven on the in-process
/// adapter, in actors/tests/restarts_attach.rs).
async fn attach_fails_when_its_target_died_with_the_adapter(
    adapter: &str,
    binary: PathBuf,
    source: PathBuf,
) {
    let target = run(&binary);
    let pid = target.0.id();
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let session = attach_and_stop(&runtime, spec(adapter, &target, binary, source)).await;
    let ticket = RunTicket {
        epoch: session.snapshot().await.unwrap().stop_epoch,
    };
    let adapter_pid = session.adapter_pid().unwrap();
    // SAFETY: a signal to the adapter this test started.
    unsafe { libc::kill(adapter_pid as i32, libc::SIGKILL) };
    let outcome = match session.wait_for_stop(ticket, STOP_WAIT).await {
        Err(SessionError::AdapterCrashed { .. }) => session.wait_for_stop(ticket, STOP_WAIT).await,
        other => other,
    };
    match outcome {
        Err(SessionError::SessionFailed { reason }) => {
            assert!(
                reason.contains(&format!("process {pid} is gone")),
                "{reason}"
            )
        }
        other => panic!("expected the session to fail naming its target, got {other:?}"),
    }
    let snapshot = session.snapshot().await.unwrap();
    assert_eq!(
        (snapshot.state, snapshot.restarts),
        (SessionState::Failed, 0)
    );
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_attach_fails_when_its_target_died_with_the_adapter() {
    let (binary, source) = (c_ticker(), program("c/ticker.c"));
    attach_fails_when_its_target_died_with_the_adapter("lldb-dap", binary, source).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_attach_fails_when_its_target_died_with_the_adapter() {
    let (binary, source) = (go_ticker(), program("go/ticker/main.go"));
    attach_fails_when_its_target_died_with_the_adapter("dlv", binary, source).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_disconnect_tool_detaches_and_the_terminate_tool_ends() {
    use dapvisor::permission::{PermissionGate, PermissionMode};
    use dapvisor::tools::ToolCatalogue;
    use serde_json::json;

    let binary = c_ticker();
    let source = program("c/ticker.c");
    let line = line_of(&source, "return next");
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let tools = ToolCatalogue::new(runtime.clone())
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    for (tool, runs_on) in [("debug.disconnect", true), ("debug.terminate", false)] {
        let target = run(&binary);
        let pid = target.0.id();
        let attach = json!({
            "pid": pid,
            "program": binary,
            "adapter": "lldb-dap",
            "breakpoints": [{ "file": source, "line": line }],
        });
        let attached = tools.call("debug.attach", attach).await;
        assert!(!attached.is_error, "{}", attached.text);
        assert_eq!(
            attached.structured["stop"]["line"], line,
            "{}",
            attached.text
        );
        let id = attached.structured["session_id"].clone();
        let ended = tools.call(tool, json!({ "session_id": id })).await;
        assert!(!ended.is_error, "{}", ended.text);
        assert!(runtime.sessions().is_empty());
        if runs_on {
            assert!(is_alive(pid), "{tool} leaves the program running");
        } else {
            assert!(
                wait_gone(vec![pid]).await.is_empty(),
                "{tool} ends the program"
            );
        }
    }
    runtime.shutdown().await;
}

/// The refusal of a debugpy attach to `pid`: its message and output.
async fn debugpy_attach_failure(config: RuntimeConfig, pid: u32) -> (String, String) {
    let runtime = Runtime::start(config).await.unwrap();
    let mut spec = AttachSpec::default();
    spec.pid = Some(pid);
    spec.adapter = Some("debugpy".into());
    let result = runtime.attach(spec).await;
    runtime.shutdown().await;
    match result {
        Err(SessionError::StartFailed {
            message, output, ..
        }) => (message, output),
        other => panic!("want the attach to fail, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debugpy_attach_to_a_missing_process_says_what_failed() {
    let (message, output) = debugpy_attach_failure(RuntimeConfig::default(), 4_000_000).await;
    assert!(
        message.contains("could not attach to process 4000000"),
        "{message}"
    );
    assert!(message.contains("gdb"), "{message}");
    // debugpy's own report of the failed injection.
    assert!(output.contains("Code injection into PID="), "{output}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debugpy_attach_to_a_process_that_is_not_python_says_what_to_check() {
    // gdb injects into `sleep` without complaint, and nothing ever connects back.
    let sleeper = Command::new("sleep").arg("120").spawn().unwrap();
    let sleeper = Target(sleeper);
    let five = std::time::Duration::from_secs(5);
    let config = RuntimeConfig::default()
        .request_timeout(five)
        .launch_timeout(five);
    let (message, _) = debugpy_attach_failure(config, sleeper.0.id()).await;
    let pid = sleeper.0.id();
    assert!(
        message.contains(&format!("could not attach to process {pid}")),
        "{message}"
    );
    assert!(message.contains("runs Python"), "{message}");
    assert!(message.contains("within 5s"), "{message}");
}
