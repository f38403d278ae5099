//! `dapvisor mcp` driving the Java adapter (JdiDapServer), as an agent would on the
//! Java example with a bug: stop at the bug, read the locals and the record's
//! components, evaluate the fix's expression (arithmetic, then a method call), and
//! continue to the end with the exit code and the output.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use serde_json::json;

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_finds_the_part_kilogram_bug_and_checks_the_fix() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let parcels = program("java/Parcels.java").display().to_string();
    let bug = line_of(&parcels, "int kilos = past / 1000;");
    let charge = line_of(&parcels, "return FIRST_KILO_CENTS + extraKilos");
    // Stop at the bug for the parcel to Lyon (3500 g).
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": parcels, "timeout": 120,
                    "breakpoints": [{ "file": parcels, "line": bug,
                                      "condition": "grams == 3500" }] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    assert_eq!(launched["adapter"], "java");
    assert_eq!(launched["stop"]["line"], bug, "{launched}");
    assert_eq!(launched["stop"]["function"], "Parcels.extraKilos");
    let id = launched["session_id"].as_str().unwrap().to_string();
    let locals = &launched["stop"]["locals"];
    assert_eq!(var(locals, "grams")["value"], "3500", "{locals}");
    assert_eq!(var(locals, "past")["value"], "2500", "{locals}");

    // The caller's frame holds the parcel, a record: its components by name.
    let stack = client
        .ok("debug_stack_trace", json!({ "session_id": id }))
        .await;
    let frames = stack["frames"].as_array().unwrap();
    let caller = frames
        .iter()
        .find(|f| f["line"] == charge)
        .unwrap_or_else(|| panic!("no frame of charge: {stack}"));
    let scopes_of_caller = client
        .ok(
            "debug_scopes",
            json!({ "session_id": id, "frame_id": caller["id"] }),
        )
        .await;
    let caller_locals = client
        .ok(
            "debug_variables",
            json!({ "session_id": id,
                    "variables_reference": scopes_of_caller["scopes"][0]["variables_reference"] }),
        )
        .await;
    // JdiDapServer names the record `Parcels$Parcel@ID`; dapvisor shows it from its
    // components.
    let parcel = var(&caller_locals["variables"], "parcel");
    assert_eq!(
        parcel["value"], "Parcel[to=\"Lyon\", grams=3500]",
        "{parcel}"
    );
    let components = client
        .ok(
            "debug_variables",
            json!({ "session_id": id, "variables_reference": parcel["variables_reference"] }),
        )
        .await;
    assert_eq!(var(&components["variables"], "to")["value"], "\"Lyon\"");
    assert_eq!(var(&components["variables"], "grams")["value"], "3500");

    // The list of parcels in main, each element a record.
    let main = frames.iter().find(|f| f["name"] == "Parcels.main").unwrap();
    let scopes = client
        .ok(
            "debug_scopes",
            json!({ "session_id": id, "frame_id": main["id"] }),
        )
        .await;
    let main_locals = client
        .ok(
            "debug_variables",
            json!({ "session_id": id,
                    "variables_reference": scopes["scopes"][0]["variables_reference"] }),
        )
        .await;
    assert_eq!(
        var(&main_locals["variables"], "parcels")["value"],
        "[Parcel[to=\"Lyon\", grams=3500], Parcel[to=\"Oslo\", grams=800], \
         Parcel[to=\"Cairo\", grams=25000], Parcel[to=\"Quito\", grams=3001]]",
        "{main_locals}"
    );

    // The buggy expression charges 2 extra kilograms; the fix's 3, in the caller too,
    // through the record's accessor (a method call in the program).
    let evaluate = |expression: &str| {
        client.ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": expression }),
        )
    };
    assert_eq!(evaluate("past / 1000").await["result"], "2");
    assert_eq!(evaluate("(past + 999) / 1000").await["result"], "3");
    let called = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "frame_id": caller["id"],
                    "expression": "(parcel.grams() - 1000 + 999) / 1000" }),
        )
        .await;
    assert_eq!(called["result"], "3", "{called}");
    // After a method call JdiDapServer's frames are stale until asked again: dapvisor
    // asks, so a frame named by id evaluates and a scope read before still reads.
    let top = frames[0]["id"].clone();
    let again = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "frame_id": top, "expression": "grams - 1000" }),
        )
        .await;
    assert_eq!(again["result"], "2500", "{again}");
    let reread = client
        .ok(
            "debug_variables",
            json!({ "session_id": id,
                    "variables_reference": scopes_of_caller["scopes"][0]["variables_reference"] }),
        )
        .await;
    assert_eq!(
        var(&reread["variables"], "parcel")["value"],
        parcel["value"]
    );

    client
        .ok(
            "debug_set_breakpoints",
            json!({ "session_id": id, "file": parcels, "lines": [] }),
        )
        .await;
    let end = client
        .ok(
            "debug_continue",
            json!({ "session_id": id, "timeout": 120 }),
        )
        .await;
    assert_eq!(end["state"], "terminated", "{end}");
    assert_eq!(end["exit_code"], 14, "{end}");
    let out = client
        .ok(
            "debug_output",
            json!({ "session_id": id, "categories": ["stdout"] }),
        )
        .await;
    let out = out["output"].as_str().unwrap();
    assert!(out.contains("charges: 5380 cents (expected 5620)"), "{out}");
    assert!(!out.contains("Listening for transport"), "{out}");
    assert!(client.close().await.success());
}

/// A Java evaluation runs the program's methods: it is gated as code, and refused by a
/// rule against code, saying so, while reading the stop is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_java_evaluation_is_gated_as_code() {
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all", "--deny", "effect:code"],
        Elicitation::Unsupported,
    )
    .await;
    let parcels = program("java/Parcels.java").display().to_string();
    let bug = line_of(&parcels, "int kilos = past / 1000;");
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": parcels, "timeout": 120,
                    "breakpoints": [{ "file": parcels, "line": bug }] }),
        )
        .await;
    assert_eq!(launched["stop"]["line"], bug, "{launched}");
    let id = launched["session_id"].clone();
    let refused = client
        .fails(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "past / 1000" }),
            500,
        )
        .await;
    assert_eq!(refused["kind"], "forbidden", "{refused}");
    let error = refused["error"].as_str().unwrap();
    assert!(
        error.contains("runs Java methods in the debuggee"),
        "{refused}"
    );
    assert_eq!(var(&launched["stop"]["locals"], "past")["value"], "2500");
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    assert!(client.close().await.success());
}
