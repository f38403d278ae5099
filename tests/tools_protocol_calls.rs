//! The protocol tools that were only listed, now called through the catalogue on real
//! adapters: goto (by target and by file and line) and its targets, the source of
//! generated code by frame, step-in targets and restart where an adapter has them;
//! where it does not, the refusal (501 naming the capability); and their bad input.

mod agent;
mod common;

use agent::*;
use dapvisor::permission::{PermissionGate, PermissionMode};
use dapvisor::tools::{Bounds, ToolCatalogue, ToolProfile};
use dapvisor::{Runtime, RuntimeConfig};
use serde_json::{json, Value};

/// `{"session_id": id}` with `extra`'s fields.
fn with(id: &str, extra: Value) -> Value {
    let mut args = json!({ "session_id": id });
    args.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    args
}

/// `debug.restart` on an adapter without a restart request: a new adapter runs the
/// program again, the session keeps its id, and it stops at `line` again.
async fn restarts_by_relaunching(tools: &ToolCatalogue, id: &str, line: i64) {
    let adapter_pid = |listed: Value| listed["sessions"][0]["adapter_pid"].clone();
    let before = adapter_pid(ok(tools, "debug.sessions", json!({})).await);
    let again = ok(tools, "debug.restart", with(id, json!({}))).await;
    assert_eq!(again["state"], "stopped", "{again}");
    assert_eq!(again["stop"]["reason"], "breakpoint", "{again}");
    assert_eq!(again["stop"]["line"], line, "{again}");
    let listed = ok(tools, "debug.sessions", json!({})).await;
    assert_eq!(listed["sessions"][0]["session_id"], id, "{listed}");
    assert_ne!(adapter_pid(listed), before, "a new adapter runs it");
}

/// `tool` is refused with a 501 that names `capability`.
async fn lacks(tools: &ToolCatalogue, tool: &str, args: Value, capability: &str) {
    let refused = fails(tools, tool, args, 501).await;
    assert!(
        refused.text.contains(capability),
        "{tool}: {}",
        refused.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn goto_by_file_and_line_and_step_in_targets_on_debugpy() {
    let tools = catalogue().await;
    let file = discount();
    let (id, _) = launched(
        &tools,
        &file,
        &file,
        "discounted = apply_discount(line_cents)",
    )
    .await;
    let target_line = line_of(&file, "return total");

    // The call on the stopped line is a place to step into.
    let calls = ok(&tools, "debug.step_in_targets", with(&id, json!({}))).await;
    let labels: Vec<&str> = calls["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.iter().any(|l| l.contains("apply_discount")),
        "{calls}"
    );

    let targets = ok(
        &tools,
        "debug.goto_targets",
        with(&id, json!({ "file": file, "line": target_line })),
    )
    .await;
    assert_eq!(targets["total"], 1, "{targets}");
    assert_eq!(targets["targets"][0]["line"], target_line);

    // By file and line: the target on that line, then the stop there (the rest of the
    // loop skipped, so the total is still 0).
    let jumped = ok(
        &tools,
        "debug.goto",
        with(&id, json!({ "file": file, "line": target_line })),
    )
    .await;
    assert_eq!(jumped["goto_target"]["line"], target_line, "{jumped}");
    assert_eq!(jumped["goto_target"]["id"], targets["targets"][0]["id"]);
    assert_eq!(jumped["state"], "stopped");
    assert_eq!(jumped["stop"]["reason"], "goto");
    assert_eq!(jumped["stop"]["line"], target_line);
    assert_eq!(var(&jumped["stop"]["locals"], "total")["value"], "0");
    fails(
        &tools,
        "debug.goto",
        with(&id, json!({ "file": file })),
        400,
    )
    .await;
    fails(
        &tools,
        "debug.goto",
        with(&id, json!({ "file": file, "line": 0 })),
        400,
    )
    .await;
    fails(
        &tools,
        "debug.goto_targets",
        with(&id, json!({ "file": file, "line": -2 })),
        400,
    )
    .await;

    ok(
        &tools,
        "debug.set_breakpoints",
        with(&id, json!({ "file": file, "lines": [] })),
    )
    .await;
    let end = ok(&tools, "debug.continue", with(&id, json!({}))).await;
    assert_eq!(end["exit_code"], 3);
    let out = ok(&tools, "debug.output", with(&id, json!({}))).await;
    assert!(out["output"]
        .as_str()
        .unwrap()
        .contains("Order total: 0.00"));
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_source_of_generated_code_by_frame_on_debugpy() {
    let tools = catalogue().await;
    let dir = root().join("target/agent-programs");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("generated-{}.py", std::process::id()));
    std::fs::write(
        &file,
        "CODE = \"def f(x):\\n    y = x * 2\\n    raise RuntimeError('made at run time %d' % y)\\n\"\n\
         ns = {}\n\
         exec(compile(CODE, '<generated>', 'exec'), ns)\n\
         try:\n    ns['f'](21)  # call\nexcept RuntimeError:\n    pass\n",
    )
    .unwrap();
    let file = file.display().to_string();
    let (id, _) = launched(&tools, &file, &file, "# call").await;
    ok(
        &tools,
        "debug.set_exception_breakpoints",
        with(
            &id,
            json!({ "exception_options": [
                { "path": [["Python Exceptions"], ["RuntimeError"]], "break_mode": "always" }
            ] }),
        ),
    )
    .await;
    let stop = ok(&tools, "debug.continue", with(&id, json!({}))).await;
    assert_eq!(stop["stop"]["function"], "f", "{stop}");

    let stack = ok(&tools, "debug.stack_trace", with(&id, json!({}))).await;
    let generated = stack["frames"][0]["id"].clone();
    let caller = stack["frames"][1]["id"].clone();
    let text = ok(
        &tools,
        "debug.source",
        with(&id, json!({ "frame_id": generated })),
    )
    .await;
    assert!(
        text["content"]
            .as_str()
            .unwrap()
            .contains("'made at run time %d'"),
        "{text}"
    );
    assert_eq!(text["truncated"], false);
    let by_reference = ok(
        &tools,
        "debug.source",
        with(&id, json!({ "source_reference": text["source_reference"] })),
    )
    .await;
    assert_eq!(by_reference["content"], text["content"]);

    // A frame of a file on disk has no adapter-held source; a frame that is not on the
    // stack, and neither or both of the two ways, are bad input.
    let err = fails(
        &tools,
        "debug.source",
        with(&id, json!({ "frame_id": caller })),
        400,
    )
    .await;
    assert!(err.text.contains("is a file"), "{}", err.text);
    fails(
        &tools,
        "debug.source",
        with(&id, json!({ "frame_id": 987_654 })),
        400,
    )
    .await;
    fails(&tools, "debug.source", with(&id, json!({})), 400).await;
    fails(
        &tools,
        "debug.source",
        with(&id, json!({ "frame_id": generated, "source_reference": 1 })),
        400,
    )
    .await;
    tools.runtime().shutdown().await;
    std::fs::remove_file(&file).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_debugpy_lacks_is_refused_naming_the_capability() {
    let tools = catalogue().await;
    let file = discount();
    let (id, line) = launched(&tools, &file, &file, "total += discounted").await;
    let frame =
        ok(&tools, "debug.stack_trace", with(&id, json!({}))).await["frames"][0]["id"].clone();

    for (tool, extra, capability) in [
        (
            "debug.continue_thread",
            json!({}),
            "supportsSingleThreadExecutionRequests",
        ),
        (
            "debug.cancel",
            json!({ "request_id": 1 }),
            "supportsCancelRequest",
        ),
        (
            "debug.loaded_sources",
            json!({}),
            "supportsLoadedSourcesRequest",
        ),
        (
            "debug.terminate_threads",
            json!({ "thread_ids": [1] }),
            "supportsTerminateThreadsRequest",
        ),
        (
            "debug.breakpoint_locations",
            json!({ "file": file, "line": line }),
            "supportsBreakpointLocationsRequest",
        ),
        ("debug.step_back", json!({}), "supportsStepBack"),
        ("debug.reverse_continue", json!({}), "supportsStepBack"),
        (
            "debug.restart_frame",
            json!({ "frame_id": frame }),
            "supportsRestartFrame",
        ),
    ] {
        lacks(&tools, tool, with(&id, extra), capability).await;
    }
    // debugpy has no restart request: the session relaunches its program on a new
    // adapter, keeps its id and stops at the breakpoint again.
    restarts_by_relaunching(&tools, &id, line).await;

    // Bad input is refused before the capability is even asked about.
    fails(
        &tools,
        "debug.terminate_threads",
        with(&id, json!({ "thread_ids": [] })),
        400,
    )
    .await;
    fails(
        &tools,
        "debug.breakpoint_locations",
        with(&id, json!({ "file": file, "line": 0 })),
        400,
    )
    .await;
    // `locations` needs no capability: debugpy refuses the command, and the reference
    // (which no adapter here hands out) is what the agent is told to check.
    let err = fails(
        &tools,
        "debug.locations",
        with(&id, json!({ "location_reference": 987_654 })),
        400,
    )
    .await;
    assert!(
        err.text.contains("location_reference 987654"),
        "{}",
        err.text
    );

    // Nothing of that moved the program.
    let total = ok(
        &tools,
        "debug.evaluate",
        with(&id, json!({ "expression": "total" })),
    )
    .await;
    assert_eq!(total["result"], "0");
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_and_step_in_targets_on_lldb_dap_and_its_refusals() {
    let tools = catalogue().await;
    let source = program("c/average.c").display().to_string();
    let binary = c_binary().display().to_string();
    let (id, line) = launched(
        &tools,
        &binary,
        &source,
        "s.mean = mean_of(s.sum, s.count);",
    )
    .await;

    let calls = ok(&tools, "debug.step_in_targets", with(&id, json!({}))).await;
    let mean_of = calls["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["label"].as_str().unwrap().contains("mean_of"))
        .unwrap_or_else(|| panic!("no mean_of among {calls}"))
        .clone();
    let entered = ok(
        &tools,
        "debug.step",
        with(&id, json!({ "kind": "in", "target_id": mean_of["id"] })),
    )
    .await;
    assert!(
        entered["stop"]["function"]
            .as_str()
            .unwrap()
            .contains("mean_of"),
        "{entered}"
    );

    // The program runs again from the start, under the same adapter, to the breakpoint.
    let pid = ok(&tools, "debug.sessions", json!({})).await["sessions"][0]["adapter_pid"].clone();
    let again = ok(&tools, "debug.restart", with(&id, json!({}))).await;
    assert_eq!(again["state"], "stopped", "{again}");
    assert_eq!(again["stop"]["reason"], "breakpoint");
    assert_eq!(again["stop"]["line"], line);
    assert!(again["stop"]["function"]
        .as_str()
        .unwrap()
        .contains("compute_stats"));
    let listed = ok(&tools, "debug.sessions", json!({})).await;
    assert_eq!(listed["sessions"][0]["adapter_pid"], pid);

    let next_line = json!({ "file": source, "line": line + 1 });
    for (tool, extra, capability) in [
        (
            "debug.goto_targets",
            next_line.clone(),
            "supportsGotoTargetsRequest",
        ),
        ("debug.goto", next_line, "supportsGotoTargetsRequest"),
        (
            "debug.continue_thread",
            json!({}),
            "supportsSingleThreadExecutionRequests",
        ),
    ] {
        lacks(&tools, tool, with(&id, extra), capability).await;
    }
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_dlv_lacks_is_refused_naming_the_capability() {
    let tools = catalogue().await;
    let source = program("go/inventory/main.go").display().to_string();
    let binary = common::go_binary().display().to_string();
    let (id, line) = launched(&tools, &binary, &source, "due := needsRestock(item)").await;
    lacks(
        &tools,
        "debug.step_in_targets",
        with(&id, json!({})),
        "supportsStepInTargetsRequest",
    )
    .await;
    restarts_by_relaunching(&tools, &id, line).await;
    for (tool, extra, capability) in [
        (
            "debug.goto",
            json!({ "file": source, "line": line + 1 }),
            "supportsGotoTargetsRequest",
        ),
        (
            "debug.loaded_sources",
            json!({}),
            "supportsLoadedSourcesRequest",
        ),
    ] {
        lacks(&tools, tool, with(&id, extra), capability).await;
    }
    // Still stopped where it was.
    let stack = ok(&tools, "debug.stack_trace", with(&id, json!({}))).await;
    assert_eq!(stack["frames"][0]["line"], line);
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_memory_and_disassembly_are_bounded_on_lldb_dap() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let tools = ToolCatalogue::new(runtime)
        .with_profile(ToolProfile::All)
        .with_bounds(Bounds::default().instruction_count(5))
        .with_permissions(PermissionGate::new(PermissionMode::BypassAll));
    let source = program("c/average.c").display().to_string();
    let binary = c_binary().display().to_string();
    let (id, _) = launched(&tools, &binary, &source, "double mean = sum / count;").await;

    // Whatever goes to the adapter as an expression is held to the expression bound,
    // checked before anything else (set_expression is not even supported here).
    let long = "1+".repeat(5_000) + "1";
    for (tool, extra) in [
        (
            "debug.set_variable",
            json!({ "scope": "Locals", "name": "sum", "value": long }),
        ),
        (
            "debug.set_expression",
            json!({ "expression": "sum", "value": long }),
        ),
        (
            "debug.set_expression",
            json!({ "expression": long, "value": "1" }),
        ),
        ("debug.completions", json!({ "text": long })),
        (
            "debug.custom_request",
            json!({ "command": "evaluate", "arguments": { "expression": long } }),
        ),
    ] {
        let err = fails(&tools, tool, with(&id, extra), 400).await;
        assert!(err.text.contains("10000"), "{tool}: {}", err.text);
    }
    let sum = ok(
        &tools,
        "debug.evaluate",
        with(&id, json!({ "expression": "sum" })),
    )
    .await;
    assert_eq!(sum["result"], "426", "nothing was set");

    // Writes are held to the memory bound before the data is decoded or the adapter
    // asked.
    let too_big = "AAAA".repeat(1366); // 4098 bytes
    let err = fails(
        &tools,
        "debug.write_memory",
        with(
            &id,
            json!({ "memory_reference": "0x1000", "data": too_big }),
        ),
        400,
    )
    .await;
    assert!(err.text.contains("4096"), "{}", err.text);
    // Within it, the write reaches lldb-dap 22, which refuses an address nothing is
    // mapped at...
    let err = fails(
        &tools,
        "debug.write_memory",
        with(&id, json!({ "memory_reference": "0x1000", "data": "AAAA" })),
        500,
    )
    .await;
    assert!(
        err.text.contains("Memory 0x1000 region is not writable"),
        "{}",
        err.text
    );
    // ... and writes the program's own: 500 over `sum`, at the address the evaluation
    // gave, which the program then divides.
    let sum_at = sum["memory_reference"].clone();
    assert!(sum_at.is_string(), "{sum}");
    let data = dapvisor::wire::base64::encode(&500i32.to_le_bytes());
    let written = ok(
        &tools,
        "debug.write_memory",
        with(&id, json!({ "memory_reference": sum_at, "data": data })),
    )
    .await;
    assert_eq!(written["bytes_written"], 4, "{written}");
    let mean = ok(
        &tools,
        "debug.evaluate",
        with(&id, json!({ "expression": "sum / count" })),
    )
    .await;
    assert_eq!(mean["result"], "100");

    // The disassembly's default count is a bound of its own.
    let code = ok(&tools, "debug.disassemble", with(&id, json!({}))).await;
    assert_eq!(code["instructions"].as_array().unwrap().len(), 5);
    assert_eq!(code["instructions"][0]["current"], true);

    // Without an address, a program that runs has no pointer: the answer says why.
    ok(
        &tools,
        "debug.set_breakpoints",
        with(&id, json!({ "file": source, "lines": [] })),
    )
    .await;
    let ended = ok(&tools, "debug.continue", with(&id, json!({}))).await;
    assert_eq!(ended["state"], "terminated");
    let err = fails(&tools, "debug.disassemble", with(&id, json!({})), 400).await;
    assert!(err.text.contains("terminated"), "{}", err.text);
    tools.runtime().shutdown().await;
}
