//! Output schemas against real results: every tool that declares an `outputSchema`
//! (the `all` profile) is called on a real debugpy, in the cases that change what its
//! result holds (a page cut short, a value cut, output left out by category), and
//! each structured result must conform to the schema the tool declares.

mod agent;
mod common;

use std::collections::BTreeSet;

use agent::schema_check::check;
use agent::*;
use dapvisor::tools::ToolCatalogue;
use dapvisor::Owner;
use serde_json::{json, Value};

/// Calls tools and checks each successful result against its tool's output schema,
/// remembering which tools it has checked.
#[derive(Default)]
struct Checked {
    seen: BTreeSet<String>,
}

impl Checked {
    /// Call `tool` through `tools`, insist that it succeeded and that its result
    /// conforms to the tool's output schema; returns the result.
    async fn call(&mut self, tools: &ToolCatalogue, tool: &str, args: Value) -> Value {
        let result = ok(tools, tool, args.clone()).await;
        if let Some(schema) = &tools.spec(tool).unwrap().output_schema {
            let schema = Value::Object(schema.clone());
            if let Err(wrong) = check(&schema, &result) {
                panic!("{tool} {args}: the result does not conform to its schema:\n  {}\nresult: {result}\nschema: {schema}", wrong.join("\n  "));
            }
            self.seen.insert(tool.to_string());
        }
        result
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_declared_output_schema_holds_for_real_results() {
    let tools = catalogue().await;
    let declaring: BTreeSet<String> = tools
        .list()
        .into_iter()
        .filter(|spec| spec.output_schema.is_some())
        .map(|spec| spec.name.to_string())
        .collect();
    for name in [
        "debug.threads",
        "debug.stack_trace",
        "debug.scopes",
        "debug.variables",
        "debug.evaluate",
        "debug.output",
        "debug.trace",
        "debug.sessions",
    ] {
        assert!(declaring.contains(name), "{name} declares no output schema");
    }
    let mut calls = Checked::default();
    let file = discount();
    let (id, line) = launched(&tools, &file, &file, "discounted = apply_discount").await;
    let session = |more: Value| {
        let mut args = json!({ "session_id": id });
        args.as_object_mut()
            .unwrap()
            .extend(more.as_object().unwrap().clone());
        args
    };

    let listed = calls.call(&tools, "debug.sessions", json!({})).await;
    assert_eq!(listed["sessions"][0]["state"], "stopped", "{listed}");

    let threads = calls
        .call(&tools, "debug.threads", session(json!({})))
        .await;
    assert!(
        !threads["threads"].as_array().unwrap().is_empty(),
        "{threads}"
    );
    // Past the last thread: an empty page.
    let past = calls
        .call(&tools, "debug.threads", session(json!({ "offset": 50 })))
        .await;
    assert_eq!(past["threads"], json!([]), "{past}");

    let stack = calls
        .call(&tools, "debug.stack_trace", session(json!({})))
        .await;
    assert_eq!(stack["frames"][0]["line"], line, "{stack}");
    // A page cut short carries where the next one starts.
    let cut = calls
        .call(&tools, "debug.stack_trace", session(json!({ "levels": 1 })))
        .await;
    assert_eq!(cut["truncated"], true, "{cut}");
    assert_eq!(cut["next_start_frame"], 1, "{cut}");
    let caller = stack["frames"][1]["id"].clone();

    let scopes = calls.call(&tools, "debug.scopes", session(json!({}))).await;
    assert!(scopes["scopes"][0]["variables_reference"].as_i64().unwrap() > 0);
    calls
        .call(
            &tools,
            "debug.scopes",
            session(json!({ "frame_id": caller })),
        )
        .await;

    let locals = calls
        .call(
            &tools,
            "debug.variables",
            session(json!({ "scope": "Locals" })),
        )
        .await;
    assert_eq!(var(&locals["variables"], "line_cents")["value"], "1000");
    // A page cut short: `next_offset`.
    let globals = calls
        .call(
            &tools,
            "debug.variables",
            session(json!({ "scope": "Globals", "count": 1 })),
        )
        .await;
    assert_eq!(globals["truncated"], true, "{globals}");
    assert_eq!(globals["next_offset"], 1, "{globals}");
    let items = calls
        .call(
            &tools,
            "debug.evaluate",
            session(json!({ "expression": "ITEMS" })),
        )
        .await;
    let reference = items["variables_reference"].as_i64().unwrap();
    assert!(reference > 0, "{items}");
    // A filtered page cut at `count` does not know the total: `null`. A value cut to
    // `max_chars` says by how much.
    let indexed = calls
        .call(
            &tools,
            "debug.variables",
            session(json!({ "variables_reference": reference, "filter": "indexed", "count": 1 })),
        )
        .await;
    assert_eq!(indexed["total"], Value::Null, "{indexed}");
    let cut = calls
        .call(
            &tools,
            "debug.variables",
            session(json!({ "variables_reference": reference, "max_chars": 4 })),
        )
        .await;
    let first = var(&cut["variables"], "0");
    assert!(
        first["value_truncated_chars"].as_u64().unwrap() > 0,
        "{cut}"
    );

    let plain = calls
        .call(
            &tools,
            "debug.evaluate",
            session(json!({ "expression": "line_cents" })),
        )
        .await;
    assert_eq!(plain["result"], "1000", "{plain}");
    // A value cut to `max_chars` says so, and by how much.
    let long = calls
        .call(
            &tools,
            "debug.evaluate",
            session(json!({ "expression": "'x' * 200", "max_chars": 10 })),
        )
        .await;
    assert_eq!(long["truncated"], true, "{long}");
    assert!(long["result_truncated_chars"].as_u64().unwrap() > 100);

    // Run to the end, then read what the program printed, whole, cut and filtered.
    let mut state = Value::Null;
    for _ in 0..5 {
        let moved = ok(&tools, "debug.continue", session(json!({}))).await;
        state = moved["state"].clone();
        if state == "terminated" {
            break;
        }
    }
    assert_eq!(state, "terminated");
    let all = calls.call(&tools, "debug.output", session(json!({}))).await;
    assert!(
        all["output"].as_str().unwrap().contains("Order total"),
        "{all}"
    );
    assert!(all["categories"]["stdout"].as_u64().unwrap() > 0, "{all}");
    let cut = calls
        .call(&tools, "debug.output", session(json!({ "max_bytes": 5 })))
        .await;
    assert_eq!(cut["truncated"], true, "{cut}");
    let filtered = calls
        .call(
            &tools,
            "debug.output",
            session(json!({ "categories": ["no such category"] })),
        )
        .await;
    assert_eq!(filtered["output"], "", "{filtered}");
    assert!(
        filtered["left_out_bytes"].as_u64().unwrap() > 0,
        "{filtered}"
    );

    ok(&tools, "debug.terminate", session(json!({}))).await;

    // A tracepoint records a row at each hit and the program runs to its end. Its
    // session is client c1's, shared with c2, then with every client: what
    // debug.sessions says of owners and shares.
    let c1 = tools.for_client(Owner::new("c1").unwrap());
    let c2 = tools.for_client(Owner::new("c2").unwrap());
    let traced = ok(
        &c1,
        "debug.launch",
        json!({ "program": file, "breakpoints": [{ "file": file, "line": line,
                                                   "collect": ["line_cents"] }] }),
    )
    .await;
    assert_eq!(traced["state"], "terminated", "{traced}");
    let id = traced["session_id"].clone();
    let rows = calls
        .call(&tools, "debug.trace", json!({ "session_id": id }))
        .await;
    assert_eq!(rows["rows"][0]["values"]["line_cents"], "1000", "{rows}");
    assert_eq!(rows["rows"].as_array().unwrap().len(), 3, "{rows}");
    let first = calls
        .call(
            &tools,
            "debug.trace",
            json!({ "session_id": id, "max_rows": 1 }),
        )
        .await;
    assert_eq!(first["more"], true, "{first}");
    for (with, shared_with) in [("c2", json!(["c2"])), ("*", json!("*"))] {
        ok(
            &c1,
            "debug.share",
            json!({ "session_id": id, "with": with }),
        )
        .await;
        let seen = calls.call(&c2, "debug.sessions", json!({})).await;
        assert_eq!(seen["you"], "c2", "{seen}");
        let entry = &seen["sessions"][0];
        assert_eq!(entry["owner"], "c1", "{seen}");
        assert_eq!(entry["shared_with"], shared_with, "{seen}");
        assert_eq!(entry["may_drive"], true, "{seen}");
    }
    ok(&c1, "debug.terminate", json!({ "session_id": id })).await;

    // Every tool that declares a schema was checked against a real result.
    assert_eq!(calls.seen, declaring);
    tools.runtime().shutdown().await;
}

/// The checker itself: it accepts what the schema allows (`null` where a field is
/// sent as `null`) and rejects a missing field, a wrong type and a field the schema
/// does not declare, so the test above cannot pass by accepting anything.
#[tokio::test]
async fn the_checker_rejects_what_a_schema_does_not_allow() {
    let tools = catalogue().await;
    let spec = tools.spec("debug.evaluate").unwrap();
    let schema = Value::Object(spec.output_schema.clone().unwrap());
    let good = json!({ "result": "1", "type": null, "variables_reference": 0, "frame_id": 3 });
    assert_eq!(check(&schema, &good), Ok(()));
    let with = |key: &str, value: Value| {
        let mut result = good.clone();
        result[key] = value;
        result
    };
    let missing = json!({ "result": "1", "type": null, "variables_reference": 0 });
    for bad in [
        missing,
        with("frame_id", json!("3")),
        with("type", json!(7)),
        // Left out when empty, so never `null`.
        with("memory_reference", Value::Null),
        with("undeclared", json!(true)),
    ] {
        assert!(check(&schema, &bad).is_err(), "accepted {bad}");
    }
    let frames = tools.spec("debug.stack_trace").unwrap();
    let frames = Value::Object(frames.output_schema.clone().unwrap());
    let frame = json!({ "id": 1, "name": "f", "file": null, "line": 1, "column": 0 });
    let page = json!({ "thread_id": 1, "frames": [frame], "start_frame": 0, "truncated": false });
    assert_eq!(check(&frames, &page), Ok(()));
    let nameless =
        json!({ "thread_id": 1, "frames": [{ "id": 1 }], "start_frame": 0, "truncated": false });
    assert!(check(&frames, &nameless).is_err());
    tools.runtime().shutdown().await;
}
