//! The tools for the rest of the protocol, through the catalogue (as an agent or an
//! MCP client calls them) on real adapters: the machine level (disassembly, memory
//! reads) and data breakpoints on lldb-dap, exception options and values on debugpy;
//! and how they are listed. (On dlv: tools_protocol_dlv.rs.)

mod agent;
mod common;

use agent::*;
use serde_json::{json, Value};

fn names(list: &Value, field: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v[field].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_protocol_tools_are_listed_with_their_annotations() {
    let tools = catalogue().await;
    let new_tools = [
        "debug.breakpoint_locations",
        "debug.set_instruction_breakpoints",
        "debug.data_breakpoint_info",
        "debug.set_data_breakpoints",
        "debug.step",
        "debug.continue_thread",
        "debug.step_in_targets",
        "debug.step_back",
        "debug.reverse_continue",
        "debug.goto_targets",
        "debug.goto",
        "debug.restart_frame",
        "debug.restart",
        "debug.terminate_threads",
        "debug.set_variable",
        "debug.set_expression",
        "debug.completions",
        "debug.exception_info",
        "debug.source",
        "debug.loaded_sources",
        "debug.modules",
        "debug.locations",
        "debug.disassemble",
        "debug.read_memory",
        "debug.write_memory",
        "debug.cancel",
        "debug.custom_request",
    ];
    for name in new_tools {
        let spec = tools
            .spec(name)
            .unwrap_or_else(|| panic!("{name} is missing"));
        assert!(spec.description.len() > 40, "{name}");
        assert!(tools.spec(&spec.mcp_name()).is_some(), "{name} over MCP");
    }
    for name in [
        "debug.set_variable",
        "debug.set_expression",
        "debug.write_memory",
        "debug.custom_request",
    ] {
        let a = tools.spec(name).unwrap().annotations;
        assert!(
            a.destructive && a.open_world && !a.read_only,
            "{name}: {a:?}"
        );
    }
    for name in [
        "debug.disassemble",
        "debug.read_memory",
        "debug.modules",
        "debug.exception_info",
        "debug.completions",
    ] {
        let a = tools.spec(name).unwrap().annotations;
        assert!(a.read_only && !a.destructive, "{name}: {a:?}");
    }
    let ends = tools.spec("debug.terminate_threads").unwrap().annotations;
    assert!(ends.destructive && !ends.open_world);

    let required = |name: &str| -> Vec<String> {
        let spec = tools.spec(name).unwrap();
        let mut list: Vec<String> = spec.input_schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        list.sort();
        list
    };
    assert_eq!(
        required("debug.set_variable"),
        ["name", "session_id", "value"]
    );
    assert_eq!(required("debug.completions"), ["session_id", "text"]);
    assert_eq!(
        required("debug.read_memory"),
        ["count", "memory_reference", "session_id"]
    );
    assert_eq!(
        required("debug.write_memory"),
        ["data", "memory_reference", "session_id"]
    );
    assert_eq!(required("debug.custom_request"), ["command", "session_id"]);
    assert_eq!(
        required("debug.data_breakpoint_info"),
        ["name", "session_id"]
    );
    let disassemble = tools.spec("debug.disassemble").unwrap();
    assert!(disassemble.input_schema["properties"]["instruction_count"].is_object());
    let exceptions = tools.spec("debug.set_exception_breakpoints").unwrap();
    for field in ["filter_options", "exception_options"] {
        assert!(
            exceptions.input_schema["properties"][field].is_object(),
            "{field}"
        );
    }
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disassembly_data_breakpoints_and_values_on_lldb_dap() {
    let tools = catalogue().await;
    let binary = c_binary().display().to_string();
    let source = program("c/average.c").display().to_string();
    let (id, line) = launched(&tools, &binary, &source, "s.sum += scores[i];").await;

    // Disassembly from the instruction pointer, which is marked.
    let code = ok(&tools, "debug.disassemble", json!({ "session_id": id })).await;
    let rows = code["instructions"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    assert_eq!(rows[0]["current"], true);
    assert_eq!(rows[0]["address"], code["instruction_pointer"]);
    assert_eq!(rows[0]["line"], line);
    assert!(rows[1..].iter().all(|r| r["current"] == false));
    fails(
        &tools,
        "debug.disassemble",
        json!({ "session_id": id, "instruction_count": 1000 }),
        400,
    )
    .await;

    // main's scores from the fourth element: lldb-dap is asked for that page itself.
    let stack = ok(&tools, "debug.stack_trace", json!({ "session_id": id })).await;
    let main = stack["frames"][1]["id"].clone();
    let outer = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals", "frame_id": main }),
    )
    .await;
    let scores = var(&outer["variables"], "scores")["variables_reference"].clone();
    let tail = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "variables_reference": scores, "filter": "indexed", "offset": 3 }),
    )
    .await;
    assert_eq!(names(&tail["variables"], "name"), ["[3]", "[4]"]);
    assert_eq!(names(&tail["variables"], "value"), ["92", "81"]);
    assert_eq!(
        (tail["total"].clone(), tail["truncated"].clone()),
        (json!(5), json!(false))
    );

    // Watch s.sum, stop on its first write, and see the new value.
    let locals = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals" }),
    )
    .await;
    let s = var(&locals["variables"], "s")["variables_reference"].clone();
    let info = ok(
        &tools,
        "debug.data_breakpoint_info",
        json!({ "session_id": id, "name": "sum", "variables_reference": s }),
    )
    .await;
    let access = info["access_types"].as_array().unwrap();
    assert!(access.contains(&json!("write")), "{info}");
    let set = ok(
        &tools,
        "debug.set_data_breakpoints",
        json!({ "session_id": id, "breakpoints": [
            { "data_id": info["data_id"], "access_type": "write" }
        ] }),
    )
    .await;
    assert_eq!(set["breakpoints"][0]["verified"], true, "{set}");
    ok(
        &tools,
        "debug.remove_breakpoint",
        json!({ "session_id": id, "file": source, "line": line }),
    )
    .await;
    let stop = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(stop["state"], "stopped");
    assert_eq!(stop["stop"]["line"], line + 1);
    let sum = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "s.sum" }),
    )
    .await;
    assert_eq!(sum["result"], "90");

    // A member set through its container (references from before the stop are gone).
    let locals = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Locals" }),
    )
    .await;
    let s = var(&locals["variables"], "s")["variables_reference"].clone();
    let count = ok(
        &tools,
        "debug.set_variable",
        json!({ "session_id": id, "variables_reference": s, "name": "count", "value": "41" }),
    )
    .await;
    assert_eq!(count["value"], "41");
    let read = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "s.count" }),
    )
    .await;
    assert_eq!(read["result"], "41");

    let modules = ok(&tools, "debug.modules", json!({ "session_id": id })).await;
    let binary_name = c_binary()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(names(&modules["modules"], "name").contains(&binary_name));
    assert_eq!(modules["truncated"], false);
    assert_eq!(
        modules["total"].as_u64().unwrap() as usize,
        modules["modules"].as_array().unwrap().len()
    );

    // Memory read where the program keeps it: s.count, just set to 41, by the memory
    // reference of its variable.
    let members = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "variables_reference": s }),
    )
    .await;
    let count_at = var(&members["variables"], "count")["memory_reference"].clone();
    assert!(count_at.is_string(), "{members}");
    let read = ok(
        &tools,
        "debug.read_memory",
        json!({ "session_id": id, "memory_reference": count_at, "count": 4 }),
    )
    .await;
    assert_eq!(read["bytes_read"], 4, "{read}");
    assert_eq!(read["unreadable_bytes"], 0, "{read}");
    let bytes = dapvisor::wire::base64::decode(read["data"].as_str().unwrap()).unwrap();
    assert_eq!(i32::from_le_bytes(bytes.try_into().unwrap()), 41);
    // And the code at the instruction pointer (where the program stopped before):
    // the bytes the disassembly showed, instruction after instruction.
    let shown: Vec<u8> = rows[..3]
        .iter()
        .flat_map(|r| r["bytes"].as_str().unwrap().split_whitespace())
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    let read = ok(
        &tools,
        "debug.read_memory",
        json!({ "session_id": id, "memory_reference": code["instruction_pointer"], "count": shown.len() }),
    )
    .await;
    let at =
        |v: &Value| u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    assert_eq!(
        at(&read["address"]),
        at(&code["instruction_pointer"]),
        "{read}"
    );
    let bytes = dapvisor::wire::base64::decode(read["data"].as_str().unwrap()).unwrap();
    assert_eq!(bytes, shown);
    fails(
        &tools,
        "debug.write_memory",
        json!({ "session_id": id, "memory_reference": "0x1000", "data": "not base64!" }),
        400,
    )
    .await;

    let threads = ok(
        &tools,
        "debug.custom_request",
        json!({ "session_id": id, "command": "threads" }),
    )
    .await;
    assert_eq!(threads["body"]["threads"].as_array().unwrap().len(), 1);
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_options_exception_info_and_values_on_debugpy() {
    let tools = catalogue().await;
    let scores = program("python/scores.py").display().to_string();
    let (id, _) = launched(
        &tools,
        &scores,
        &scores,
        "scores, skipped = read_scores(LINES)",
    )
    .await;

    let set = ok(
        &tools,
        "debug.set_exception_breakpoints",
        json!({ "session_id": id, "exception_options": [
            { "path": [["Python Exceptions"], ["ValueError"]], "break_mode": "always" }
        ] }),
    )
    .await;
    assert!(names(&set["available"], "filter").contains(&"raised".to_string()));
    let stop = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(stop["stop"]["reason"], "exception");
    assert_eq!(stop["stop"]["function"], "parse_line");

    let info = ok(&tools, "debug.exception_info", json!({ "session_id": id })).await;
    assert_eq!(info["exception_id"], "ValueError");
    assert_eq!(info["break_mode"], "always");
    assert_eq!(info["details"]["type_name"], "ValueError");
    assert!(info["details"]["stack_trace"]
        .as_str()
        .unwrap()
        .contains("in parse_line"));

    let refused = fails(
        &tools,
        "debug.set_exception_breakpoints",
        json!({ "session_id": id, "filter_options": [{ "filter_id": "raised", "condition": "True" }] }),
        501,
    )
    .await;
    assert!(refused.text.contains("supportsExceptionFilterOptions"));

    let completions = ok(
        &tools,
        "debug.completions",
        json!({ "session_id": id, "text": "poi" }),
    )
    .await;
    assert!(names(&completions["targets"], "label").contains(&"points".to_string()));
    let set = ok(
        &tools,
        "debug.set_variable",
        json!({ "session_id": id, "scope": "Locals", "name": "points", "value": "'7'" }),
    )
    .await;
    assert_eq!(set["value"], "'7'");
    let expr = ok(
        &tools,
        "debug.set_expression",
        json!({ "session_id": id, "expression": "name", "value": "'zed'" }),
    )
    .await;
    assert_eq!(expr["value"], "'zed'");
    let now = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "name + points" }),
    )
    .await;
    assert_eq!(now["result"], "'zed7'");

    let step = fails(
        &tools,
        "debug.step",
        json!({ "session_id": id, "kind": "over", "granularity": "instruction" }),
        501,
    )
    .await;
    assert!(step.text.contains("supportsSteppingGranularity"));
    fails(
        &tools,
        "debug.step",
        json!({ "session_id": id, "kind": "out", "target_id": 1 }),
        400,
    )
    .await;
    let info = ok(
        &tools,
        "debug.custom_request",
        json!({ "session_id": id, "command": "pydevdSystemInfo", "arguments": {} }),
    )
    .await;
    assert!(info["body"]["process"]["pid"].as_i64().unwrap() > 0);
    tools.runtime().shutdown().await;
}
