//! Breakpoint conditions, hit conditions and log messages are code the debuggee runs:
//! a call that carries one is gated as destructive whatever its tool, in the catalogue
//! and over MCP, on a real debugpy session whose condition would write a file.

mod agent;
mod common;
mod permission_support;

use std::sync::Arc;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use dapvisor::permission::{AllowAll, PermissionGate, PermissionMode, PermissionRule};
use permission_support::*;
use serde_json::json;

/// A condition that writes `marker` and is false, so the program never stops on it.
fn writing_condition(marker: &std::path::Path) -> String {
    format!(
        "open({:?}, 'w').write('x') and False",
        marker.display().to_string()
    )
}

#[tokio::test]
async fn the_tools_that_take_code_in_their_arguments_say_so() {
    let tools = gated_catalogue(PermissionGate::default()).await;
    let mut with_code: Vec<&str> = tools
        .list()
        .iter()
        .filter(|s| !s.code_arguments.is_empty())
        .map(|s| s.name)
        .collect();
    with_code.sort();
    assert_eq!(
        with_code,
        [
            "debug.attach",
            // `watch`, which runs at the stop they come to.
            "debug.continue",
            "debug.launch",
            "debug.pause",
            "debug.set_breakpoint",
            "debug.set_breakpoints",
            "debug.set_data_breakpoints",
            "debug.set_exception_breakpoints",
            "debug.set_instruction_breakpoints",
            "debug.step_in",
            "debug.step_out",
            "debug.step_over",
        ]
    );
    let one = tools.spec("debug.set_breakpoint").unwrap();
    assert_eq!(
        one.code_arguments,
        ["condition", "hit_condition", "log_message", "collect"]
    );
    let found = tools.spec("debug.launch").unwrap().code_in(&json!({
        "program": "p.py",
        "breakpoints": [{ "file": "p.py", "line": 3 }, { "file": "p.py", "line": 4, "log_message": "{x}" }],
    }));
    assert_eq!(found, ["breakpoints[1].log_message"]);
    // Unset, null or empty: no code.
    let none = one.code_in(
        &json!({ "session_id": "s1", "condition": null, "log_message": "", "collect": [] }),
    );
    assert!(none.is_empty(), "{none:?}");
    tools.runtime().shutdown().await;
}

#[tokio::test]
async fn a_call_carrying_a_condition_or_log_message_is_gated_as_destructive() {
    let no = Recording::new(false);
    let tools =
        gated_with_blank_session(PermissionGate::new(PermissionMode::Default).approver(no.clone()))
            .await;
    let bp = |extra: serde_json::Value| {
        let mut args = json!({ "session_id": "s1", "file": "/tmp/x.py", "line": 3 });
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        args
    };

    // Without code: past the gate (kept until the session starts), nothing asked.
    ok(&tools, "debug.set_breakpoint", bp(json!({}))).await;
    ok(
        &tools,
        "debug.set_breakpoint",
        bp(json!({ "condition": "" })),
    )
    .await;
    assert!(no.asked().is_empty());

    // With code, every way of passing it: asked, and refused when the answer is no.
    let calls = [
        (
            "debug.set_breakpoint",
            bp(json!({ "condition": "x > 1" })),
            "condition",
        ),
        (
            "debug.set_breakpoint",
            bp(json!({ "hit_condition": ">= 2" })),
            "hit_condition",
        ),
        (
            "debug.set_breakpoint",
            bp(json!({ "log_message": "{x}" })),
            "log_message",
        ),
        (
            "debug.set_breakpoints",
            json!({ "session_id": "s1", "file": "/tmp/x.py",
                    "breakpoints": [{ "line": 3 }, { "line": 4, "condition": "x" }] }),
            "breakpoints[1].condition",
        ),
        (
            "debug.launch",
            json!({ "program": discount(),
                    "breakpoints": [{ "file": discount(), "line": 3, "condition": "x" }] }),
            "breakpoints[0].condition",
        ),
        (
            "debug.attach",
            json!({ "pid": 1, "breakpoints": [{ "file": discount(), "line": 3, "log_message": "{x}" }] }),
            "breakpoints[0].log_message",
        ),
        (
            "debug.set_instruction_breakpoints",
            json!({ "session_id": "s1",
                    "breakpoints": [{ "instruction_reference": "0x10", "condition": "1" }] }),
            "breakpoints[0].condition",
        ),
        (
            "debug.set_data_breakpoints",
            json!({ "session_id": "s1",
                    "breakpoints": [{ "data_id": "d", "hit_condition": "3" }] }),
            "breakpoints[0].hit_condition",
        ),
        (
            "debug.set_exception_breakpoints",
            json!({ "session_id": "s1", "filters": [],
                    "filter_options": [{ "filter_id": "raised", "condition": "1" }] }),
            "filter_options[0].condition",
        ),
    ];
    for (i, (tool, args, field)) in calls.iter().enumerate() {
        let r = refused(&tools, tool, args.clone()).await;
        assert!(
            r.text.contains("the reviewer said no"),
            "{tool}: {}",
            r.text
        );
        let asked = no.asked();
        assert_eq!(asked.len(), i + 1, "{tool} asked once");
        let request = &asked[i];
        assert_eq!(request.tool, *tool);
        assert!(
            request.why.contains(field) && request.summary().contains(field),
            "{tool}: {}",
            request.summary()
        );
    }
    // The refused launch started nothing: the never-started s1 is all there is.
    let sessions = ok(&tools, "debug.sessions", json!({})).await;
    let listed = sessions["sessions"].as_array().unwrap();
    assert_eq!(listed.len(), 1, "{sessions}");
    assert_eq!(listed[0]["session_id"], "s1", "{sessions}");

    // Approved, the call goes on (and is kept until the session starts).
    let yes = Recording::new(true);
    let r = tools
        .call_with_approver(
            "debug.set_breakpoint",
            bp(json!({ "condition": "x" })),
            yes.as_ref(),
        )
        .await;
    assert!(!r.is_error, "past the gate: {}", r.text);
    assert_eq!(yes.asked().len(), 1);
    tools.runtime().shutdown().await;

    // PlanOnly refuses it, naming the code; a deny rule wins over any approver.
    let tools = gated_with_blank_session(
        PermissionGate::new(PermissionMode::PlanOnly).approver(Arc::new(AllowAll)),
    )
    .await;
    let r = refused(
        &tools,
        "debug.set_breakpoint",
        bp(json!({ "condition": "x" })),
    )
    .await;
    assert!(
        r.text.contains("plan_only") && r.text.contains("condition"),
        "{}",
        r.text
    );
    tools.runtime().shutdown().await;
    let always = Recording::new(true);
    let gate = PermissionGate::new(PermissionMode::Default)
        .approver(always.clone())
        .rule(PermissionRule::deny("debug.set_breakpoint"));
    let tools = gated_with_blank_session(gate).await;
    refused(
        &tools,
        "debug.set_breakpoint",
        bp(json!({ "condition": "x" })),
    )
    .await;
    refused(&tools, "debug.set_breakpoint", bp(json!({}))).await;
    assert!(always.asked().is_empty(), "a deny is not a question");
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_breakpoint_condition_never_runs_and_an_approved_one_does() {
    let file = discount();
    let line = line_of(&file, "total += discounted");
    for approve in [false, true] {
        let reviewer = Recording::new(approve);
        let tools = gated_catalogue(
            PermissionGate::new(PermissionMode::Default).approver(reviewer.clone()),
        )
        .await;
        let launched = ok(
            &tools,
            "debug.launch",
            json!({ "program": file, "stop_on_entry": true }),
        )
        .await;
        let id = launched["session_id"].as_str().unwrap().to_string();
        let written = marker(&format!("condition-{approve}"));
        let conditional = json!({
            "session_id": id, "file": file, "line": line,
            "condition": writing_condition(&written),
        });
        if approve {
            ok(&tools, "debug.set_breakpoint", conditional).await;
        } else {
            refused(&tools, "debug.set_breakpoint", conditional).await;
        }
        assert_eq!(reviewer.asked().len(), 1);
        let end = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
        assert_eq!(end["state"], "terminated", "the condition is false: {end}");
        assert_eq!(
            written.exists(),
            approve,
            "the condition's side effect happened only when approved"
        );
        let _ = std::fs::remove_file(&written);
        tools.runtime().shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_a_declined_user_changes_nothing_and_an_approving_one_runs_the_code() {
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let after = line_of(&file, "return total");
    for approve in [false, true] {
        let client = McpClient::start_all_tools(&[], Elicitation::Answer(approve)).await;
        let launched = client
            .ok(
                "debug_launch",
                json!({ "program": file, "breakpoints": [{ "file": file, "line": line }] }),
            )
            .await;
        assert!(
            client.elicitations().is_empty(),
            "a plain launch asks nothing"
        );
        let id = launched["session_id"].as_str().unwrap().to_string();
        // The new session changed the resource list, and the client is told.
        client
            .notification(|n| n["method"] == "notifications/resources/list_changed")
            .await;

        // An evaluation: runs and answers only when approved.
        let assignment = json!({ "session_id": id, "expression": "total = 999" });
        if approve {
            client.ok("debug_evaluate", assignment).await;
            let value = client
                .ok(
                    "debug_evaluate",
                    json!({ "session_id": id, "expression": "discount_percent(5700)" }),
                )
                .await;
            assert_eq!(value["result"], "10");
        } else {
            let err = refused_over_mcp(&client, "debug_evaluate", assignment).await;
            assert!(
                err["error"].as_str().unwrap().contains("did not approve"),
                "{err}"
            );
        }
        let locals = client
            .ok(
                "debug_variables",
                json!({ "session_id": id, "scope": "Locals" }),
            )
            .await;
        let total = if approve { "999" } else { "0" };
        assert_eq!(
            var(&locals["variables"], "total")["value"],
            total,
            "{locals}"
        );

        // A breakpoint whose condition writes a file: asked, and run only if approved.
        let written = marker(&format!("mcp-{approve}"));
        client
            .ok(
                "debug_set_breakpoints",
                json!({ "session_id": id, "file": file, "lines": [] }),
            )
            .await;
        let conditional = json!({
            "session_id": id, "file": file, "line": after,
            "condition": writing_condition(&written),
        });
        if approve {
            client.ok("debug_set_breakpoint", conditional).await;
        } else {
            refused_over_mcp(&client, "debug_set_breakpoint", conditional).await;
        }
        let asked = client.elicitations();
        let message = asked.last().unwrap()["message"].as_str().unwrap();
        assert!(
            message.contains("condition") && message.contains("debuggee"),
            "{message}"
        );
        let asked_so_far = if approve { 3 } else { 2 };
        assert_eq!(asked.len(), asked_so_far, "{asked:?}");
        let end = client
            .ok("debug_continue", json!({ "session_id": id }))
            .await;
        assert_eq!(end["state"], "terminated", "{end}");
        assert_eq!(
            written.exists(),
            approve,
            "the side effect only when approved"
        );
        let _ = std::fs::remove_file(&written);
        assert!(client.close().await.success());
    }
}
