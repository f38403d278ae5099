//! Any JSON object as a tool call's arguments, over MCP (`tools/call`), property
//! tested: every call is answered, as a result with text or as an error with a code,
//! what went wrong and what to do next, never as a protocol error; nothing panics
//! (no handler answers with the catalogue's "a bug in dapvisor", and the server still
//! answers after every case) and nothing hangs (each answer comes within the client's
//! wait). The arguments mix each tool's own field names with any
//! value, and names of no field; `session_id`s name a real debugpy session stopped at
//! its first line (a new one when a call ended it), under a default-mode server that
//! asks no one (code, host commands and foreign processes are refused) and a `--root`
//! that holds only the Python examples.

mod agent;
mod common;

use agent::mcp_client::{Elicitation, McpClient};
use agent::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Map, Value};

/// Cases run: each is one call, some of which start or restart a program.
const CASES: u32 = 128;

/// The `session_id` that stands for the live session of the moment.
const LIVE: &str = "s1";

/// Any JSON value, a few levels deep, with the strings an agent is likely to get
/// wrong (ids, contexts, paths) among arbitrary ones.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON has no NaN or infinity", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,24}".prop_map(Value::from),
        prop_oneof![
            Just("s1"),
            Just("s2"),
            Just("1"),
            Just(""),
            Just(" "),
            Just(".."),
            Just("/"),
            Just("repl"),
            Just("-1"),
            Just("0x0"),
            Just("discount.py"),
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,12}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A value for a field of JSON Schema `schema`: most often one of its type (a short
/// string an agent might pass, a small number), else anything.
fn plausible(field: &str, schema: &Value) -> BoxedStrategy<Value> {
    let members = ["anyOf", "oneOf"]
        .into_iter()
        .flat_map(|key| schema[key].as_array().into_iter().flatten());
    let types: Vec<&str> = std::iter::once(schema)
        .chain(members)
        .flat_map(|s| match &s["type"] {
            Value::String(t) => vec![t.as_str()],
            Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        })
        .collect();
    let typed: Vec<BoxedStrategy<Value>> = types
        .into_iter()
        .filter_map(|t| match t {
            "string" if field == "session_id" => Some(Just(json!(LIVE)).boxed()),
            "string" => Some(
                prop_oneof![
                    Just("x"),
                    Just("discount.py"),
                    Just("repl"),
                    Just("watch"),
                    Just("Locals"),
                    Just("total + 1"),
                    Just("0x1000"),
                    Just(""),
                ]
                .prop_map(Value::from)
                .boxed(),
            ),
            "integer" => Some((-2i64..40).prop_map(Value::from).boxed()),
            "number" => Some((-1.0f64..5.0).prop_map(Value::from).boxed()),
            "boolean" => Some(any::<bool>().prop_map(Value::from).boxed()),
            "array" => Some(
                prop::collection::vec(any_json(), 0..3)
                    .prop_map(Value::Array)
                    .boxed(),
            ),
            _ => None,
        })
        .collect();
    if typed.is_empty() {
        return any_json().boxed();
    }
    let typed = prop::strategy::Union::new(typed);
    prop_oneof![5 => typed, 1 => any_json()].boxed()
}

/// Each tool's MCP name and its arguments' fields with their schemas.
fn tools_and_fields(tools: &[Value]) -> Vec<(String, Vec<(String, Value)>)> {
    tools
        .iter()
        .map(|t| {
            let fields = t["inputSchema"]["properties"]
                .as_object()
                .map(|p| p.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default();
            (t["name"].as_str().unwrap().to_string(), fields)
        })
        .collect()
}

/// A call of one of `tools`: its name and arguments, each of its fields set or not
/// to a plausible value, and now and then a field it does not have.
fn calls(tools: Vec<(String, Vec<(String, Value)>)>) -> impl Strategy<Value = (String, Value)> {
    (0..tools.len()).prop_flat_map(move |i| {
        let (name, fields) = tools[i].clone();
        let known: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
            .into_iter()
            .map(|(field, schema)| {
                let value = plausible(&field, &schema);
                prop::option::weighted(0.6, value.prop_map(move |v| (field.clone(), v))).boxed()
            })
            .collect();
        let unknown = prop::option::weighted(0.1, ("[a-zA-Z_]{1,10}", any_json()));
        (Just(name), known, unknown).prop_map(|(name, known, unknown)| {
            let args: Map<String, Value> = known.into_iter().flatten().chain(unknown).collect();
            (name, Value::Object(args))
        })
    })
}

/// The answer is a result with text, or an error saying what and what next.
fn is_clear(tool: &str, args: &Value, answer: &Value) -> Result<(), TestCaseError> {
    if answer["isError"] == true {
        let err = &answer["structuredContent"];
        prop_assert!(err["code"].as_u64().is_some(), "{tool} {args}: {answer}");
        for part in ["error", "hint"] {
            let text = err[part].as_str().unwrap_or("");
            prop_assert!(
                !text.trim().is_empty(),
                "{tool} {args}: no {part}: {answer}"
            );
        }
        // What a handler's panic is answered with.
        let error = err["error"].as_str().unwrap_or("");
        prop_assert!(
            !error.contains("a bug in dapvisor"),
            "{tool} {args}: {answer}"
        );
    } else {
        let text = answer["content"][0]["text"].as_str().unwrap_or("");
        prop_assert!(!text.is_empty(), "{tool} {args}: no text: {answer}");
    }
    Ok(())
}

/// The id of a live debugpy session stopped at discount.py's first line: `current`
/// when it still is one, else a new one.
fn live_session(rt: &tokio::runtime::Runtime, client: &McpClient, current: &mut String) {
    let sessions = rt.block_on(client.ok("debug_sessions", json!({})));
    let alive = sessions["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["session_id"] == current.as_str() && s["state"] == "stopped");
    if !alive {
        let launched = rt.block_on(client.ok(
            "debug_launch",
            json!({ "program": discount(), "stop_on_entry": true }),
        ));
        assert_eq!(launched["state"], "stopped", "{launched}");
        *current = launched["session_id"].as_str().unwrap().to_string();
    }
}

#[test]
fn any_arguments_get_a_clear_answer_and_leave_the_server_answering() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let root = program("python").display().to_string();
    let client = rt.block_on(McpClient::start_all_tools(
        &["--root", &root],
        Elicitation::Unsupported,
    ));
    let tools = tools_and_fields(&rt.block_on(client.tools()));
    assert!(tools.len() > 40, "the all profile: {}", tools.len());

    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let current = std::cell::RefCell::new(String::new());
    let outcome = runner.run(&calls(tools), |(name, mut args)| {
        // `s1` stands for the live session, whichever it is now.
        live_session(&rt, &client, &mut current.borrow_mut());
        if args["session_id"] == LIVE {
            args["session_id"] = json!(*current.borrow());
        }
        let answer = rt.block_on(client.try_call(&name, args.clone()));
        let answer = answer
            .map_err(|e| TestCaseError::fail(format!("{name} {args}: a protocol error: {e:?}")))?;
        is_clear(&name, &args, &answer)
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }

    // Still answering, and still the one process.
    let sessions = rt.block_on(client.ok("debug_sessions", json!({})));
    assert!(sessions["sessions"].as_array().is_some(), "{sessions}");
    assert!(rt.block_on(client.close()).success());
}
