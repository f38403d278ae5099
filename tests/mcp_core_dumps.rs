//! Post-mortem over MCP: `debug.launch` with `core` opens a real dump of a program
//! that crashed, made in the test (`core_support`: by the kernel where its
//! `core_pattern` writes a file in the crashing program's folder, else by gdb's
//! `gcore` of the program stopped at its fatal signal). A C program that dies of
//! SIGSEGV under lldb-dap and CodeLLDB, a Go program that panics (GOTRACEBACK=crash)
//! under dlv: the session is stopped where it died and says it is a core, and of
//! which signal the process died (lldb's stop says it, the Go dump's notes do); threads,
//! stacks, locals, evaluation and memory read it; every move is refused; ending it
//! leaves no process behind.

mod agent;
mod common;
mod core_support;

use agent::mcp_client::{Elicitation, McpClient};
use agent::session_ends::{close_leaving_nothing, open_core, session_entry};
use common::*;
use core_support::dump_of;
use serde_json::{json, Value};

const BYPASS: &[&str] = &["--permission-mode", "bypass_all"];

/// The frame of `stack` called `name` (or ending in it).
fn frame<'a>(stack: &'a Value, name: &str) -> &'a Value {
    stack["frames"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"].as_str().is_some_and(|n| n.contains(name)))
        .unwrap_or_else(|| panic!("no frame {name} in {stack}"))
}

/// The value of local `name` in frame `frame_id` of session `id`.
async fn local(client: &McpClient, id: &str, frame_id: &Value, name: &str) -> String {
    let vars = client
        .ok(
            "debug_variables",
            json!({ "session_id": id, "frame_id": frame_id, "scope": "Locals" }),
        )
        .await;
    let found = vars["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no local {name} in {vars}"));
    found["value"].as_str().unwrap().to_string()
}

/// Every call that would move or change the program is refused, saying a dump
/// cannot run.
async fn moves_are_refused(client: &McpClient, id: &str) {
    let session = json!({ "session_id": id });
    for (tool, extra) in [
        ("debug_continue", json!({})),
        ("debug_step", json!({ "kind": "over" })),
        ("debug_step_in", json!({})),
        ("debug_pause", json!({})),
        ("debug_restart", json!({})),
        ("debug_goto", json!({ "target_id": 1 })),
    ] {
        let mut args = session.clone();
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let result = client.call(tool, args).await;
        assert_eq!(result["isError"], true, "{tool}: {result}");
        let err = &result["structuredContent"];
        assert_eq!(err["kind"], "post_mortem", "{tool}: {err}");
        assert!(
            err["error"].as_str().unwrap().contains("a dump cannot run"),
            "{tool}: {err}"
        );
    }
}

/// Open `core` of `binary` under `adapter` and check the C crash in it: stopped in
/// `total_weight` at the loop, killed by SIGSEGV, its locals, an evaluation and a
/// memory read; no move; then end it. Returns nothing left running.
async fn read_the_c_crash(client: &McpClient, adapter: &str, binary: &str, core: &str) {
    let source = program("c/parcels.c");
    let loop_line = line_of(&source, "while (at->grams != 0)");
    let opened = open_core(client, &binary, &core, Some(adapter)).await;
    assert_eq!(opened["state"], "stopped", "{adapter}: {opened}");
    let stop = &opened["stop"];
    assert_eq!(stop["kind"], "core", "{adapter}: {stop}");
    assert_eq!(stop["reason"], "core", "{adapter}: {stop}");
    assert_eq!(stop["signal"], "SIGSEGV", "{adapter}: {stop}");
    assert_eq!(stop["core_file"], core, "{adapter}: {stop}");
    assert_eq!(stop["function"], "total_weight", "{adapter}: {stop}");
    assert_eq!(stop["line"], loop_line, "{adapter}: {stop}");
    let id = opened["session_id"].as_str().unwrap().to_string();

    let entry = session_entry(client, &id).await;
    assert_eq!(
        (&entry["kind"], &entry["signal"], &entry["state"]),
        (&json!("core"), &json!("SIGSEGV"), &json!("stopped")),
        "{entry}"
    );

    let threads = client
        .ok("debug_threads", json!({ "session_id": id }))
        .await;
    assert_eq!(threads["threads"].as_array().unwrap().len(), 1, "{threads}");
    let stack = client
        .ok("debug_stack_trace", json!({ "session_id": id }))
        .await;
    let top = frame(&stack, "total_weight");
    let main = frame(&stack, "main");
    // 400 + 1200 + 250: every parcel counted before the walk went past the last.
    assert_eq!(local(client, &id, &top["id"], "total").await, "1850");
    assert_eq!(local(client, &id, &main["id"], "parcels").await, "3");
    let evaluated = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "total", "frame_id": top["id"] }),
        )
        .await;
    assert_eq!(evaluated["result"], "1850", "{evaluated}");
    // `total`, 1850, read from the dump's memory: 4 bytes, little-endian.
    // CodeLLDB takes C's own syntax after `/nat`.
    let expression = match adapter {
        "codelldb" => "/nat &total",
        _ => "&total",
    };
    let address = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": expression, "frame_id": top["id"] }),
        )
        .await;
    // The pointer's memory reference where the adapter gives one, else its value.
    let hex: String = match address["memory_reference"].as_str() {
        Some(reference) => reference.to_string(),
        None => {
            let result = address["result"].as_str().unwrap_or("");
            result[result.find("0x").unwrap_or_else(|| panic!("{address}"))..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect()
        }
    };
    let memory = client
        .ok(
            "debug_read_memory",
            json!({ "session_id": id, "memory_reference": hex, "count": 4 }),
        )
        .await;
    assert_eq!(memory["data"], "OgcAAA==", "1850 as 4 bytes: {memory}");

    moves_are_refused(client, &id).await;
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_programs_segfault_is_read_from_its_core_under_lldb_dap_and_codelldb() {
    let binary = core_support::parcels_binary();
    let dump = dump_of(&binary, &[], &[]);
    eprintln!("dump made by {:?}: {}", dump.made_by, dump.core.display());
    let (binary, core) = (
        binary.display().to_string(),
        dump.core.display().to_string(),
    );
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    read_the_c_crash(&client, "lldb-dap", &binary, &core).await;
    read_the_c_crash(&client, "codelldb", &binary, &core).await;
    close_leaving_nothing(client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_programs_panic_is_read_from_its_core_under_dlv() {
    let binary = build_go("shares");
    // Go's runtime handles SIGFPE itself (it turns it into the panic); the SIGABRT
    // GOTRACEBACK=crash raises after the panic is the fatal one.
    let dump = dump_of(
        &binary,
        &[("GOTRACEBACK", "crash")],
        &["SIGFPE", "SIGSEGV", "SIGURG", "SIGPIPE"],
    );
    eprintln!("dump made by {:?}: {}", dump.made_by, dump.core.display());
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let opened = open_core(&client, &binary, &dump.core, None).await;
    assert_eq!(opened["adapter"], "dlv", "{opened}");
    assert_eq!(opened["state"], "stopped", "{opened}");
    assert_eq!(opened["stop"]["kind"], "core", "{opened}");
    // dlv names no signal: the dump's own notes do (GOTRACEBACK=crash ends in SIGABRT).
    assert_eq!(opened["stop"]["signal"], "SIGABRT", "{opened}");
    let id = opened["session_id"].as_str().unwrap().to_string();
    let sessions = client.ok("debug_sessions", json!({})).await;
    assert_eq!(sessions["sessions"][0]["signal"], "SIGABRT", "{sessions}");

    // Every goroutine is a thread; the panicking one's stack holds the program's own
    // frames under the runtime's.
    let threads = client
        .ok("debug_threads", json!({ "session_id": id }))
        .await;
    assert!(
        threads["threads"].as_array().unwrap().len() > 1,
        "{threads}"
    );
    let stack = client
        .ok(
            "debug_stack_trace",
            json!({ "session_id": id, "levels": 40 }),
        )
        .await;
    let share = frame(&stack, "main.share");
    let source = program("go/shares/shares.go");
    assert_eq!(share["line"], line_of(&source, "each := total / people"));
    assert_eq!(local(&client, &id, &share["id"], "people").await, "0");
    assert_eq!(local(&client, &id, &share["id"], "total").await, "2230");
    let evaluated = client
        .ok(
            "debug_evaluate",
            json!({ "session_id": id, "expression": "total + 1", "frame_id": share["id"] }),
        )
        .await;
    assert_eq!(evaluated["result"], "2231", "{evaluated}");

    moves_are_refused(&client, &id).await;
    client
        .ok("debug_terminate", json!({ "session_id": id }))
        .await;
    close_leaving_nothing(client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shell_prints_where_a_core_dumps_process_died() {
    let binary = core_support::parcels_binary();
    let dump = dump_of(&binary, &[], &[]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .arg("debug")
        .arg(&binary)
        .arg("--core")
        .arg(&dump.core)
        .args(["--eval", "total"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout.contains("opened the core dump of"), "{stdout}");
    assert!(
        stdout.contains("core dump of a process killed by SIGSEGV"),
        "{stdout}"
    );
    assert!(stdout.contains("your code: #0 total_weight"), "{stdout}");
    assert!(stdout.contains("total = 1850"), "{stdout}");

    // What only a run takes is refused by the flags.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dapvisor"))
        .arg("debug")
        .arg(&binary)
        .arg("--core")
        .arg(&dump.core)
        .args(["--break", "parcels.c:20"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--core"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dump_gcore_made_of_the_stopped_crash_opens_the_same() {
    // The route `core_support` takes where the kernel's core_pattern gives no file:
    // gdb runs the program to its fatal SIGSEGV and `gcore` dumps it there.
    let binary = core_support::parcels_binary();
    let dir = std::env::temp_dir().join(format!("dapvisor-gcore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dump = core_support::gcore_dump(&binary, &[], &[], &dir);
    let client = McpClient::start_all_tools(BYPASS, Elicitation::Unsupported).await;
    let opened = open_core(&client, &binary, &dump.core, None).await;
    assert_eq!(opened["adapter"], "lldb-dap", "{opened}");
    let stop = &opened["stop"];
    assert_eq!(
        (&stop["kind"], &stop["signal"], &stop["function"]),
        (&json!("core"), &json!("SIGSEGV"), &json!("total_weight")),
        "{stop}"
    );
    close_leaving_nothing(client).await;
}
