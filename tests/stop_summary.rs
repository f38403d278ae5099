//! The stop summary control actions and launches return, through the catalogue on a
//! real debugpy: under a root it reads no source file outside it (and says so), a
//! long source line is cut to the stop's value bound and marked, and a crowded stop
//! keeps to the stop result's bytes (structured and text together), counting what it
//! left out.

mod agent;
mod common;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::{PathPolicy, ToolCatalogue, ToolProfile};
use dapvisor::{Runtime, RuntimeConfig};
use std::path::Path;

use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stop_summary_keeps_to_the_root_and_marks_cut_lines() {
    let dir = std::env::temp_dir().join(format!("dapvisor-summary-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("parse.py");
    let long = format!("label = '{}'  # long line", "x".repeat(2000));
    std::fs::write(
        &script,
        format!(
            "import json\n\n{long}\ntry:\n    json.loads('{{')\nexcept ValueError:\n    pass\n"
        ),
    )
    .unwrap();
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let tools = ToolCatalogue::new(runtime)
        .with_profile(ToolProfile::All)
        .with_paths(PathPolicy::rooted(&dir).unwrap())
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));

    // At the long line (inside the root): shown, cut to the value bound, and marked.
    let line = line_of(&script, "# long line");
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": "parse.py", "breakpoints": [{ "file": "parse.py", "line": line }] }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let source = launched["stop"]["source"]
        .as_array()
        .unwrap_or_else(|| panic!("{launched}"));
    let shown = source.iter().find(|l| l["line"] == line).unwrap();
    let text = shown["text"].as_str().unwrap();
    assert!(text.starts_with("label = 'xxx"), "{text}");
    assert!(text.ends_with("more chars)"), "the cut is marked: {text}");
    assert!(text.chars().count() < 250, "{} chars", text.chars().count());

    // Raised inside the json module, a file outside the root: not read, and said so.
    ok(
        &tools,
        "debug.set_exception_breakpoints",
        json!({ "session_id": id, "filters": ["raised"] }),
    )
    .await;
    let raised = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(raised["stop"]["reason"], "exception", "{raised}");
    let file = raised["stop"]["file"].as_str().unwrap();
    assert!(
        file.contains("json") && !file.starts_with(dir.to_str().unwrap()),
        "{file}"
    );
    assert!(raised["stop"].get("source").is_none(), "{raised}");
    let note = raised["stop"]["source_note"].as_str().unwrap();
    assert!(note.contains("outside the root"), "{note}");
    tools.runtime().shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stop with 30 locals and 12 watches, each thousands of characters long.
const CROWDED: &str = r#"
def crowded():
    a00 = "a" * 5000; a01 = "b" * 5000; a02 = "c" * 5000; a03 = "d" * 5000
    a04 = "e" * 5000; a05 = "f" * 5000; a06 = "g" * 5000; a07 = "h" * 5000
    a08 = "i" * 5000; a09 = "j" * 5000; a10 = "k" * 5000; a11 = "l" * 5000
    a12 = "m" * 5000; a13 = "n" * 5000; a14 = "o" * 5000; a15 = "p" * 5000
    a16 = "q" * 5000; a17 = "r" * 5000; a18 = "s" * 5000; a19 = "t" * 5000
    a20 = "u" * 5000; a21 = "v" * 5000; a22 = "w" * 5000; a23 = "x" * 5000
    a24 = "y" * 5000; a25 = "z" * 5000; a26 = "A" * 5000; a27 = "B" * 5000
    a28 = "C" * 5000; a29 = "D" * 5000
    return len(a00)  # crowded stop

print("before", flush=True)
crowded()
"#;

/// Launch CROWDED to its stop watching `watch`; the result's structured content and
/// text.
async fn crowded_stop(tools: &ToolCatalogue, script: &Path, watch: &[String]) -> (Value, String) {
    let line = line_of(script, "# crowded stop");
    let result = tools
        .call(
            "debug.launch",
            json!({
                "program": script,
                "breakpoints": [{ "file": script, "line": line }],
                "watch": watch,
            }),
        )
        .await;
    assert!(!result.is_error, "{}", result.text);
    (result.structured, result.text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowded_stop_keeps_to_the_result_bytes_and_counts_what_it_left_out() {
    let dir = std::env::temp_dir().join(format!("dapvisor-crowded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("crowded.py");
    std::fs::write(&script, CROWDED).unwrap();
    let tools = catalogue().await;
    let limit = dapvisor::tools::DEFAULT_STOP_RESULT_BYTES;

    // 30 locals of 5000 characters: as many as fit, each cut to 200 and marked.
    let (launched, text) = crowded_stop(&tools, &script, &[]).await;
    // Structured content and text together: an MCP client receives both.
    let size = launched.to_string().len() + text.len();
    assert!(size <= limit, "{size} bytes: {launched}");
    let stop = &launched["stop"];
    assert_eq!(stop["locals_total"], 30, "{stop}");
    assert_eq!(stop["locals_truncated"], true, "{stop}");
    let locals = stop["locals"].as_array().unwrap();
    assert!(
        (4..30).contains(&locals.len()),
        "{} locals shown",
        locals.len()
    );
    for local in locals {
        let value = local["value"].as_str().unwrap();
        assert!(value.chars().count() < 250, "{value}");
        assert!(value.ends_with("more chars)"), "{value}");
    }
    let more = format!("… {} more: debug.variables", 30 - locals.len());
    assert!(text.contains(&more), "{text}");

    // 20 watches (the most a session holds) take their room first; those that do not
    // fit are counted, and said to be one evaluation away.
    let watch: Vec<String> = (0..20).map(|i| format!("a{i:02} * 2")).collect();
    let (launched, text) = crowded_stop(&tools, &script, &watch).await;
    let size = launched.to_string().len() + text.len();
    assert!(size <= limit, "{size} bytes: {launched}");
    let watches = launched["stop"]["watches"].as_array().unwrap();
    let left_out = watches.last().unwrap()["not_shown"].as_u64().unwrap();
    assert!(left_out > 0, "{watches:?}");
    assert_eq!(watches.len() as u64 - 1 + left_out, 20, "{watches:?}");
    assert!(
        text.contains("more not shown, for the result's size: debug.evaluate"),
        "{text}"
    );
    tools.runtime().shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
