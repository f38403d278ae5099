//! The tool catalogue end to end on a real debugpy: a whole find-the-bug session
//! through tools only, the bounds that cut big results (and how to get the rest),
//! every tool's description and schema, and attach by port. (The errors an agent gets
//! for bad input: tools_errors.rs.)

mod agent;
mod common;

use agent::*;
use dapvisor::tools::Bounds;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_debugging_session_through_the_tools() {
    let tools = catalogue_with(Bounds::default()).await;
    let file = discount();
    let call = line_of(&file, "discounted = apply_discount(line_cents)");

    // Launch with a breakpoint: the answer is the stop, with source and locals.
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": file, "breakpoints": [{ "file": file, "line": call }] }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    assert_eq!(launched["adapter"], "debugpy");
    assert_eq!(launched["state"], "stopped");
    assert_eq!(launched["timed_out"], false);
    let stop = &launched["stop"];
    assert_eq!(stop["reason"], "breakpoint");
    assert!(stop["file"].as_str().unwrap().ends_with("discount.py"));
    assert_eq!(stop["line"], call);
    assert_eq!(stop["function"], "order_total");
    assert!(stop["thread_id"].as_i64().is_some());
    let source = stop["source"].as_array().unwrap();
    assert!(source
        .iter()
        .any(|l| l["line"] == call && l["text"].as_str().unwrap().contains("apply_discount")));
    assert!(source.len() > 3, "a few lines around the stop: {source:?}");
    assert_eq!(var(&stop["locals"], "line_cents")["value"], "1000");
    assert_eq!(var(&stop["locals"], "name")["value"], "'notebook'");

    // Step in, over, out.
    let s = ok(&tools, "debug.step_in", json!({ "session_id": id })).await;
    assert_eq!(s["state"], "stopped");
    assert_eq!(s["stop"]["function"], "apply_discount");
    assert_eq!(
        s["stop"]["line"],
        line_of(&file, "percent = discount_percent(amount)")
    );
    assert_eq!(var(&s["stop"]["locals"], "amount")["value"], "1000");
    let s = ok(&tools, "debug.step_over", json!({ "session_id": id })).await;
    assert_eq!(
        s["stop"]["line"],
        line_of(&file, "return amount * (100 - percent) // 100")
    );
    assert_eq!(var(&s["stop"]["locals"], "percent")["value"], "0");
    let s = ok(&tools, "debug.step_out", json!({ "session_id": id })).await;
    assert_eq!(s["stop"]["function"], "order_total");
    assert_eq!(s["stop"]["line"], call);
    let s = ok(&tools, "debug.step_over", json!({ "session_id": id })).await;
    assert_eq!(s["stop"]["line"], line_of(&file, "total += discounted"));

    // The stack, the scopes, variables by scope name, and an evaluation.
    let stack = ok(&tools, "debug.stack_trace", json!({ "session_id": id })).await;
    let frames = stack["frames"].as_array().unwrap();
    assert_eq!(frames[0]["name"], "order_total");
    assert_eq!(frames[0]["line"], line_of(&file, "total += discounted"));
    assert_eq!(frames[1]["name"], "main");
    assert_eq!(stack["truncated"], false);
    let scopes = ok(&tools, "debug.scopes", json!({ "session_id": id })).await;
    let locals = scopes["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Locals")
        .expect("a Locals scope");
    assert!(locals["variables_reference"].as_i64().unwrap() > 0);
    let vars = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "locals" }),
    )
    .await;
    assert_eq!(var(&vars["variables"], "discounted")["value"], "1000");
    assert_eq!(var(&vars["variables"], "discounted")["type"], "int");
    let by_ref = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "variables_reference": locals["variables_reference"] }),
    )
    .await;
    assert_eq!(by_ref["variables"], vars["variables"]);
    let eval = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "qty * price" }),
    )
    .await;
    assert_eq!(eval["result"], "1000");
    assert_eq!(eval["type"], "int");
    let threads = ok(&tools, "debug.threads", json!({ "session_id": id })).await;
    assert!(!threads["threads"].as_array().unwrap().is_empty());

    // Drop the breakpoint and run to the end: exit code 3.
    let bps = ok(
        &tools,
        "debug.remove_breakpoint",
        json!({ "session_id": id, "file": file, "line": call }),
    )
    .await;
    assert_eq!(bps["breakpoints"], json!([]));
    let end = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(end["state"], "terminated");
    assert_eq!(end["exit_code"], 3);
    assert!(end.get("stop").is_none());

    // Output in two reads: the first cut short says so and where to go on, and ends
    // before the word it would split (a key would be recognised in neither half).
    let first = ok(
        &tools,
        "debug.output",
        json!({ "session_id": id, "max_bytes": 8 }),
    )
    .await;
    assert_eq!(first["output"], "Order ");
    assert_eq!(first["truncated"], true);
    let rest = ok(
        &tools,
        "debug.output",
        json!({ "session_id": id, "since": first["next"] }),
    )
    .await;
    assert!(
        rest["output"].as_str().unwrap().starts_with("total: 55.25"),
        "{rest}"
    );
    assert!(rest["output"].as_str().unwrap().contains("MISMATCH"));
    assert_eq!(rest["truncated"], false);

    // The session is listed until it is terminated.
    let listed = ok(&tools, "debug.sessions", json!({})).await;
    let entry = &listed["sessions"][0];
    assert_eq!(entry["session_id"], id.as_str());
    assert_eq!(entry["state"], "terminated");
    assert_eq!(entry["adapter"], "debugpy");
    assert!(entry["program"].as_str().unwrap().ends_with("discount.py"));
    assert_eq!(entry["restarts"], 0);
    assert!(entry["idle_seconds"].as_u64().unwrap() < 60);
    assert!(entry.get("adapter_pid").is_some());
    ok(&tools, "debug.terminate", json!({ "session_id": id })).await;
    let listed = ok(&tools, "debug.sessions", json!({})).await;
    assert_eq!(listed["sessions"], json!([]));
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bounds_cut_big_results_and_say_how_to_get_the_rest() {
    let bounds = Bounds::default()
        .max_frames(2)
        .max_variables(2)
        .max_value_chars(10)
        .stop_locals(1);
    let tools = catalogue_with(bounds).await;
    let file = discount();
    let line = line_of(&file, "return amount * (100 - percent) // 100");
    let launched = ok(
        &tools,
        "debug.launch",
        json!({ "program": file, "breakpoints": [{ "file": file, "line": line }] }),
    )
    .await;
    let id = launched["session_id"].as_str().unwrap().to_string();
    let stop = &launched["stop"];
    assert_eq!(stop["locals"].as_array().unwrap().len(), 1);
    assert_eq!(stop["locals_truncated"], true);
    assert_eq!(stop["locals_total"], 2);

    // apply_discount <- order_total <- main <- <module> (<- debugpy's runner): two shown.
    let stack = ok(&tools, "debug.stack_trace", json!({ "session_id": id })).await;
    assert_eq!(stack["frames"].as_array().unwrap().len(), 2);
    assert_eq!(stack["truncated"], true);
    let all = ok(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id, "levels": 10 }),
    )
    .await;
    let names: Vec<&str> = all["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names[..4],
        ["apply_discount", "order_total", "main", "<module>"]
    );
    assert_eq!(all["truncated"], false);

    // Globals hold many names: two per call, and the offset of the next ones.
    let page = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Globals" }),
    )
    .await;
    assert_eq!(page["variables"].as_array().unwrap().len(), 2);
    assert_eq!(page["truncated"], true);
    assert_eq!(page["next_offset"], 2);
    let total = page["total"].as_u64().unwrap();
    assert!(total > 4, "{page}");
    let next = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Globals", "offset": 2 }),
    )
    .await;
    assert_ne!(next["variables"][0]["name"], page["variables"][0]["name"]);
    let last = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Globals", "offset": total - 1 }),
    )
    .await;
    assert_eq!(last["truncated"], false);
    assert!(last.get("next_offset").is_none());

    // A long value is cut, marked, and whole with max_chars.
    let long = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "'x' * 100" }),
    )
    .await;
    assert_eq!(long["truncated"], true);
    let result = long["result"].as_str().unwrap();
    assert!(result.starts_with("'xxxxxxxxx"), "{result}");
    assert!(result.contains("more chars"), "{result}");
    let whole = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "'x' * 100", "max_chars": 500 }),
    )
    .await;
    assert_eq!(whole["result"].as_str().unwrap().len(), 102);
    assert!(whole.get("truncated").is_none());
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_has_a_description_an_object_schema_and_annotations() {
    let tools = catalogue_with(Bounds::default()).await;
    let specs = tools.list();
    let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    for expected in [
        "debug.launch",
        "debug.attach",
        "debug.set_breakpoints",
        "debug.set_breakpoint",
        "debug.remove_breakpoint",
        "debug.set_exception_breakpoints",
        "debug.continue",
        "debug.step_over",
        "debug.step_in",
        "debug.step_out",
        "debug.pause",
        "debug.threads",
        "debug.stack_trace",
        "debug.scopes",
        "debug.variables",
        "debug.evaluate",
        "debug.output",
        "debug.sessions",
        "debug.terminate",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    for spec in &specs {
        assert!(spec.description.len() > 40, "{}", spec.name);
        assert_eq!(spec.input_schema["type"], "object", "{}", spec.name);
        assert!(
            spec.input_schema.contains_key("properties"),
            "{}",
            spec.name
        );
        assert_eq!(spec.mcp_name(), spec.name.replace('.', "_"));
        assert!(!serde_json::to_string(&spec.input_schema)
            .unwrap()
            .contains("$ref"));
    }
    let eval = tools.spec("debug_evaluate").unwrap();
    assert!(eval.annotations.destructive && eval.annotations.open_world);
    assert!(!eval.annotations.read_only);
    let vars = tools.spec("debug.variables").unwrap();
    assert!(vars.annotations.read_only && !vars.annotations.destructive);
    let launch = tools.spec("debug.launch").unwrap();
    // A program or a test: neither alone is required.
    assert!(
        launch.input_schema.get("required").is_none(),
        "{:?}",
        launch.input_schema
    );
    for field in ["program", "test", "breakpoints"] {
        assert!(
            launch.input_schema["properties"][field].is_object(),
            "{field}"
        );
    }
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attach_to_a_debug_server_by_port() {
    // A Python that serves debugpy on a port it picks, says which, and runs
    // discount.py once a debugger is attached.
    let server = format!(
        "import debugpy, runpy, sys\n\
         host, port = debugpy.listen(('127.0.0.1', 0))\n\
         print(port, flush=True)\n\
         debugpy.wait_for_client()\n\
         runpy.run_path({:?}, run_name='__main__')\n",
        discount()
    );
    let python = std::env::var("DAPVISOR_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut child = tokio::process::Command::new(python)
        .args(["-c", &server])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut port = String::new();
    let stdout = child.stdout.take().unwrap();
    let mut lines = tokio::io::BufReader::new(stdout);
    tokio::time::timeout(
        std::time::Duration::from_secs(60),
        tokio::io::AsyncBufReadExt::read_line(&mut lines, &mut port),
    )
    .await
    .expect("the debug server says its port")
    .unwrap();
    if port.trim().is_empty() {
        // The server ended before naming its port: show why.
        let mut why = String::new();
        let mut stderr = child.stderr.take().unwrap();
        let _ = tokio::io::AsyncReadExt::read_to_string(&mut stderr, &mut why).await;
        panic!("the debug server ended before naming its port: {why}");
    }
    let port: u16 = port.trim().parse().expect("a port number");

    let tools = catalogue_with(Bounds::default()).await;
    let file = discount();
    let line = line_of(&file, "total += discounted");
    let attached = ok(
        &tools,
        "debug.attach",
        json!({ "port": port, "breakpoints": [{ "file": file, "line": line }] }),
    )
    .await;
    let id = attached["session_id"].as_str().unwrap().to_string();
    assert_eq!(attached["adapter"], "debugpy");
    assert_eq!(attached["state"], "stopped", "{attached}");
    assert_eq!(attached["stop"]["line"], line);
    assert_eq!(
        var(&attached["stop"]["locals"], "name")["value"],
        "'notebook'"
    );
    ok(
        &tools,
        "debug.remove_breakpoint",
        json!({ "session_id": id, "file": file, "line": line }),
    )
    .await;
    let end = ok(&tools, "debug.continue", json!({ "session_id": id })).await;
    assert_eq!(end["state"], "terminated", "{end}");
    let status = tokio::time::timeout(std::time::Duration::from_secs(60), child.wait())
        .await
        .expect("the debuggee ends")
        .unwrap();
    assert_eq!(status.code(), Some(3));
    tools.runtime().shutdown().await;
}
