//! One runtime, five adapters at once: discount.py under debugpy, average.c under
//! lldb-dap, the Go inventory under dlv, cart.js under js-debug and shelf.cpp under
//! CodeLLDB are debugged in parallel, each to its own breakpoint, stack, local and
//! exit code, and no event or output of one session shows up in another's. No
//! process of any of them is left afterwards.

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use common::*;
use dapvisor::{
    EventKind, EventStream, Received, RunTicket, Runtime, RuntimeConfig, SessionEvent,
    SessionHandle, SessionId,
};
use tokio::time::timeout;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_adapters_debug_in_parallel_in_one_runtime() {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut all = runtime.subscribe();
    let examples = [
        discount_example(),
        average_example(),
        inventory_example(),
        cart_example(),
        shelf_example(),
    ];
    let (py, c, go, js, cpp) = tokio::join!(
        debug_to_exit(&runtime, &examples[0]),
        debug_to_exit(&runtime, &examples[1]),
        debug_to_exit(&runtime, &examples[2]),
        debug_to_exit(&runtime, &examples[3]),
        debug_to_exit(&runtime, &examples[4]),
    );
    let runs = [py, c, go, js, cpp];
    let ids: Vec<SessionId> = runs.iter().map(|(s, _, _)| s.id()).collect();
    let processes: Vec<u32> = runs.iter().flat_map(|(_, _, p)| p.clone()).collect();
    // One session each: js-debug's bootstrap is not a session of its own.
    assert_eq!(runtime.sessions().len(), 5);

    // The runtime-wide stream carries all three sessions, each one's events exactly as
    // its own stream had them, in the same order.
    let mut by_session = events_until_all_exited(&mut all, &ids).await;
    for (session, own, _) in &runs {
        let id = session.id();
        assert!(own.iter().all(|e| e.session_id == id), "{id}: {own:#?}");
        let in_all = by_session.remove(&id).unwrap();
        assert_eq!(kinds(&in_all), kinds(own), "session {id}");
    }
    assert!(
        by_session.is_empty(),
        "events of unknown sessions: {by_session:#?}"
    );

    // Each session's output is its own program's, and only that.
    for ((session, own, _), example) in runs.iter().zip(&examples) {
        let out = session.output(0, 1 << 20).await.unwrap().text();
        let streamed: String = own
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Output { output, .. } => Some(output.as_str()),
                _ => None,
            })
            .collect();
        for other in &examples {
            let printed = other.prints == example.prints;
            assert_eq!(out.contains(other.prints), printed, "output: {out:?}");
            assert_eq!(streamed.contains(other.prints), printed, "{streamed:?}");
        }
    }
    runtime.shutdown().await;
    let left = wait_gone(processes).await;
    assert!(left.is_empty(), "still alive after the shutdown: {left:?}");
}

/// Launch `example` and debug it: its breakpoint, stack and local, then on to its exit
/// code. Returns the session, every event its own stream carried up to the exit, and
/// the adapter and the processes under it, noted at the breakpoint.
async fn debug_to_exit(
    runtime: &Runtime,
    example: &Example,
) -> (SessionHandle, Vec<Arc<SessionEvent>>, Vec<u32>) {
    // Subscribed before it starts, so the stream holds the whole run.
    let plan = runtime.plan_launch(example.spec.clone()).await.unwrap();
    let session = runtime.new_session().await.unwrap();
    let mut events = session.subscribe();
    session.start(plan).await.unwrap();

    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    let adapter = session.adapter_pid().expect("the adapter runs");
    let mut processes = vec![adapter];
    processes.extend(descendants(adapter));
    let frames = session.stack_trace(None, None).await.unwrap();
    assert!(
        frames[0].name.contains(example.function),
        "top frame {:?}",
        frames[0]
    );
    assert_eq!(frames[0].line, example.line);
    assert!(
        frames.len() >= 2,
        "the caller should be on the stack: {frames:#?}"
    );
    let (name, value) = example.local;
    assert_eq!(local(&session, name).await, value);

    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(example.exit_code));
    let mut own = Vec::new();
    while !own.last().is_some_and(is_exit) {
        own.push(next_event(&mut events).await);
    }
    let exit_code = example.exit_code;
    assert_eq!(own.last().unwrap().kind, EventKind::Exited { exit_code });
    (session, own, processes)
}

/// The events of each of `ids` from `stream`, each up to its exit.
async fn events_until_all_exited(
    stream: &mut EventStream<SessionEvent>,
    ids: &[SessionId],
) -> HashMap<SessionId, Vec<Arc<SessionEvent>>> {
    let mut by_session: HashMap<SessionId, Vec<Arc<SessionEvent>>> = HashMap::new();
    let exited = |m: &HashMap<_, Vec<_>>, id| m.get(&id).is_some_and(|l| l.iter().any(is_exit));
    while !ids.iter().all(|&id| exited(&by_session, id)) {
        let event = next_event(stream).await;
        let id = event.session_id;
        if !exited(&by_session, id) {
            by_session.entry(id).or_default().push(event);
        }
    }
    by_session
}

/// The next event; a dropped output event would make the comparison moot, so a lag
/// fails the test.
async fn next_event(stream: &mut EventStream<SessionEvent>) -> Arc<SessionEvent> {
    match timeout(STOP_WAIT, stream.recv()).await {
        Ok(Some(Received::Event(event))) => event,
        Ok(Some(Received::Lagged { missed })) => panic!("{missed} events were dropped"),
        Ok(Some(Received::CutOff { waiting })) => panic!("cut off with {waiting} unread"),
        Ok(None) => panic!("the event stream ended"),
        Err(_) => panic!("no event for {STOP_WAIT:?}"),
    }
}

fn is_exit(event: &Arc<SessionEvent>) -> bool {
    matches!(event.kind, EventKind::Exited { .. })
}

fn kinds(events: &[Arc<SessionEvent>]) -> Vec<&EventKind> {
    events.iter().map(|e| &e.kind).collect()
}
