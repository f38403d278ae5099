//! js-debug (Node.js, JavaScript and TypeScript), run as a DAP server under node.
//! - The launch's own connection only bootstraps: js-debug asks for the program's
//!   session with `startDebugging`, which must be a new connection to the same
//!   server; the session adopts it (`core/bootstrap.rs`).
//! - Later children (workers, subprocesses) are child sessions on that same server.
//! - The program's exit code comes as the launcher's line on the bootstrap
//!   connection, `Process exited with code 3`, read by [`launcher_exit_code`].
//! - Its `uncaught` filter stops where an exception nothing catches is thrown.

use super::Quirks;

pub(super) const QUIRKS: Quirks = Quirks {
    program_has_a_session_of_its_own: true,
    children_on_the_same_server: true,
    launcher_exit_code: Some(launcher_exit_code),
    uncaught_exception_filters: &["uncaught"],
    ..Quirks::NONE
};

/// The exit code in js-debug's launcher line `Process exited with code 3`.
fn launcher_exit_code(text: &str) -> Option<i64> {
    let rest = text.trim().strip_prefix("Process exited with code ")?;
    rest.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::launcher_exit_code;

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
}
