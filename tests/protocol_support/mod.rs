//! Helpers shared by the protocol tests (`protocol_*.rs`): a session stopped at a line,
//! what an adapter advertises, and what a refusal for a missing capability looks like.
#![allow(dead_code)]

pub mod debugpy;

use dapvisor::signals::Signal;
use dapvisor::ErrorCode;
use std::fmt::Debug;
use std::path::Path;

use dapvisor::{
    LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionError, SessionHandle, SessionSnapshot,
};

use crate::common::{expect_stop, line_of};

/// `file` under its adapter, stopped at the first hit of the line holding `needle`.
pub async fn stopped_at(file: &Path, needle: &str) -> (Runtime, SessionHandle) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let line = line_of(file, needle);
    let session = runtime
        .launch(LaunchSpec::new(file).breakpoint(file, line))
        .await
        .unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    (runtime, session)
}

/// Assert that `session` advertises the capabilities and exception filters
/// docs/PROTOCOL.md records for `adapter`.
pub async fn assert_advertises_as_recorded(session: &SessionHandle, adapter: &str) {
    let snapshot = session.snapshot().await.unwrap();
    let (capabilities, filters) = recorded(adapter);
    assert_eq!(advertised(&snapshot), capabilities, "{adapter}");
    assert_eq!(exception_filters(&snapshot), filters, "{adapter}");
}

/// The capability flags the adapter set to `true` in its `initialize` answer (and
/// later `capabilities` events), sorted: what docs/PROTOCOL.md records per adapter.
pub fn advertised(snapshot: &SessionSnapshot) -> Vec<String> {
    let caps = serde_json::to_value(&snapshot.capabilities).unwrap();
    let mut flags: Vec<String> = caps
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| **v == serde_json::Value::Bool(true))
        .map(|(k, _)| k.clone())
        .collect();
    flags.sort();
    flags
}

/// Insist that `result` is the refusal for a missing capability that names `flag`,
/// given before anything reached the adapter.
pub fn assert_unsupported<T: Debug>(result: Result<T, SessionError>, flag: &str) {
    match result {
        Err(err @ SessionError::Unsupported { .. }) => {
            let text = err.to_string();
            assert!(text.contains(flag), "`{text}` should name {flag}");
            assert_eq!(err.code(), 501);
        }
        other => panic!("expected a refusal naming {flag}, got {other:?}"),
    }
}

/// Insist that the adapter itself refused `command` (it was sent, and answered).
pub fn assert_adapter_refused<T: Debug>(result: Result<T, SessionError>, command: &str) -> String {
    match result {
        Err(SessionError::Adapter {
            command: c,
            message,
            ..
        }) => {
            assert_eq!(c, command);
            message
        }
        other => panic!("expected the adapter to refuse `{command}`, got {other:?}"),
    }
}

/// An address as adapters write it (`0x5555555551A8`, `0x49cecc`), as a number.
pub fn address(text: &str) -> u64 {
    let hex = text
        .trim()
        .trim_start_matches("0x")
        .trim_start_matches("0X");
    u64::from_str_radix(hex, 16).unwrap_or_else(|e| panic!("`{text}` is no address: {e}"))
}

/// Read `stream` until it has carried every one of the `expected` signals
/// (`dap_stopped`, `dap_module`, ...); returns every signal seen. Fails, naming what
/// is missing, when they have not all come within a minute.
pub async fn expect_signals(
    stream: &mut dapvisor::EventStream<dapvisor::SessionEvent>,
    expected: &[&str],
) -> std::collections::BTreeSet<String> {
    let mut seen = std::collections::BTreeSet::new();
    let all_seen =
        |seen: &std::collections::BTreeSet<String>| expected.iter().all(|e| seen.contains(*e));
    let read = async {
        while !all_seen(&seen) {
            match stream.recv().await {
                Some(dapvisor::Received::Event(event)) => {
                    seen.insert(event.signal());
                }
                Some(dapvisor::Received::Lagged { .. }) => {}
                Some(dapvisor::Received::CutOff { waiting }) => {
                    panic!("cut off with {waiting} events unread")
                }
                None => break,
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(60), read).await;
    let missing: Vec<&&str> = expected.iter().filter(|e| !seen.contains(**e)).collect();
    assert!(missing.is_empty(), "never saw {missing:?}; saw {seen:?}");
    seen
}

/// The exception filter ids the adapter offered in its `initialize` answer, in its
/// order: what docs/PROTOCOL.md records per adapter.
/// What docs/PROTOCOL.md's "What each adapter advertises" records for `adapter` (its
/// `### adapter` heading there): the capabilities, sorted, and the exception filters in
/// the order offered.
pub fn recorded(adapter: &str) -> (Vec<String>, Vec<String>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/PROTOCOL.md");
    let doc = std::fs::read_to_string(path).expect("docs/PROTOCOL.md");
    let section = doc
        .split("## What each adapter advertises")
        .nth(1)
        .expect("PROTOCOL.md has the section")
        .split("\n## ")
        .next()
        .unwrap();
    let part = section
        .split(&format!("### {adapter}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("PROTOCOL.md records nothing for {adapter}"))
        .split("\n### ")
        .next()
        .unwrap();
    let names = |label: &str| -> Vec<String> {
        let line = part
            .lines()
            .find_map(|l| l.strip_prefix(label))
            .unwrap_or_else(|| panic!("{adapter}: no `{label}` line in PROTOCOL.md"));
        line.split('`')
            .skip(1)
            .step_by(2)
            .map(String::from)
            .collect()
    };
    let mut capabilities = names("- capabilities: ");
    capabilities.sort();
    (capabilities, names("- exception filters: "))
}

pub fn exception_filters(snapshot: &SessionSnapshot) -> Vec<String> {
    snapshot
        .capabilities
        .exception_breakpoint_filters
        .iter()
        .flatten()
        .map(|f| f.filter.clone())
        .collect()
}
