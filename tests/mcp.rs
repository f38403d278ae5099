//! `dapvisor mcp` as a child process, driven over stdio by rmcp's client: a whole
//! find-the-bug session per adapter (debugpy, lldb-dap, dlv, in parallel), resources
//! and notifications, and bad input that leaves the server serving. `--root`, flags,
//! the config file and idle reaping: mcp_server_settings.rs. The tool list:
//! mcp_tools_list.rs; longer runs: mcp_runs.rs.

mod agent;
mod common;

use agent::mcp_client::{ok_result, Elicitation, McpClient};
use agent::*;
use serde_json::json;

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_session_with_resources_and_notifications() {
    let client = McpClient::start(BYPASS, Elicitation::Unsupported).await;
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": file, "breakpoints": [{ "file": file, "line": line }] }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    assert_eq!(launched["state"], "stopped");
    assert_eq!(launched["stop"]["line"], line);
    assert_eq!(launched["stop"]["function"], "order_total");
    assert_eq!(
        var(&launched["stop"]["locals"], "discounted")["value"],
        "1000"
    );

    let uri = format!("debugger://sessions/{id}");
    client.subscribe(&uri).await;

    // Second iteration: the notification names the session and the stop.
    let next = client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    assert_eq!(next["state"], "stopped");
    assert_eq!(var(&next["stop"]["locals"], "name")["value"], "'pen'");
    let note = client
        .notification(|n| {
            n["method"] == "notifications/resources/updated"
                && n["params"]["_meta"]["dapvisor/event"]["signal"] == "dap_stopped"
        })
        .await;
    assert_eq!(note["params"]["uri"], uri.as_str());
    assert_eq!(
        note["params"]["_meta"]["dapvisor/event"]["session_id"],
        id.as_str()
    );

    let eval = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "discount_percent(5700)" }),
        )
        .await;
    assert_eq!(eval["result"], "10");

    // The session's resource: state, breakpoints, last stop.
    let (mime, detail) = client.read(&uri).await.unwrap();
    assert_eq!(mime, "application/json");
    assert_eq!(detail["state"], "stopped");
    assert_eq!(detail["session_id"], id.as_str());
    assert_eq!(detail["adapter"], "debugpy");
    assert_eq!(detail["last_stop"]["reason"], "breakpoint");
    // What the adapter said it can do, as it said it.
    let caps = &detail["capabilities"];
    assert_eq!(caps["supportsConfigurationDoneRequest"], true, "{detail}");
    assert_eq!(caps["supportsGotoTargetsRequest"], true, "{detail}");
    let filters: Vec<&str> = caps["exceptionBreakpointFilters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["filter"].as_str().unwrap())
        .collect();
    assert!(filters.contains(&"raised"), "{detail}");
    let allowed = detail["allowed_tools"].as_array().unwrap();
    // The tools this client has (the core profile's), by the names it calls.
    assert!(allowed.contains(&json!("debug_step")), "{detail}");
    assert!(!allowed.contains(&json!("debug_step_over")), "{detail}");
    assert!(!allowed.contains(&json!("debug_pause")), "{detail}");
    let files = detail["breakpoints"]["sources"].as_object().unwrap();
    assert_eq!(files.len(), 1, "{detail}");

    client
        .ok(
            "debug_remove_breakpoint",
            json!({ "session_id": id, "file": file, "line": line }),
        )
        .await;
    let end = client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    assert_eq!(end["state"], "terminated");
    assert_eq!(end["exit_code"], 3);
    client
        .notification(|n| {
            n["params"]["uri"] == uri.as_str()
                && n["params"]["_meta"]["dapvisor/event"]["signal"] == "dap_exited"
        })
        .await;
    let out = client.ok("debug_output", json!({ "session_id": id })).await;
    assert!(out["output"]
        .as_str()
        .unwrap()
        .contains("Order total: 55.25"));

    let (_, list) = client.read("debugger://sessions").await.unwrap();
    assert_eq!(list["sessions"][0]["state"], "terminated");
    assert_eq!(list["sessions"][0]["exit_code"], 3);
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    let gone = client.read(&uri).await.unwrap_err();
    assert!(gone.message.contains("has ended"), "{gone:?}");
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_lldb_dap_and_dlv_sessions_run_in_parallel() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let py = discount();
    let c_source = program("c/average.c");
    let go_source = program("go/inventory/main.go");
    let bug = |file: &std::path::Path, text| line_of(file, text);

    // Three launches in flight at once.
    let py_call = client
        .spawn(
            "debug_launch",
            json!({ "program": py,
                "breakpoints": [{ "file": py, "line": line_of(&py, "total += discounted"),
                                  "condition": "name == 'backpack'" }],
                "timeout": 120 }),
        )
        .await;
    let c_call = client
        .spawn(
            "debug_launch",
            json!({ "program": c_binary(),
                "breakpoints": [{ "file": c_source,
                                  "line": bug(&c_source, "double mean = sum / count;") }],
                "timeout": 120 }),
        )
        .await;
    let go_call = client
        .spawn(
            "debug_launch",
            json!({ "program": program("go/inventory"),
                "breakpoints": [{ "file": go_source,
                                  "line": bug(&go_source, "return item.Stock < item.Threshold"),
                                  "condition": "item.Name == \"nuts\"" }],
                "timeout": 120 }),
        )
        .await;
    let mut stopped = Vec::new();
    for call in [py_call, c_call, go_call] {
        let s = ok_result("debug_launch", call.await.unwrap());
        assert_eq!(s["state"], "stopped", "{s}");
        stopped.push(s);
    }
    let ids: Vec<String> = stopped
        .iter()
        .map(|s| s["session_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(stopped[0]["adapter"], "debugpy");
    assert_eq!(
        var(&stopped[0]["stop"]["locals"], "discounted")["value"],
        "3325"
    );
    assert_eq!(stopped[1]["adapter"], "lldb-dap");
    assert!(stopped[1]["stop"]["function"]
        .as_str()
        .unwrap()
        .contains("mean_of"));
    assert_eq!(var(&stopped[1]["stop"]["locals"], "sum")["value"], "426");
    assert_eq!(stopped[2]["adapter"], "dlv");
    assert!(stopped[2]["stop"]["function"]
        .as_str()
        .unwrap()
        .contains("needsRestock"));

    // The bug in each, seen by evaluation.
    for (id, expression, expected) in [
        (&ids[0], "discount_percent(5700)", "10"),
        (&ids[1], "sum / count", "85"),
        (&ids[2], "item.Stock <= item.Threshold", "true"),
    ] {
        let eval = client
            .ok(
                "debug_evaluate",
                json!({ "session_id": id, "expression": expression }),
            )
            .await;
        assert_eq!(eval["result"], expected, "{id}: {expression}");
    }
    // Under lldb-dap and dlv, the rest of an agent's moves: the stack, the scopes, the
    // locals by scope name, and a step over.
    for (id, function, caller, local, value) in [
        (&ids[1], "mean_of", "compute_stats", "sum", "426"),
        (&ids[2], "needsRestock", "restock", "item", ""),
    ] {
        let stack = client
            .ok("debug_stack_trace", json!({ "session_id": id }))
            .await;
        let frames = stack["frames"].as_array().unwrap();
        assert!(
            frames[0]["name"].as_str().unwrap().contains(function),
            "{stack}"
        );
        assert!(
            frames[1]["name"].as_str().unwrap().contains(caller),
            "{stack}"
        );
        let scopes = client.ok("debug_scopes", json!({ "session_id": id })).await;
        let names: Vec<&str> = scopes["scopes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"Locals"), "{scopes}");
        let locals = client
            .ok(
                "debug_variables",
                json!({ "session_id": id, "scope": "Locals" }),
            )
            .await;
        let found = var(&locals["variables"], local);
        if value.is_empty() {
            assert!(
                found["variables_reference"].as_i64().unwrap() > 0,
                "{found}"
            );
        } else {
            assert_eq!(found["value"], value, "{locals}");
        }
    }
    let c_step = client
        .ok("debug_step_over", json!({ "session_id": ids[1] }))
        .await;
    assert_eq!(
        c_step["stop"]["line"],
        bug(&c_source, "return mean;"),
        "{c_step}"
    );
    assert_eq!(var(&c_step["stop"]["locals"], "mean")["value"], "85");
    let go_step = client
        .ok("debug_step_over", json!({ "session_id": ids[2] }))
        .await;
    // Over the return: back in the caller, on the call's line.
    assert_eq!(
        go_step["stop"]["line"],
        bug(&go_source, "due := needsRestock(item)"),
        "{go_step}"
    );
    assert_eq!(go_step["stop"]["function"], "main.restock");

    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"].as_array().unwrap().len(), 3);
    for session in sessions["sessions"].as_array().unwrap() {
        // Each has launched and stopped: requests went out, events and bytes came back.
        let traffic = session;
        for count in [
            "requests_sent",
            "events_received",
            "bytes_sent",
            "bytes_received",
        ] {
            assert!(traffic[count].as_u64().unwrap() > 0, "{count}: {session}");
        }
        assert!(
            traffic["bytes_sent"].as_u64() > traffic["requests_sent"].as_u64(),
            "{session}"
        );
    }

    // Each runs to its own exit code, the three continues in flight together.
    let mut calls = Vec::new();
    let files = [
        py.clone(),
        c_source.display().to_string(),
        go_source.display().to_string(),
    ];
    for (id, file) in ids.iter().zip(&files) {
        client
            .ok(
                "debug_set_breakpoints",
                json!({ "session_id": id, "file": file, "lines": [] }),
            )
            .await;
        calls.push(
            client
                .spawn(
                    "debug_continue",
                    json!({ "session_id": id, "timeout": 120 }),
                )
                .await,
        );
    }
    let mut codes = Vec::new();
    for call in calls {
        let end = ok_result("debug_continue", call.await.unwrap());
        assert_eq!(end["state"], "terminated", "{end}");
        codes.push(end["exit_code"].clone());
    }
    assert_eq!(codes, vec![json!(3), json!(4), json!(5)]);
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_errors_and_the_server_keeps_serving() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let file = discount();

    client
        .fails("debug_stack_trace", json!({ "session_id": "s42" }), 404)
        .await;
    let err = client
        .fails(
            "debug_launch",
            json!({ "program": "/nowhere/missing.py" }),
            400,
        )
        .await;
    assert!(
        err["error"].as_str().unwrap().contains("does not exist"),
        "{err}"
    );
    let err = client
        .fails(
            "debug_launch",
            json!({ "program": file, "adapter": "turbodbg" }),
            400,
        )
        .await;
    assert!(err["hint"].as_str().unwrap().contains("debugpy"), "{err}");
    client
        .fails("debug_launch", json!({ "program": 42 }), 400)
        .await;
    let unknown = client
        .try_call("debug_teleport", json!({}))
        .await
        .unwrap_err();
    assert!(unknown.message.contains("debug_launch"), "{unknown:?}");

    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": file, "stop_on_entry": true }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let err = client
        .fails("debug_pause", json!({ "session_id": id }), 400)
        .await;
    assert!(err["error"].as_str().unwrap().contains("stopped"), "{err}");
    let long = "x".repeat(10_001);
    client
        .fails(
            "debug_evaluate",
            json!({ "session_id": id, "expression": long }),
            400,
        )
        .await;
    // More than the session keeps, each within the file (a line past its end is
    // refused first).
    let lines: Vec<i64> = (0..1001).map(|i| 1 + i % 50).collect();
    let err = client
        .fails(
            "debug_set_breakpoints",
            json!({ "session_id": id, "file": file, "lines": lines }),
            500,
        )
        .await;
    assert_eq!(err["kind"], "limit", "{err}");
    assert!(err["error"].as_str().unwrap().contains("1000"), "{err}");

    // Still serving, and the session still works.
    assert!(client.tools().await.len() >= 19);
    let end = client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    assert_eq!(end["exit_code"], 3);
    assert!(client.close().await.success());
}

/// Issue 28, item 13: an MCP client reads the tools by the names it calls them
/// (`debug_pause`, never `debug.pause`), in descriptions and in errors, and a refusal's
/// "allowed now" names only the tools it has (the core profile's: `debug_step`, not
/// `debug_step_over` or `debug_modules`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_client_reads_the_tools_by_the_names_it_calls() {
    let client = McpClient::start(BYPASS, Elicitation::Unsupported).await;
    let tools = client.tools().await;
    let core: Vec<String> = tools
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    let listed = serde_json::to_string(&tools).unwrap();
    assert!(!listed.contains("debug."), "{listed}");
    assert!(listed.contains("as debug_watch"), "{listed}");

    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        )
        .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let err = client
        .fails("debug_pause", json!({ "session_id": id }), 400)
        .await;
    let error = err["error"].as_str().unwrap();
    assert!(
        error.starts_with("debug_pause cannot run while the session is stopped"),
        "{err}"
    );
    let allowed: Vec<&str> = error
        .split_once("; allowed now: ")
        .unwrap_or_else(|| panic!("no allowed-now list: {err}"))
        .1
        .split(", ")
        .collect();
    assert!(allowed.contains(&"debug_step"), "{err}");
    assert!(allowed.contains(&"debug_continue"), "{err}");
    for tool in &allowed {
        assert!(
            core.iter().any(|c| c == tool),
            "{tool} is not served: {err}"
        );
    }
    assert!(!err.to_string().contains("debug."), "{err}");
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    assert!(client.close().await.success());
}
