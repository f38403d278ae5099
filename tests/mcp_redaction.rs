//! Secrets hidden from an agent over MCP, on real debugpy: the example program holds
//! an AWS key pair, a database password inside a dict and a GitHub token, and prints
//! the key pair. The stop result (locals, watches), the locals and a dict's children,
//! evaluate, the program's output and the session resource show none of the four, by
//! default; facts derived from them (`len(password)`, a comparison, a prefix test)
//! still answer. A server started with `--no-redact` shows them all.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use agent::var;
use common::{line_of, program};
use serde_json::{json, Value};

/// The example's secrets, as the program holds them.
const SECRETS: [&str; 4] = [
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "s3cr3t-Db-passw0rd",
    "ghp_R2d2C3poX9wingY7falconZ4ewok01BB8kQQ",
];

/// The watch expressions: two secrets by name, two facts derived from them.
const WATCHES: [&str; 4] = [
    "password",
    "aws_secret_access_key",
    "len(password)",
    "github_token.startswith('ghp_')",
];

/// Everything one agent read in a session on the example, as MCP carried it (JSON
/// and text), and the answers of the derived facts.
struct Read {
    everything: String,
    length: Value,
    compared: Value,
    prefixed: Value,
}

async fn read_everything(client: &McpClient) -> Read {
    let file = program("python/secrets.py");
    let line = line_of(&file, "# stop here");
    let mut seen = Vec::new();
    let launched = client
        .call(
            "debug_launch",
            json!({ "program": file, "breakpoints": [{ "file": file, "line": line }],
                    "watch": WATCHES }),
        )
        .await;
    let stop = agent::mcp_client::ok_result("debug_launch", launched.clone());
    assert_eq!(stop["stop"]["line"], line, "{stop}");
    let id = stop["session_id"].clone();
    seen.push(launched);

    let locals = client
        .call(
            "debug_variables",
            json!({ "session_id": id, "scope": "Locals" }),
        )
        .await;
    let db = var(&locals["structuredContent"]["variables"], "db")["variables_reference"].clone();
    seen.push(locals);
    seen.push(
        client
            .call(
                "debug_variables",
                json!({ "session_id": id, "variables_reference": db }),
            )
            .await,
    );
    for expression in ["password", "db", "github_token", "aws_access_key_id"] {
        seen.push(
            client
                .call(
                    "debug_evaluate",
                    json!({ "session_id": id, "expression": expression }),
                )
                .await,
        );
    }
    let evaluate = |expression: &'static str| {
        let id = id.clone();
        async move {
            client
                .ok(
                    "debug_evaluate",
                    json!({ "session_id": id, "expression": expression }),
                )
                .await["result"]
                .clone()
        }
    };
    let length = evaluate("len(password)").await;
    let compared = evaluate("password == expected").await;
    let prefixed = evaluate("github_token.startswith('ghp_')").await;
    // The session's resource carries the last stop.
    let uri = format!("debugger://sessions/{}", id.as_str().unwrap());
    seen.push(json!(
        client.read(&uri).await.expect("the session resource").0
    ));

    let ended = client
        .call("debug_continue", json!({ "session_id": id }))
        .await;
    assert_eq!(ended["structuredContent"]["state"], "terminated", "{ended}");
    seen.push(ended);
    let output = client
        .call("debug_output", json!({ "session_id": id }))
        .await;
    let printed = output["structuredContent"].to_string();
    assert!(printed.contains("using AWS key"), "{output}");
    seen.push(output);
    Read {
        everything: seen.iter().map(Value::to_string).collect(),
        length,
        compared,
        prefixed,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_are_hidden_everywhere_and_derived_facts_still_answer() {
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let read = read_everything(&client).await;
    for secret in SECRETS {
        assert!(
            !read.everything.contains(secret),
            "`{secret}` reached the agent: {}",
            read.everything
        );
        // Not even its distinctive part.
        let tail = &secret[secret.len() - 10..];
        assert!(
            !read.everything.contains(tail),
            "`{tail}` of `{secret}` reached the agent"
        );
    }
    for kind in [
        "aws-access-key-id",
        "aws-secret-access-key",
        "github-token",
        "named-secret",
    ] {
        assert!(
            read.everything.contains(&format!("«redacted: {kind}, ")),
            "no {kind} marker in {}",
            read.everything
        );
    }
    assert_eq!(read.length, "18");
    assert_eq!(read.compared, "False");
    assert_eq!(read.prefixed, "True");
    client.close().await;
}

/// The printed line read in pieces smaller than it: each read ends before a token it
/// would split, so each key comes whole in one read and is hidden there, without the
/// agent having read anything else first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_read_in_pieces_never_splits_a_secret() {
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let file = program("python/secrets.py");
    let ended = client
        .ok("debug_launch", json!({ "program": file, "timeout": 120 }))
        .await;
    let id = ended["session_id"].clone();
    if ended["state"] != "terminated" {
        let end = client
            .ok("debug_continue", json!({ "session_id": id }))
            .await;
        assert_eq!(end["state"], "terminated", "{end}");
    }
    let (mut since, mut reads, mut whole) = (0, Vec::new(), String::new());
    loop {
        let read = client
            .ok(
                "debug_output",
                json!({ "session_id": id, "since": since, "max_bytes": 48 }),
            )
            .await;
        whole.push_str(read["output"].as_str().unwrap());
        reads.push(read.to_string());
        if read["truncated"] != true {
            break;
        }
        since = read["next"].as_u64().unwrap();
    }
    assert!(reads.len() > 2, "{reads:?}");
    for secret in &SECRETS[..2] {
        for piece in [&secret[..8], &secret[secret.len() - 8..]] {
            assert!(
                !whole.contains(piece),
                "`{piece}` of `{secret}` in {reads:?}"
            );
        }
    }
    assert!(
        whole.contains(
            "using AWS key «redacted: aws-access-key-id, 20 chars» «redacted: \
                            aws-secret-access-key, 40 chars»"
        ),
        "{whole}"
    );
    client.close().await;
}

/// A program that fails with a token in its exception's message, built at run time
/// (the source holds it reversed, so that only what the program says can show it).
const FAILING: &str = "\
def login(api_token):
    raise PermissionError('login refused for ' + api_token)

login(''.join(reversed('QQk8BB10kowe4Znoclaf7Ygniw9Xop3C2d2R_phg')))
";

/// The exception's message reaches the agent in the stop result, the `dap_stopped`
/// notification and the session resource: the token is hidden in each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_in_an_exception_message_is_hidden_in_results_and_notifications() {
    let dir = std::env::temp_dir().join(format!("dapvisor-redact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("login.py");
    std::fs::write(&script, FAILING).unwrap();
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    client.subscribe("debugger://sessions").await;
    let stopped = client
        .call("debug_launch", json!({ "program": script, "timeout": 120 }))
        .await;
    let stop = agent::mcp_client::ok_result("debug_launch", stopped.clone());
    assert_eq!(stop["stop"]["reason"], "exception", "{stop}");
    let id = stop["session_id"].clone();
    let notified = client.update("debugger://sessions", "dap_stopped").await;
    let uri = format!("debugger://sessions/{}", id.as_str().unwrap());
    let resource = client.read(&uri).await.expect("the session resource").0;
    let token = SECRETS[3];
    for (what, seen) in [
        ("the stop result", stopped.to_string()),
        ("the notification", notified.to_string()),
        ("the resource", resource),
    ] {
        assert!(!seen.contains(&token[token.len() - 12..]), "{what}: {seen}");
    }
    assert!(
        stopped
            .to_string()
            .contains("login refused for «redacted: github-token, 40 chars»"),
        "{stopped}"
    );
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    client.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_started_with_no_redact_shows_them() {
    let client = McpClient::start_all_tools(
        &["--permission-mode", "bypass_all", "--no-redact"],
        Elicitation::Unsupported,
    )
    .await;
    let read = read_everything(&client).await;
    for secret in SECRETS {
        assert!(
            read.everything.contains(secret),
            "`{secret}` should show with --no-redact"
        );
    }
    assert!(!read.everything.contains("«redacted"));
    client.close().await;
}
