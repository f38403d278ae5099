//! js-debug (Node.js, JavaScript and TypeScript), run as a DAP server under node.
//! - The launch's own connection only bootstraps: js-debug asks for the program's
//!   session with `startDebugging`, which must be a new connection to the same
//!   server; the session adopts it (`core/bootstrap.rs`).
//! - Later children (workers, subprocesses) are child sessions on that same server.
//! - The program's exit code comes as the launcher's line on the bootstrap
//!   connection, `Process exited with code 3`, read by [`launcher_exit_code`].
//! - Its `uncaught` filter stops where an exception nothing catches is thrown.
//! - Its dialect: a launch names the workspace folder (`__workspaceFolder`) and the
//!   node found (`runtimeExecutable`); an attach names its `type` and `request`, and a
//!   Node inspector's `address` and `port` (`node --inspect`), or a `processId` as a
//!   string. A path mapping is its `localRoot` and `remoteRoot` (one pair).

use std::path::Path;

use serde_json::{json, Map, Value};

use super::dialect::path_value;
use super::dialect::{default_to_adapter, AttachDraft, Dialect, LaunchDraft};
use super::Quirks;
use crate::launch::LaunchSpec;

pub(super) const QUIRKS: Quirks = Quirks {
    program_has_a_session_of_its_own: true,
    children_on_the_same_server: true,
    launcher_exit_code: Some(launcher_exit_code),
    terminal_noise: &[
        "Debugger attached.",
        "Waiting for the debugger to disconnect...",
    ],
    terminal_exit_line: Some(terminal_exit_line),
    uncaught_exception_filters: &["uncaught"],
    dialect: Dialect {
        launch,
        attach,
        launch_with_adapter,
        ..Dialect::PLAIN
    },
    ..Quirks::NONE
};

/// js-debug resolves `outFiles` and source-map locations against the workspace folder
/// (without one, breakpoints in TypeScript sources never bind): the working directory,
/// else the program's own folder.
fn launch(draft: &mut LaunchDraft<'_>) {
    let folder = draft
        .cwd
        .clone()
        .or_else(|| draft.program.parent().map(Path::to_path_buf));
    if let Some(folder) = folder {
        draft.put("__workspaceFolder", path_value(&folder));
    }
}

fn attach(draft: &mut AttachDraft<'_>) {
    draft.put("type", json!("pwa-node"));
    draft.put("request", json!("attach"));
    if let Some(port) = draft.spec.port {
        draft.put("address", json!(draft.host));
        draft.put("port", json!(port));
    } else if let Some(pid) = draft.spec.pid {
        // js-debug takes the process id as a string.
        draft.put("processId", json!(pid.to_string()));
    }
    // js-debug takes one pair of folders; dapvisor maps any others itself.
    if let Some(first) = draft.spec.path_mappings.first() {
        draft.put("localRoot", path_value(&first.local));
        draft.put("remoteRoot", path_value(&first.remote));
    }
}

/// The program runs under the node found, unless the launch names another.
fn launch_with_adapter(out: &mut Map<String, Value>, node: &Path, _spec: &LaunchSpec) {
    default_to_adapter(out, "runtimeExecutable", node);
}

/// The exit code in js-debug's launcher line `Process exited with code 3`, or, in
/// the line dapvisor adds for a program a signal ended, `Process killed by signal 9`,
/// the signal as a negative code.
fn launcher_exit_code(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Some(signal) = text.strip_prefix(KILLED_BY) {
        return signal.parse::<i64>().ok().map(|s| -s);
    }
    let rest = text.strip_prefix("Process exited with code ")?;
    rest.parse().ok()
}

/// How dapvisor's line for a program a signal ended begins.
const KILLED_BY: &str = "Process killed by signal ";

/// The line js-debug's launcher says when a program it started exits, for a program
/// it had dapvisor start, whose exit it cannot see: for 0 too (js-debug's own says
/// nothing then), and a death by a signal, which js-debug never reports.
fn terminal_exit_line(code: Option<i32>, signal: Option<i32>) -> Option<String> {
    match (code, signal) {
        (_, Some(signal)) => Some(format!("{KILLED_BY}{signal}\r\n")),
        (Some(code), None) => Some(format!("Process exited with code {code}\r\n")),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{launcher_exit_code, terminal_exit_line};

    #[test]
    fn the_exit_code_is_read_from_the_launchers_line() {
        assert_eq!(
            launcher_exit_code("Process exited with code 5\r\n"),
            Some(5)
        );
        assert_eq!(
            launcher_exit_code("Process exited with code 137"),
            Some(137)
        );
        assert_eq!(launcher_exit_code("Process exited with code null"), None);
        assert_eq!(launcher_exit_code("cart total 5"), None);
    }

    #[test]
    fn dapvisor_says_a_programs_end_as_the_launcher_would() {
        assert_eq!(
            launcher_exit_code(&terminal_exit_line(Some(0), None).unwrap()),
            Some(0)
        );
        let three = terminal_exit_line(Some(3), None).unwrap();
        assert_eq!(launcher_exit_code(&three), Some(3));
        let killed = terminal_exit_line(None, Some(9)).unwrap();
        assert_eq!(launcher_exit_code(&killed), Some(-9));
    }
}
