//! `debug.restart` of a session launched from a C source builds it again first, over
//! MCP on lldb-dap (whose own `restart` runs the program again) and CodeLLDB: the
//! program edited since the launch runs as edited, and a source that no longer builds
//! fails the restart with the compiler's word, leaving the session stopped where it
//! was.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::json;

fn source(value: &str) -> String {
    format!(
        "#include <stdio.h>\n\nint main(void) {{\n    int value = {value};\n    \
         printf(\"value %d\\n\", value); /* stop here */\n    return 0;\n}}\n"
    )
}

async fn restart_runs_the_edited_source(adapter: &str) {
    let dir = std::env::temp_dir().join(format!(
        "dapvisor-source-restart-{adapter}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("value.c");
    std::fs::write(&file, source("1")).unwrap();
    let line = common::line_of(&file, "stop here");
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": file, "adapter": adapter, "timeout": 120,
                    "breakpoints": [{ "file": file, "line": line }] }),
        )
        .await;
    assert_eq!(launched["stop"]["line"], line, "{adapter}: {launched}");
    let id = launched["session_id"].clone();
    let value = |id: serde_json::Value| {
        let client = &client;
        async move {
            client
                .ok(
                    "debug_evaluate",
                    json!({ "session_id": id, "expression": "value" }),
                )
                .await["result"]
                .clone()
        }
    };
    assert_eq!(value(id.clone()).await, "1", "{adapter}");

    // An edit that does not build: the restart fails saying why; nothing moved.
    std::fs::write(&file, source("1 +")).unwrap();
    let refused = client
        .call("debug_restart", json!({ "session_id": id, "timeout": 120 }))
        .await;
    assert_eq!(refused["isError"], true, "{adapter}: {refused}");
    let said = refused.to_string();
    assert!(
        said.contains("building") && said.contains("error"),
        "{adapter}: {said}"
    );
    assert!(
        said.contains("call debug_restart again; the session is as it was"),
        "{adapter}: what to do next: {said}"
    );
    assert_eq!(
        value(id.clone()).await,
        "1",
        "{adapter}: still stopped where it was"
    );

    // An edit that builds: the program runs as edited.
    std::fs::write(&file, source("2")).unwrap();
    let restarted = client
        .ok("debug_restart", json!({ "session_id": id, "timeout": 120 }))
        .await;
    assert_eq!(restarted["stop"]["line"], line, "{adapter}: {restarted}");
    assert_eq!(restarted["rebuilt"], json!(file), "{adapter}: {restarted}");
    assert_eq!(
        value(id.clone()).await,
        "2",
        "{adapter}: the edited program runs"
    );
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    client.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_restart_runs_the_edited_source() {
    restart_runs_the_edited_source("lldb-dap").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codelldb_restart_runs_the_edited_source() {
    restart_runs_the_edited_source("codelldb").await;
}
