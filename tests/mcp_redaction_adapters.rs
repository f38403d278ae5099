//! Secrets hidden from an agent over MCP on lldb-dap, dlv and js-debug, as on debugpy
//! (mcp_redaction.rs): each example holds a database password in a struct or object,
//! an API key in a map (or under a secret name in C), and a GitHub token in an array,
//! prints the token in two writes (two output events, the token split across them),
//! and the Go and JavaScript ones then fail with the token in the panic's or error's
//! message. The stop results, the stack, every frame's locals and their children two
//! levels down, evaluations, the exception stop and the output show none of them.

mod agent;
mod common;

use std::path::PathBuf;

use agent::mcp_client::{ok_result, Elicitation, McpClient};
use common::{build_c, build_go, line_of, program};
use serde_json::{json, Value};

/// The examples' secrets, as the programs hold them.
const SECRETS: [&str; 3] = [
    "s3cr3t-Db-passw0rd",
    "ghp_R2d2C3poX9wingY7falconZ4ewok01BB8kQQ",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
];

/// The most variables expanded below the locals: enough for the examples' structs,
/// maps and arrays, a bound should an adapter show a deep tree.
const MAX_EXPANDED: usize = 40;

struct Case {
    adapter: &'static str,
    program: PathBuf,
    source: PathBuf,
    /// Expressions that are only paths to a secret (their values must be hidden).
    evaluate: [&'static str; 3],
    /// Whether the program then fails with the token in its message.
    fails: bool,
}

/// Everything an agent read in a session on `case`, as MCP carried it.
async fn everything_read(case: &Case) -> String {
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let line = line_of(&case.source, "stop here");
    let launched = client
        .call(
            "debug_launch",
            json!({ "program": case.program, "adapter": case.adapter, "timeout": 120,
                    "breakpoints": [{ "file": case.source, "line": line }] }),
        )
        .await;
    let stop = ok_result("debug_launch", launched.clone());
    assert_eq!(stop["stop"]["line"], line, "{}: {stop}", case.adapter);
    let id = stop["session_id"].clone();
    let mut seen = vec![launched];
    let stack = client
        .ok("debug_stack_trace", json!({ "session_id": id }))
        .await;
    let frames: Vec<Value> = stack["frames"].as_array().unwrap().clone();
    seen.push(stack);
    // The stopped function's frame and its caller's, where the values were made.
    for frame in frames.iter().take(2) {
        let locals = client
            .call(
                "debug_variables",
                json!({ "session_id": id, "frame_id": frame["id"], "scope": "Locals" }),
            )
            .await;
        let mut to_expand = children_of(&locals);
        seen.push(locals);
        let mut expanded = 0;
        while let Some((reference, depth)) = to_expand.pop() {
            if expanded == MAX_EXPANDED {
                break;
            }
            expanded += 1;
            let children = client
                .call(
                    "debug_variables",
                    json!({ "session_id": id, "variables_reference": reference }),
                )
                .await;
            if depth < 2 {
                to_expand.extend(
                    children_of(&children)
                        .into_iter()
                        .map(|(r, _)| (r, depth + 1)),
                );
            }
            seen.push(children);
        }
    }
    for expression in case.evaluate {
        seen.push(
            client
                .call(
                    "debug_evaluate",
                    json!({ "session_id": id, "expression": expression }),
                )
                .await,
        );
    }
    let moved = client
        .ok("debug_continue", json!({ "session_id": id }))
        .await;
    if case.fails {
        assert_eq!(
            moved["stop"]["reason"], "exception",
            "{}: {moved}",
            case.adapter
        );
        let message = moved.to_string();
        assert!(
            message.contains("login refused for «redacted: github-token, 40 chars»"),
            "{}: the failure's message: {message}",
            case.adapter
        );
    }
    seen.push(moved);
    let output = client.ok("debug_output", json!({ "session_id": id })).await;
    assert!(
        output
            .to_string()
            .contains("«redacted: github-token, 40 chars»"),
        "{}: the token printed in two writes is hidden whole: {output}",
        case.adapter
    );
    seen.push(output);
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    client.close().await;
    serde_json::to_string(&seen).unwrap()
}

/// The variables references of a `debug_variables` answer's variables, at depth 1.
fn children_of(answer: &Value) -> Vec<(Value, usize)> {
    answer["structuredContent"]["variables"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| v["variables_reference"].as_i64().unwrap_or(0) > 0)
        .map(|v| (v["variables_reference"].clone(), 1))
        .collect()
}

fn assert_nothing_shows(case: &Case, seen: &str) {
    for secret in SECRETS {
        for piece in [&secret[..10], &secret[secret.len() - 10..]] {
            assert!(
                !seen.contains(piece),
                "{}: `{piece}` of `{secret}` shows in {seen}",
                case.adapter
            );
        }
    }
    assert!(
        seen.contains("«redacted: named-secret"),
        "{}: {seen}",
        case.adapter
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_shows_no_secret_of_a_c_program() {
    let case = Case {
        adapter: "lldb-dap",
        program: build_c("secrets"),
        source: program("c/secrets.c"),
        evaluate: ["db->password", "tokens[0]", "api_key"],
        fails: false,
    };
    let seen = everything_read(&case).await;
    assert_nothing_shows(&case, &seen);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_shows_no_secret_of_a_go_program() {
    let case = Case {
        adapter: "dlv",
        program: build_go("secrets"),
        source: program("go/secrets/main.go"),
        evaluate: ["db.Password", "keys[\"api_key\"]", "tokens[0]"],
        fails: true,
    };
    let seen = everything_read(&case).await;
    assert_nothing_shows(&case, &seen);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn js_debug_shows_no_secret_of_a_javascript_program() {
    let case = Case {
        adapter: "js-debug",
        program: program("javascript/secrets.js"),
        source: program("javascript/secrets.js"),
        evaluate: ["db.password", "keys.get('api_key')", "tokens[0]"],
        fails: true,
    };
    let seen = everything_read(&case).await;
    assert_nothing_shows(&case, &seen);
}
