//! Breakpoints against the real adapters: a file's list kept whole as breakpoints
//! come and go, conditions, hit conditions, logpoints, breakpoints the adapter cannot
//! place, and function breakpoints.

mod common;

use std::path::Path;

use common::*;
use dapvisor::wire::types::{FunctionBreakpoint, SourceBreakpoint};
use dapvisor::SourceBreakpointRecord;
use dapvisor::{
    InitialBreakpoint, LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle, StopOutcome,
};

/// Most stops any of these runs can make; a run that stops more is looping.
const MAX_STOPS: usize = 20;

/// Resume after `ticket` until the program ends: every stop on the way as
/// (reason, line, local `name`) of the top frame, and the exit code.
async fn python_stops_until_exit(
    session: &SessionHandle,
    mut ticket: RunTicket,
) -> (Vec<(String, i64, String)>, Option<i64>) {
    let mut stops = Vec::new();
    for _ in 0..MAX_STOPS {
        match session.wait_for_stop(ticket, STOP_WAIT).await.unwrap() {
            StopOutcome::Stopped(stop) => {
                let frames = session.stack_trace(None, Some(1)).await.unwrap();
                let name = local(session, "name").await;
                stops.push((stop.reason, frames[0].line, name));
                ticket = session.continue_(None).await.unwrap();
            }
            StopOutcome::Terminated { exit_code } => return (stops, exit_code),
            StopOutcome::TimedOut => panic!("the program neither stopped nor ended; {stops:?}"),
            other => panic!("an outcome this test does not know: {other:?}"),
        }
    }
    panic!("more than {MAX_STOPS} stops: {stops:?}");
}

/// The (requested line, actual line, verified) of each record.
fn summary(records: &[SourceBreakpointRecord]) -> Vec<(i64, Option<i64>, bool)> {
    records
        .iter()
        .map(|r| {
            let actual = r.actual.as_ref().expect("the adapter answered");
            (r.requested.line, actual.line, actual.verified)
        })
        .collect()
}

fn at(line: i64) -> SourceBreakpoint {
    SourceBreakpoint {
        line,
        ..SourceBreakpoint::default()
    }
}

/// The session's cached breakpoint lines for `file`, from its snapshot.
async fn cached_lines(session: &SessionHandle, file: &Path) -> Vec<i64> {
    let snapshot = serde_json::to_value(session.snapshot().await.unwrap().breakpoints).unwrap();
    let key = std::path::absolute(file).unwrap().display().to_string();
    snapshot["sources"][key.as_str()]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|r| r["requested"]["line"].as_i64().unwrap())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removing_one_of_two_breakpoints_keeps_the_other() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let first = line_of(&file, "line_cents = qty * price");
    let second = line_of(&file, "total += discounted");
    let session = runtime
        .launch(
            LaunchSpec::new(&file)
                .breakpoint(&file, first)
                .breakpoint(&file, second),
        )
        .await
        .unwrap();
    assert_eq!(cached_lines(&session, &file).await, vec![first, second]);

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(frames[0].line, first);

    let records = session.remove_breakpoint(&file, first).await.unwrap();
    assert_eq!(summary(&records), vec![(second, Some(second), true)]);
    assert_eq!(cached_lines(&session, &file).await, vec![second]);

    // From here the program stops only at the remaining breakpoint, once per item.
    let ticket = session.continue_(None).await.unwrap();
    let (stops, exit) = python_stops_until_exit(&session, ticket).await;
    let expected: Vec<_> = ["'notebook'", "'pen'", "'backpack'"]
        .iter()
        .map(|name| ("breakpoint".to_string(), second, name.to_string()))
        .collect();
    assert_eq!(stops, expected);
    assert_eq!(exit, Some(3));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adding_while_stopped_extends_the_list_and_an_empty_list_clears_it() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let first = line_of(&file, "line_cents = qty * price");
    let added = line_of(&file, "total += discounted");
    let session = runtime
        .launch(LaunchSpec::new(&file).breakpoint(&file, first))
        .await
        .unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    assert_eq!(local(&session, "name").await, "'notebook'");

    // The answer is the file's whole list, both verified where asked.
    let records = session.add_breakpoint(&file, at(added)).await.unwrap();
    assert_eq!(
        summary(&records),
        vec![(first, Some(first), true), (added, Some(added), true)]
    );
    assert_eq!(cached_lines(&session, &file).await, vec![first, added]);

    // The added one holds: next stop is on it, in the same iteration.
    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(frames[0].line, added);
    assert_eq!(local(&session, "name").await, "'notebook'");

    // An empty list clears the file: the program runs to its end.
    let records = session
        .set_breakpoints(&file, Vec::<SourceBreakpoint>::new())
        .await
        .unwrap();
    assert!(records.is_empty(), "{records:?}");
    assert_eq!(cached_lines(&session, &file).await, Vec::<i64>::new());
    let ticket = session.continue_(None).await.unwrap();
    let (stops, exit) = python_stops_until_exit(&session, ticket).await;
    assert_eq!(stops, vec![]);
    assert_eq!(exit, Some(3));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conditional_breakpoint_stops_only_on_the_backpack() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let line = line_of(&file, "line_cents = qty * price");
    let mut spec = LaunchSpec::new(&file);
    spec.breakpoints.push({
        let mut value = InitialBreakpoint::new(file.clone(), line);
        value.condition = Some("qty == 1".into());
        value
    });
    let session = runtime.launch(spec).await.unwrap();
    let (stops, exit) = python_stops_until_exit(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(
        stops,
        vec![("breakpoint".to_string(), line, "'backpack'".to_string())]
    );
    assert_eq!(exit, Some(3));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hit_condition_stops_on_the_second_hit() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let line = line_of(&file, "total += discounted");
    let mut spec = LaunchSpec::new(&file);
    spec.breakpoints.push({
        let mut value = InitialBreakpoint::new(file.clone(), line);
        value.hit_condition = Some("2".into());
        value
    });
    let session = runtime.launch(spec).await.unwrap();

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    assert_eq!(local(&session, "name").await, "'pen'");
    assert_eq!(local(&session, "total").await, "1000");
    // The third hit does not stop either.
    let ticket = session.continue_(None).await.unwrap();
    let (stops, exit) = python_stops_until_exit(&session, ticket).await;
    assert_eq!(stops, vec![]);
    assert_eq!(exit, Some(3));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logpoint_logs_without_stopping() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let line = line_of(&file, "total += discounted");
    let mut spec = LaunchSpec::new(&file);
    spec.breakpoints.push({
        let mut value = InitialBreakpoint::new(file.clone(), line);
        value.log_message = Some("logpoint {name}: {line_cents} -> {discounted}".into());
        value
    });
    let session = runtime.launch(spec).await.unwrap();

    let (stops, exit) = python_stops_until_exit(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stops, vec![]);
    assert_eq!(exit, Some(3));
    assert_eq!(session.snapshot().await.unwrap().stop_epoch, 0);
    let out = session.output(0, 1 << 20).await.unwrap().text();
    for expected in [
        "logpoint notebook: 1000 -> 1000\n",
        "logpoint pen: 1200 -> 1200\n",
        "logpoint backpack: 3500 -> 3325\n",
    ] {
        assert!(out.contains(expected), "no {expected:?} in {out:?}");
    }
    assert!(out.contains("Order total: 55.25"), "output was {out:?}");
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_debugpy_cannot_place_are_answers_not_errors() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let file = program("python/discount.py");
    let line = line_of(&file, "total += discounted");
    let session = runtime
        .launch(LaunchSpec::new(&file).breakpoint(&file, line))
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;

    // A file that does not exist: unverified, with debugpy's reason.
    let missing = program("python/no_such_file.py");
    let records = session
        .set_breakpoints(&missing, vec![at(3)])
        .await
        .unwrap();
    assert_eq!(records.len(), 1);
    let actual = records[0].actual.as_ref().unwrap();
    assert!(!actual.verified, "{actual:?}");
    assert_eq!(
        actual.message.as_deref(),
        Some("Breakpoint in file that does not exist.")
    );

    // A line with no code (the blank line after `return total`): debugpy does not
    // refuse it but moves it to the code line above, and verifies it there.
    let ret = line_of(&file, "return total");
    let blank = ret + 1;
    assert_eq!(
        std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .nth(blank as usize - 1),
        Some("")
    );
    let records = session.add_breakpoint(&file, at(blank)).await.unwrap();
    assert_eq!(
        summary(&records),
        vec![(line, Some(line), true), (blank, Some(ret), true)]
    );

    // Both files' lists stay in the session, and the moved one holds.
    session.remove_breakpoint(&file, line).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("order_total", ret)
    );
    assert_eq!(cached_lines(&session, &missing).await, vec![3]);

    session.set_breakpoints(&file, vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(3));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_dap_function_breakpoint_stops_in_mean_of() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("c/average.c");
    let call = line_of(&source, "struct stats result = compute_stats(");
    let session = runtime
        .launch(LaunchSpec::new(c_binary()).breakpoint(&source, call))
        .await
        .unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!((frames[0].name.as_str(), frames[0].line), ("main", call));

    let bps = session
        .set_function_breakpoints(vec![FunctionBreakpoint {
            name: "mean_of".into(),
            ..FunctionBreakpoint::default()
        }])
        .await
        .unwrap();
    assert_eq!(bps.len(), 1);
    assert!(bps[0].verified, "{:?}", bps[0]);
    let body = line_of(&source, "double mean = sum / count;");
    assert_eq!(bps[0].line, Some(body));
    let id = bps[0].id.expect("lldb-dap numbers its breakpoints");

    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "breakpoint");
    assert_eq!(stop.hit_breakpoint_ids, vec![id]);
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!((frames[0].name.as_str(), frames[0].line), ("mean_of", body));
    assert_eq!(frames[1].name, "compute_stats");
    assert_eq!(local(&session, "sum").await, "426");

    // Lines lldb cannot place (before any code, past the end, or in a file that is
    // not in the program) come back unverified rather than as errors.
    let header = line_of(&source, "Average of a fixed set of exam scores");
    let records = session
        .set_breakpoints(&source, vec![at(header), at(100_000)])
        .await
        .unwrap();
    assert_eq!(
        summary(&records),
        vec![
            (header, Some(header), false),
            (100_000, Some(100_000), false)
        ]
    );
    let records = session
        .set_breakpoints(program("c/no_such_file.c"), vec![at(3)])
        .await
        .unwrap();
    assert_eq!(summary(&records), vec![(3, Some(3), false)]);

    session.set_function_breakpoints(vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(4));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_function_breakpoint_stops_in_needs_restock() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let source = program("go/inventory/main.go");
    let call = line_of(&source, "orders := restock(items)");
    let session = runtime
        .launch(LaunchSpec::new(go_binary()).breakpoint(&source, call))
        .await
        .unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("main.main", call)
    );

    let bps = session
        .set_function_breakpoints(vec![FunctionBreakpoint {
            name: "main.needsRestock".into(),
            ..FunctionBreakpoint::default()
        }])
        .await
        .unwrap();
    assert_eq!(bps.len(), 1);
    assert!(bps[0].verified, "{:?}", bps[0]);
    // dlv places a function breakpoint on the function's opening line.
    let opening = line_of(&source, "func needsRestock(item Item) bool {");
    assert_eq!(bps[0].line, Some(opening));
    let id = bps[0].id.expect("dlv numbers its breakpoints");

    let ticket = session.continue_(None).await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(stop.reason, "function breakpoint");
    assert_eq!(stop.hit_breakpoint_ids, vec![id]);
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(
        (frames[0].name.as_str(), frames[0].line),
        ("main.needsRestock", opening)
    );
    assert_eq!(frames[1].name, "main.restock");
    let eval = session
        .evaluate("item.Name", Some(frames[0].id), None)
        .await
        .unwrap();
    assert_eq!(eval.result, "\"bolts\"");

    // A line with no statement: unverified, with dlv's reason, not an error.
    let records = session.set_breakpoints(&source, vec![at(1)]).await.unwrap();
    assert_eq!(records.len(), 1);
    let actual = records[0].actual.as_ref().unwrap();
    assert!(!actual.verified, "{actual:?}");
    let message = actual.message.as_deref().unwrap_or_default();
    assert!(
        message.contains("could not find statement"),
        "message {message:?}"
    );

    session.set_function_breakpoints(vec![]).await.unwrap();
    session.set_breakpoints(&source, vec![]).await.unwrap();
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(5));
    runtime.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dlv_function_breakpoint_given_at_launch_holds() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut spec = LaunchSpec::new(go_binary());
    spec.function_breakpoints.push("main.needsRestock".into());
    let session = runtime.launch(spec).await.unwrap();

    // One stop per item, each in needsRestock, then the end.
    let mut names = Vec::new();
    let mut ticket = RunTicket { epoch: 0 };
    let exit = loop {
        match session.wait_for_stop(ticket, STOP_WAIT).await.unwrap() {
            StopOutcome::Stopped(stop) => {
                assert_eq!(stop.reason, "function breakpoint");
                let frames = session.stack_trace(None, Some(1)).await.unwrap();
                assert_eq!(frames[0].name, "main.needsRestock");
                let eval = session
                    .evaluate("item.Name", Some(frames[0].id), None)
                    .await
                    .unwrap();
                names.push(eval.result);
                assert!(names.len() <= 4, "too many stops: {names:?}");
                ticket = session.continue_(None).await.unwrap();
            }
            StopOutcome::Terminated { exit_code } => break exit_code,
            StopOutcome::TimedOut => panic!("no stop and no end; stops so far {names:?}"),
            other => panic!("an outcome this test does not know: {other:?}"),
        }
    };
    assert_eq!(
        names,
        ["\"bolts\"", "\"nuts\"", "\"washers\"", "\"screws\""]
    );
    assert_eq!(exit, Some(5));
    runtime.shutdown().await;
}
