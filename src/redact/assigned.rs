//! Values assigned to a secret name in text: `password = 'hunter2'`,
//! `"api_key": "..."`, `DB_PASSWORD=...`, `'token': '...'` inside a dict's summary.
//!
//! At each `=` or `:` that assigns (not `==`, `!=`, `<=`, `>=`, `=>`, `::` or `://`),
//! the name before it is read backwards and the value after it forwards: a quoted
//! value to its closing quote (or the end of the line), an unquoted one to the next
//! space or delimiter. A value whose name [is secret](super::names::is_secret_name) is
//! hidden unless [plain](super::values::is_plain); one whose name only
//! [sounds secret](super::names::sounds_secret) is hidden when it is
//! [high-entropy](super::entropy::is_high_entropy). An unquoted value followed by `(`
//! or `[` is code (`password = read_password()`, in a source listing), not a value.
//!
//! Linear: names are read back only over name characters (which no separator is),
//! and values are read only under a secret-sounding name, after which the scan resumes
//! past the value.

use super::entropy::is_high_entropy;
use super::names::{is_secret_name, mentions_secret, sounds_secret};
use super::rules::RedactRules;
use super::values::is_plain;
use super::Span;

fn name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_-.$@".contains(&b)
}

/// The spans of secret values assigned to names in `text`, of kind `named-secret` or
/// `assigned-secret`.
pub(super) fn spans(text: &str, rules: &RedactRules) -> Vec<Span> {
    super::passes::one();
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    // Only `=` and `:` can assign: jump from one to the next.
    while let Some(at) = memchr::memchr2(b'=', b':', &bytes[i..]) {
        i += at;
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|p| bytes[p]);
        let assigns = match b {
            b'=' => {
                !matches!(next, Some(b'=' | b'>'))
                    && !matches!(prev, Some(b'=' | b'!' | b'<' | b'>'))
            }
            _ => !matches!(next, Some(b':' | b'/' | b'=')) && prev != Some(b':'),
        };
        if !assigns {
            i += 1;
            continue;
        }
        let name = name_before(bytes, i);
        let name = &text[name.0..name.1];
        // Most names mention no secret at all: test that once, not in each rule.
        let mentions = mentions_secret(name);
        let strict = (mentions && is_secret_name(name)) || rules.is_added_name(name);
        if name.is_empty() || !(strict || (mentions && sounds_secret(name))) {
            i += 1;
            continue;
        }
        let Some((start, end, resume)) = value_after(bytes, i + 1) else {
            i += 1;
            continue;
        };
        let value = &text[start..end];
        if strict && !is_plain(value) {
            found.push(Span::new(start, end, super::NAMED));
        } else if !strict && is_high_entropy(value) {
            found.push(Span::new(start, end, "assigned-secret"));
        }
        i = resume.max(i + 1);
        if i >= bytes.len() {
            break;
        }
    }
    found
}

/// The name that ends just before the separator at `sep`: spaces, then one closing
/// quote or bracket, then name characters, read backwards.
pub(super) fn name_before(bytes: &[u8], sep: usize) -> (usize, usize) {
    let mut end = sep;
    while end > 0 && bytes[end - 1] == b' ' {
        end -= 1;
    }
    if end > 0 && bytes[end - 1] == b']' {
        end -= 1;
    }
    if end > 0 && b"'\"`".contains(&bytes[end - 1]) {
        end -= 1;
    }
    let mut start = end;
    while start > 0 && name_char(bytes[start - 1]) {
        start -= 1;
    }
    (start, end)
}

/// The value after a separator (its byte range without quotes) and where the scan
/// resumes; `None` for code (`f(...)`, `x[...]`) or nothing.
pub(super) fn value_after(bytes: &[u8], from: usize) -> Option<(usize, usize, usize)> {
    let mut i = from;
    while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
        i += 1;
    }
    // A string prefix: b'...', r"...", f'...'.
    let quote_at = if i + 1 < bytes.len()
        && b"bBrRuUfF".contains(&bytes[i])
        && b"'\"`".contains(&bytes[i + 1])
    {
        i + 1
    } else {
        i
    };
    let quote = *bytes.get(quote_at)?;
    if b"'\"`".contains(&quote) {
        let start = quote_at + 1;
        let mut j = start;
        while j < bytes.len() && bytes[j] != quote && bytes[j] != b'\n' {
            j += if bytes[j] == b'\\' && j + 1 < bytes.len() && bytes[j + 1] != b'\n' {
                2
            } else {
                1
            };
        }
        let end = j.min(bytes.len());
        return Some((start, end, end + 1));
    }
    let stop = |b: u8| b.is_ascii_whitespace() || b",;)}]&|<>\"'([".contains(&b) || b >= 0x80;
    let end = i + bytes[i..]
        .iter()
        .position(|&b| stop(b))
        .unwrap_or(bytes.len() - i);
    if end == i || matches!(bytes.get(end), Some(b'(' | b'[')) {
        return None;
    }
    Some((i, end, end))
}
