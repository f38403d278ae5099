//! Events as agents read them: a signal name (`dap_stopped`, `dap_output`, ...) and a
//! JSON payload with snake_case fields, as the signal table of dapvisor's design
//! names them. The runtime publishes events as Rust data ([`EventKind`]); this is
//! their one JSON form, used by MCP notifications and log messages, and by anyone
//! printing events.

use serde_json::{json, Value};

use crate::{EventKind, SessionEvent};

/// An event's name and payload as agents read them.
pub trait Signal {
    /// The signal name: `dap_stopped`, `dap_output`, `dap_terminated`, `dap_exited`,
    /// `dap_continued`, `dap_thread`, `dap_breakpoint`, `dap_module`, `dap_process`,
    /// `dap_state_changed`, `dap_adapter_exited`, `dap_adapter_crashed`,
    /// `dap_adapter_restarted`, `dap_session_failed`, `dap_session_reaped`,
    /// `dap_session_closed`, `dap_child_session`, and `dap_<event>` for other events.
    fn signal(&self) -> String;

    /// The payload, with snake_case fields as in the signal table
    /// (`dap_stopped`: `{reason, thread_id, all_threads_stopped, ...}`).
    fn payload(&self) -> Value;
}

impl Signal for EventKind {
    fn signal(&self) -> String {
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
            // A kind newer than the signal table: named, with no payload, until the
            // table names it.
            _ => "dap_event",
        };
        name.to_string()
    }

    fn payload(&self) -> Value {
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
            _ => Value::Null,
        }
    }
}

impl Signal for SessionEvent {
    fn signal(&self) -> String {
        self.kind.signal()
    }

    fn payload(&self) -> Value {
        self.kind.payload()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AdapterExit;
    use crate::StopInfo;

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

        let mut exit = AdapterExit::default();
        exit.code = None;
        exit.signal = Some(9);
        exit.reason = "the adapter closed its output".into();
        exit.stderr_tail = "Traceback ...".into();
        exit.stdout_tail = "DAP server listening at: 127.0.0.1:4711".into();
        exit.requested = false;
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
}
