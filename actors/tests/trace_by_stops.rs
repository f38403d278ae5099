//! Tracepoints on an adapter without log points, on the scripted in-process adapter
//! with `supportsLogPoints` false (no real adapter here lacks them): the tracepoint
//! stops the program, the session evaluates its expressions in the top frame and
//! continues, and the agent sees the program run to its end with a row per hit, each
//! with its thread and the route it came by.

use std::time::Duration;

use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::{
    InitialBreakpoint, LaunchSpec, RunTicket, Runtime, RuntimeConfig, StopOutcome, TraceRoute,
};
use serde_json::json;

#[tokio::test(start_paused = true)]
async fn a_tracepoint_is_read_at_a_stop_no_one_sees() {
    let (connect, probe) = FakeAdapter::new()
        .capability("supportsLogPoints", json!(false))
        .evaluate_result("total", "41")
        .exit_code(3)
        .connector();
    let config = RuntimeConfig::default().in_process_adapter("fake", connect);
    let runtime = Runtime::start(config).await.unwrap();
    let mut spec = LaunchSpec::new("Cargo.toml").adapter("fake");
    spec.breakpoints.push({
        let mut value = InitialBreakpoint::new("src/lib.rs", 3);
        value.collect = vec!["total".into(), "count".into()];
        value
    });
    let session = runtime.launch(spec).await.unwrap();
    let outcome = session
        .wait_for_stop(RunTicket { epoch: 0 }, Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(outcome, StopOutcome::Terminated { exit_code: Some(3) });

    let slice = session.trace(0, 10).await.unwrap();
    assert_eq!(slice.rows.len(), 1, "{slice:?}");
    let row = &slice.rows[0];
    assert_eq!(
        (row.route, row.thread, row.line),
        (TraceRoute::Stop, Some(1), 3)
    );
    let values: Vec<&str> = row.values.iter().map(|v| v.value.as_str()).collect();
    assert_eq!(
        values,
        ["41", "tnuoc"],
        "the fake answers an expression reversed"
    );
    // The log point's template never reached the adapter.
    let sent: Vec<String> = probe
        .requests()
        .into_iter()
        .filter(|r| r.command == "setBreakpoints")
        .map(|r| format!("{:?}", r.arguments))
        .collect();
    assert!(
        !sent.is_empty() && sent.iter().all(|a| !a.contains("logMessage")),
        "{sent:?}"
    );
    // Read at the stop, then continued: the agent's wait saw none of it.
    let commands = probe.commands();
    let at_stop: Vec<&str> = commands
        .iter()
        .map(String::as_str)
        .skip_while(|c| *c != "stackTrace")
        .take(4)
        .collect();
    assert_eq!(at_stop, ["stackTrace", "evaluate", "evaluate", "continue"]);
    runtime.shutdown().await;
}
