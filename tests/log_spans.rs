//! A log of several sessions reads one session at a time: everything a session and its
//! adapter's transport log sits under `session{id, adapter, program}`, and a request's
//! sending and its answer under `request{command, seq}` within it
//! (`DAPVISOR_LOG=debug`). Two debugpy sessions at once, with
//! the log captured as `dapvisor`'s own subscriber formats it.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use common::*;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig};

/// Where the subscriber writes: shared with the test.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_request_and_response_is_logged_under_its_session() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("dapvisor_actors=debug"))
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::set_global_default(subscriber).unwrap();

    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let line = line_of(&file, "total += discounted");
    let spec = LaunchSpec::new(&file).breakpoint(&file, line);
    let (a, b) = tokio::join!(runtime.launch(spec.clone()), runtime.launch(spec));
    let sessions = [a.unwrap(), b.unwrap()];
    for session in &sessions {
        expect_stop(session, RunTicket { epoch: 0 }).await;
        session.stack_trace(None, Some(1)).await.unwrap();
    }
    runtime.shutdown().await;

    let log = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    let traffic: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("request sent") || l.contains(" response "))
        .collect();
    assert!(!traffic.is_empty(), "{log}");
    for session in &sessions {
        let prefix = format!(
            "session{{id={} adapter=debugpy program={}}}:adapter{{name=debugpy}}",
            session.id(),
            file.display()
        );
        let own: Vec<&&str> = traffic.iter().filter(|l| l.contains(&prefix)).collect();
        for command in ["initialize", "launch", "setBreakpoints", "stackTrace"] {
            // The request's span, with its seq: `...:request{command=launch seq=2}:`.
            let span = format!("{prefix}:request{{command={command} seq=");
            let sent: Vec<&str> = own
                .iter()
                .filter(|l| l.contains("request sent"))
                .filter_map(|l| l.split_once(&span))
                .filter_map(|(_, rest)| rest.split_once('}'))
                .map(|(seq, _)| seq)
                .collect();
            assert!(
                !sent.is_empty(),
                "no `{command}` sent in its span under {prefix}:\n{log}"
            );
            // Its answer is logged in the same span: the same command and seq.
            for seq in sent {
                let same = format!("{span}{seq}}}");
                assert!(
                    own.iter()
                        .any(|l| l.contains(" response ") && l.contains(&same)),
                    "no answer to `{command}` seq {seq} in its span under {prefix}:\n{log}"
                );
            }
        }
    }
    let unplaced: Vec<&&str> = traffic
        .iter()
        .filter(|l| !l.contains("session{id="))
        .collect();
    assert!(
        unplaced.is_empty(),
        "logged outside a session: {unplaced:#?}"
    );
}
