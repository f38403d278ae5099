//! A session's events as an editor on its endpoint reads them: DAP events, as the
//! session's adapter would have sent them to the editor had it been its client.

use dapvisor_actors::wire::Event;
use dapvisor_actors::{EventKind, SessionState, StopInfo};
use serde_json::{json, Value};

/// What the editor hears of one session event.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    /// These events (often none: the runtime's own events, a module list at start-up).
    Events(Vec<Event>),
    /// The session has ended: these events, then the connection closes.
    End(Vec<Event>),
}

/// The `stopped` event of `stop`.
pub fn stopped(stop: &StopInfo) -> Event {
    let mut body = json!({
        "reason": stop.reason,
        "allThreadsStopped": stop.all_threads_stopped,
    });
    if let Some(thread) = stop.thread_id {
        body["threadId"] = thread.into();
    }
    if !stop.hit_breakpoint_ids.is_empty() {
        body["hitBreakpointIds"] = json!(stop.hit_breakpoint_ids);
    }
    if let Some(description) = &stop.description {
        body["description"] = description.clone().into();
    }
    if let Some(text) = &stop.text {
        body["text"] = text.clone().into();
    }
    Event::new("stopped", Some(body))
}

/// What the editor hears of `kind`. `last_thread` is the thread of the last stop,
/// which a `continued` names when the session resumes without the adapter saying
/// which thread did (an editor keeps a thread stopped until told otherwise).
pub fn heard(kind: &EventKind, last_thread: Option<i64>) -> Heard {
    let one = |name: &str, body: Value| Heard::Events(vec![Event::new(name, Some(body))]);
    match kind {
        EventKind::Stopped(stop) => Heard::Events(vec![stopped(stop)]),
        // The session says it resumed whoever moved it (the agent's debug.continue, a
        // step); the adapter's own `continued` does not always come.
        EventKind::StateChanged {
            from: SessionState::Stopped,
            to: SessionState::Running,
        } => one(
            "continued",
            json!({"threadId": last_thread.unwrap_or(0), "allThreadsContinued": true}),
        ),
        EventKind::Output { category, output } => {
            one("output", json!({"category": category, "output": output}))
        }
        EventKind::Thread { reason, thread_id } => {
            one("thread", json!({"reason": reason, "threadId": thread_id}))
        }
        EventKind::Breakpoint { reason, breakpoint } => one(
            "breakpoint",
            json!({"reason": reason, "breakpoint": breakpoint.as_ref()}),
        ),
        EventKind::Module { reason, module } => {
            one("module", json!({"reason": reason, "module": module}))
        }
        EventKind::Process { body } => one("process", body.clone()),
        EventKind::Exited { exit_code } => one("exited", json!({"exitCode": exit_code})),
        EventKind::Terminated { .. } => ended("the session's program ended"),
        EventKind::SessionFailed { .. } => ended("the session failed"),
        EventKind::SessionReaped { idle_secs } => ended(&format!(
            "the session was ended after {idle_secs} s without a call from its agent"
        )),
        EventKind::SessionClosed { .. } => ended("the session was ended"),
        EventKind::Adapter { event, body }
            if matches!(event.as_str(), "loadedSource" | "invalidated" | "memory") =>
        {
            Heard::Events(vec![Event::new(event.clone(), body.clone())])
        }
        // The adapter's `continued` is said from the state change above; the runtime's
        // own events (restarts, child sessions, its notices) are not the editor's.
        _ => Heard::Events(Vec::new()),
    }
}

/// The session has ended, for `why`: said in the editor's console, then
/// `terminated`, which ends its debug session.
fn ended(why: &str) -> Heard {
    Heard::End(vec![
        notice(&format!("{why}: this editor is disconnected")),
        Event::new("terminated", Some(json!({}))),
    ])
}

/// An `output` event in the editor's debug console, from dapvisor itself.
pub fn notice(text: &str) -> Event {
    Event::new(
        "output",
        Some(json!({"category": "console", "output": format!("[dapvisor] {text}\n")})),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop() -> StopInfo {
        StopInfo {
            reason: "breakpoint".into(),
            thread_id: Some(7),
            all_threads_stopped: true,
            hit_breakpoint_ids: vec![1],
            description: None,
            text: None,
            epoch: 3,
        }
    }

    fn events(heard: Heard) -> Vec<(String, Value)> {
        let (Heard::Events(list) | Heard::End(list)) = heard;
        list.into_iter()
            .map(|e| (e.event.clone(), e.body_or_empty()))
            .collect()
    }

    #[test]
    fn a_stop_is_a_stopped_event_with_its_thread_and_breakpoints() {
        let said = events(heard(&EventKind::Stopped(stop()), None));
        assert_eq!(said[0].0, "stopped");
        assert_eq!(
            said[0].1,
            json!({"reason": "breakpoint", "threadId": 7, "allThreadsStopped": true,
                   "hitBreakpointIds": [1]})
        );
    }

    #[test]
    fn a_resume_by_anyone_is_continued_naming_the_last_thread() {
        let resumed = EventKind::StateChanged {
            from: SessionState::Stopped,
            to: SessionState::Running,
        };
        let said = events(heard(&resumed, Some(7)));
        assert_eq!(
            said,
            [(
                "continued".to_string(),
                json!({"threadId": 7, "allThreadsContinued": true})
            )]
        );
        let adapter_said = EventKind::Continued {
            thread_id: 7,
            all_threads_continued: true,
        };
        assert_eq!(heard(&adapter_said, Some(7)), Heard::Events(vec![]));
    }

    #[test]
    fn the_sessions_end_ends_the_editors_session() {
        for end in [
            EventKind::Terminated { restart: None },
            EventKind::SessionClosed {
                reason: "removed".into(),
            },
        ] {
            let Heard::End(said) = heard(&end, None) else {
                panic!("{end:?} does not end it");
            };
            assert_eq!(said[0].event, "output");
            assert_eq!(said[1].event, "terminated");
        }
        let exited = events(heard(&EventKind::Exited { exit_code: 3 }, None));
        assert_eq!(exited[0].1, json!({"exitCode": 3}));
    }

    #[test]
    fn output_passes_and_the_runtimes_own_events_do_not() {
        let output = EventKind::Output {
            category: "stdout".into(),
            output: "hi\n".into(),
        };
        assert_eq!(events(heard(&output, None))[0].1["output"], "hi\n");
        let own = EventKind::Adapter {
            event: "dapvisor/childFailed".into(),
            body: None,
        };
        assert_eq!(heard(&own, None), Heard::Events(vec![]));
        let restarted = EventKind::AdapterRestarted { attempt: 1 };
        assert_eq!(heard(&restarted, None), Heard::Events(vec![]));
    }
}
