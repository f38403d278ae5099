//! debug.diff through the Rust API where a test needs the runtime itself: a runtime
//! whose sessions keep few rows (a run past the cap is refused), and its events (a
//! diff given up on midway ends both runs). Real debugpy.

mod agent;
mod common;

use serde_json::json;

fn program(path: &str) -> String {
    common::root().join(path).display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_past_the_sessions_row_cap_are_refused_rather_than_misaligned() {
    use dapvisor::permission::{PermissionGate, PermissionMode};
    use dapvisor::tools::{ToolCatalogue, ToolProfile};
    let runtime = dapvisor::Runtime::start(dapvisor::RuntimeConfig::default().max_trace_rows(5))
        .await
        .unwrap();
    let tools = ToolCatalogue::new(runtime.clone())
        .with_profile(ToolProfile::All)
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let shipping = program("examples/programs/python/shipping/shipping.py");
    // Two parcels make twelve rows, past a cap of five.
    let refused = agent::fails(
        &tools,
        "debug.diff",
        json!({ "a": { "program": shipping, "args": ["1", "2"] },
                "b": { "program": shipping, "args": ["1", "3"] },
                "calls": ["quote", "band", "*_rate"], "timeout": 120 }),
        413,
    )
    .await;
    assert!(
        refused.text.contains("more rows than a session keeps"),
        "{}",
        refused.text
    );
    assert!(runtime.sessions().is_empty(), "both ended");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diff_given_up_on_midway_ends_both_runs() {
    use dapvisor::permission::{PermissionGate, PermissionMode};
    use dapvisor::tools::{ToolCatalogue, ToolProfile};
    use dapvisor::{EventKind, Received};
    let runtime = dapvisor::Runtime::start(dapvisor::RuntimeConfig::default())
        .await
        .unwrap();
    let mut events = runtime.subscribe();
    let tools = ToolCatalogue::new(runtime.clone())
        .with_profile(ToolProfile::All)
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let ticker = program("examples/programs/python/ticker.py");
    // Two programs that run for minutes: the call is dropped (its client went) while
    // the diff waits on them.
    let call = tokio::spawn(async move {
        tools
            .call(
                "debug.diff",
                json!({ "a": { "program": ticker }, "b": { "program": ticker },
                        "calls": ["tick"], "timeout": 300 }),
            )
            .await
    });
    let mut running = std::collections::HashSet::new();
    while running.len() < 2 {
        if let Some(Received::Event(event)) = events.recv().await {
            if matches!(event.kind, EventKind::Process { .. }) {
                running.insert(event.session_id);
            }
        }
    }
    call.abort();
    assert!(call.await.unwrap_err().is_cancelled());
    // Bounded, so that a session left running fails the test rather than hanging it.
    let mut closed = std::collections::HashSet::new();
    let both_closed = async {
        while closed.len() < 2 {
            if let Some(Received::Event(event)) = events.recv().await {
                if matches!(event.kind, EventKind::SessionClosed { .. }) {
                    closed.insert(event.session_id);
                }
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(120), both_closed)
        .await
        .expect("both sessions end once the diff is given up on");
    assert_eq!(closed, running);
    assert!(runtime.sessions().is_empty());
    runtime.shutdown().await;
}
