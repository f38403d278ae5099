//! Protocol tools called through the catalogue on real adapters, where the adapter
//! serves them: goto (by target and by file and line) and its targets, and step-in
//! targets on debugpy; the source of generated code by frame, and its bad input; on
//! lldb-dap, step-in targets and `restart` in place, with the refusals (501 naming the
//! capability) of what it lacks. What debugpy and dlv lack: `tools_protocol_lacks.rs`;
//! values, memory and disassembly held to their bounds: `tools_protocol_bounds.rs`.

mod agent;
mod common;

use agent::*;
use serde_json::json;

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
