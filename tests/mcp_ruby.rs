//! `dapvisor mcp` driving rdbg, as an agent would on the Ruby example with a bug:
//! stop at the bug, read the locals and the object's instance variables, evaluate the
//! fix's expression, and continue to the end with the exit code and the output.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use serde_json::json;

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_finds_the_late_fee_bug_and_checks_the_fix() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let library = program("ruby/library.rb").display().to_string();
    let bug = line_of(&library, "late = kept - LOAN_DAYS + 1");
    // Stop at the bug for the loan returned on its due day.
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": library, "timeout": 120,
                    "breakpoints": [{ "file": library, "line": bug,
                                      "condition": "kept == LOAN_DAYS" }] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    assert_eq!(launched["adapter"], "rdbg");
    assert_eq!(launched["stop"]["line"], bug);
    assert_eq!(launched["stop"]["function"], "Loan#days_late");
    let id = launched["session_id"].as_str().unwrap().to_string();

    // The locals: `self` is the loan, its instance variables its children.
    let locals = &launched["stop"]["locals"];
    let me = var(locals, "%self");
    assert!(
        me["value"].as_str().unwrap().contains("@title=\"Emma\""),
        "{me}"
    );
    let fields = client
        .ok(
            "debug_variables",
            json!({ "session_id": id, "variables_reference": me["variables_reference"] }),
        )
        .await;
    assert_eq!(var(&fields["variables"], "@kept")["value"], "14");

    // The buggy expression says a day late; the fix's says none.
    let evaluate = |expression: &str| {
        client.ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": expression }),
        )
    };
    assert_eq!(evaluate("kept - LOAN_DAYS + 1").await["result"], "1");
    assert_eq!(evaluate("kept - LOAN_DAYS").await["result"], "0");
    // With the fix, the whole ledger comes to what the program expects.
    let fixed = evaluate(
        "ObjectSpace.each_object(Loan).sum { |l| \
         [[l.kept - LOAN_DAYS, 0].max * FEE_PER_DAY_CENTS, FEE_CAP_CENTS].min }",
    )
    .await;
    assert_eq!(fixed["result"], "650", "{fixed}");

    let end = client
        .ok(
            "debug_continue",
            json!({ "session_id": id, "timeout": 120 }),
        )
        .await;
    assert_eq!(end["state"], "terminated", "{end}");
    assert_eq!(end["exit_code"], 13, "{end}");
    let out = client
        .ok(
            "debug_output",
            json!({ "session_id": id, "categories": ["stdout"] }),
        )
        .await;
    let out = out["output"].as_str().unwrap();
    assert!(out.contains("fees: 725 cents (expected 650)"), "{out}");
    assert!(client.close().await.success());
}
