//! Breakpoints by what a line holds rather than its number, which goes stale as soon as
//! the file is edited: `statement` binds to the line containing that text (ignoring
//! surrounding whitespace and a trailing comment), and `expected_text` on a line
//! breakpoint fails fast, showing the real lines around it, when the line does not hold
//! it.

use std::path::Path;

use crate::tools::catalogue::spec::ToolError;

/// Largest source file read to find a statement: 8 MiB.
pub const MAX_STATEMENT_SOURCE_BYTES: u64 = 8 * 1024 * 1024;

/// Lines listed when a statement is on several: at most 10.
const MAX_LISTED: usize = 10;

/// Lines shown on each side of a line that does not hold its `expected_text`: 3.
const CONTEXT: usize = 3;

/// How a breakpoint names its line: by number (with the text it should hold), or by the
/// statement on it (with the line to prefer when several hold it).
#[derive(Debug, Default)]
pub(crate) struct LineChoice<'a> {
    pub line: Option<i64>,
    pub statement: Option<&'a str>,
    pub near_line: Option<i64>,
    pub expected_text: Option<&'a str>,
}

impl LineChoice<'_> {
    /// Whether it names a line at all.
    pub fn is_given(&self) -> bool {
        self.line.is_some() || self.statement.is_some()
    }

    /// The 1-based line of `file` it names.
    pub fn resolve(&self, file: &Path) -> Result<i64, ToolError> {
        match (self.line, self.statement) {
            (Some(_), Some(_)) => Err(ToolError::invalid(
                "give `line` or `statement`, not both",
                "`statement` finds the line by its text; `expected_text` checks a `line`",
            )),
            (Some(line), None) => {
                let line = crate::tools::start::session::check_line(line)?;
                if let Some(expected) = self.expected_text {
                    check_expected_text(&read(file)?, file, line, expected)?;
                }
                Ok(line)
            }
            (None, Some(statement)) => {
                line_of_statement(&read(file)?, file, statement, self.near_line)
            }
            (None, None) => Err(ToolError::invalid(
                "the breakpoint names no line",
                "pass `line`, or `statement` with the text of the line",
            )),
        }
    }
}

fn read(file: &Path) -> Result<String, ToolError> {
    if let Some(refused) = super::remote_file::unreadable(file, "a `statement` or `expected_text`")
    {
        return Err(refused);
    }
    let size = std::fs::metadata(file)
        .map_err(|e| {
            ToolError::invalid(
                format!("cannot read {}: {e}", file.display()),
                "check the path",
            )
        })?
        .len();
    if size > MAX_STATEMENT_SOURCE_BYTES {
        return Err(ToolError::invalid(
            format!("{} is {size} bytes, more than the {MAX_STATEMENT_SOURCE_BYTES} read to find a statement", file.display()),
            "give the breakpoint's `line` instead",
        ));
    }
    let bytes = std::fs::read(file).map_err(|e| {
        ToolError::invalid(
            format!("cannot read {}: {e}", file.display()),
            "check the path",
        )
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The line of `source` holding `statement`; `near_line` picks among several.
fn line_of_statement(
    source: &str,
    file: &Path,
    statement: &str,
    near_line: Option<i64>,
) -> Result<i64, ToolError> {
    let wanted = normalize(statement);
    if wanted.is_empty() {
        return Err(ToolError::invalid(
            "`statement` is empty",
            "pass the text of the line",
        ));
    }
    let found: Vec<i64> = source
        .lines()
        .enumerate()
        .filter(|(_, text)| normalize(code_of(text)).contains(&wanted))
        .map(|(i, _)| i as i64 + 1)
        .collect();
    match (found.as_slice(), near_line) {
        ([], _) => Err(ToolError::invalid(
            format!("no line of {} holds `{statement}`", file.display()),
            "check the text against the file (a statement must sit on one line)",
        )),
        ([only], _) => Ok(*only),
        (several, Some(near)) => Ok(*several
            .iter()
            .min_by_key(|line| (**line - near).abs())
            .expect("several")),
        (several, None) => {
            let lines: Vec<String> = several
                .iter()
                .take(MAX_LISTED)
                .map(|line| {
                    let text = source.lines().nth(*line as usize - 1).unwrap_or("").trim();
                    format!("{line}: {text}")
                })
                .collect();
            Err(ToolError::invalid(
                format!(
                    "`{statement}` is on {} lines of {}: {}",
                    several.len(),
                    file.display(),
                    lines.join("; ")
                ),
                format!(
                    "pass `near_line` with the one you mean (such as near_line: {})",
                    several[0]
                ),
            ))
        }
    }
}

/// Fail unless line `line` of `source` holds `expected`, showing the lines around it.
fn check_expected_text(
    source: &str,
    file: &Path,
    line: i64,
    expected: &str,
) -> Result<(), ToolError> {
    let lines: Vec<&str> = source.lines().collect();
    let index = line as usize - 1;
    if index >= lines.len() {
        return Err(ToolError::invalid(
            format!(
                "line {line} is past the end of {} ({} lines)",
                file.display(),
                lines.len()
            ),
            "the file may have changed: read it again, or name the line by `statement`",
        ));
    }
    let holds = lines
        .get(index)
        .is_some_and(|text| normalize(text).contains(&normalize(expected)));
    if holds {
        return Ok(());
    }
    let from = index.saturating_sub(CONTEXT);
    let to = (index + CONTEXT + 1).min(lines.len());
    let around: Vec<String> = (from..to)
        .map(|i| format!("{}: {}", i + 1, lines[i].trim_end()))
        .collect();
    let elsewhere = line_of_statement(source, file, expected, Some(line)).ok();
    let hint = match elsewhere {
        Some(at) => format!(
            "`{expected}` is on line {at} now: use that line, or `statement` instead of `line`"
        ),
        None => "the file may have changed: read it again, or name the line by `statement`".into(),
    };
    Err(ToolError::invalid(
        format!(
            "line {line} of {} does not hold `{expected}`; lines {}-{}: {}",
            file.display(),
            from + 1,
            to,
            around.join(" | ")
        ),
        hint,
    ))
}

/// A line's code: without a trailing `#` or `//` comment (outside quotes).
fn code_of(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' || b == b'`' => quote = Some(b),
            None if b == b'#' => return &line[..i],
            None if b == b'/' && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            None => {}
        }
        i += 1;
    }
    line
}

/// Whitespace runs as one space, trimmed.
fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "def total(items):\n    total = 0\n    for name, cents in items:\n        total  +=  cents  # add it\n    return total\n\nprint(total([('a', 1)]))  # total += 1\n";

    fn at(statement: &str, near: Option<i64>) -> Result<i64, ToolError> {
        line_of_statement(SOURCE, Path::new("cart.py"), statement, near)
    }

    #[test]
    fn a_statement_binds_to_its_line_whatever_the_spacing_and_comment() {
        assert_eq!(at("total += cents", None).unwrap(), 4);
        // The comment on line 7 does not count.
        assert_eq!(at("total +=", None).unwrap(), 4);
        assert_eq!(at("  return total ", None).unwrap(), 5);
    }

    #[test]
    fn several_lines_are_listed_and_near_line_picks_one() {
        let err = at("total", None).unwrap_err();
        assert!(err.error.contains("is on 5 lines"), "{}", err.error);
        assert!(err.error.contains("2: total = 0"), "{}", err.error);
        assert!(err.hint.contains("near_line"), "{}", err.hint);
        assert_eq!(at("total", Some(6)).unwrap(), 5);
        let none = at("subtotal", None).unwrap_err();
        assert!(none.error.contains("no line of cart.py holds `subtotal`"));
    }

    #[test]
    fn expected_text_fails_with_the_real_lines_and_where_the_text_went() {
        let file = Path::new("cart.py");
        check_expected_text(SOURCE, file, 4, "total += cents").unwrap();
        let err = check_expected_text(SOURCE, file, 3, "return total").unwrap_err();
        assert!(
            err.error
                .contains("line 3 of cart.py does not hold `return total`"),
            "{}",
            err.error
        );
        assert!(err.error.contains("5:     return total"), "{}", err.error);
        assert!(err.hint.contains("on line 5 now"), "{}", err.hint);
        let gone = check_expected_text(SOURCE, file, 99, "x").unwrap_err();
        assert!(
            gone.error.contains("past the end of cart.py (7 lines)"),
            "{}",
            gone.error
        );
    }

    #[test]
    fn comments_are_cut_outside_quotes_only() {
        assert_eq!(code_of("x = 1  # one"), "x = 1  ");
        assert_eq!(code_of("s = '#not' # yes"), "s = '#not' ");
        assert_eq!(
            code_of("let u = \"http://x\"; // c"),
            "let u = \"http://x\"; "
        );
    }
}
