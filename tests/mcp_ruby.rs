//! `dapvisor mcp` driving rdbg, as an agent would on the Ruby example with a bug:
//! stop at the bug, read the locals and the object's instance variables, evaluate the
//! fix's expression, and continue to the end with the exit code and the output; and a
//! minitest test run by its id, stopped in the code under test, ending with
//! minitest's own words on the failure; an attach by pid, which rdbg 1.4 cannot
//! make, refused saying what to do instead.

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

/// The end of minitest test `test` of the Ruby cart project, run without a stop.
async fn run_to_end(client: &McpClient, test: &str) -> serde_json::Value {
    let project = program("ruby/cart");
    let ended = client
        .ok(
            "debug_launch",
            json!({ "test": test, "program": project, "timeout": 120 }),
        )
        .await;
    assert_eq!(ended["state"], "terminated", "{test}: {ended}");
    ended["test"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_minitest_test_by_id_stops_in_the_code_under_test_and_ends_with_its_failure() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let project = program("ruby/cart");
    let source = project.join("lib/cart.rb");
    let line = line_of(&source, "return subtotal");
    let launched = client
        .ok(
            "debug_launch",
            json!({ "test": "test/test_cart.rb::TestCart#test_total", "program": project,
                    "timeout": 120,
                    "breakpoints": [{ "file": source, "line": line,
                                      "condition": "subtotal == 20" }] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{launched}");
    assert_eq!(launched["adapter"], "rdbg");
    assert_eq!(launched["stop"]["line"], line, "{launched}");
    let id = launched["session_id"].clone();
    assert_eq!(var(&launched["stop"]["locals"], "subtotal")["value"], "20");
    let eval = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "subtotal + 1" }),
        )
        .await;
    assert_eq!(eval["result"], "21", "{eval}");
    let end = client
        .ok(
            "debug_continue",
            json!({ "session_id": id, "timeout": 120 }),
        )
        .await;
    assert_eq!(end["state"], "terminated", "{end}");
    let test = &end["test"];
    assert_eq!(
        (&test["runner"], &test["passed"], &test["exit_code"]),
        (&json!("minitest"), &json!(false), &json!(1)),
        "{test}"
    );
    let failure = test["failure"].as_str().unwrap();
    assert!(
        failure.contains("TestCart#test_total") && failure.contains("Expected: 42"),
        "{failure}"
    );
    assert!(failure.contains("Actual: 41"), "{failure}");

    // A test that passes says so; a name that matches none is no pass, though
    // minitest exits 0 for it.
    let passed = run_to_end(&client, "test/test_cart.rb::test_line_total").await;
    assert_eq!(
        (&passed["passed"], &passed["exit_code"]),
        (&json!(true), &json!(0)),
        "{passed}"
    );
    let none = run_to_end(&client, "test/test_cart.rb::TestCart#test_nothing").await;
    assert_eq!(
        (&none["passed"], &none["exit_code"]),
        (&json!(false), &json!(0)),
        "{none}"
    );
    assert!(
        none["failure"].as_str().unwrap().contains("no test ran"),
        "{none}"
    );
    assert!(client.close().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attach_by_pid_to_ruby_is_refused_saying_to_start_under_rdbg_and_attach_by_port() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let mut running = std::process::Command::new("sleep")
        .arg("120")
        .spawn()
        .unwrap();
    let library = program("ruby/library.rb");
    let refused = client
        .fails(
            "debug_attach",
            json!({ "pid": running.id(), "program": library }),
            400,
        )
        .await;
    running.kill().unwrap();
    running.wait().unwrap();
    let error = refused["error"].as_str().unwrap();
    assert!(
        error.contains("`rdbg` debug adapter cannot attach to a running process by pid"),
        "{refused}"
    );
    assert!(error.contains("attach by `port`"), "{refused}");
    assert!(client.close().await.success());
}
