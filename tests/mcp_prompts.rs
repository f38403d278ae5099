//! What `dapvisor mcp` teaches an agent, through rmcp's client: the server's
//! `instructions` (under 1 KiB, the loop by the tools' MCP names, what the core profile
//! leaves out), its prompts (listed with their arguments, each filled in with the
//! values given, naming only tools the client can call, refusing a missing argument
//! clearly), the first step of each prompt's plan run as written against debugpy, and
//! the skill file (`skills/dapvisor-debugging/SKILL.md`), which must name the same
//! tools.

mod agent;
mod common;

use std::collections::BTreeSet;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use rmcp::model::{GetPromptRequestParams, GetPromptResponse};
use rmcp::ServiceError;
use serde_json::{json, Value};

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

/// The most the instructions may take: 1 KiB (`mcp::MAX_INSTRUCTIONS_BYTES`).
const INSTRUCTIONS_BYTES: usize = 1024;

/// The most `prompts/list` may take, as a client receives it: 1,412 bytes when this
/// was written.
const PROMPTS_LIST_BYTES: usize = 1600;

/// Every `debug_...` word in `text`: the tools it names.
fn tools_named(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("debug_") && w.len() > "debug_".len())
        .map(str::to_string)
        .collect()
}

/// The names of the tools `client` lists.
async fn listed(client: &McpClient) -> BTreeSet<String> {
    let tools = client.tools().await;
    tools
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// The server's instructions, from its answer to `initialize`.
fn instructions(client: &McpClient) -> String {
    let info = client.peer().peer_info().expect("initialized");
    info.instructions
        .clone()
        .expect("the server gives instructions")
}

/// `prompts/get` of `name` with `arguments`: the one message's text, or the error.
async fn prompt(client: &McpClient, name: &str, arguments: Value) -> Result<String, String> {
    let mut params = GetPromptRequestParams::new(name);
    if let Value::Object(map) = arguments {
        params = params.with_arguments(map);
    }
    match client.peer().get_prompt_once(params).await {
        Ok(GetPromptResponse::Complete(result)) => {
            assert_eq!(result.messages.len(), 1, "{result:?}");
            let message = serde_json::to_value(&result.messages[0]).unwrap();
            assert_eq!(message["role"], "user");
            Ok(message["content"]["text"].as_str().unwrap().to_string())
        }
        Err(ServiceError::McpError(err)) => {
            assert_eq!(err.code.0, -32602, "invalid params: {err:?}");
            Err(err.message.to_string())
        }
        Ok(other) => panic!("prompts/get {name} wants more: {other:?}"),
        Err(other) => panic!("prompts/get {name}: {other}"),
    }
}

/// The JSON arguments the plan's text gives right after `tool ` (its first use).
fn arguments_after(text: &str, tool: &str) -> Value {
    let at = text
        .find(&format!("{tool} {{"))
        .unwrap_or_else(|| panic!("{tool} in {text}"));
    let rest = &text[at + tool.len() + 1..];
    serde_json::Deserializer::from_str(rest)
        .into_iter::<Value>()
        .next()
        .unwrap()
        .unwrap_or_else(|e| panic!("{tool}'s arguments are not JSON ({e}): {rest}"))
}

/// Wait on a running program until it stops or ends.
async fn settled(client: &McpClient, mut result: Value) -> Value {
    while result["state"] == "running" {
        let id = result["session_id"].clone();
        result = client
            .ok("debug_wait", json!({ "session_id": id, "timeout": 120 }))
            .await;
        result["session_id"] = id;
    }
    result
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instructions_and_prompts_name_the_core_tools_and_fill_in_the_arguments() {
    let client = McpClient::start(BYPASS, Elicitation::Unsupported).await;
    let core = listed(&client).await;
    let info = client.peer().peer_info().expect("initialized");
    assert!(info.capabilities.prompts.is_some(), "{info:?}");

    let text = instructions(&client);
    eprintln!("instructions (core): {} bytes", text.len());
    assert!(
        text.len() <= INSTRUCTIONS_BYTES,
        "{} bytes:\n{text}",
        text.len()
    );
    // The loop names core tools only; what `--tools all` adds is said after it.
    let (the_loop, left_out) = text
        .split_once("`--tools all`")
        .expect("says what core leaves out");
    let unknown: Vec<_> = tools_named(the_loop).difference(&core).cloned().collect();
    assert!(
        unknown.is_empty(),
        "the loop names tools core lacks: {unknown:?}"
    );
    for tool in [
        "debug_launch",
        "debug_step",
        "debug_continue",
        "debug_evaluate",
        "debug_terminate",
    ] {
        assert!(the_loop.contains(tool), "{tool}: {text}");
    }
    assert!(
        left_out.contains("memory") && left_out.contains("debug_share"),
        "{text}"
    );

    let prompts = client.peer().list_all_prompts().await.unwrap();
    let bytes = client.list_bytes("prompts");
    eprintln!("prompts/list: {bytes} bytes");
    assert!(bytes <= PROMPTS_LIST_BYTES, "prompts/list is {bytes} bytes");
    let shape: Vec<(String, Vec<(String, bool)>)> = prompts
        .iter()
        .map(|p| {
            let args = p.arguments.iter().flatten();
            let args = args.map(|a| (a.name.clone(), a.required == Some(true)));
            (p.name.clone(), args.collect())
        })
        .collect();
    let owned = |list: &[(&str, bool)]| list.iter().map(|(n, r)| (n.to_string(), *r)).collect();
    assert_eq!(
        shape,
        vec![
            (
                "debug_failing_test".to_string(),
                owned(&[("test", true), ("program", false)])
            ),
            (
                "find_crash".to_string(),
                owned(&[("program", true), ("args", false)])
            ),
            (
                "explain_wrong_value".to_string(),
                owned(&[
                    ("file", true),
                    ("line", true),
                    ("expression", true),
                    ("program", false)
                ])
            ),
        ]
    );
    assert!(prompts
        .iter()
        .all(|p| p.description.as_ref().is_some_and(|d| d.len() > 20)));

    // Each filled in: the values as JSON strings (a quote in one reads back whole),
    // and only tools the client can call.
    let cases = [
        (
            "debug_failing_test",
            json!({ "test": "tests/test_cart.py::test_total", "program": "python/cart" }),
            vec![r#""test": "tests/test_cart.py::test_total", "program": "python/cart""#],
            vec![
                "debug_launch",
                "debug_trace",
                "debug_evaluate",
                "debug_step",
                "debug_terminate",
            ],
        ),
        (
            "find_crash",
            json!({ "program": "bin/app", "args": "--mode \"fast\" 3" }),
            vec![r#"{"program": "bin/app", "args": ["--mode","\"fast\"","3"]}"#],
            vec![
                "debug_launch",
                "debug_stack_trace",
                "debug_variables",
                "debug_evaluate",
            ],
        ),
        (
            "explain_wrong_value",
            json!({ "file": "src/price.py", "line": "45", "expression": "d[\"net\"] * rate" }),
            vec![
                r#""breakpoints": [{"file": "src/price.py", "line": 45}]"#,
                r#""watch": ["d[\"net\"] * rate"]"#,
            ],
            vec![
                "debug_launch",
                "debug_evaluate",
                "debug_stack_trace",
                "debug_trace",
            ],
        ),
    ];
    for (name, arguments, values, tools) in cases {
        let text = prompt(&client, name, arguments).await.unwrap();
        for value in values {
            assert!(text.contains(value), "{name} lacks {value}:\n{text}");
        }
        for tool in tools {
            assert!(text.contains(tool), "{name} lacks {tool}:\n{text}");
        }
        let unknown: Vec<_> = tools_named(&text).difference(&core).cloned().collect();
        assert!(
            unknown.is_empty(),
            "{name} names tools core lacks: {unknown:?}"
        );
    }

    // Bad input is refused, saying what the prompt takes.
    let missing = prompt(
        &client,
        "explain_wrong_value",
        json!({ "file": "a.py", "line": 3 }),
    );
    let missing = missing.await.unwrap_err();
    assert!(
        missing.contains("missing argument `expression`"),
        "{missing}"
    );
    assert!(
        missing.contains("takes file, line, expression, program (optional)"),
        "{missing}"
    );
    let none = prompt(&client, "find_crash", Value::Null)
        .await
        .unwrap_err();
    assert!(none.contains("missing argument `program`"), "{none}");
    let unknown = prompt(&client, "fix_it", json!({})).await.unwrap_err();
    assert!(
        unknown.contains("the prompts are debug_failing_test"),
        "{unknown}"
    );
    // The server serves on.
    assert!(!listed(&client).await.is_empty());
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_all_profile_gives_the_loop_alone_and_the_skill_names_the_core_tools() {
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let all = listed(&client).await;
    let text = instructions(&client);
    eprintln!("instructions (all): {} bytes", text.len());
    assert!(text.len() <= INSTRUCTIONS_BYTES);
    assert!(!text.contains("--tools all"), "{text}");
    assert!(tools_named(&text).is_subset(&all), "{text}");
    client.close().await;

    let skill = std::fs::read_to_string(root().join("skills/dapvisor-debugging/SKILL.md"))
        .expect("the skill file");
    let front = skill
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map(|(front, _)| front)
        .expect("front matter between --- lines");
    assert!(
        front.lines().any(|l| l == "name: dapvisor-debugging"),
        "{front}"
    );
    assert!(
        front.lines().any(|l| l.starts_with("description: ")),
        "{front}"
    );
    let core = McpClient::start(BYPASS, Elicitation::Unsupported).await;
    let core_tools = listed(&core).await;
    let named = tools_named(&skill);
    let unknown: Vec<_> = named.difference(&core_tools).cloned().collect();
    assert!(
        unknown.is_empty(),
        "SKILL.md names tools core lacks: {unknown:?}"
    );
    for tool in [
        "debug_launch",
        "debug_step",
        "debug_continue",
        "debug_evaluate",
        "debug_trace",
    ] {
        assert!(named.contains(tool), "SKILL.md lacks {tool}");
    }
    core.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_prompts_first_step_runs_as_written_under_debugpy() {
    let client = McpClient::start(BYPASS, Elicitation::Unsupported).await;

    // find_crash: no breakpoints, and the uncaught KeyError stops where it is raised.
    let scores = program("python/scores.py").display().to_string();
    let plan = prompt(&client, "find_crash", json!({ "program": scores }))
        .await
        .unwrap();
    let launched = client
        .ok("debug_launch", arguments_after(&plan, "debug_launch"))
        .await;
    let crashed = settled(&client, launched).await;
    assert_eq!(crashed["state"], "stopped", "{crashed}");
    assert_eq!(crashed["stop"]["function"], "best_player", "{crashed}");
    let exception = crashed["stop"]["exception"].to_string();
    assert!(exception.contains("KeyError"), "{crashed}");
    let id = crashed["session_id"].clone();
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;

    // explain_wrong_value: stopped at the line, watching the expression.
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let arguments = json!({ "file": file, "line": line.to_string(), "expression": "discounted" });
    let plan = prompt(&client, "explain_wrong_value", arguments)
        .await
        .unwrap();
    let stopped = client
        .ok("debug_launch", arguments_after(&plan, "debug_launch"))
        .await;
    assert_eq!(stopped["stop"]["line"], line, "{stopped}");
    let watched = &stopped["stop"]["watches"][0];
    assert_eq!(watched["expression"], "discounted", "{stopped}");
    assert_eq!(watched["value"], "1000", "{stopped}");
    let id = stopped["session_id"].clone();
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;

    // debug_failing_test: the run ends with the runner's words.
    let folder = program("python/cart").display().to_string();
    let arguments = json!({ "test": "tests/test_cart.py::test_total", "program": folder });
    let plan = prompt(&client, "debug_failing_test", arguments)
        .await
        .unwrap();
    let launched = client
        .ok("debug_launch", arguments_after(&plan, "debug_launch"))
        .await;
    let ended = settled(&client, launched).await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    assert_eq!(ended["test"]["passed"], false, "{ended}");
    let failure = ended["test"]["failure"].as_str().unwrap_or("");
    assert!(failure.contains("assert 41 == 42"), "{ended}");
    client.close().await;
}
