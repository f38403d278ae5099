//! Events a session publishes, as Rust data. How agents read them (a signal name
//! such as `dap_stopped` and a JSON payload) is the agent surface's concern
//! (`dapvisor::signals`).

use serde_json::Value;

use crate::core::session_id::SessionId;
use crate::core::snapshot::StopInfo;
use crate::core::state::SessionState;
use crate::error::AdapterExit;
use crate::wire::types::Breakpoint;

/// An event of one session.
#[derive(Debug, Clone)]
pub struct SessionEvent {
    /// The session it belongs to.
    pub session_id: SessionId,
    /// What happened.
    pub kind: EventKind,
}

/// What happened in a session.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EventKind {
    /// The session moved from one state to another.
    StateChanged {
        /// The old state.
        from: SessionState,
        /// The new state.
        to: SessionState,
    },
    /// The debuggee stopped.
    Stopped(StopInfo),
    /// The debuggee resumed (the adapter said so).
    Continued {
        /// The thread.
        thread_id: i64,
        /// Whether every thread resumed.
        all_threads_continued: bool,
    },
    /// Debuggee or adapter output. A bulk event: a slow subscriber may miss some, and
    /// is told how many (see [`EventKind::is_lifecycle`]).
    Output {
        /// `stdout`, `stderr`, `console`, ...
        category: String,
        /// The text.
        output: String,
    },
    /// A thread started or exited.
    Thread {
        /// `started` or `exited`.
        reason: String,
        /// The thread.
        thread_id: i64,
    },
    /// The adapter changed a breakpoint.
    Breakpoint {
        /// `changed`, `new` or `removed`.
        reason: String,
        /// The breakpoint as the adapter now sees it.
        breakpoint: Box<Breakpoint>,
    },
    /// A module was loaded, changed or removed. A bulk event (lldb-dap sends hundreds
    /// at start-up).
    Module {
        /// `new`, `changed` or `removed`.
        reason: String,
        /// The module, as the adapter sent it.
        module: Value,
    },
    /// The debuggee process started or was attached to.
    Process {
        /// The adapter's `process` event body.
        body: Value,
    },
    /// The debuggee exited.
    Exited {
        /// Its exit code.
        exit_code: i64,
    },
    /// The debug session ended.
    Terminated {
        /// The adapter's `restart` hint, if it gave one.
        restart: Option<Value>,
    },
    /// The adapter connection ended.
    AdapterExited(AdapterExit),
    /// The adapter crashed while the session was live. `restart_in_ms` says when the
    /// supervisor starts a new one (`attempt` of the current series), or is absent when
    /// the restart budget is spent (a `SessionFailed` follows).
    AdapterCrashed {
        /// How the adapter ended, with its stderr tail.
        exit: AdapterExit,
        /// The coming restart's number in the current series.
        attempt: Option<u32>,
        /// How long until it starts, in milliseconds.
        restart_in_ms: Option<u64>,
    },
    /// A new adapter finished starting after a crash: breakpoints are replayed and a
    /// launched program runs again from its start.
    AdapterRestarted {
        /// Its number in the current series of restarts.
        attempt: u32,
    },
    /// The session failed for good; every later request reports `reason`.
    SessionFailed {
        /// Why.
        reason: String,
    },
    /// The adapter asked for a child session (`startDebugging`); `child` is starting.
    ChildSession {
        /// The child's id.
        child: SessionId,
    },
    /// The idle reaper ended the session.
    SessionReaped {
        /// How long no agent had asked anything of it.
        idle_secs: u64,
    },
    /// The session ended and was removed from its runtime.
    SessionClosed {
        /// Why (removed, runtime shutdown, failed: ...).
        reason: String,
    },
    /// Any other adapter event, kept as it came (`capabilities`, `progressStart`,
    /// `loadedSource`, adapter-specific events such as `debugpySockets`, ...), and the
    /// runtime's own notices named `dapvisor/...` (`dapvisor/childFailed`). Bulk,
    /// except `capabilities`, `initialized` and `dapvisor/...` notices.
    Adapter {
        /// The event's name.
        event: String,
        /// Its body.
        body: Option<Value>,
    },
}

impl EventKind {
    /// Whether this is a lifecycle event, which every subscriber receives, in order,
    /// however far behind it is. The others are bulk events (output, modules, loaded
    /// sources, progress, invalidated, memory, and adapter events dapvisor does not
    /// know): a subscriber may have a bounded number of them waiting
    /// ([`RuntimeConfig::subscriber_output_backlog`](crate::RuntimeConfig)); past it,
    /// newer ones are dropped for that subscriber and counted in a
    /// [`Received::Lagged`](crate::Received) where they would have been.
    ///
    /// Lifecycle: state changes, `stopped`, `continued`, `exited`, `terminated`,
    /// `thread`, `breakpoint`, `process`, `capabilities`, `initialized`, the adapter's
    /// exit, crash and restart, the session's failure, reaping and closing, child
    /// sessions, and the runtime's own `dapvisor/...` notices.
    pub fn is_lifecycle(&self) -> bool {
        match self {
            EventKind::StateChanged { .. }
            | EventKind::Stopped(_)
            | EventKind::Continued { .. }
            | EventKind::Thread { .. }
            | EventKind::Breakpoint { .. }
            | EventKind::Process { .. }
            | EventKind::Exited { .. }
            | EventKind::Terminated { .. }
            | EventKind::AdapterExited(_)
            | EventKind::AdapterCrashed { .. }
            | EventKind::AdapterRestarted { .. }
            | EventKind::SessionFailed { .. }
            | EventKind::ChildSession { .. }
            | EventKind::SessionReaped { .. }
            | EventKind::SessionClosed { .. } => true,
            EventKind::Output { .. } | EventKind::Module { .. } => false,
            EventKind::Adapter { event, .. } => {
                matches!(event.as_str(), "capabilities" | "initialized")
                    || event.starts_with("dapvisor/")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn adapter(event: &str) -> EventKind {
        EventKind::Adapter {
            event: event.into(),
            body: None,
        }
    }

    #[test]
    fn lifecycle_events_are_state_changes_and_bulk_events_are_volume() {
        let exit = AdapterExit::default();
        let lifecycle = [
            EventKind::StateChanged {
                from: SessionState::Running,
                to: SessionState::Stopped,
            },
            EventKind::Stopped(StopInfo {
                reason: "step".into(),
                thread_id: None,
                all_threads_stopped: false,
                hit_breakpoint_ids: vec![],
                description: None,
                text: None,
                epoch: 1,
            }),
            EventKind::Continued {
                thread_id: 1,
                all_threads_continued: true,
            },
            EventKind::Thread {
                reason: "started".into(),
                thread_id: 2,
            },
            EventKind::Breakpoint {
                reason: "changed".into(),
                breakpoint: Box::default(),
            },
            EventKind::Process { body: json!({}) },
            EventKind::Exited { exit_code: 0 },
            EventKind::Terminated { restart: None },
            EventKind::AdapterExited(exit.clone()),
            EventKind::AdapterCrashed {
                exit,
                attempt: Some(1),
                restart_in_ms: Some(250),
            },
            EventKind::AdapterRestarted { attempt: 1 },
            EventKind::SessionFailed { reason: "x".into() },
            EventKind::ChildSession {
                child: SessionId(2),
            },
            EventKind::SessionReaped { idle_secs: 600 },
            EventKind::SessionClosed { reason: "x".into() },
            adapter("capabilities"),
            adapter("initialized"),
            adapter("dapvisor/childFailed"),
        ];
        for kind in &lifecycle {
            assert!(kind.is_lifecycle(), "{kind:?} should be lifecycle");
        }
        let bulk = [
            EventKind::Output {
                category: "stdout".into(),
                output: "x".into(),
            },
            EventKind::Module {
                reason: "new".into(),
                module: json!({"id": 1}),
            },
            adapter("loadedSource"),
            adapter("progressStart"),
            adapter("progressUpdate"),
            adapter("progressEnd"),
            adapter("invalidated"),
            adapter("memory"),
            adapter("output"),
            adapter("debugpySockets"),
        ];
        for kind in &bulk {
            assert!(!kind.is_lifecycle(), "{kind:?} should be bulk");
        }
    }
}
