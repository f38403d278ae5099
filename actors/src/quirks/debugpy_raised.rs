//! debugpy's `raised` filter, kept to the program's own exceptions.
//!
//! dapvisor debugs library code too (`justMyCode: false`: a step goes into the library,
//! a breakpoint in it holds, a stack shows its frames). With that, pydevd's `raised`
//! filter stops at every exception the standard library raises and handles itself:
//! 169 stops before the program's first in a script importing `decimal`, `json`,
//! `importlib` and `tempfile` (debugpy 1.8, Python 3.11). What pydevd offers:
//!
//! - `justMyCode: true` makes each exception breakpoint ignore the library's frames
//!   (its `ignore_libraries`): an exception a library raises stops where it reaches the
//!   program's code, the line that called the library. But it also hides the library
//!   from steps, breakpoints and stack traces.
//! - `rules` name files to trace or skip ahead of `justMyCode`; a rule that includes
//!   every file (`**`) gives the library back to steps, breakpoints and stack traces,
//!   while exception breakpoints still ask `justMyCode`'s question (is the frame in the
//!   project?), not the rules'.
//!
//! So the `raised` filter gets both. Not with `userUnhandled`, whose "did it escape
//! into the library" asks the rules too, and would never see a library frame.

use serde_json::{json, Value};

/// debugpy's filter for every exception raised, handled or not.
const RAISED: &str = "raised";

/// debugpy's filter for an exception the program's code lets escape into the library's.
const USER_UNHANDLED: &str = "userUnhandled";

/// Whether a session with these filters stops only at the program's own exceptions
/// (`justMyCode`): with the `raised` filter.
fn only_my_code(exception_filters: &[String]) -> bool {
    exception_filters.iter().any(|f| f == RAISED)
}

/// The launch or attach arguments that keep the `raised` filter to the program's own
/// exceptions while the library stays reachable; none without that filter. The
/// launch's `launch_args` may still say otherwise (they are merged last).
pub(super) fn raised_arguments(exception_filters: &[String]) -> Vec<(&'static str, Value)> {
    if !only_my_code(exception_filters) {
        return Vec::new();
    }
    let mut arguments = vec![("justMyCode", json!(true))];
    if !exception_filters.iter().any(|f| f == USER_UNHANDLED) {
        arguments.push(("rules", json!([{ "path": "**", "include": true }])));
    }
    arguments
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn only_the_raised_filter_changes_the_arguments() {
        assert!(raised_arguments(&filters(&[])).is_empty());
        assert!(raised_arguments(&filters(&["uncaught", "userUnhandled"])).is_empty());
        assert_eq!(
            raised_arguments(&filters(&["raised", "uncaught"])),
            vec![
                ("justMyCode", json!(true)),
                ("rules", json!([{ "path": "**", "include": true }])),
            ]
        );
    }

    #[test]
    fn user_unhandled_keeps_the_library_apart() {
        assert_eq!(
            raised_arguments(&filters(&["raised", "userUnhandled"])),
            vec![("justMyCode", json!(true))]
        );
    }
}
