//! A launch's environment over MCP, on debugpy and pytest: only a few names are known
//! to be inert (locale, time zone, terminal, colour: `INERT_ENV`), and `--allow-env`
//! adds more; any other name is code, which a default-mode server asks about, naming
//! the variables. The variables that once went through are replayed: pytest's
//! `PYTEST_ADDOPTS` writing a report where it says, debugpy's `DEBUGPY_LOG_DIR`
//! writing logs; so is a test run's own runner arguments (`--junitxml`).

mod agent;
mod common;
mod permission_support;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use permission_support::*;
use serde_json::{json, Value};

/// The pytest test of the cart example (it fails, which is beside the point here).
fn cart_test(extra: Value) -> Value {
    let mut args = json!({ "test": "tests/test_cart.py::test_total",
                           "program": program("python/cart"), "timeout": 120 });
    args.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    args
}

/// The launches that write where the caller says: a pytest report by
/// `PYTEST_ADDOPTS` or by the runner's own `args`, and debugpy's logs.
fn writing_launches(report: &str, args_report: &str, logs: &str) -> [(Value, &'static str); 3] {
    [
        (
            cart_test(json!({ "env": { "PYTEST_ADDOPTS": format!("--junitxml={report}") } })),
            "env: PYTEST_ADDOPTS",
        ),
        (
            cart_test(json!({ "args": [format!("--junitxml={args_report}")] })),
            "passes the test runner arguments of its own",
        ),
        (
            json!({ "program": discount(), "timeout": 120,
                    "env": { "DEBUGPY_LOG_DIR": logs, "TZ": "UTC" } }),
            "env: DEBUGPY_LOG_DIR",
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_default_mode_launch_asks_before_variables_not_known_to_be_inert() {
    let (report, args_report, logs) = (
        marker("junit-env.xml"),
        marker("junit-args.xml"),
        marker("debugpy-logs"),
    );
    let (report_s, args_s, logs_s) = (
        report.display().to_string(),
        args_report.display().to_string(),
        logs.display().to_string(),
    );
    std::fs::create_dir_all(&logs).unwrap();

    // The user says no to each; each question names what carries the code.
    let client = McpClient::start_all_tools(&[], Elicitation::Answer(false)).await;
    let launches = writing_launches(&report_s, &args_s, &logs_s);
    for (i, (launch, named)) in launches.into_iter().enumerate() {
        let err = refused_over_mcp(&client, "debug_launch", launch).await;
        assert!(
            err["error"].as_str().unwrap().contains("not approved"),
            "{err}"
        );
        let asked = client.elicitations();
        assert_eq!(asked.len(), i + 1, "{asked:?}");
        let question = asked[i]["message"].as_str().unwrap();
        assert!(question.contains(named), "{question}");
    }
    assert!(
        !report.exists() && !args_report.exists(),
        "pytest never ran"
    );
    assert_eq!(std::fs::read_dir(&logs).unwrap().count(), 0, "no logs");
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"], json!([]), "{sessions}");
    assert!(client.close().await.success());

    // Let through, each writes where it was told.
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    for (launch, _) in writing_launches(&report_s, &args_s, &logs_s) {
        let ended = client.ok("debug_launch", launch).await;
        assert_eq!(ended["state"], "terminated", "{ended}");
    }
    assert!(
        report.exists(),
        "PYTEST_ADDOPTS made pytest write its report"
    );
    assert!(
        args_report.exists(),
        "--junitxml made pytest write its report"
    );
    assert!(
        std::fs::read_dir(&logs).unwrap().count() > 0,
        "DEBUGPY_LOG_DIR made debugpy write logs"
    );
    assert!(client.close().await.success());
    std::fs::remove_file(&report).unwrap();
    std::fs::remove_file(&args_report).unwrap();
    std::fs::remove_dir_all(&logs).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_env_adds_the_names_a_user_knows_to_be_inert() {
    let client = McpClient::start_all_tools(
        &["--allow-env", "DISCOUNT_*", "--allow-env", "ORDER_ID"],
        Elicitation::Answer(false),
    )
    .await;
    let inert = json!({ "DISCOUNT_MODE": "bulk", "ORDER_ID": "7", "TZ": "UTC", "LC_ALL": "C",
                        "NO_COLOR": "1" });
    let ended = client
        .ok(
            "debug_launch",
            json!({ "program": discount(), "env": inert, "timeout": 120 }),
        )
        .await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    assert!(client.elicitations().is_empty(), "nothing to ask");
    // A name no pattern covers still asks, and only it is named.
    refused_over_mcp(
        &client,
        "debug_launch",
        json!({ "program": discount(), "env": { "DISCOUNT_MODE": "bulk", "ORDER_IDS": "7" } }),
    )
    .await;
    let question = client.elicitations()[0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        question.contains("(env: ORDER_IDS)") && question.contains("--allow-env"),
        "{question}"
    );
    assert!(client.close().await.success());

    // plan_only refuses it without a question; a pattern naming no variable is
    // refused at start.
    let client = McpClient::start_all_tools(
        &["--permission-mode", "plan_only", "--allow", "debug.launch"],
        Elicitation::Answer(true),
    )
    .await;
    let err = refused_over_mcp(
        &client,
        "debug_launch",
        json!({ "program": discount(), "env": { "HOME": "/tmp" } }),
    )
    .await;
    assert!(
        err["error"].as_str().unwrap().contains("(env: HOME)"),
        "{err}"
    );
    assert!(client.elicitations().is_empty());
    assert!(client.close().await.success());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(["mcp", "--allow-env", "MYAPP=1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("MYAPP=1") && err.contains("name alone"),
        "{err}"
    );
}
