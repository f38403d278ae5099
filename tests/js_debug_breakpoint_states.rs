//! js-debug answers `setBreakpoints` with each breakpoint held ("provisional",
//! unverified) until the script it is in loads, and verifies it in a `breakpoint`
//! event, after the stop it made when that was the first line run. What dapvisor says
//! of breakpoints is their final state, on real js-debug: one that stopped the program
//! or bound later is never said to be unset, at the CLI or over MCP; one held for a
//! script the program never loaded is said so in words at the end, not as the
//! adapter's message key. Breakpoints added mid-run count their own hits, though
//! js-debug (v1.112) may give one the id of another of its file.

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
    // verified, with the hit counted.
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

    runs_to_its_end_with_one_line_never_hit(&client, id.as_str().unwrap(), &lib, never).await;
    client.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Continue session `id` to the program's end, which must name `file:never` as the one
/// breakpoint that never stopped it.
async fn runs_to_its_end_with_one_line_never_hit(
    client: &McpClient,
    id: &str,
    file: &Path,
    never: i64,
) {
    let ended = client
        .ok(
            "debug_continue",
            json!({ "session_id": id, "timeout": 120 }),
        )
        .await;
    assert_eq!(ended["state"], "terminated", "{ended}");
    assert_eq!(
        ended["never_hit"],
        json!([format!("{}:{never}", file.display())]),
        "{ended}"
    );
}

/// The hits of `file`'s breakpoints as the session resource shows them, by the line
/// asked for, with the ids js-debug gave them.
async fn records(client: &McpClient, id: &str, file: &Path) -> Vec<(i64, i64, u64)> {
    let (_, session) = client
        .read(&format!("debugger://sessions/{id}"))
        .await
        .unwrap();
    let records = &session["breakpoints"]["sources"][file.display().to_string()];
    let records = records.as_array().unwrap_or_else(|| panic!("{session}"));
    records
        .iter()
        .map(|r| {
            let line = r["requested"]["line"].as_i64().unwrap();
            let id = r["actual"]["id"].as_i64().unwrap_or(-1);
            (line, id, r["hits"].as_u64().unwrap())
        })
        .collect()
}

/// `add` runs twice, the line marked `never` not at all (its `if` is false, so js-debug
/// keeps its breakpoint there rather than moving it to the next line run).
const COUNT_JS: &str =
    "let total = 0;\nfunction add(x) {\n  total += x; // add\n  return total;\n}\n\
    add(1);\nif (total > 100) {\n  total = 0; // never\n}\nadd(2);\n\
    console.log(\"total\", total); // last\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_added_mid_run_count_their_own_hits_though_js_debug_shares_an_id() {
    let dir = scratch("js-shared-ids");
    let program = dir.join("count.js");
    std::fs::write(&program, COUNT_JS).unwrap();
    let line = |needle: &str| common::line_of(&program, needle);
    let (add, never, last) = (line("// add"), line("// never"), line("// last"));
    let client = McpClient::start(
        &["--permission-mode", "bypass_all"],
        Elicitation::Unsupported,
    )
    .await;
    let launched = client
        .ok(
            "debug_launch",
            json!({ "program": program, "timeout": 120,
                    "breakpoints": [{ "file": program, "line": add }] }),
        )
        .await;
    assert_eq!(launched["stop"]["line"], add, "{launched}");
    let id = launched["session_id"].as_str().unwrap().to_string();

    // Two breakpoints added at the first stop, one after the other: js-debug gives
    // the first of them the id of the one at `add`.
    for at in [never, last] {
        client
            .ok(
                "debug_set_breakpoint",
                json!({ "session_id": id, "file": program, "line": at }),
            )
            .await;
    }
    let placed = records(&client, &id, &program).await;
    let ids: Vec<i64> = placed.iter().map(|(_, id, _)| *id).collect();
    assert_eq!(ids[0], ids[1], "js-debug shares an id no more: {placed:?}");

    for at in [add, last] {
        let stop = client
            .ok(
                "debug_continue",
                json!({ "session_id": id, "timeout": 120 }),
            )
            .await;
        assert_eq!(stop["stop"]["line"], at, "{stop}");
    }
    let counted = records(&client, &id, &program).await;
    let hits: Vec<(i64, u64)> = counted.iter().map(|(l, _, h)| (*l, *h)).collect();
    assert_eq!(hits, [(add, 2), (never, 0), (last, 1)], "{counted:?}");
    runs_to_its_end_with_one_line_never_hit(&client, &id, &program, never).await;
    client.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
