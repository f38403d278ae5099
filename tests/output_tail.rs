//! Each stop and end result carries what the program printed since the previous one
//! (stdout and stderr), its newest 2 KiB, with the cursor to read the rest: over MCP
//! on real debugpy, a run printing around two breakpoints. debugpy may deliver output
//! after the stop that follows it, so the test holds what is guaranteed: every byte
//! printed is shown once, in order, or counted as cut, and a cut one is readable.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_and_end_results_carry_the_output_since_the_previous_one() {
    let dir = std::env::temp_dir().join(format!("dapvisor-tail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("chatty.py");
    std::fs::write(
        &script,
        "print('first')\nx = 1\nprint('b' * 3000)\nx = 2\nprint('last')\n",
    )
    .unwrap();
    let expected = format!("first\n{}\nlast\n", "b".repeat(3000));
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let mut results: Vec<Value> = Vec::new();
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": script, "breakpoints": [
                { "file": script, "line": 2 }, { "file": script, "line": 4 },
            ] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    let id = launched["session_id"].clone();
    results.push(launched);
    loop {
        let next = client
            .ok("debug_continue", json!({ "session_id": id }))
            .await;
        let ended = next["state"] == "terminated";
        results.push(next);
        if ended {
            break;
        }
    }
    assert_eq!(results.len(), 3, "two stops and the end: {results:?}");

    // Walk the program's output as the results showed it: each tail is the next
    // stretch of it, after the bytes it says it cut, which debug.output reads from its
    // cursor.
    let mut offset = 0;
    let mut cut_total = 0;
    for result in &results {
        let tail = &result["output"];
        if tail.is_null() {
            continue;
        }
        let text = tail["text"].as_str().unwrap();
        let cut = tail["cut_bytes"].as_u64().unwrap() as usize;
        assert!(text.len() <= 2048, "bounded: {}", text.len());
        if cut > 0 {
            let read = client
                .ok(
                    "debug_output",
                    json!({ "session_id": id, "since": tail["since"], "categories": ["stdout"] }),
                )
                .await;
            let from_cursor = read["output"].as_str().unwrap();
            assert!(
                from_cursor.starts_with(&expected[offset..offset + cut]),
                "{read}"
            );
        }
        offset += cut;
        assert_eq!(text, &expected[offset..offset + text.len()], "{result}");
        offset += text.len();
        cut_total += cut;
    }
    assert_eq!(
        offset,
        expected.len(),
        "every byte shown or cut: {results:?}"
    );
    assert!(
        cut_total > 0,
        "the 3000 bytes were cut to 2 KiB: {results:?}"
    );
    client.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
