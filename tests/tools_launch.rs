//! What debug.launch sets up before the program runs, through the catalogue on real
//! adapters: the default working directory (the program's folder, under a root and
//! without one; on lldb-dap, which would otherwise run it in its own directory), and,
//! on debugpy, function breakpoints with a condition or hit condition (and a
//! log message on one refused, since DAP's function breakpoints have none).

mod agent;
mod common;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::{PathPolicy, ToolCatalogue};
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::json;

/// A fresh folder holding `app/whereami`, built from `tests/support/whereami.c` (so
/// the program's folder is neither the test's working directory nor under it).
fn folder_with_whereami(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dapvisor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("app")).unwrap();
    let status = std::process::Command::new("cc")
        .args(["-g", "-O0", "-o"])
        .arg(dir.join("app/whereami"))
        .arg(root().join("tests/support/whereami.c"))
        .status()
        .expect("cc must be installed (scripts/provision installs it)");
    assert!(status.success(), "building whereami.c failed");
    dir
}

/// The `cwd: ...` line the program printed.
async fn printed_cwd(tools: &ToolCatalogue, id: &str) -> String {
    let out = ok(tools, "debug.output", json!({ "session_id": id })).await;
    let text = out["output"].as_str().unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("cwd: "))
        .unwrap_or_else(|| panic!("no cwd line in {text:?}"))
        .trim()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_cwd_the_program_runs_in_its_own_folder_under_a_root_and_without() {
    let dir = folder_with_whereami("cwd");
    let app = dir.join("app").canonicalize().unwrap();
    assert_ne!(std::env::current_dir().unwrap(), app);

    // Under a root: its folder, inside the root, not the server's directory.
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let rooted = ToolCatalogue::new(runtime)
        .with_paths(PathPolicy::rooted(&dir).unwrap())
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let launched = ok(
        &rooted,
        "debug.launch",
        json!({ "program": "app/whereami" }),
    )
    .await;
    assert_eq!(launched["state"], "terminated", "{launched}");
    let id = launched["session_id"].as_str().unwrap();
    assert_eq!(printed_cwd(&rooted, id).await, app.display().to_string());
    // A cwd outside the root is still refused.
    let refused = fails(
        &rooted,
        "debug.launch",
        json!({ "program": "app/whereami", "cwd": "/" }),
        500,
    )
    .await;
    assert_eq!(
        refused.error().unwrap().kind,
        "forbidden",
        "{}",
        refused.text
    );
    rooted.runtime().shutdown().await;

    // Without a root: the same default; an explicit cwd still wins.
    let tools = catalogue().await;
    let program = app.join("whereami").display().to_string();
    let launched = ok(&tools, "debug.launch", json!({ "program": program })).await;
    let id = launched["session_id"].as_str().unwrap();
    assert_eq!(printed_cwd(&tools, id).await, app.display().to_string());
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": program, "cwd": dir }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap();
    assert_eq!(
        printed_cwd(&tools, id).await,
        dir.canonicalize().unwrap().display().to_string()
    );
    tools.runtime().shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn function_breakpoints_at_launch_keep_their_conditions() {
    let tools = catalogue().await;
    let file = discount();

    // apply_discount is called with 1000, 1200 and 3500: the condition picks the third.
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": file, "breakpoints": [
            { "function": "apply_discount", "condition": "amount == 3500" }
        ] }),
    )
    .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    assert_eq!(launched["stop"]["function"], "apply_discount");
    assert_eq!(var(&launched["stop"]["locals"], "amount")["value"], "3500");
    let id = launched["session_id"].as_str().unwrap();
    let next = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(next["state"], "terminated", "stops only once: {next}");

    // A hit condition: the second call.
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": file, "breakpoints": [
            { "function": "apply_discount", "hit_condition": "2" }
        ] }),
    )
    .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    assert_eq!(var(&launched["stop"]["locals"], "amount")["value"], "1200");

    // A log message cannot go on a function breakpoint: refused, saying where it can.
    let refused = fails(
        &tools,
        "debug.launch",
        json!({ "program": file, "breakpoints": [
            { "function": "apply_discount", "log_message": "amount={amount}" }
        ] }),
        400,
    )
    .await;
    let err = refused.error().unwrap();
    assert!(err.error.contains("cannot log a message"), "{err:?}");
    assert!(err.hint.contains("source breakpoint"), "{err:?}");
    assert!(
        tools.runtime().sessions().len() == 2,
        "the refused launch started nothing"
    );
    tools.runtime().shutdown().await;
}
