//! A program a signal ended, told from how its adapter reports the end: each adapter
//! reports a death by signal N in its own way, and none as the signal.
//!
//! - dlv (and an adapter that passes on a negative status): `-N`.
//! - lldb-dap and CodeLLDB: `N`, as if the program had called `exit(N)`; lldb first
//!   stops the program on the signal (`signal SIGSEGV`), except SIGKILL, which cannot
//!   be caught. So `N` is read as the signal only after a last stop on that signal; a
//!   SIGKILL stays an exit code, as nothing tells it from `exit(9)`.
//! - debugpy: `256 - N` (its launcher keeps the low 8 bits of the negative status);
//!   read as the signal for the signals that end programs by fault or by request, 2
//!   (SIGINT) to 15 (SIGTERM), exit codes 254 to 241. A Python program that calls
//!   `sys.exit(-11)` reads as killed by SIGSEGV; `sys.exit(-1)` (255) stays an exit
//!   code.
//! - js-debug reports no exit code for a program a signal ended.

use crate::registry::AdapterFlavor;
use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;
use crate::{SessionSnapshot, StopInfo};

/// Linux's signals by number (`signal(7)`), 1 to 31.
const NAMES: [&str; 31] = [
    "SIGHUP",
    "SIGINT",
    "SIGQUIT",
    "SIGILL",
    "SIGTRAP",
    "SIGABRT",
    "SIGBUS",
    "SIGFPE",
    "SIGKILL",
    "SIGUSR1",
    "SIGSEGV",
    "SIGUSR2",
    "SIGPIPE",
    "SIGALRM",
    "SIGTERM",
    "SIGSTKFLT",
    "SIGCHLD",
    "SIGCONT",
    "SIGSTOP",
    "SIGTSTP",
    "SIGTTIN",
    "SIGTTOU",
    "SIGURG",
    "SIGXCPU",
    "SIGXFSZ",
    "SIGVTALRM",
    "SIGPROF",
    "SIGWINCH",
    "SIGIO",
    "SIGPWR",
    "SIGSYS",
];

/// The highest signal number (real-time signals included).
const LAST_SIGNAL: i64 = 64;

/// A signal's name (`SIGSEGV`), or `signal N` for a real-time one.
pub(crate) fn signal_name(number: i64) -> String {
    usize::try_from(number - 1)
        .ok()
        .and_then(|i| NAMES.get(i))
        .map_or_else(|| format!("signal {number}"), |name| name.to_string())
}

/// The number of the signal named in `text` (`signal SIGSEGV: address not mapped`).
fn named_signal(text: &str) -> Option<i64> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .find_map(|word| NAMES.iter().position(|name| *name == word))
        .map(|i| i as i64 + 1)
}

/// The signal that ended a program `flavor` reported as ending with `exit_code`, its
/// last stop having been `last_stop`; `None` for an exit of its own.
pub(crate) fn ending_signal(
    flavor: Option<AdapterFlavor>,
    exit_code: Option<i64>,
    last_stop: Option<&StopInfo>,
) -> Option<i64> {
    let code = exit_code?;
    if (-LAST_SIGNAL..0).contains(&code) {
        return Some(-code);
    }
    match flavor? {
        AdapterFlavor::Debugpy if (241..=254).contains(&code) => Some(256 - code),
        AdapterFlavor::LldbDap | AdapterFlavor::CodeLldb => {
            let stop = last_stop.filter(|s| s.reason == "exception")?;
            let said = [&stop.description, &stop.text];
            said.into_iter()
                .flatten()
                .find_map(|t| named_signal(t))
                .filter(|signal| *signal == code)
        }
        _ => None,
    }
}

/// How the program of an ended session ended, in words: `the program exited with
/// code 3`, `the program was killed by SIGSEGV`.
pub(crate) fn how_it_ended(snapshot: &SessionSnapshot) -> String {
    let signal = ending_signal(
        snapshot.adapter_flavor,
        snapshot.exit_code,
        snapshot.last_stop.as_ref(),
    );
    match (signal, snapshot.exit_code) {
        (Some(signal), _) => format!("the program was killed by {}", signal_name(signal)),
        (None, Some(code)) => format!("the program exited with code {code}"),
        (None, None) => "the program ended (no exit code reported)".to_string(),
    }
}

/// A call that needs a live program, on a session whose program has ended: one kind,
/// `session_ended`, whatever the call, saying how it ended.
pub(crate) fn session_ended(snapshot: &SessionSnapshot) -> ToolError {
    ended_error(format!("the session has ended: {}", how_it_ended(snapshot)))
}

/// [`session_ended`] where how it ended is not at hand ([`say_how_it_ended`] adds it).
pub(crate) fn ended_error(error: String) -> ToolError {
    ToolError::invalid(
        error,
        "read what it printed with debug.output, or launch it again with debug.launch",
    )
    .with_kind("session_ended")
}

/// `err`, where it is a [`session_ended`] refusal that does not say how the program
/// ended, with how, from the session `session_id` names (a call's `session_id`).
pub(crate) async fn say_how_it_ended(
    ctx: &Context,
    session_id: Option<String>,
    mut err: ToolError,
) -> ToolError {
    if err.kind != "session_ended" || err.code != 400 || err.error.contains(": the program") {
        return err;
    }
    let Some(session) = session_id.and_then(|id| ctx.session(&id).ok()) else {
        return err;
    };
    if let Ok(snapshot) = session.snapshot().await {
        err.error = format!("{}: {}", err.error, how_it_ended(&snapshot));
    }
    err
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop(reason: &str, description: &str) -> StopInfo {
        StopInfo {
            reason: reason.into(),
            thread_id: Some(1),
            all_threads_stopped: true,
            hit_breakpoint_ids: vec![],
            description: Some(description.into()),
            text: None,
            epoch: 1,
        }
    }

    #[test]
    fn signals_are_named_as_linux_numbers_them() {
        assert_eq!(signal_name(11), "SIGSEGV");
        assert_eq!(signal_name(9), "SIGKILL");
        assert_eq!(signal_name(6), "SIGABRT");
        assert_eq!(signal_name(34), "signal 34");
        assert_eq!(named_signal("signal SIGSEGV: address not mapped"), Some(11));
        assert_eq!(named_signal("signal SIGABRT"), Some(6));
        assert_eq!(named_signal("breakpoint 1.1"), None);
    }

    #[test]
    fn each_adapter_is_read_its_own_way() {
        let segv = stop("exception", "signal SIGSEGV: address not mapped to object");
        let lldb = Some(AdapterFlavor::LldbDap);
        assert_eq!(ending_signal(lldb, Some(11), Some(&segv)), Some(11));
        // No stop on the signal (SIGKILL), or another one: the program's own code.
        assert_eq!(ending_signal(lldb, Some(9), None), None);
        assert_eq!(ending_signal(lldb, Some(6), Some(&segv)), None);
        let breakpoint = stop("breakpoint", "signal SIGSEGV");
        assert_eq!(ending_signal(lldb, Some(11), Some(&breakpoint)), None);

        let python = Some(AdapterFlavor::Debugpy);
        assert_eq!(ending_signal(python, Some(247), None), Some(9));
        assert_eq!(ending_signal(python, Some(245), None), Some(11));
        assert_eq!(ending_signal(python, Some(255), None), None, "sys.exit(-1)");
        assert_eq!(ending_signal(python, Some(3), None), None);

        assert_eq!(
            ending_signal(Some(AdapterFlavor::Delve), Some(-9), None),
            Some(9)
        );
        assert_eq!(ending_signal(None, Some(-11), None), Some(11));
        assert_eq!(ending_signal(None, Some(0), None), None);
        assert_eq!(ending_signal(python, None, None), None);
    }
}
