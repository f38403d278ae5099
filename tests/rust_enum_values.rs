//! A `Vec` of Rust enums holding a `String` reads as Rust on lldb-dap, promptly
//! (issue 28, item 9): lldb names a variant by its discriminant cut to 32 bits, and
//! the toolchain's enum formatter, matching the full one, read `Shape::Empty` (whose
//! discriminant sits in the String's capacity, 2^63) as a `Named` String of whatever
//! bytes followed, a String of trillions of bytes whose summary lldb then walked for
//! minutes. dapvisor's corrections to the formatters (`rust_formatters_fix.py`) pick
//! the variant right, on CodeLLDB too (it loads the same toolchain formatters). And a
//! hash map moved away, whose freed table was reused, no longer raises IndexError.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use common::{build_rust, line_of, program};
use serde_json::{json, Value};

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

/// The stop at `shapes.rs`'s report line, on `adapter`.
async fn stopped_at_the_report(client: &McpClient, adapter: &str) -> Value {
    let source = program("rust/shapes.rs");
    let line = line_of(&source, r#"println!("{rule}"#);
    let binary = build_rust("shapes").display().to_string();
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": binary, "adapter": adapter, "timeout": 120,
                    "breakpoints": [{ "file": source.display().to_string(), "line": line }] }),
        )
        .await;
    assert_eq!(launched["state"], "stopped", "{adapter}: {launched}");
    launched
}

/// The values of a `debug_variables` answer, less CodeLLDB's `[raw]` view of the
/// whole.
fn values(answer: &Value) -> Vec<&str> {
    answer["variables"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["name"] != "[raw]")
        .map(|v| v["value"].as_str().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vec_of_enums_holding_a_string_reads_as_rust_on_lldb_dap_and_codelldb() {
    let client = McpClient::start(BYPASS, Elicitation::Unsupported).await;
    for adapter in ["lldb-dap", "codelldb"] {
        let stopped = stopped_at_the_report(&client, adapter).await;
        let id = stopped["session_id"].clone();
        let shapes = agent::var(&stopped["stop"]["locals"], "shapes");
        assert_eq!(shapes["value"], "size=3", "{adapter}: {stopped}");
        let elements = client
            .ok(
                "debug_variables",
                json!({ "session_id": id, "variables_reference": shapes["variables_reference"] }),
            )
            .await;
        assert_eq!(
            values(&elements),
            ["Named(\"a\")", "Empty", "Dot"],
            "{adapter}: {elements}"
        );
        // The moved map claimed an entry its freed table no longer holds, and asking
        // for it raised IndexError: it now counts the entries it finds.
        let counts = agent::var(&stopped["stop"]["locals"], "counts");
        let entries = client
            .ok(
                "debug_variables",
                json!({ "session_id": id, "variables_reference": counts["variables_reference"] }),
            )
            .await;
        assert_eq!(
            counts["value"],
            format!("size={}", values(&entries).len()),
            "{adapter}: {entries}"
        );
        let output = client.ok("debug_output", json!({ "session_id": id })).await;
        assert!(
            !output.to_string().contains("Traceback"),
            "{adapter}: the formatters raised nothing: {output}"
        );
        client
            .ok("debug_terminate", json!({ "session_id": id }))
            .await;
    }
    client.close().await;
}
