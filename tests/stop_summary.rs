//! The stop summary control actions and launches return, through the catalogue on a
//! real debugpy: under a root it reads no source file outside it (and says so), and a
//! long source line is cut to the value bound and marked.

mod agent;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::{PathPolicy, ToolCatalogue, ToolProfile};
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::json;

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
    assert!(
        text.chars().count() < 1100,
        "{} chars",
        text.chars().count()
    );

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
