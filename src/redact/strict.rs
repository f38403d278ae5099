//! What `--redact strict` adds: every key-like token hidden wherever it stands, under
//! any name or none. A token is a run of characters between spaces, quotes, brackets
//! and separators (`,;=:<>|` and the like); it is key-like when it is
//! [high-entropy](super::is_high_entropy). A path (a token with `/` whose segments are
//! each either short, or without both cases of letters) is read, not hidden: stack
//! frames' files stay readable, while a base64 key that happens to hold a `/` is not
//! taken for one.

use super::entropy::{is_high_entropy, MIN_HIGH_ENTROPY_CHARS};
use super::Span;

/// The marker kind of a token hidden only because it looks random.
pub(super) const STRICT_KIND: &str = "high-entropy";

fn separates(c: char) -> bool {
    c.is_whitespace() || "'\"`()[]{}<>,;=:|&!?#«»".contains(c)
}

/// The spans of key-like tokens in `text`. One pass over it.
pub(super) fn spans(text: &str) -> Vec<Span> {
    let mut found = Vec::new();
    let mut start = None;
    for (at, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (start, separates(c)) {
            (None, false) => start = Some(at),
            (Some(from), true) => {
                let token = &text[from..at];
                if token.len() >= MIN_HIGH_ENTROPY_CHARS && key_like(token) {
                    found.push(Span::new(from, at, STRICT_KIND));
                }
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// Whether `token` looks like a key rather than a path or a word.
fn key_like(token: &str) -> bool {
    let token = token.trim_end_matches(['.', '/']);
    if !is_high_entropy(token) {
        return false;
    }
    !token.contains('/') || token.split('/').any(segment_key_like)
}

fn segment_key_like(segment: &str) -> bool {
    segment.len() >= MIN_HIGH_ENTROPY_CHARS
        && segment.chars().any(|c| c.is_ascii_uppercase())
        && segment.chars().any(|c| c.is_ascii_lowercase())
        && is_high_entropy(segment)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden(text: &str) -> Vec<&str> {
        spans(text).iter().map(|s| &text[s.start..s.end]).collect()
    }

    #[test]
    fn random_tokens_are_found_under_any_name() {
        let key = "9fQ2xL7pR4mZ8kT1vB6n";
        assert_eq!(hidden(&format!("color = '{key}'")), [key]);
        assert_eq!(hidden(&format!("[{key}, 3]")), [key]);
        let with_slash = "aZ3kQ9/mP2xR7tL4vN8bW1yC6";
        assert_eq!(hidden(&format!("k: {with_slash}")), [with_slash]);
    }

    #[test]
    fn words_paths_and_short_values_are_read() {
        assert!(hidden("the quick brown fox jumps over the lazy dog").is_empty());
        assert!(hidden("/usr/lib/x86_64-linux-gnu/libstdc++.so.6").is_empty());
        assert!(hidden("at /home/dev/project/src/main_loop.py:42").is_empty());
        assert!(hidden("x = 12345, y = 'abc1'").is_empty());
    }
}
