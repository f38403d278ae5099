//! debugpy's `raised` filter stops at the program's own exceptions (issue 28, item 15's
//! leftover): where the program raises one, and where a library it called raised one
//! into its code, never at the exceptions the standard library raises and handles
//! itself (169 stops before the program's first in this program with `justMyCode:
//! false`). And the library stays reachable meanwhile: a step goes into it.

mod agent;
mod common;

use std::path::PathBuf;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use serde_json::{json, Value};

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

/// A program that uses `decimal`, `importlib`, `json` and `tempfile` (which raise and
/// catch their own exceptions as they load and work), then catches a JSONDecodeError
/// from `json.loads` and a ValueError of its own.
const PROGRAM: &str = r#"import decimal
import importlib
import json
import tempfile


def parse(text):
    try:
        return json.loads(text)  # the library raises JSONDecodeError
    except json.JSONDecodeError:
        return None


def main():
    total = decimal.Decimal("1.10") + decimal.Decimal("2")
    quote = importlib.import_module("email.utils").quote("a")
    with tempfile.TemporaryDirectory() as folder:
        made = len(folder) > 0
    parsed = parse("{bad")
    try:
        raise ValueError("mine")
    except ValueError as error:
        print("caught", error, total, quote, made, parsed)


main()
"#;

/// The program, written to a file of this test binary's own.
fn write_program(name: &str) -> PathBuf {
    let path = build_dir().join(format!("{name}-{}.py", std::process::id()));
    std::fs::write(&path, PROGRAM).unwrap();
    path
}

fn assert_exception_stop(answer: &Value, program: &str, function: &str, line: i64, id: &str) {
    assert_eq!(answer["state"], "stopped", "{answer}");
    let stop = &answer["stop"];
    assert_eq!(
        (
            &stop["reason"],
            &stop["file"],
            &stop["function"],
            &stop["line"]
        ),
        (
            &json!("exception"),
            &json!(program),
            &json!(function),
            &json!(line)
        ),
        "{answer}"
    );
    let exception = stop["exception"]["id"].as_str().unwrap_or_default();
    assert!(exception.contains(id), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_raised_filter_stops_twice_both_in_the_programs_own_code() {
    let client = McpClient::start(BYPASS, Elicitation::Unsupported).await;
    let program = write_program("raised_twice");
    let file = program.display().to_string();
    let first = client
        .ok(
            "debug_launch",
            json!({ "program": file, "filters": ["raised"], "timeout": 60 }),
        )
        .await;
    let id = first["session_id"].clone();
    // The library's JSONDecodeError stops where it reaches the program: the call.
    let call = line_of(&program, "return json.loads(text)");
    assert_exception_stop(&first, &file, "parse", call, "JSONDecodeError");
    let second = client
        .ok("debug_continue", json!({ "session_id": id, "timeout": 60 }))
        .await;
    let raise = line_of(&program, r#"raise ValueError("mine")"#);
    assert_exception_stop(&second, &file, "main", raise, "ValueError");
    let end = client
        .ok("debug_continue", json!({ "session_id": id, "timeout": 60 }))
        .await;
    assert_eq!(
        (&end["state"], &end["exit_code"]),
        (&json!("terminated"), &json!(0)),
        "two stops, then the end: {end}"
    );
    client.close().await;
    std::fs::remove_file(program).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_raised_filter_a_step_still_goes_into_the_library() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let program = write_program("raised_step_in");
    let file = program.display().to_string();
    let call = line_of(&program, "return json.loads(text)");
    let at_call = client
        .ok(
            "debug_launch",
            json!({ "program": file, "filters": ["raised"], "timeout": 60,
                    "breakpoints": [{ "file": file, "line": call }] }),
        )
        .await;
    assert_eq!(at_call["stop"]["reason"], "breakpoint", "{at_call}");
    let id = at_call["session_id"].clone();
    let inside = client
        .ok("debug_step_in", json!({ "session_id": id, "timeout": 60 }))
        .await;
    let stop = &inside["stop"];
    assert_eq!(stop["function"], "loads", "into json.loads: {inside}");
    assert!(
        stop["file"].as_str().unwrap().ends_with("json/__init__.py"),
        "{inside}"
    );
    // Raised in the library's decoder, the error stops only back in the program.
    let caught = client
        .ok("debug_continue", json!({ "session_id": id, "timeout": 60 }))
        .await;
    assert_exception_stop(&caught, &file, "parse", call, "JSONDecodeError");
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    client.close().await;
    std::fs::remove_file(program).unwrap();
}
