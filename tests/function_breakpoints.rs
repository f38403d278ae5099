//! Function and exception breakpoints and conditions through the catalogue on a real
//! debugpy; and function breakpoints added by calls in flight together on a real dlv,
//! where each function keeps its own verdict (dlv answers with the line each function
//! is declared on, which tells a swapped pair at once).

mod agent;
mod common;

use agent::*;
use serde_json::{json, Value};

/// The line dlv gives a breakpoint on function NAME: its `func NAME(` line.
fn first_line(source: &str, name: &str) -> i64 {
    line_of(source, &format!("func {name}("))
}

/// Each verified entry of a reply is on its own function's first line.
fn each_on_its_own_line(reply: &Value, source: &str) {
    for entry in reply["breakpoints"].as_array().unwrap() {
        if entry["verified"] != true {
            continue;
        }
        let function = entry["function"].as_str().unwrap();
        let name = function.trim_start_matches("main.");
        assert_eq!(entry["line"], first_line(source, name), "{reply}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_adds_and_removes_keep_each_functions_own_verdict() {
    let tools = catalogue().await;
    let source = program("go/inventory/main.go").display().to_string();
    let binary = common::go_binary().display().to_string();
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": binary, "breakpoints": [{ "function": "main.main" }] }),
    )
    .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    let id = launched["session_id"].as_str().unwrap().to_string();

    let call = |tool: &'static str, function: &'static str| {
        let tools = tools.clone();
        let id = id.clone();
        tokio::spawn(async move {
            let r = tools
                .call(tool, json!({ "session_id": id, "function": function }))
                .await;
            assert!(!r.is_error, "{tool} {function}: {}", r.text);
            r.structured
        })
    };
    // Several rounds, each with adds and a remove in flight at once (main.main is
    // there to remove: set at launch, and set again before each round).
    for round in 0..3 {
        if round > 0 {
            call("debug.set_breakpoint", "main.main").await.unwrap();
        }
        let calls = [
            call("debug.set_breakpoint", "main.needsRestock"),
            call("debug.remove_breakpoint", "main.main"),
            call("debug.set_breakpoint", "main.restock"),
        ];
        for c in calls {
            each_on_its_own_line(&c.await.unwrap(), &source);
        }
    }
    let settled = ok(
        &tools,
        "debug.set_breakpoint",
        json!({ "session_id": id, "function": "main.restock" }),
    )
    .await;
    let names: Vec<&str> = settled["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["function"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"main.restock") && names.contains(&"main.needsRestock"));
    assert!(settled["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["verified"] == true));
    each_on_its_own_line(&settled, &source);

    // And they stop the program where they say.
    let stop = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert!(
        stop["stop"]["function"]
            .as_str()
            .unwrap()
            .contains("restock"),
        "{stop}"
    );
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn function_and_exception_breakpoints_and_conditions() {
    let tools = catalogue().await;
    let file = discount();
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": file, "stop_on_entry": true }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap().to_string();

    // Exception filters: the adapter's own are listed, others refused with the list.
    let set = ok(
        &tools,
        "debug.set_exception_breakpoints",
        json!({ "session_id": id, "filters": ["uncaught"] }),
    )
    .await;
    let offered: Vec<&str> = set["available"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["filter"].as_str().unwrap())
        .collect();
    assert!(
        offered.contains(&"raised") && offered.contains(&"uncaught"),
        "{set}"
    );
    let r = fails(
        &tools,
        "debug.set_exception_breakpoints",
        json!({ "session_id": id, "filters": ["everything"] }),
        400,
    )
    .await;
    assert!(r.error().unwrap().hint.contains("uncaught"), "{}", r.text);

    // A function breakpoint stops in the function; a conditional line breakpoint
    // stops only where its condition holds.
    let bps = ok(
        &tools,
        "debug.set_breakpoint",
        json!({ "session_id": id, "function": "apply_discount" }),
    )
    .await;
    assert_eq!(bps["breakpoints"][0]["function"], "apply_discount");
    assert_eq!(bps["breakpoints"][0]["verified"], true, "{bps}");
    let s = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(s["stop"]["function"], "apply_discount", "{s}");
    assert_eq!(var(&s["stop"]["locals"], "amount")["value"], "1000");
    let left = ok(
        &tools,
        "debug.remove_breakpoint",
        json!({ "session_id": id, "function": "apply_discount" }),
    )
    .await;
    assert_eq!(left["breakpoints"], json!([]));
    fails(
        &tools,
        "debug.remove_breakpoint",
        json!({ "session_id": id, "function": "apply_discount" }),
        400,
    )
    .await;

    let line = line_of(&file, "total += discounted");
    let bps = ok(
        &tools,
        "debug.set_breakpoints",
        json!({ "session_id": id, "file": file,
                "breakpoints": [{ "line": line, "condition": "name == 'backpack'" }] }),
    )
    .await;
    assert_eq!(bps["breakpoints"][0]["line"], line);
    assert_eq!(bps["breakpoints"][0]["condition"], "name == 'backpack'");
    let s = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(var(&s["stop"]["locals"], "name")["value"], "'backpack'");
    // The `uncaught` filter set above does not stop at the program's sys.exit(3):
    // debugpy is started with breakOnSystemExit: [], an exit being no crash.
    let end = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(end["state"], "terminated", "{end}");
    assert_eq!(end["exit_code"], 3, "{end}");
    tools.runtime().shutdown().await;
}
