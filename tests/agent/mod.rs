//! Helpers shared by the agent-surface tests (tools, permissions, MCP, CLI): the
//! example programs, finding a line by its text, building tool arguments, and reading
//! tool results.
#![allow(dead_code)]

pub mod mcp_client;
pub mod schema_check;
pub mod session_ends;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::{Bounds, ToolCatalogue, ToolProfile, ToolResult};
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::{json, Value};

#[allow(unused_imports)] // not every test builds C or names the root
pub use crate::common::{build_dir, c_binary, line_of, program, root};

/// `examples/programs/python/discount.py`, as a string for JSON arguments.
pub fn discount() -> String {
    program("python/discount.py").display().to_string()
}

/// Call a tool and insist that it succeeded; returns the structured content.
pub async fn ok(catalogue: &ToolCatalogue, tool: &str, args: Value) -> Value {
    let result = catalogue.call(tool, args).await;
    assert!(
        !result.is_error,
        "{tool} failed: {}\n{}",
        result.text, result.structured
    );
    assert!(!result.text.is_empty(), "{tool} gave no text");
    result.structured
}

/// Call a tool and insist that it failed with `code`; returns the result.
pub async fn fails(catalogue: &ToolCatalogue, tool: &str, args: Value, code: u16) -> ToolResult {
    let result = catalogue.call(tool, args).await;
    let err = result
        .error()
        .unwrap_or_else(|| panic!("{tool} should fail with {code}, got {}", result.text));
    assert_eq!(err.code, code, "{tool}: {}", result.text);
    assert!(!err.error.is_empty() && !err.hint.is_empty(), "{err:?}");
    result
}

/// `{"session_id": id}` with `extra`'s fields.
pub fn with(id: &str, extra: Value) -> Value {
    let mut args = json!({ "session_id": id });
    args.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    args
}

/// `tool` is refused with a 501 that names `capability`.
pub async fn lacks(tools: &ToolCatalogue, tool: &str, args: Value, capability: &str) {
    let refused = fails(tools, tool, args, 501).await;
    assert!(
        refused.text.contains(capability),
        "{tool}: {}",
        refused.text
    );
}

/// The value of variable `name` in a list of variables as tools return them.
pub fn var<'a>(vars: &'a Value, name: &str) -> &'a Value {
    vars.as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no variable `{name}` in {vars}"))
}

/// `examples/programs/rust/orders.rs` built with `rustc -g` (once per test binary: the
/// tests of one binary run at once, and a second build into the same file would
/// replace it while another test's adapter starts it).
pub fn rust_orders_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let out = build_dir().join(format!("orders-rs-{}", std::process::id()));
            let status = Command::new("rustc")
                .args(["-g", "-C", "opt-level=0", "-o"])
                .arg(&out)
                .arg(program("rust/orders.rs"))
                .status()
                .expect("rustc must be installed (it builds dapvisor itself)");
            assert!(status.success(), "building orders.rs failed");
            out
        })
        .clone()
}

/// A catalogue over a new runtime with `bounds`, asking no one's approval.
pub async fn catalogue_with(bounds: Bounds) -> ToolCatalogue {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    ToolCatalogue::new(runtime)
        .with_profile(ToolProfile::All)
        .with_bounds(bounds)
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll))
}

/// [`catalogue_with`] the default bounds.
pub async fn catalogue() -> ToolCatalogue {
    catalogue_with(Bounds::default()).await
}

/// Launch `program` to a breakpoint at the line of `file` holding `needle`; returns the
/// session id and the line.
pub async fn launched(
    tools: &ToolCatalogue,
    program: &str,
    file: &str,
    needle: &str,
) -> (String, i64) {
    let line = line_of(file, needle);
    let answer = ok(
        tools,
        "debug.launch",
        json!({ "program": program, "breakpoints": [{ "file": file, "line": line }] }),
    )
    .await;
    assert_eq!(answer["state"], "stopped", "{answer}");
    (answer["session_id"].as_str().unwrap().to_string(), line)
}
