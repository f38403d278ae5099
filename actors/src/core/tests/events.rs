//! Pure tests of the adapter events beyond the ones the core acts on: progress
//! reports, `invalidated`, `memory` and `loadedSource`. dapvisor advertises progress,
//! invalidated and memory events in `initialize`, and no adapter here sent any of
//! them in the runs that prove the others; each is fed through the core here and must
//! come out published under its own signal with its payload whole, readable as the
//! DAP type it is, and change nothing else.

use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use super::Harness;
use crate::core::command::Effect;
use crate::core::session_event::EventKind;
use crate::core::state::SessionState;
use crate::wire::types::{
    InvalidatedEventBody, LoadedSourceEventBody, MemoryEventBody, ProgressEndEventBody,
    ProgressStartEventBody, ProgressUpdateEventBody,
};

/// Feed `name` with `body` to a session in `state`; the one event published, its
/// payload read as a `T`.
fn passed_on<T: DeserializeOwned>(state: SessionState, name: &str, body: Value) -> T {
    let mut h = Harness::in_state(state);
    let before = h.core.snapshot();
    let out = h.event(name, body.clone());
    assert!(
        out.0.iter().all(|e| matches!(e, Effect::Emit(_))),
        "`{name}` only publishes: {out:?}"
    );
    let events = out.events();
    assert_eq!(events.len(), 1, "{events:?}");
    let kind = events[0];
    assert!(
        !kind.is_lifecycle(),
        "bulk: bounded for a slow subscriber, which is told what it missed"
    );
    let EventKind::Adapter {
        event,
        body: Some(passed),
    } = kind
    else {
        panic!("`{name}` is passed on as the adapter's own event: {kind:?}");
    };
    assert_eq!(event, name);
    assert_eq!(passed, &body, "the body as the adapter sent it");
    // Nothing the core keeps moved.
    let after = h.core.snapshot();
    assert_eq!(after.state, before.state);
    assert_eq!(after.stop_epoch, before.stop_epoch);
    assert_eq!(after.threads, before.threads);
    serde_json::from_value(body).expect("the body is the DAP body")
}

#[test]
fn progress_reports_pass_through_start_to_end() {
    let start: ProgressStartEventBody = passed_on(
        SessionState::Running,
        "progressStart",
        json!({
            "progressId": "p1", "title": "Loading symbols", "cancellable": true,
            "message": "libc.so.6", "percentage": 10.0,
        }),
    );
    assert_eq!(
        (start.progress_id.as_str(), start.title.as_str()),
        ("p1", "Loading symbols")
    );
    assert_eq!(start.cancellable, Some(true));

    let update: ProgressUpdateEventBody = passed_on(
        SessionState::Running,
        "progressUpdate",
        json!({ "progressId": "p1", "message": "libm.so.6", "percentage": 55.5 }),
    );
    assert_eq!(update.percentage, Some(55.5));

    let end: ProgressEndEventBody = passed_on(
        SessionState::Stopped,
        "progressEnd",
        json!({ "progressId": "p1", "message": "done" }),
    );
    assert_eq!(end.message.as_deref(), Some("done"));
}

#[test]
fn invalidated_passes_through_with_its_areas() {
    let body: InvalidatedEventBody = passed_on(
        SessionState::Stopped,
        "invalidated",
        json!({ "areas": ["variables", "stacks"], "threadId": 1 }),
    );
    assert_eq!(
        body.areas.as_deref(),
        Some(&["variables".to_string(), "stacks".to_string()][..])
    );
    assert_eq!(body.thread_id, Some(1));
    // With no body fields at all it still goes out (it then means everything).
    let all: InvalidatedEventBody = passed_on(SessionState::Running, "invalidated", json!({}));
    assert_eq!(all.areas, None);
}

#[test]
fn memory_passes_through_with_its_range() {
    let body: MemoryEventBody = passed_on(
        SessionState::Stopped,
        "memory",
        json!({ "memoryReference": "0x1000", "offset": -4, "count": 8 }),
    );
    assert_eq!(
        (body.memory_reference.as_str(), body.offset, body.count),
        ("0x1000", -4, 8)
    );
}

#[test]
fn loaded_source_passes_through_with_its_source() {
    let body: LoadedSourceEventBody = passed_on(
        SessionState::Running,
        "loadedSource",
        json!({ "reason": "new", "source": { "name": "gen.py", "sourceReference": 7 } }),
    );
    assert_eq!(body.reason, "new");
    assert_eq!(body.source.source_reference, Some(7));
}
