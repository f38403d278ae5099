//! The tools as a person at the shell knows them ([`ToolNames::Cli`]): `dapvisor
//! debug` drives the catalogue for them, so what its refusals and hints say names the
//! flags and commands they gave (`--eval`, `--break`, `dapvisor trace`), never the
//! tools an agent calls. A sentence that would send them to a tool the command line
//! has nothing for is left out: they cannot act on it.
//!
//! [`ToolNames::Cli`]: crate::tools::ToolNames::Cli

use super::spec::rename_tools;

/// Each tool the command line has a flag or command for, and that flag or command.
const CLI_TERMS: &[(&str, &str)] = &[
    ("debug.launch", "`dapvisor debug`"),
    ("debug.attach", "`dapvisor debug --attach`"),
    ("debug.evaluate", "`--eval`"),
    ("debug.set_breakpoint", "`--break`"),
    ("debug.set_breakpoints", "`--break`"),
    ("debug.calls", "`dapvisor trace --calls`"),
    ("debug.trace", "`dapvisor trace`"),
    ("debug.diff", "`dapvisor diff`"),
];

/// The flag or command that stands for the tool `canonical` at the command line.
pub(crate) fn cli_term(canonical: &str) -> Option<&'static str> {
    CLI_TERMS
        .iter()
        .find(|(tool, _)| *tool == canonical)
        .map(|(_, term)| *term)
}

/// `text` for a person at the shell: each tool it names as its flag or command; a
/// sentence or clause (after `. ` or `; `) that names a tool with neither is left
/// out. With `keep_first` (an error: it says what happened) the first one is kept
/// whatever it names, such a tool in it said in words ("the debugger's stack trace").
pub(crate) fn in_text(text: &str, keep_first: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, piece) in pieces(text).into_iter().enumerate() {
        let mut has_no_term = false;
        let rendered = rename_tools(piece, |name| match cli_term(name) {
            Some(term) => term.to_string(),
            None => {
                has_no_term = true;
                format!(
                    "the debugger's {}",
                    name.trim_start_matches("debug.").replace('_', " ")
                )
            }
        });
        if (n == 0 && keep_first) || !has_no_term {
            out.push_str(&rendered);
        }
    }
    // A clause left out may leave its separator behind.
    let kept = out.trim_end();
    kept.strip_suffix(';').unwrap_or(kept).to_string()
}

/// `text` cut after each `. ` and `; `, the separators kept with what they end.
fn pieces(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for (at, _) in text.match_indices(['.', ';']) {
        let next = at + 1;
        if text[next..].starts_with(' ') {
            pieces.push(&text[start..=next]);
            start = next + 1;
        }
    }
    pieces.push(&text[start..]);
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_with_a_flag_is_said_as_the_flag() {
        assert_eq!(
            in_text("evaluate it again with debug.evaluate", true),
            "evaluate it again with `--eval`"
        );
        assert_eq!(cli_term("debug.set_breakpoints"), Some("`--break`"));
        assert_eq!(cli_term("debug.wait"), None);
    }

    #[test]
    fn a_sentence_sending_a_person_to_a_tool_they_lack_is_left_out() {
        assert_eq!(
            in_text(
                "running: it did not stop within 2.0s. Call debug.wait to keep waiting, \
                 debug.pause to interrupt it. Or set one with debug.set_breakpoint.",
                true
            ),
            "running: it did not stop within 2.0s. Or set one with `--break`."
        );
        assert_eq!(
            in_text("the session is running; call debug.pause", true),
            "the session is running"
        );
        // What happened is said whatever it names, in words.
        assert_eq!(
            in_text("debug.stack_trace failed; try debug.threads", true),
            "the debugger's stack trace failed"
        );
        // Not a tool: left as it is.
        assert_eq!(
            in_text("see debug.py. Then go", true),
            "see debug.py. Then go"
        );
        // A hint that sends them to such a tool says nothing.
        assert_eq!(in_text("call debug.pause, or debug.wait", false), "");
    }
}
