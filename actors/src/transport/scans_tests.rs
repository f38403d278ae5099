//! The transport reads `/proc` (to note the processes under its adapter, and to sweep
//! them at the end) on tokio's blocking pool, never in its handlers: on a
//! current-thread runtime the actors run on the test's own thread, so a scan there
//! is a scan in a handler.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::registry::{AdapterDef, ResolvedAdapter};
use crate::transport::messages::TransportSink;
use crate::transport::pidfd::Pidfd;
use crate::transport::procfs::{is_alive, SCANNED_ON};
use crate::transport::TransportOutput;
use crate::transport::{TransportActor, TransportArgs, TransportConfig, TransportMsg};

/// A stdio "adapter": a shell with a child, that sends one DAP `process` event (a
/// moment to note the processes under it) and waits.
fn adapter() -> ResolvedAdapter {
    let body = r#"{"seq":1,"type":"event","event":"process","body":{"name":"x"}}"#;
    let script = format!(
        "sleep 300 & printf 'Content-Length: {}\\r\\n\\r\\n%s' '{body}'; wait",
        body.len()
    );
    let def = AdapterDef::generic("sh", "sh");
    ResolvedAdapter::running(&def, "sh".into(), vec!["-c".into(), script])
}

#[tokio::test(flavor = "current_thread")]
async fn proc_is_read_off_the_transports_handlers() {
    let (tx, mut outputs) = mpsc::unbounded_channel();
    let sink: TransportSink = Arc::new(move |output| {
        let _ = tx.send(output);
    });
    let pid = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let args = TransportArgs {
        adapter: adapter(),
        sink,
        config: TransportConfig {
            shutdown_grace: Duration::from_millis(100),
            ..TransportConfig::default()
        },
        pid_slot: Some(pid.clone()),
        traffic: Default::default(),
        span: tracing::Span::none(),
        child_slots: Default::default(),
    };
    let (transport, _) = ractor::Actor::spawn(None, TransportActor, args)
        .await
        .unwrap();
    let wait = Duration::from_secs(30);
    match tokio::time::timeout(wait, outputs.recv()).await {
        Ok(Some(TransportOutput::Event(event, _))) => assert_eq!(event.event, "process"),
        other => panic!("want the process event, got {other:?}"),
    }
    let leader = pid.load(std::sync::atomic::Ordering::Relaxed);
    let _ = transport.cast(TransportMsg::StopAdapter);
    loop {
        match tokio::time::timeout(wait, outputs.recv()).await {
            Ok(Some(TransportOutput::Closed(_))) => break,
            Ok(Some(_)) => {}
            other => panic!("want the close, got {other:?}"),
        }
    }
    // Swept: the adapter goes (its group killed, which takes a scan).
    if let Ok(pidfd) = Pidfd::open(leader) {
        let exited = tokio::time::timeout(wait, pidfd.exited()).await;
        assert!(
            exited.is_ok(),
            "the adapter {leader} outlived its transport"
        );
    }
    assert!(!is_alive(leader));
    let here = std::thread::current().id();
    let scans = SCANNED_ON.lock().unwrap();
    assert!(
        !scans.contains(&here),
        "a /proc scan ran on the actors' thread, in a handler"
    );
}
