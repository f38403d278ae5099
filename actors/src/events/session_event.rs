//! Events a session publishes, with the signal names agents know (`dap_stopped`,
//! `dap_output`, `dap_terminated`, `dap_exited`, ...) and a JSON payload each.

use serde::Serialize;
use serde_json::{json, Value};

use crate::core::command::StopInfo;
use crate::core::state::SessionState;
use crate::error::AdapterExit;
use crate::events::Lossy;
use crate::session::SessionId;
use crate::wire::types::Breakpoint;

/// An event of one session.
#[derive(Debug, Clone, Serialize)]
pub struct SessionEvent {
    /// The session it belongs to.
    pub session_id: SessionId,
    /// What happened.
    pub kind: EventKind,
}

/// What happened in a session.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
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
    /// The signal name: `dap_stopped`, `dap_output`, `dap_terminated`, `dap_exited`,
    /// `dap_continued`, `dap_thread`, `dap_breakpoint`, `dap_module`, `dap_process`,
    /// `dap_state_changed`, `dap_adapter_exited`, `dap_adapter_crashed`,
    /// `dap_adapter_restarted`, `dap_session_failed`, `dap_session_reaped`,
    /// `dap_session_closed`, `dap_child_session`, and `dap_<event>` for other events.
    pub fn signal(&self) -> String {
        let name = match self {
            EventKind::StateChanged { .. } => "dap_state_changed",
            EventKind::Stopped(_) => "dap_stopped",
            EventKind::Continued { .. } => "dap_continued",
            EventKind::Output { .. } => "dap_output",
            EventKind::Thread { .. } => "dap_thread",
            EventKind::Breakpoint { .. } => "dap_breakpoint",
            EventKind::Module { .. } => "dap_module",
            EventKind::Process { .. } => "dap_process",
            EventKind::Exited { .. } => "dap_exited",
            EventKind::Terminated { .. } => "dap_terminated",
            EventKind::AdapterExited(_) => "dap_adapter_exited",
            EventKind::SessionClosed { .. } => "dap_session_closed",
            EventKind::AdapterCrashed { .. } => "dap_adapter_crashed",
            EventKind::AdapterRestarted { .. } => "dap_adapter_restarted",
            EventKind::SessionFailed { .. } => "dap_session_failed",
            EventKind::SessionReaped { .. } => "dap_session_reaped",
            EventKind::ChildSession { .. } => "dap_child_session",
            EventKind::Adapter { event, .. } => return format!("dap_{event}"),
        };
        name.to_string()
    }

    /// The payload, with snake_case fields as in the signal table
    /// (`dap_stopped`: `{reason, thread_id, all_threads_stopped, ...}`).
    pub fn payload(&self) -> Value {
        match self {
            EventKind::StateChanged { from, to } => json!({"from": from, "to": to}),
            EventKind::Stopped(stop) => json!({
                "reason": stop.reason,
                "thread_id": stop.thread_id,
                "all_threads_stopped": stop.all_threads_stopped,
                "hit_breakpoint_ids": stop.hit_breakpoint_ids,
                "description": stop.description,
                "text": stop.text,
            }),
            EventKind::Continued {
                thread_id,
                all_threads_continued,
            } => json!({"thread_id": thread_id, "all_threads_continued": all_threads_continued}),
            EventKind::Output { category, output } => {
                json!({"category": category, "output": output})
            }
            EventKind::Thread { reason, thread_id } => {
                json!({"reason": reason, "thread_id": thread_id})
            }
            EventKind::Breakpoint { reason, breakpoint } => {
                json!({"reason": reason, "breakpoint": breakpoint})
            }
            EventKind::Module { reason, module } => json!({"reason": reason, "module": module}),
            EventKind::Process { body } => body.clone(),
            EventKind::Exited { exit_code } => json!({"exit_code": exit_code}),
            EventKind::Terminated { restart } => {
                json!({"restart": restart.clone().unwrap_or(Value::Bool(false))})
            }
            EventKind::AdapterExited(exit) => json!({
                "code": exit.code,
                "signal": exit.signal,
                "reason": exit.reason,
                "stderr_tail": exit.stderr_tail,
                "stdout_tail": exit.stdout_tail,
                "requested": exit.requested,
            }),
            EventKind::SessionClosed { reason } => json!({"reason": reason}),
            EventKind::AdapterCrashed {
                exit,
                attempt,
                restart_in_ms,
            } => json!({
                "code": exit.code,
                "signal": exit.signal,
                "reason": exit.reason,
                "stderr_tail": exit.stderr_tail,
                "stdout_tail": exit.stdout_tail,
                "attempt": attempt,
                "restart_in_ms": restart_in_ms,
            }),
            EventKind::AdapterRestarted { attempt } => json!({"attempt": attempt}),
            EventKind::SessionFailed { reason } => json!({"reason": reason}),
            EventKind::SessionReaped { idle_secs } => json!({"idle_secs": idle_secs}),
            EventKind::ChildSession { child } => json!({"child": child}),
            EventKind::Adapter { body, .. } => body.clone().unwrap_or(Value::Null),
        }
    }

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

impl SessionEvent {
    /// The signal name; see [`EventKind::signal`].
    pub fn signal(&self) -> String {
        self.kind.signal()
    }

    /// The payload; see [`EventKind::payload`].
    pub fn payload(&self) -> Value {
        self.kind.payload()
    }
}

impl Lossy for SessionEvent {
    fn is_lossy(&self) -> bool {
        !self.kind.is_lifecycle()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_and_payloads_follow_the_seed_table() {
        let stop = EventKind::Stopped(StopInfo {
            reason: "breakpoint".into(),
            thread_id: Some(1),
            all_threads_stopped: true,
            hit_breakpoint_ids: vec![2],
            description: None,
            text: None,
            epoch: 1,
        });
        assert_eq!(stop.signal(), "dap_stopped");
        assert_eq!(stop.payload()["reason"], "breakpoint");
        assert_eq!(stop.payload()["thread_id"], 1);
        assert_eq!(stop.payload()["all_threads_stopped"], true);

        let out = EventKind::Output {
            category: "stdout".into(),
            output: "line\n".into(),
        };
        assert_eq!(out.signal(), "dap_output");
        assert_eq!(
            out.payload(),
            json!({"category": "stdout", "output": "line\n"})
        );
        assert!(!out.is_lifecycle());

        assert_eq!(
            EventKind::Terminated { restart: None }.payload(),
            json!({"restart": false})
        );
        assert_eq!(
            EventKind::Exited { exit_code: 3 }.payload(),
            json!({"exit_code": 3})
        );
        let custom = EventKind::Adapter {
            event: "debugpySockets".into(),
            body: Some(json!({"sockets": []})),
        };
        assert_eq!(custom.signal(), "dap_debugpySockets");
        assert!(!custom.is_lifecycle());

        let exit = AdapterExit {
            code: None,
            signal: Some(9),
            reason: "the adapter closed its output".into(),
            stderr_tail: "Traceback ...".into(),
            stdout_tail: "DAP server listening at: 127.0.0.1:4711".into(),
            requested: false,
        };
        let crashed = EventKind::AdapterCrashed {
            exit: exit.clone(),
            attempt: Some(2),
            restart_in_ms: Some(500),
        };
        assert_eq!(
            crashed.payload(),
            json!({"code": null, "signal": 9, "reason": "the adapter closed its output",
                   "stderr_tail": "Traceback ...",
                   "stdout_tail": "DAP server listening at: 127.0.0.1:4711",
                   "attempt": 2, "restart_in_ms": 500})
        );
        let exited = EventKind::AdapterExited(exit).payload();
        assert_eq!(
            exited["stdout_tail"],
            "DAP server listening at: 127.0.0.1:4711"
        );
        assert_eq!(exited["requested"], false);
    }

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
            assert!(kind.is_lifecycle(), "{} should be lifecycle", kind.signal());
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
            assert!(!kind.is_lifecycle(), "{} should be bulk", kind.signal());
            let event = SessionEvent {
                session_id: SessionId(1),
                kind: kind.clone(),
            };
            assert!(event.is_lossy());
        }
    }
}
