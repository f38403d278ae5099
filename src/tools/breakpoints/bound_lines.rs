//! Where a source breakpoint is and where it was asked for, which an adapter may tell
//! apart: a line past the end of its file is refused before it is set (debugpy bound
//! `avg.py:500` of a 25-line file to its last line, which stopped before anything
//! ran); one the adapter bound elsewhere (a comment's line moves to the statement
//! before or after it) is said, `asked line 6, bound at line 5`; and either line names
//! it to remove it.

use std::path::Path;

use serde_json::{json, Value};

use crate::{SessionHandle, SessionSnapshot};

use crate::tools::breakpoints::statement::MAX_STATEMENT_SOURCE_BYTES;
use crate::tools::catalogue::spec::ToolError;

/// Refuse `line` past the end of `file`, where the file can be read (one that does not
/// exist is said when the breakpoint is reported unverified; one larger than
/// [`MAX_STATEMENT_SOURCE_BYTES`] is not counted).
pub(crate) fn check_within_file(file: &Path, line: i64) -> Result<(), ToolError> {
    // A remote target's file is not read here (nor is a local one named like it).
    if crate::path_map::is_remote(file) {
        return Ok(());
    }
    let Some(lines) = count_lines(file) else {
        return Ok(());
    };
    if line <= lines {
        return Ok(());
    }
    Err(ToolError::invalid(
        format!(
            "line {line} is past the end of {}, which has {lines} line(s)",
            file.display()
        ),
        format!("pass a line from 1 to {lines}"),
    ))
}

/// How many lines a regular file of at most [`MAX_STATEMENT_SOURCE_BYTES`] has.
fn count_lines(file: &Path) -> Option<i64> {
    let meta = std::fs::metadata(file).ok()?;
    if !meta.is_file() || meta.len() > MAX_STATEMENT_SOURCE_BYTES {
        return None;
    }
    let bytes = std::fs::read(file).ok()?;
    let newlines = bytes.iter().filter(|b| **b == b'\n').count();
    let unterminated = bytes.last().is_some_and(|b| *b != b'\n');
    Some((newlines + usize::from(unterminated)) as i64)
}

/// The source breakpoints of `snapshot` the adapter bound to another line than asked:
/// `[{file, line, bound_line}]`, and a line of text each.
pub(crate) fn moved(snapshot: &SessionSnapshot) -> (Vec<Value>, String) {
    let mut list = Vec::new();
    let mut text = String::new();
    for (file, records) in snapshot.breakpoints.sources() {
        for record in records {
            let asked = record.requested.line;
            match record.actual_line() {
                Some(bound) if bound != asked => {
                    text.push_str(&format!(
                        "breakpoint {}:{asked}: asked line {asked}, bound at line {bound}\n",
                        file.display()
                    ));
                    list.push(json!({ "file": file, "line": asked, "bound_line": bound }));
                }
                _ => {}
            }
        }
    }
    (list, text)
}

/// The line a breakpoint of `file` was asked for, given the line it was asked for or
/// the one it is bound at; `line` itself when none is at either.
pub(crate) async fn asked_line(
    session: &SessionHandle,
    file: &Path,
    line: i64,
) -> Result<i64, ToolError> {
    let snapshot = session.snapshot().await?;
    let records = snapshot
        .breakpoints
        .sources()
        .iter()
        .find(|(f, _)| f.as_path() == file)
        .map(|(_, records)| records.as_slice())
        .unwrap_or_default();
    if records.iter().any(|r| r.requested.line == line) {
        return Ok(line);
    }
    Ok(records
        .iter()
        .find(|r| r.actual_line() == Some(line))
        .map_or(line, |r| r.requested.line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_end_is_refused_and_the_last_is_not() {
        let dir = std::env::temp_dir().join(format!("dapvisor-bound-lines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("three.py");
        std::fs::write(&file, "a = 1\nb = 2\nc = 3\n").unwrap();
        assert!(check_within_file(&file, 3).is_ok());
        let err = check_within_file(&file, 4).unwrap_err();
        assert!(err.error.contains("past the end"), "{err:?}");
        assert!(err.hint.contains("1 to 3"), "{err:?}");
        std::fs::write(&file, "a = 1\nb = 2").unwrap();
        assert!(check_within_file(&file, 2).is_ok(), "no newline at the end");
        assert!(
            check_within_file(&dir.join("none.py"), 9).is_ok(),
            "said elsewhere"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
