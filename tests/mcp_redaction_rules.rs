//! Redaction rules a person adds, over MCP on real debugpy: `--redact strict` hides a
//! random-looking value under a plain name (and leaves a path readable),
//! `--redact-name` hides values by names dapvisor does not know as secret, and
//! `--redact-pattern` hides a format it does not know, in locals, evaluate and the
//! program's output alike. The rules come from the config file's `[redact]` table and
//! the flags together. A server with the default rules shows all four, which is what
//! the rules are for.

mod agent;
mod common;

use agent::mcp_client::{ok_result, Elicitation, McpClient};
use serde_json::json;

/// A program whose values no built-in rule hides: a customer's SSN, a card PIN, a
/// licence key of a made-up format (printed too), a random nonce under a plain name,
/// and a library path that must stay readable even when strict.
const PROGRAM: &str = "\
ssn = '078-05-1120'
card_pin = '4821'
licence = 'ACME-314159'
nonce = 'q7Rf2LxZ9pK4mW8tB3vN'
library = '/usr/lib/x86_64-linux-gnu/libcrypto.so.3'
print('licence in use: ' + licence, flush=True)
print('ready')  # stop here
";

const HIDDEN: [&str; 4] = ["078-05-1120", "4821", "ACME-314159", "q7Rf2LxZ9pK4mW8tB3vN"];
const LIBRARY: &str = "/usr/lib/x86_64-linux-gnu/libcrypto.so.3";

/// The locals, the evaluation of each name and the output, as one string, read by a
/// server started with `flags` on the program in `dir`.
async fn everything_read(dir: &std::path::Path, flags: &[&str]) -> String {
    let script = dir.join("customer.py");
    std::fs::write(&script, PROGRAM).unwrap();
    let client = McpClient::start(flags, Elicitation::Unsupported).await;
    let line = common::line_of(&script, "# stop here");
    let launched = client
        .call(
            "debug_launch",
            json!({ "program": script, "breakpoints": [{ "file": script, "line": line }] }),
        )
        .await;
    let stop = ok_result("debug_launch", launched.clone());
    assert_eq!(stop["stop"]["line"], line, "{stop}");
    let id = stop["session_id"].clone();
    let mut seen = vec![launched];
    seen.push(
        client
            .call(
                "debug_variables",
                json!({ "session_id": id, "scope": "Locals" }),
            )
            .await,
    );
    for expression in ["ssn", "card_pin", "licence", "nonce", "library"] {
        seen.push(
            client
                .call(
                    "debug_evaluate",
                    json!({ "session_id": id, "expression": expression }),
                )
                .await,
        );
    }
    seen.push(
        client
            .call("debug_output", json!({ "session_id": id }))
            .await,
    );
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    client.close().await;
    serde_json::to_string(&seen).unwrap()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dapvisor-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn added_rules_from_the_config_file_and_the_flags_hide_what_the_built_ins_do_not() {
    let dir = temp_dir("redact-rules");
    let config = dir.join("dapvisor.toml");
    std::fs::write(&config, "[redact]\nlevel = \"strict\"\nnames = [\"ssn\"]\n").unwrap();
    let config = config.to_string_lossy().into_owned();
    let seen = everything_read(
        &dir,
        &[
            "--permission-mode",
            "bypass_all",
            "--config",
            &config,
            "--redact-name",
            "*_pin",
            "--redact-pattern",
            r"ACME-\d{6}",
        ],
    )
    .await;
    for value in HIDDEN {
        assert!(!seen.contains(value), "`{value}` shows: {seen}");
    }
    for marker in [
        "«redacted: named-secret, 11 chars»",
        "«redacted: named-secret, 4 chars»",
        "licence in use: «redacted: pattern, 11 chars»",
        "«redacted: high-entropy, 20 chars»",
    ] {
        assert!(seen.contains(marker), "no `{marker}` in {seen}");
    }
    assert!(seen.contains(LIBRARY), "a path stays readable: {seen}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_rules_show_what_only_added_rules_hide() {
    let dir = temp_dir("redact-default");
    let seen = everything_read(&dir, &["--permission-mode", "bypass_all"]).await;
    for value in HIDDEN.iter().chain([&LIBRARY]) {
        assert!(seen.contains(value), "`{value}` is hidden: {seen}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_rules_stop_the_server_before_it_starts_saying_which() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .args(["mcp", "--redact-pattern", "(x"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--redact-pattern `(x` is not a valid pattern"),
        "{err}"
    );
}
