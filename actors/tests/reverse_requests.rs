//! Reverse requests through the session actor, on the scripted in-process adapter
//! under paused tokio time: `runInTerminal` really runs the command, `startDebugging`
//! starts a child session on a new adapter instance, and anything else gets an error
//! response with a proper seq.

use dapvisor_actors::testing::FakeAdapter;
use dapvisor_actors::{EventKind, LaunchSpec, Received, RuntimeConfig};
use serde_json::json;

use session_support::*;

mod session_support;

// ---- reverse requests ----

#[tokio::test(start_paused = true)]
async fn run_in_terminal_runs_the_command_with_its_cwd_and_env_and_answers_its_pid() {
    let dir = std::env::temp_dir().join(format!("dapvisor-run-in-terminal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = "echo $$ > marker; pwd -P >> marker; echo \"$DAPVISOR_MARK\" >> marker; echo done";
    let fake = FakeAdapter::new().keep_running().reverse_request(
        "runInTerminal",
        json!({
            "kind": "integrated",
            "cwd": dir,
            "args": ["sh", "-c", script],
            "env": { "DAPVISOR_MARK": "from the adapter" },
        }),
    );
    // No idle sweeps while time stands still and the real process runs.
    let config = RuntimeConfig::default().idle_limit(None);
    let (runtime, probe) = runtime(fake, config).await;
    let mut events = runtime.subscribe();
    let session = runtime
        .launch(LaunchSpec::new(program()).adapter(FAKE))
        .await
        .unwrap();

    let answer = probe.wait_for_reverse_response(1).await;
    assert!(answer.success, "{answer:?}");
    let pid = answer.body_or_empty()["processId"].as_u64().unwrap();
    // The process says `done` on stdout once it has written the marker.
    loop {
        match events.recv().await {
            Some(Received::Event(event)) => {
                if let EventKind::Output { output, .. } = &event.kind {
                    if output.contains("done") {
                        assert_eq!(event.session_id, session.id());
                        break;
                    }
                }
            }
            Some(Received::Lagged { .. }) => {}
            Some(Received::CutOff { waiting }) => panic!("cut off with {waiting} events unread"),
            None => panic!("events ended before the process spoke"),
        }
    }
    let marker = std::fs::read_to_string(dir.join("marker")).unwrap();
    let canonical = std::fs::canonicalize(&dir).unwrap();
    assert_eq!(
        marker,
        format!("{pid}\n{}\nfrom the adapter\n", canonical.display())
    );
    runtime.shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(start_paused = true)]
async fn an_unknown_reverse_request_gets_an_error_response_with_a_proper_seq() {
    let fake = FakeAdapter::new()
        .keep_running()
        .reverse_request("teleport", json!({ "to": "elsewhere" }));
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    let session = runtime
        .launch(LaunchSpec::new(program()).adapter(FAKE))
        .await
        .unwrap();
    let answer = probe.wait_for_reverse_response(1).await;
    let asked = &probe.reverse_requests()[0];
    assert_eq!(asked.command, "teleport");
    assert_eq!(
        (answer.request_seq, answer.command.as_str()),
        (asked.seq, "teleport")
    );
    assert!(!answer.success);
    assert!(answer.message.as_deref().unwrap().contains("teleport"));
    // The client numbers its responses in the sequence of its requests: one past the
    // last request before it, and the next request one past the response.
    let before: Vec<i64> = probe.requests().iter().map(|r| r.seq).collect();
    assert_eq!(answer.seq, before.iter().max().unwrap() + 1);
    session.threads().await.unwrap();
    assert_eq!(probe.requests().last().unwrap().seq, answer.seq + 1);
}

#[tokio::test(start_paused = true)]
async fn start_debugging_starts_a_child_session_on_a_new_adapter_instance() {
    let fake = FakeAdapter::new().keep_running().reverse_request(
        "startDebugging",
        json!({ "request": "launch", "configuration": { "program": "child.py", "name": "child" } }),
    );
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    let mut events = runtime.subscribe();
    let parent = runtime
        .launch(LaunchSpec::new(program()).adapter(FAKE))
        .await
        .unwrap();
    let answer = probe.wait_for_reverse_response(1).await;
    assert!(answer.success, "{answer:?}");
    let child = loop {
        match events.recv().await {
            Some(Received::Event(event)) => {
                if let EventKind::ChildSession { child } = event.kind {
                    assert_eq!(event.session_id, parent.id());
                    break child;
                }
            }
            Some(Received::Lagged { .. }) => {}
            Some(Received::CutOff { waiting }) => panic!("cut off with {waiting} events unread"),
            None => panic!("no child session"),
        }
    };
    let child = runtime.session(child).unwrap();
    assert_eq!(child.snapshot().await.unwrap().parent, Some(parent.id()));
    // The child's own adapter instance runs (this fake asks every instance for a
    // child, so grandchildren follow; ending the parent ends them all).
    probe.wait_for_reverse_response(2).await;
    let launches: Vec<_> = probe
        .requests()
        .into_iter()
        .filter(|r| r.command == "launch")
        .collect();
    assert!(launches.len() >= 2, "{launches:?}");
    assert_eq!(
        launches[1].arguments.as_ref().unwrap()["program"],
        "child.py"
    );
    // Ending the parent ends its children.
    runtime.end_session(parent.id()).await.unwrap();
    assert!(runtime.sessions().is_empty(), "{:?}", runtime.sessions());
    runtime.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_malformed_start_debugging_is_refused_saying_what_is_missing() {
    let fake = FakeAdapter::new()
        .keep_running()
        .reverse_request("startDebugging", json!({ "request": "launch" }));
    let (runtime, probe) = runtime(fake, RuntimeConfig::default()).await;
    runtime
        .launch(LaunchSpec::new(program()).adapter(FAKE))
        .await
        .unwrap();
    let answer = probe.wait_for_reverse_response(1).await;
    assert!(!answer.success);
    assert!(answer.message.as_deref().unwrap().contains("configuration"));
    assert_eq!(runtime.sessions().len(), 1, "no child was started");
    runtime.shutdown().await;
}
