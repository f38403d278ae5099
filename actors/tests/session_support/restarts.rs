//! What the restart tests (`restarts*.rs`) share beside the runtime (`super::runtime`):
//! a launch stopping at one breakpoint, the wait for its next stop, and the lifecycle
//! events up to a given one.

use std::time::Duration;

use dapvisor_actors::{
    EventKind, EventStream, LaunchSpec, Received, RunTicket, SessionEvent, SessionHandle,
    StopOutcome,
};

pub const WAIT: Duration = Duration::from_secs(120);

pub fn spec() -> LaunchSpec {
    LaunchSpec::new("Cargo.toml")
        .adapter("fake")
        .breakpoint("src/lib.rs", 3)
}

pub async fn stopped(session: &SessionHandle, after: u64) -> u64 {
    match session
        .wait_for_stop(RunTicket { epoch: after }, WAIT)
        .await
        .unwrap()
    {
        StopOutcome::Stopped(stop) => {
            assert_eq!(stop.reason, "breakpoint");
            stop.epoch
        }
        other => panic!("expected a stop, got {other:?}"),
    }
}

/// The lifecycle events of `events` up to and including the first that `last` accepts.
pub async fn events_until(
    events: &mut EventStream<SessionEvent>,
    last: impl Fn(&EventKind) -> bool,
) -> Vec<EventKind> {
    let mut seen = Vec::new();
    loop {
        match tokio::time::timeout(WAIT, events.recv()).await {
            Ok(Some(Received::Event(event))) => {
                let done = last(&event.kind);
                seen.push(event.kind.clone());
                if done {
                    return seen;
                }
            }
            Ok(Some(Received::Lagged { .. })) => {}
            Ok(Some(Received::CutOff { waiting })) => {
                panic!("cut off with {waiting} events unread")
            }
            other => panic!("events ended early ({other:?}); saw {seen:?}"),
        }
    }
}
