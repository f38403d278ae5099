//! Paging and budgets of the inspection tools on real adapters: a 900-deep stack read
//! in pages with `start_frame` under the per-call cap; `count` on debug.variables and
//! debug.modules; the characters budget of a variables page; and debug.output's
//! `categories` filter.

mod agent;
mod common;

use agent::*;
use dapvisor::tools::{Bounds, DEFAULT_MAX_FRAMES_PER_CALL};
use serde_json::json;

/// `tests/support/NAME`.
fn support(name: &str) -> String {
    root()
        .join("tests/support")
        .join(name)
        .display()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deep_stack_comes_in_capped_pages_read_on_with_start_frame() {
    let tools = catalogue().await;
    let file = support("deep.py");
    let (id, _) = launched(&tools, &file, &file, "return 0  # the bottom").await;

    // levels far past the cap: the cap's worth, with the way on.
    let first = ok(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id, "levels": 100_000 }),
    )
    .await;
    let frames = first["frames"].as_array().unwrap();
    assert_eq!(frames.len(), DEFAULT_MAX_FRAMES_PER_CALL, "capped per call");
    assert_eq!(first["truncated"], true);
    assert_eq!(first["next_start_frame"], DEFAULT_MAX_FRAMES_PER_CALL);
    assert!(frames.iter().all(|f| f["name"] == "down"));
    let text = tools
        .call(
            "debug.stack_trace",
            json!({ "session_id": id, "levels": 100_000 }),
        )
        .await
        .text;
    assert!(text.contains("pass start_frame 200"), "{text}");

    // The next page starts where the first ended; the last ends at <module>.
    let second = ok(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id, "start_frame": 200, "levels": 5 }),
    )
    .await;
    assert_eq!(second["frames"].as_array().unwrap().len(), 5);
    assert_eq!(second["start_frame"], 200);
    assert_eq!(second["next_start_frame"], 205);
    assert_ne!(second["frames"][0]["id"], frames[0]["id"]);
    let last = ok(
        &tools,
        "debug.stack_trace",
        json!({ "session_id": id, "start_frame": 890, "levels": 200 }),
    )
    .await;
    let tail = last["frames"].as_array().unwrap();
    assert_eq!(last["truncated"], false, "{last}");
    assert!(last.get("next_start_frame").is_none());
    assert!(
        tail.iter().any(|f| f["name"] == "<module>"),
        "the outermost frames: {tail:?}"
    );
    // 901 down() frames and <module> at least (debugpy may add its runner's).
    let depth = 890 + tail.len();
    assert!((902..=910).contains(&depth), "{depth}");
    if let Some(total) = last["total_frames"].as_u64() {
        assert_eq!(total as usize, depth, "the adapter's total agrees");
    }
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variables_take_a_count_and_a_page_ends_at_the_characters_budget() {
    let tools = catalogue_with(Bounds::default().max_variables_chars(2_000)).await;
    let file = discount();
    let (id, _) = launched(&tools, &file, &file, "total += discounted").await;

    let page = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Globals", "count": 3 }),
    )
    .await;
    assert_eq!(page["variables"].as_array().unwrap().len(), 3);
    assert_eq!(page["count"], 3);
    assert_eq!(page["next_offset"], 3);
    let text = tools
        .call(
            "debug.variables",
            json!({ "session_id": id, "scope": "Globals", "count": 3 }),
        )
        .await
        .text;
    assert!(text.contains("pass offset 3 and count 3"), "{text}");
    // A count past the bound is the bound; 0 is refused.
    let big = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Globals", "count": 10_000 }),
    )
    .await;
    assert_eq!(big["count"], 50);
    fails(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "scope": "Globals", "count": 0 }),
        400,
    )
    .await;

    // Big values with a raised max_chars: the page ends at the budget and says so.
    let answer = ok(
        &tools,
        "debug.evaluate",
        json!({ "session_id": id, "expression": "[str(i) * 300 for i in range(10)]" }),
    )
    .await;
    let reference = answer["variables_reference"].as_i64().unwrap();
    let budgeted = tools
        .call(
            "debug.variables",
            json!({ "session_id": id, "variables_reference": reference,
                    "filter": "indexed", "max_chars": 1000 }),
        )
        .await;
    let page = &budgeted.structured;
    assert!(!budgeted.is_error, "{}", budgeted.text);
    let shown = page["variables"].as_array().unwrap();
    let chars = |v: &serde_json::Value| v["value"].as_str().unwrap().chars().count();
    let used: usize = shown.iter().map(chars).sum();
    assert_eq!(page["budget_reached"], true, "{page}");
    assert!(shown.len() > 1 && shown.len() < 10, "{page}");
    assert!(used <= 2_000, "within the budget: {used}");
    assert_eq!(page["next_offset"], shown.len());
    let next = shown.len();
    assert!(
        budgeted.text.contains(&format!("pass offset {next}")),
        "{}",
        budgeted.text
    );
    let rest = ok(
        &tools,
        "debug.variables",
        json!({ "session_id": id, "variables_reference": reference,
                "filter": "indexed", "max_chars": 1000, "offset": next }),
    )
    .await;
    let more = rest["variables"].as_array().unwrap();
    // debugpy lists special entries with the elements, filter or not.
    assert_eq!(
        Some((next + more.len()) as u64),
        rest["total"].as_u64(),
        "{rest}"
    );
    assert!(
        used + chars(&more[0]) > 2_000,
        "the next one would not have fit"
    );
    assert_eq!(rest["truncated"], false);
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_can_keep_only_some_categories_and_says_what_it_left_out() {
    let tools = catalogue().await;
    let file = discount();
    let launched = ok(&tools, "debug.launch", json!({ "program": file })).await;
    assert_eq!(launched["state"], "terminated", "{launched}");
    let id = launched["session_id"].as_str().unwrap();

    let all = ok(&tools, "debug.output", json!({ "session_id": id })).await;
    assert!(
        all["output"].as_str().unwrap().contains("Order total"),
        "{all}"
    );
    let stdout_bytes = all["categories"]["stdout"].as_u64().unwrap();
    assert!(stdout_bytes > 5, "{all}");

    let only_stdout = ok(
        &tools,
        "debug.output",
        json!({ "session_id": id, "categories": ["stdout"] }),
    )
    .await;
    assert_eq!(
        only_stdout["output"].as_str().unwrap().len() as u64,
        stdout_bytes
    );
    assert_eq!(only_stdout["next"], all["next"]);

    let result = tools
        .call(
            "debug.output",
            json!({ "session_id": id, "categories": ["stderr"] }),
        )
        .await;
    assert!(!result.is_error, "{}", result.text);
    assert_eq!(result.structured["output"], "");
    assert!(result.structured["left_out_bytes"].as_u64().unwrap() >= stdout_bytes);
    assert_eq!(
        result.structured["next"], all["next"],
        "read past, not stuck"
    );
    assert!(
        result.text.contains("left out by `categories`"),
        "{}",
        result.text
    );
    assert!(result.text.contains("of stdout"), "{}", result.text);

    fails(
        &tools,
        "debug.output",
        json!({ "session_id": id, "categories": [] }),
        400,
    )
    .await;
    tools.runtime().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modules_take_a_count_on_lldb_dap() {
    let tools = catalogue().await;
    let binary = c_binary().display().to_string();
    let source = program("c/average.c").display().to_string();
    let (id, _) = launched(&tools, &binary, &source, "double mean = sum / count;").await;

    let all = ok(&tools, "debug.modules", json!({ "session_id": id })).await;
    let total = all["modules"].as_array().unwrap().len();
    assert!(
        total >= 3,
        "the binary, libc and the loader at least: {all}"
    );
    assert_eq!(all["truncated"], false);

    let first = tools
        .call("debug.modules", json!({ "session_id": id, "count": 2 }))
        .await;
    assert!(!first.is_error, "{}", first.text);
    assert_eq!(first.structured["modules"].as_array().unwrap().len(), 2);
    assert_eq!(first.structured["truncated"], true);
    assert_eq!(first.structured["next_offset"], 2);
    assert!(
        first.text.contains("pass offset 2 and count 2"),
        "{}",
        first.text
    );
    let rest = ok(
        &tools,
        "debug.modules",
        json!({ "session_id": id, "offset": 2, "count": 100 }),
    )
    .await;
    assert_eq!(rest["modules"].as_array().unwrap().len(), total - 2);
    assert_eq!(rest["truncated"], false);
    assert_eq!(rest["modules"][0]["name"], all["modules"][2]["name"]);
    tools.runtime().shutdown().await;
}
