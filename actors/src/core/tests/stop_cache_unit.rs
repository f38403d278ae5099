//! Pure tests of the stop cache: what fills it, what it answers (the adapter's own
//! text, ids and all), and each thing that empties it; first on [`StopCache`] alone,
//! then through [`crate::core::session::SessionCore`] as the actor feeds it.

use serde_json::{json, Value};

use super::*;
use crate::core::command::{Answer, Command, ControlAction};
use crate::core::state::{Operation, SessionState};
use crate::core::tests::{control, full_caps, plan, request, Effects, Harness};

fn raw(value: Value) -> RawJson {
    RawJson::from_value(&value)
}

/// Fill `cache` with `body` as the answer to `command` with `arguments` sent as `tag`.
fn fill(cache: &mut StopCache, tag: Tag, command: &str, arguments: Value, body: Value) {
    cache.expect(tag, key(command, Some(&arguments)).unwrap(), 1);
    cache.answered(tag, Some(raw(body)));
}

#[test]
fn keys_ignore_the_order_of_arguments_and_only_the_four_reads_have_one() {
    let a = json!({ "threadId": 1, "startFrame": 0, "levels": 1 });
    let b: Value = serde_json::from_str(r#"{"levels":1,"threadId":1,"startFrame":0}"#).unwrap();
    assert_eq!(key("stackTrace", Some(&a)), key("stackTrace", Some(&b)));
    assert_ne!(
        key("variables", Some(&json!({ "variablesReference": 5 }))),
        key(
            "variables",
            Some(&json!({ "variablesReference": 5, "start": 0, "count": 10 }))
        ),
        "a page is its own entry"
    );
    assert_eq!(key("threads", None), key("threads", Some(&json!({}))));
    for command in ["evaluate", "source", "setVariable", "readMemory"] {
        assert_eq!(key(command, Some(&json!({}))), None, "{command}");
    }
}

#[test]
fn an_answer_is_kept_as_the_adapter_wrote_it_and_only_for_a_read_sent_as_expected() {
    let mut cache = StopCache::default();
    let args = json!({ "frameId": 7 });
    let text = r#"{"scopes":[{"name":"Locals","variablesReference":12,"expensive":false}]}"#;
    cache.expect(3, key("scopes", Some(&args)).unwrap(), 1);
    cache.answered(3, Some(serde_json::from_str(text).unwrap()));
    assert_eq!(cache.get("scopes", Some(&args)).unwrap().as_str(), text);
    assert_eq!(cache.get("scopes", Some(&json!({ "frameId": 8 }))), None);
    // An answer no read expects, or a failed one, fills nothing.
    cache.answered(4, Some(raw(json!({ "scopes": [] }))));
    cache.expect(5, key("scopes", Some(&json!({ "frameId": 9 }))).unwrap(), 1);
    cache.answered(5, None);
    assert_eq!(cache.len(), 1);
}

#[test]
fn a_stack_page_is_cut_from_a_kept_answer_that_holds_its_frames() {
    let mut cache = StopCache::default();
    let frames: Vec<Value> = (0..3)
        .map(|i| json!({ "id": 100 + i, "name": format!("f{i}"), "line": i + 1, "column": 1 }))
        .collect();
    fill(
        &mut cache,
        1,
        "stackTrace",
        json!({ "threadId": 1, "startFrame": 0, "levels": 21 }),
        json!({ "stackFrames": frames, "totalFrames": 3 }),
    );
    let top = cache
        .get(
            "stackTrace",
            Some(&json!({ "threadId": 1, "startFrame": 0, "levels": 1 })),
        )
        .unwrap();
    let top: Value = top.parse().unwrap();
    assert_eq!(top, json!({ "stackFrames": [frames[0]], "totalFrames": 3 }));
    let middle: Value = cache
        .get(
            "stackTrace",
            Some(&json!({ "threadId": 1, "startFrame": 1, "levels": 2 })),
        )
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(middle["stackFrames"], json!([frames[1], frames[2]]));
    // Past what is held, another thread, all levels, or another format: the adapter.
    for args in [
        json!({ "threadId": 1, "startFrame": 2, "levels": 2 }),
        json!({ "threadId": 2, "startFrame": 0, "levels": 1 }),
        json!({ "threadId": 1, "startFrame": 0 }),
        json!({ "threadId": 1, "startFrame": 0, "levels": 1, "format": { "line": true } }),
    ] {
        assert_eq!(cache.get("stackTrace", Some(&args)), None, "{args}");
    }
}

#[test]
fn invalidation_forgets_the_answers_and_the_reads_on_their_way() {
    let mut cache = StopCache::default();
    fill(
        &mut cache,
        1,
        "threads",
        json!({}),
        json!({ "threads": [] }),
    );
    cache.expect(
        2,
        key("variables", Some(&json!({ "variablesReference": 4 }))).unwrap(),
        1,
    );
    cache.on_send("evaluate");
    assert_eq!(cache.len(), 0);
    // The read sent before the evaluate may answer with values from before it.
    cache.answered(2, Some(raw(json!({ "variables": [] }))));
    assert_eq!(cache.len(), 0);
}

#[test]
fn reads_and_breakpoint_settings_keep_the_cache_and_everything_else_empties_it() {
    for command in [
        "threads",
        "stackTrace",
        "scopes",
        "variables",
        "source",
        "readMemory",
        "setBreakpoints",
        "exceptionInfo",
    ] {
        let mut cache = StopCache::default();
        fill(
            &mut cache,
            1,
            "threads",
            json!({}),
            json!({ "threads": [] }),
        );
        cache.on_send(command);
        assert_eq!(cache.len(), 1, "{command} emptied the cache");
    }
    for command in [
        "evaluate",
        "setVariable",
        "setExpression",
        "writeMemory",
        "completions",
        "continue",
        "next",
        "stepIn",
        "stepOut",
        "stepBack",
        "reverseContinue",
        "goto",
        "restartFrame",
        "restart",
        "pause",
        "disconnect",
        "someCustomRequest",
    ] {
        let mut cache = StopCache::default();
        fill(
            &mut cache,
            1,
            "threads",
            json!({}),
            json!({ "threads": [] }),
        );
        cache.on_send(command);
        assert_eq!(cache.len(), 0, "{command} kept the cache");
    }
    for (event, kept) in [
        ("output", true),
        ("breakpoint", true),
        ("module", true),
        ("loadedSource", true),
        ("stopped", false),
        ("continued", false),
        ("invalidated", false),
        ("memory", false),
        ("thread", false),
        ("exited", false),
        ("customEvent", false),
    ] {
        let mut cache = StopCache::default();
        fill(
            &mut cache,
            1,
            "threads",
            json!({}),
            json!({ "threads": [] }),
        );
        cache.on_event(event);
        assert_eq!(cache.len() == 1, kept, "{event}");
    }
}

#[test]
fn an_answer_past_the_bytes_limit_is_given_and_not_kept() {
    let mut cache = StopCache::default();
    let big = "x".repeat(limits::MAX_STOP_CACHE_BYTES);
    fill(
        &mut cache,
        1,
        "variables",
        json!({ "variablesReference": 3 }),
        json!({ "variables": [{ "name": "s", "value": big, "variablesReference": 0 }] }),
    );
    assert_eq!(cache.len(), 0);
}

// ---- through the session core ----

/// Stopped at a breakpoint on thread 1, on an adapter that can also assign
/// expressions and write memory.
fn stopped() -> Harness {
    let mut caps = full_caps();
    caps["supportsSetExpression"] = json!(true);
    caps["supportsWriteMemoryRequest"] = json!(true);
    let mut h = Harness::new();
    h.launch_with(plan(), caps);
    h.stop("breakpoint");
    assert_eq!(h.state(), SessionState::Stopped);
    h
}

const STACK: &str =
    r#"{"stackFrames":[{"id":1000,"name":"main","line":3,"column":1}],"totalFrames":1}"#;

fn stack_request() -> Command {
    request(
        Operation::StackTrace,
        "stackTrace",
        json!({ "threadId": 1, "startFrame": 0, "levels": 1 }),
    )
}

/// Answer the `stackTrace` sent as `tag` with [`STACK`], as the adapter wrote it.
fn answer_stack(h: &mut Harness, tag: Tag) -> Effects {
    h.respond(
        tag,
        Ok(crate::wire::Response {
            success: true,
            command: "stackTrace".into(),
            body: Some(serde_json::from_str(STACK).unwrap()),
            ..Default::default()
        }),
    )
}

/// Ask for the top frame; when the adapter is asked, answer with [`STACK`]. Returns
/// whether the adapter was asked.
fn read_stack(h: &mut Harness) -> bool {
    let (token, out) = h.command(stack_request());
    let asked = !out.sends().is_empty();
    let answer = if asked {
        assert_eq!(out.commands(), ["stackTrace"]);
        answer_stack(h, out.tag("stackTrace"))
    } else {
        out
    };
    match answer.reply(token) {
        Ok(Answer::Body(body)) => assert_eq!(body.as_str(), STACK, "the adapter's own text"),
        other => panic!("want the stack, got {other:?}"),
    }
    asked
}

#[test]
fn a_read_at_a_stop_reaches_the_adapter_once() {
    let mut h = stopped();
    assert!(read_stack(&mut h), "the first read goes to the adapter");
    assert!(!read_stack(&mut h), "the second is answered from memory");
    assert!(!read_stack(&mut h));
    assert_eq!(h.core.stop_cache.hits(), 2);
}

/// Something done to a stopped session.
type Change = Box<dyn Fn(&mut Harness) -> Effects>;

#[test]
fn whatever_moves_or_may_change_the_program_makes_the_next_read_go_to_the_adapter() {
    let changes: Vec<(&str, Change)> = vec![
        (
            "evaluate in watch context",
            Box::new(|h| {
                let args = json!({ "expression": "x", "frameId": 1000, "context": "watch" });
                h.command(request(Operation::Evaluate, "evaluate", args)).1
            }),
        ),
        (
            "setVariable",
            Box::new(|h| {
                let args = json!({ "variablesReference": 5, "name": "x", "value": "1" });
                h.command(request(Operation::Modify, "setVariable", args)).1
            }),
        ),
        (
            "setExpression",
            Box::new(|h| {
                let args = json!({ "expression": "x", "value": "1" });
                h.command(request(Operation::Modify, "setExpression", args))
                    .1
            }),
        ),
        (
            "writeMemory",
            Box::new(|h| {
                let args = json!({ "memoryReference": "0x10", "data": "AA==" });
                h.command(request(Operation::Modify, "writeMemory", args)).1
            }),
        ),
        ("a new stop", Box::new(|h| h.stop("step"))),
        (
            "invalidated",
            Box::new(|h| h.event("invalidated", json!({ "areas": ["variables"] }))),
        ),
        (
            "memory",
            Box::new(|h| {
                h.event(
                    "memory",
                    json!({ "memoryReference": "0x10", "offset": 0, "count": 1 }),
                )
            }),
        ),
    ];
    for (what, change) in changes {
        let mut h = stopped();
        assert!(read_stack(&mut h), "{what}");
        change(&mut h);
        assert_eq!(h.state(), SessionState::Stopped, "{what}");
        assert!(read_stack(&mut h), "{what} kept the stale answer");
    }
}

#[test]
fn moving_empties_the_cache_and_the_next_stop_fills_it_afresh() {
    for moving in [
        control(ControlAction::Continue),
        control(ControlAction::Next),
        request(
            Operation::Navigate,
            "goto",
            json!({ "threadId": 1, "targetId": 1 }),
        ),
    ] {
        let mut h = stopped();
        assert!(read_stack(&mut h));
        h.command(moving);
        assert_eq!(h.state(), SessionState::Running);
        h.stop("step");
        assert!(
            read_stack(&mut h),
            "the new stop's stack comes from the adapter"
        );
        assert!(!read_stack(&mut h));
    }
    // A `continued` event alone (the adapter resumed on its own) too.
    let mut h = stopped();
    assert!(read_stack(&mut h));
    h.event("continued", json!({ "threadId": 1 }));
    h.stop("pause");
    assert!(read_stack(&mut h));
}

#[test]
fn output_and_breakpoint_changes_keep_the_cache() {
    let mut h = stopped();
    assert!(read_stack(&mut h));
    h.event("output", json!({ "category": "stdout", "output": "hi\n" }));
    let (_, out) = h.command(Command::AddBreakpoint {
        file: "/tmp/a.py".into(),
        breakpoint: crate::wire::types::SourceBreakpoint {
            line: 9,
            ..Default::default()
        },
    });
    assert_eq!(out.commands(), ["setBreakpoints"]);
    assert!(!read_stack(&mut h), "still the same stop");
}

#[test]
fn a_read_answered_after_a_change_fills_nothing() {
    let mut h = stopped();
    let (_, out) = h.command(stack_request());
    let tag = out.tag("stackTrace");
    h.command(request(
        Operation::Evaluate,
        "evaluate",
        json!({ "expression": "f()", "frameId": 1000 }),
    ));
    answer_stack(&mut h, tag);
    assert!(
        read_stack(&mut h),
        "the answer from before the evaluate was not kept"
    );
}

#[test]
fn a_failed_read_is_not_kept_and_reads_while_running_are_not_kept() {
    let mut h = stopped();
    let (_, out) = h.command(stack_request());
    h.refuse(out.tag("stackTrace"), "no such thread");
    assert!(read_stack(&mut h));

    let mut h = Harness::running();
    for _ in 0..2 {
        let (_, out) = h.command(request(Operation::Threads, "threads", json!({})));
        assert_eq!(out.commands(), ["threads"]);
        h.ok(
            out.tag("threads"),
            json!({ "threads": [{ "id": 1, "name": "main" }] }),
        );
    }
}

#[path = "stop_cache_unit_followers.rs"]
mod followers;

// ---- the stopped thread's top frame ----

fn top_frame(h: &Harness) -> Option<(i64, i64)> {
    h.core
        .snapshot()
        .top_frame
        .map(|top| (top.thread_id, top.frame_id))
}

#[test]
fn a_stack_read_from_the_top_tells_the_top_frame_until_the_next_stop() {
    let mut h = stopped();
    assert_eq!(top_frame(&h), None, "no stack read yet");
    read_stack(&mut h);
    assert_eq!(top_frame(&h), Some((1, 1000)));
    // An evaluation empties the cache but leaves the program where it stopped.
    let args = json!({ "expression": "x", "frameId": 1000 });
    h.command(request(Operation::Evaluate, "evaluate", args));
    assert_eq!(top_frame(&h), Some((1, 1000)));
    h.stop("step");
    assert_eq!(top_frame(&h), None, "a new stop has frames of its own");
}

#[test]
fn the_top_frame_is_forgotten_when_the_program_runs_or_the_adapter_says_invalidated() {
    let mut h = stopped();
    read_stack(&mut h);
    h.event("invalidated", json!({ "areas": ["stacks"] }));
    assert_eq!(top_frame(&h), None);

    let mut h = stopped();
    read_stack(&mut h);
    h.command(control(ControlAction::Continue));
    assert_eq!(h.state(), SessionState::Running);
    assert_eq!(top_frame(&h), None);
}

#[test]
fn a_stack_page_further_down_tells_no_top_frame() {
    let mut h = stopped();
    let args = json!({ "threadId": 1, "startFrame": 3, "levels": 1 });
    let (_, out) = h.command(request(Operation::StackTrace, "stackTrace", args));
    answer_stack(&mut h, out.tag("stackTrace"));
    assert_eq!(top_frame(&h), None);
}
