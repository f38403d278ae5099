//! Restarting an attached session under paused tokio time, on the scripted in-process
//! adapter: it re-attaches while its target lives, and fails naming the target (a
//! process, a debug server) once that is gone.

mod session_support;

use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::{RunTicket, RuntimeConfig, SessionError};
use session_support::restarts::{stopped, WAIT};
use session_support::runtime as runtime_with;

fn attach_to(pid: u32) -> dapvisor_actors::AttachSpec {
    let mut spec = dapvisor_actors::AttachSpec::default();
    spec.pid = Some(pid);
    spec.adapter = Some("fake".into());
    spec.breakpoints = vec![dapvisor_actors::InitialBreakpoint::new("src/lib.rs", 3)];
    spec
}

#[tokio::test(start_paused = true)]
async fn an_attach_whose_target_lives_re_attaches() {
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    // A process alive for as long as the test runs.
    let target = session_support::LiveProcess::start();
    let session = runtime.attach(attach_to(target.pid())).await.unwrap();
    let first = stopped(&session, 0).await;
    session.evaluate("x", None, None).await.unwrap_err();
    stopped(&session, first).await;
    let attaches = probe.commands().iter().filter(|c| *c == "attach").count();
    assert_eq!(attaches, 2, "attached again after the crash");
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn an_attach_whose_target_is_gone_fails_naming_it() {
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let pid = gone.id();
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let session = runtime.attach(attach_to(pid)).await.unwrap();
    stopped(&session, 0).await;
    gone.wait().unwrap();
    session.evaluate("x", None, None).await.unwrap_err();
    let err = session
        .wait_for_stop(RunTicket { epoch: 1 }, WAIT)
        .await
        .unwrap_err();
    match err {
        SessionError::SessionFailed { reason } => {
            assert!(
                reason.contains(&format!("process {pid} is gone")),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(probe.connections(), 1, "nothing to re-attach to");
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn an_attach_whose_debug_server_is_gone_fails_naming_it() {
    // A port bound but not listening: connecting is refused, and while this socket
    // holds it no other process can start listening there.
    let closed = tokio::net::TcpSocket::new_v4().unwrap();
    closed.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = closed.local_addr().unwrap().port();
    let (runtime, probe) = runtime_with(
        FakeAdapter::new().close_on("evaluate"),
        RuntimeConfig::default(),
    )
    .await;
    let mut spec = attach_to(0);
    spec.pid = None;
    spec.port = Some(port);
    let session = runtime.attach(spec).await.unwrap();
    stopped(&session, 0).await;
    session.evaluate("x", None, None).await.unwrap_err();
    let err = session
        .wait_for_stop(RunTicket { epoch: 1 }, WAIT)
        .await
        .expect_err("the session should have failed");
    match err {
        SessionError::SessionFailed { reason } => assert!(
            reason.contains(&format!("the debug server at 127.0.0.1:{port} is gone")),
            "{reason}"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(probe.connections(), 1, "nothing to re-attach to");
    drop(closed);
    runtime.shutdown().await;
}
