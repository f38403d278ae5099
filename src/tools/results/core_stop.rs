//! What a stop says when its session is a core dump: `kind: core`, the dump, and the
//! signal that ended the process where the adapter names it (lldb-dap and CodeLLDB
//! do, in the stop's description; dlv does not).

use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::StopInfo;

/// The signal that ended a core dump's process: as the stop names it (lldb-dap,
/// CodeLLDB), else as the core file's notes say (`core_signal`, its number).
pub(crate) fn signal(stop: Option<&StopInfo>, core_signal: Option<i32>) -> Option<String> {
    let named = stop.and_then(|stop| {
        [&stop.description, &stop.text]
            .into_iter()
            .flatten()
            .find_map(|said| crate::core_dump_signal(said))
    });
    named.or_else(|| core_signal.map(|n| super::exit_signal::signal_name(i64::from(n))))
}

/// Mark `summary` (a stop's JSON) and `text` as a core dump's when the session
/// opened one (`core_file` and `core_signal`, from its snapshot):
/// its reason is `core` (the adapter's, such as lldb-dap's `entry`, kept as
/// `adapter_reason`), with the dump and the signal.
pub(crate) fn mark(
    core_file: Option<&str>,
    core_signal: Option<i32>,
    stop: &StopInfo,
    summary: &mut Value,
    text: &mut String,
) {
    let Some(core) = core_file else {
        return;
    };
    let said = format!("stopped ({})", summary["reason"].as_str().unwrap_or(""));
    if summary.get("adapter_reason").is_none() {
        summary["adapter_reason"] = json!(stop.reason);
    }
    summary["reason"] = json!("core");
    summary["kind"] = json!("core");
    summary["core_file"] = json!(core);
    let mut head = String::from("stopped (core dump");
    if let Some(signal) = signal(Some(stop), core_signal) {
        summary["signal"] = json!(signal);
        let _ = write!(head, " of a process killed by {signal}");
    }
    head.push_str("; it cannot run)");
    *text = text.replacen(&said, &head, 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop(reason: &str, description: &str) -> StopInfo {
        StopInfo {
            reason: reason.into(),
            thread_id: Some(1),
            all_threads_stopped: true,
            hit_breakpoint_ids: Vec::new(),
            description: Some(description.into()),
            text: None,
            epoch: 1,
        }
    }

    #[test]
    fn a_core_dumps_stop_says_so_with_its_signal() {
        let lldb = stop("entry", "SIGSEGV: address not mapped to object");
        let mut summary = json!({ "reason": "entry" });
        let mut text = "stopped (entry): SIGSEGV: address not mapped in sum".to_string();
        mark(None, None, &lldb, &mut summary, &mut text);
        assert_eq!(summary["kind"], Value::Null, "not a core: unchanged");
        let core = Some("/tmp/core");
        mark(core, None, &lldb, &mut summary, &mut text);
        assert_eq!(summary["kind"], "core");
        assert_eq!(summary["reason"], "core");
        assert_eq!(summary["adapter_reason"], "entry");
        assert_eq!(summary["signal"], "SIGSEGV");
        assert_eq!(summary["core_file"], "/tmp/core");
        assert!(
            text.starts_with(
                "stopped (core dump of a process killed by SIGSEGV; it cannot run): SIGSEGV"
            ),
            "{text}"
        );
        let dlv = stop("exception", "runtime error");
        let mut summary = json!({ "reason": "exception" });
        let mut text = "stopped (exception): runtime error".to_string();
        mark(core, None, &dlv, &mut summary, &mut text);
        assert_eq!(summary["signal"], Value::Null);
        assert_eq!(text, "stopped (core dump; it cannot run): runtime error");
        // The core file's own note names it where the adapter does not.
        let mut summary = json!({ "reason": "entry" });
        let mut text = "stopped (entry)".to_string();
        mark(core, Some(6), &stop("entry", ""), &mut summary, &mut text);
        assert_eq!(summary["signal"], "SIGABRT");
        assert_eq!(
            text,
            "stopped (core dump of a process killed by SIGABRT; it cannot run)"
        );
    }
}
