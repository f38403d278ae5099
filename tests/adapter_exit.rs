//! When an adapter dies, every pending request fails at once with its exit status and
//! the tail of its stderr; nothing waits for a deadline. An adapter that dies at
//! start-up, or never says where it listens, is reported with what it said on each
//! stream. (That the session then comes back is in `restarts.rs`.)

mod common;

use dapvisor::ErrorCode;
use std::time::Duration;

use common::*;
use dapvisor::registry::{AdapterDef, AdapterRegistry, RegistryError, TransportKind};
use dapvisor::{EventKind, LaunchSpec, Received, RunTicket, Runtime, RuntimeConfig, SessionError};

/// debugpy, started by a wrapper that first writes one line on its stderr (debugpy
/// itself writes nothing there in stdio mode), so that its crash can be checked to
/// carry the adapter's last words.
fn debugpy_with_a_stderr_line(registry: &AdapterRegistry) -> AdapterDef {
    let mut def = registry
        .get("debugpy")
        .expect("debugpy is built in")
        .clone();
    def.name = "debugpy-marked".into();
    def.extensions.clear();
    let wrapper = "import runpy, sys\n\
                   sys.stderr.write('debugpy under test: starting\\n')\n\
                   sys.stderr.flush()\n\
                   sys.argv = ['debugpy.adapter']\n\
                   runpy.run_module('debugpy.adapter', run_name='__main__', alter_sys=True)\n";
    def.args = vec!["-c".into(), wrapper.into()];
    def
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pending_request_fails_at_once_when_the_adapter_is_killed() {
    let mut config = RuntimeConfig::default();
    let marked = debugpy_with_a_stderr_line(config.adapters());
    config.adapters_mut().register(marked);
    let runtime = Runtime::start(config).await.unwrap();
    let file = program("python/discount.py");
    let line = line_of(&file, "total += discounted");
    let session = runtime
        .launch(
            LaunchSpec::new(&file)
                .adapter("debugpy-marked")
                .breakpoint(&file, line),
        )
        .await
        .unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    let frame = session.stack_trace(stop.thread_id, Some(1)).await.unwrap()[0].id;

    // An evaluation that says it has begun (the debuggee's output comes back as an
    // event), then keeps the adapter busy for far longer than the test runs.
    let mut events = session.subscribe();
    let evaluating = {
        let session = session.clone();
        tokio::spawn(async move {
            let expression =
                "print('evaluation begun', flush=True) or __import__('time').sleep(600)";
            session.evaluate(expression, Some(frame), None).await
        })
    };
    let begun = tokio::time::timeout(STOP_WAIT, async {
        while let Some(received) = events.recv().await {
            if let Received::Event(event) = received {
                if let EventKind::Output { output, .. } = &event.kind {
                    if output.contains("evaluation begun") {
                        return;
                    }
                }
            }
        }
        panic!("the session's events ended");
    });
    begun.await.expect("the evaluation never began");
    assert!(session.snapshot().await.unwrap().pending_requests >= 1);

    let pid = session.adapter_pid().expect("debugpy runs as a process");
    // SAFETY: sending a signal to the adapter this test started.
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };

    let result = tokio::time::timeout(Duration::from_secs(30), evaluating)
        .await
        .expect("the pending request must fail at once, not at its deadline")
        .unwrap();
    match result {
        Err(SessionError::AdapterCrashed { exit, attempt, .. }) => {
            assert_eq!(exit.signal, Some(libc::SIGKILL), "{exit:?}");
            assert!(!exit.requested);
            assert_eq!(attempt, 1);
            assert!(
                exit.stderr_tail.contains("debugpy under test: starting"),
                "the adapter's stderr: {exit:?}"
            );
            assert!(
                exit.to_string()
                    .contains("adapter stderr ends with: debugpy under test: starting"),
                "{exit}"
            );
        }
        other => panic!("expected AdapterCrashed, got {other:?}"),
    }
    assert!(session.state().await.unwrap().is_live());
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adapter_that_dies_at_start_reports_its_exit_code_and_stderr() {
    let mut crashy = AdapterDef::generic("crashy", "sh");
    crashy.args = vec![
        "-c".into(),
        "echo 'crashy: cannot start' >&2; exit 7".into(),
    ];
    let mut config = RuntimeConfig::default();
    config.adapters_mut().register(crashy);
    let runtime = Runtime::start(config).await.unwrap();

    let err = runtime
        .launch(LaunchSpec::new(program("python/discount.py")).adapter("crashy"))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, SessionError::StartFailed { .. }), "{err:?}");
    assert!(text.contains("exit code 7"), "{text}");
    assert!(text.contains("crashy: cannot start"), "{text}");
    assert!(
        runtime.sessions().is_empty(),
        "a failed launch leaves no session"
    );
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_adapter_names_itself_and_how_to_install_it() {
    let mut missing = AdapterDef::generic("nosuch", "dapvisor-no-such-adapter");
    missing.install_hint = "install nosuch with your package manager".into();
    let mut config = RuntimeConfig::default();
    config.adapters_mut().register(missing);
    let runtime = Runtime::start(config).await.unwrap();
    let err = runtime
        .launch(LaunchSpec::new(program("python/discount.py")).adapter("nosuch"))
        .await
        .unwrap_err();
    let text = err.to_string();
    // Typed: an embedder can tell a missing adapter from a bad argument, and read
    // what was tried.
    match &err {
        SessionError::Registry(RegistryError::NotInstalled { adapter, tried, .. }) => {
            assert_eq!(adapter, "nosuch");
            assert!(!tried.is_empty(), "{err:?}");
        }
        other => panic!("not a missing adapter: {other:?}"),
    }
    assert_eq!((err.code(), err.kind()), (500, "adapter_start"));
    assert!(
        text.starts_with("could not start adapter `nosuch`: "),
        "{text}"
    );
    assert!(text.contains("nosuch"), "{text}");
    assert!(
        text.contains("install nosuch with your package manager"),
        "{text}"
    );
    runtime.shutdown().await;
}

/// A runtime whose adapter `silent-tcp` is registered as one that listens on a port
/// it picks (as dlv does), but runs `script` instead, which never names a port.
async fn tcp_adapter_runtime(script: &str, config: RuntimeConfig) -> Runtime {
    let mut def = AdapterDef::generic("silent-tcp", "sh");
    def.transport = TransportKind::TcpListen;
    def.args = vec!["-c".into(), script.into()];
    let mut config = config;
    config.adapters_mut().register(def);
    Runtime::start(config).await.unwrap()
}

/// The pid a script printed as `pid N` on its stdout, read back from the error.
fn printed_pid(text: &str) -> u32 {
    let after = text.split("pid ").nth(1).expect("the script's pid line");
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tcp_adapter_that_exits_without_naming_its_port_says_so_with_its_output() {
    let script = "echo \"pid $$: warming up\"; echo 'cannot bind a port' >&2; exit 4";
    let runtime = tcp_adapter_runtime(script, RuntimeConfig::default()).await;
    let err = runtime
        .launch(LaunchSpec::new(program("python/discount.py")).adapter("silent-tcp"))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, SessionError::StartFailed { .. }), "{err:?}");
    assert!(
        text.contains("ended its output without saying which port it listens on"),
        "{text}"
    );
    assert!(text.contains("exit code 4"), "{text}");
    // Each stream is quoted under its own name.
    assert!(
        text.contains("adapter stderr ends with: cannot bind a port"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "adapter stdout ends with: pid {}: warming up",
            printed_pid(&text)
        )),
        "{text}"
    );
    assert!(runtime.sessions().is_empty());
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tcp_adapter_that_never_names_its_port_is_ended_at_the_connect_timeout() {
    // Silent after one line, for longer than any test runs.
    let script = "echo \"pid $$: thinking\"; exec sleep 600";
    let config = RuntimeConfig::default().connect_timeout(Duration::from_secs(1));
    let runtime = tcp_adapter_runtime(script, config).await;
    let err = tokio::time::timeout(
        Duration::from_secs(60),
        runtime.launch(LaunchSpec::new(program("python/discount.py")).adapter("silent-tcp")),
    )
    .await
    .expect("the launch fails at the connect timeout, not never")
    .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, SessionError::StartFailed { .. }), "{err:?}");
    assert!(
        text.contains("did not say which port it listens on within 1s"),
        "{text}"
    );
    let pid = printed_pid(&text);
    assert!(
        text.contains(&format!("adapter stdout ends with: pid {pid}: thinking")),
        "{text}"
    );
    assert!(
        wait_gone(vec![pid]).await.is_empty(),
        "the silent adapter {pid} was left running"
    );
    runtime.shutdown().await;
}
