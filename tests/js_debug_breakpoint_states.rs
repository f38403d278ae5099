//! js-debug answers `setBreakpoints` with each breakpoint held ("provisional",
//! unverified) until the script it is in loads, and verifies it in a `breakpoint`
//! event, after the stop it made when that was the first line run. What dapvisor says
//! of breakpoints is their final state, on real js-debug: one that stopped the program
//! or bound later is never said to be unset, at the CLI or over MCP; one held for a
//! script the program never loaded is said so in words at the end, not as the
//! adapter's message key.

mod agent;
mod cli_support;
mod common;

use std::path::{Path, PathBuf};

use agent::mcp_client::{Elicitation, McpClient};
use cli_support::*;
use serde_json::json;

/// `main.js` loads `lib.js` (whose `twice` it calls, and whose `never` it does not)
/// after its first line; `other.js` it never loads.
fn programs(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let write = |name: &str, text: &str| {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        file
    };
    let main = write(
        "main.js",
        "let v = 1;\nconst lib = require(\"./lib\");\nv = lib.twice(v);\nconsole.log(\"v\", v);\n",
    );
    let lib = write(
        "lib.js",
        "function twice(x) {\n  const y = x * 2; // twice\n  return y;\n}\n\
         function never() {\n  return 1; // never\n}\nmodule.exports = { twice, never };\n",
    );
    let other = write(
        "other.js",
        "function unused() {\n  return 1; // unused\n}\nmodule.exports = { unused };\n",
    );
    (main, lib, other)
}

#[tokio::test]
async fn cli_says_no_breakpoint_unset_that_bound_later_and_why_one_never_did() {
    let dir = scratch("js-states");
    let (main, lib, other) = programs(&dir);
    let at =
        |file: &Path, needle: &str| format!("{}:{}", file.display(), common::line_of(file, needle));
    let (first, twice, unused) = (
        format!("{}:1", main.display()),
        at(&lib, "// twice"),
        at(&other, "// unused"),
    );
    let main_arg = main.display().to_string();
    let run = dapvisor(&[
        "debug", &main_arg, "--break", &first, "--break", &twice, "--break", &unused,
    ])
    .await;
    let out = &run.stdout;
    assert_eq!(run.code, Some(0), "{out}\n{}", run.stderr);
    assert!(
        out.contains(&format!("Object.twice at {twice}")),
        "it stops in lib.js: {out}"
    );
    // At the first stop (main.js:1) neither lib.js nor other.js was loaded yet:
    // neither is said to be unset then.
    assert!(!out.contains("is not set"), "{out}");
    assert!(
        out.contains(&format!(
            "[breakpoint {unused} never stopped the program: it was never set: the program \
             never loaded {} (js-debug sets a breakpoint when the program loads its script)]",
            other.display()
        )),
        "{out}"
    );
    assert!(!out.contains(&format!("breakpoint {twice} never")), "{out}");
    for key in ["provisional", "pending"] {
        assert!(!out.contains(key), "{key}: {out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_a_breakpoint_that_stopped_the_program_is_verified() {
    let dir = scratch("js-states-mcp");
    let (main, lib, _) = programs(&dir);
    let (twice, never) = (
        common::line_of(&lib, "// twice"),
        common::line_of(&lib, "// never"),
    );
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": main, "timeout": 120, "breakpoints": [
                { "file": lib, "line": twice }, { "file": lib, "line": never }] }),
        )
        .await;
    assert_eq!(launched["stop"]["line"], twice, "{launched}");
    let unverified = launched["unverified_breakpoints"].clone();
    let said_unset = unverified
        .as_array()
        .into_iter()
        .flatten()
        .any(|bp| bp["line"] == twice);
    assert!(!said_unset, "the stop's own breakpoint: {launched}");
    let id = launched["session_id"].clone();

    // The session as the MCP resource shows it: the breakpoint it stopped at is
    // verified, with the hit counted. (Not one set anew mid-run: js-debug v1.112
    // gives a breakpoint added to a file the id of another one there.)
    let (_, session) = client
        .read(&format!("debugger://sessions/{}", id.as_str().unwrap()))
        .await
        .unwrap();
    let records = &session["breakpoints"]["sources"][lib.display().to_string()];
    let first = records
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["requested"]["line"] == twice)
        .unwrap_or_else(|| panic!("{session}"));
    assert_eq!(first["actual"]["verified"], true, "{first}");
    assert!(first["actual"]["message"].is_null(), "{first}");
    assert_eq!(first["hits"], 1, "{first}");

    let ended = client
        .ok(
            "debug_continue",
            json!({ "session_id": id, "timeout": 120 }),
        )
        .await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    assert_eq!(
        ended["never_hit"],
        json!([format!("{}:{never}", lib.display())]),
        "{ended}"
    );
    client.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
