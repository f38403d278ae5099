//! `tools/list` over MCP, as a client receives it: the core profile by default and
//! every tool with `--tools all`, each within its byte budget, with compact schemas,
//! annotations only where they differ from MCP's defaults, descriptions that state the
//! bounds in force, and a call outside the profile refused saying how to get it.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use serde_json::json;

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

/// The most `tools/list` may take in the core profile, in bytes as a client receives
/// it (the JSON-RPC answer, annotations included): 12 KB, the budget of every
/// conversation that only needs the find-the-bug loop. 11,775 when this was written;
/// 11,997 once `debug.launch` took `stdin` and minitest ids (two of its texts cut to fit);
/// 11,986 once its description said how to stop at raised exceptions (issue 28, item 15:
/// its `test` and `timeout` texts cut to fit); raised to 12,200 when `debug.launch` took
/// `calls` (issue 32: call traces, 12,167), the one argument worth its bytes to every
/// agent: calls with their arguments and return values are what agents find bugs by
/// fastest.
const CORE_TOOLS_LIST_BYTES: usize = 12_200;

/// The most `tools/list` may take with every tool (`--tools all`): 41,373 bytes when
/// this was written, from 52 KB before the core profile's cuts (annotations at their
/// defaults and `additionalProperties: false` left out, shorter descriptions). Raised
/// from 44,000 when `all` began to declare output schemas (4,199 bytes for eight
/// tools, 46,303 in all), and to 46,600 when `debug.launch`'s `timeout` came to cover
/// the debugger's start too and its description says so (46,497), and to 46,800 when
/// `debug.launch` took the program's stdin too (`stdin`, `stdin_file`: 46,665 in all),
/// to 47,000 when it opened core dumps (`core`, and the sessions listing's `kind`,
/// `core_file` and `signal`: 46,915 in all), to 48,000 when `debug.expose` and
/// `debug.unexpose` came too (a person's editor on a session, about 960 bytes), to
/// 48,300 when `debug.attach` took `path_mappings` for remote and container targets
/// (issue 29.1: 355 bytes), and to 49,500 with call traces (issue 32: `debug.calls`,
/// `calls` on `debug.launch` and `debug.attach`, and `debug.trace`'s call rows in its
/// output schema: 1,143 bytes), and to 50,900 with `debug.diff` (issue 32.2: the first
/// difference between two runs, 1,399 bytes; 50,805 in all).
const ALL_TOOLS_LIST_BYTES: usize = 50_900;

/// The tools that declare an `outputSchema` in the `all` profile (the core profile
/// declares none: its budget has no room for them).
const WITH_OUTPUT_SCHEMA: &[&str] = &[
    "debug_sessions",
    "debug_threads",
    "debug_stack_trace",
    "debug_scopes",
    "debug_variables",
    "debug_evaluate",
    "debug_output",
    "debug_trace",
];

/// The core profile, in the order it lists its tools.
const CORE_TOOLS: &[&str] = &[
    "debug_launch",
    "debug_attach",
    "debug_set_breakpoint",
    "debug_remove_breakpoint",
    "debug_continue",
    "debug_step",
    "debug_pause",
    "debug_wait",
    "debug_stack_trace",
    "debug_variables",
    "debug_evaluate",
    "debug_output",
    "debug_watch",
    "debug_trace",
    "debug_sessions",
    "debug_terminate",
    "debug_disconnect",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_names_schemas_and_annotations() {
    // The core profile is the default.
    let client = McpClient::start(BYPASS, Elicitation::Unsupported).await;
    let tools = client.tools().await;
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, CORE_TOOLS);
    let core_bytes = client.tools_list_bytes();
    eprintln!("tools/list (core): {core_bytes} bytes");
    assert!(
        core_bytes <= CORE_TOOLS_LIST_BYTES,
        "tools/list (core) is {core_bytes} bytes"
    );
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        assert_eq!(tool["inputSchema"]["type"], "object", "{name}");
        assert!(tool["description"].as_str().unwrap().len() > 40, "{name}");
        assert!(tool["annotations"].is_object(), "{name}");
        // No `title`: it would only repeat the name.
        assert!(tool.get("title").is_none(), "{name}");
        assert!(tool.get("outputSchema").is_none(), "{name}");
    }
    let find = |name: &str| tools.iter().find(|t| t["name"] == name).unwrap().clone();
    // Only the hints that differ from MCP's defaults (destructive, open world, not
    // read-only, not idempotent) are sent: evaluate is all defaults.
    let eval = find("debug_evaluate");
    assert_eq!(eval["annotations"], json!({}));
    let mut required: Vec<&str> = eval["inputSchema"]["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    required.sort();
    assert_eq!(required, ["expression", "session_id"]);
    let vars = find("debug_variables");
    assert_eq!(
        vars["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false})
    );
    let launch = find("debug_launch");
    assert_eq!(launch["annotations"], json!({"destructiveHint": false}));
    let breakpoint = &launch["inputSchema"]["properties"]["breakpoints"]["items"];
    assert!(breakpoint["properties"]["line"].is_object(), "{launch}");
    // The core schema leaves out what the loop does not need; it is still accepted.
    assert!(
        breakpoint["properties"]["hit_condition"].is_null(),
        "{launch}"
    );
    // Descriptions state the bounds in force.
    let step = find("debug_step");
    let timeout = &step["inputSchema"]["properties"]["timeout"]["description"];
    assert!(
        timeout
            .as_str()
            .unwrap()
            .contains("default 30, at most 300"),
        "{step}"
    );

    // Compact schemas: every byte of the list costs every client tokens. No `$schema`,
    // type names or formats; an optional field is its type alone, not in `required`.
    let listed = serde_json::to_string(&tools).unwrap();
    for noise in [
        "\"$schema\"",
        "\"format\":\"",
        "\"null\"",
        "\"title\":\"Arg",
        "\"additionalProperties\":false",
    ] {
        assert!(!listed.contains(noise), "{noise} in tools/list");
    }
    let one = find("debug_set_breakpoint")["inputSchema"].clone();
    assert_eq!(one["properties"]["condition"]["type"], "string", "{one}");
    assert_eq!(one["properties"]["line"]["type"], "integer", "{one}");
    assert!(one["properties"]["condition"]["description"].is_string());
    assert_eq!(one["required"], json!(["session_id"]));

    // A tool of the other profile is refused, saying how to get it.
    let refused = client
        .try_call("debug_read_memory", json!({}))
        .await
        .unwrap_err();
    assert!(refused.message.contains("--tools all"), "{refused:?}");

    // The resources and their template are listed before any session exists.
    let resources = client.resources().await;
    assert_eq!(resources[0]["uri"], "debugger://sessions");
    let templates = client.resource_templates().await;
    assert_eq!(templates[0]["uriTemplate"], "debugger://sessions/{id}");
    assert!(client.close().await.success());

    // `--tools all`: every tool, the core ones with every argument.
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let all = client.tools().await;
    let all_bytes = client.tools_list_bytes();
    eprintln!("tools/list (all): {all_bytes} bytes");
    assert!(
        all_bytes <= ALL_TOOLS_LIST_BYTES,
        "tools/list (all) is {all_bytes} bytes"
    );
    assert!(all.len() > 40, "{}", all.len());
    let declaring: Vec<&str> = all
        .iter()
        .filter(|t| t.get("outputSchema").is_some())
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(declaring, WITH_OUTPUT_SCHEMA);
    for name in WITH_OUTPUT_SCHEMA {
        let tool = all.iter().find(|t| t["name"] == *name).unwrap();
        let schema = &tool["outputSchema"];
        assert_eq!(schema["type"], "object", "{name}");
        // Compact: no descriptions (the tool's own says what it answers), no titles.
        let text = schema.to_string();
        assert!(!text.contains("\"description\""), "{name}: {text}");
        assert!(!text.contains("\"title\""), "{name}: {text}");
    }
    for name in CORE_TOOLS {
        let tool = all.iter().find(|t| t["name"] == *name);
        assert!(tool.is_some(), "{name} is not in `all`");
    }
    let launch = all.iter().find(|t| t["name"] == "debug_launch").unwrap();
    let breakpoint = &launch["inputSchema"]["properties"]["breakpoints"]["items"];
    assert!(
        breakpoint["properties"]["hit_condition"].is_object(),
        "{launch}"
    );
    assert!(client.close().await.success());
}
