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

pub(super) fn separates(c: char) -> bool {
    c.is_whitespace() || "'\"`()[]{}<>,;=:|&!?#«»".contains(c)
}

/// [`separates`] for each ASCII byte, so that the scan reads a byte and a table rather
/// than decoding a character and searching a list for it.
const ASCII_SEPARATES: [bool; 128] = {
    let mut table = [false; 128];
    let listed = b"'\"`()[]{}<>,;=:|&!?#";
    let mut i = 0;
    while i < listed.len() {
        table[listed[i] as usize] = true;
        i += 1;
    }
    // What `char::is_whitespace` says of ASCII: tab, line feed, vertical tab, form
    // feed, carriage return and space.
    let spaces = b"\t\n\x0B\x0C\r ";
    let mut i = 0;
    while i < spaces.len() {
        table[spaces[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether the character at byte `at` of `text` (a character boundary, not ASCII)
/// separates tokens, and its width in bytes.
fn non_ascii_separator(text: &str, at: usize) -> (bool, usize) {
    text[at..]
        .chars()
        .next()
        .map_or((true, 1), |c| (separates(c), c.len_utf8()))
}

/// The spans of key-like tokens in `text`. One pass over it, a table lookup per ASCII
/// byte.
pub(super) fn spans(text: &str) -> Vec<Span> {
    super::passes::one();
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut take = |from: usize, to: usize| {
        if to - from >= MIN_HIGH_ENTROPY_CHARS && key_like(&text[from..to]) {
            found.push(Span::new(from, to, STRICT_KIND));
        }
    };
    // Where the token being read started.
    let mut from = 0;
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        let (splits, width) = if b.is_ascii() {
            (ASCII_SEPARATES[b as usize], 1)
        } else {
            non_ascii_separator(text, at)
        };
        if splits {
            take(from, at);
            from = at + width;
        }
        at += width;
    }
    take(from, bytes.len());
    found
}

/// Whether `token` looks like a key rather than a path or a word.
pub(super) fn key_like(token: &str) -> bool {
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
    fn the_ascii_table_agrees_with_separates() {
        for b in 0u8..128 {
            assert_eq!(ASCII_SEPARATES[b as usize], separates(b as char), "{b}");
        }
    }

    #[test]
    fn words_paths_and_short_values_are_read() {
        assert!(hidden("the quick brown fox jumps over the lazy dog").is_empty());
        assert!(hidden("/usr/lib/x86_64-linux-gnu/libstdc++.so.6").is_empty());
        assert!(hidden("at /home/dev/project/src/main_loop.py:42").is_empty());
        assert!(hidden("x = 12345, y = 'abc1'").is_empty());
    }
}
