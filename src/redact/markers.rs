//! Where a credential known by its format may start: every token prefix of
//! [`PREFIXED`], `-----BEGIN ` (a PEM block), `://` (a URL) and `Bearer ` (in three
//! cases), found together in one pass over a text by an Aho-Corasick automaton.
//!
//! Most text holds none of them, and the automaton's literal prefilter (SIMD, the one
//! the `regex` crate uses) skips such text many bytes at a time; the scans in
//! `formats.rs` then start only where a marker stands, rather than each looking at
//! every byte (or searching the whole text for its own marker).

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, Input, MatchKind};

use super::formats::PREFIXED;

/// The marker of a PEM block (a private key when its label says so).
pub(super) const PEM_BEGIN: &str = "-----BEGIN ";

/// What introduces a URL's authority, which may hold `user:password@`.
const URL_MARK: &str = "://";

/// The words before a bearer token, each searched for on its own.
pub(super) const BEARER_WORDS: [&str; 3] = ["Bearer ", "bearer ", "BEARER "];

/// What a marker found starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marker {
    /// A prefix of `PREFIXED[k]`.
    Prefix(usize),
    /// `-----BEGIN `.
    PemBegin,
    /// `://`.
    Url,
    /// `BEARER_WORDS[w]`.
    Bearer(usize),
}

/// The automaton over every marker, and what each of its patterns starts.
struct Markers {
    automaton: AhoCorasick,
    of: Vec<Marker>,
    #[cfg_attr(not(test), allow(dead_code))]
    patterns: Vec<&'static str>,
}

static MARKERS: LazyLock<Markers> = LazyLock::new(|| {
    let mut patterns = Vec::new();
    let mut of = Vec::new();
    for (k, kind) in PREFIXED.iter().enumerate() {
        for prefix in kind.prefixes {
            patterns.push(*prefix);
            of.push(Marker::Prefix(k));
        }
    }
    patterns.push(PEM_BEGIN);
    of.push(Marker::PemBegin);
    patterns.push(URL_MARK);
    of.push(Marker::Url);
    for (w, word) in BEARER_WORDS.iter().enumerate() {
        patterns.push(*word);
        of.push(Marker::Bearer(w));
    }
    // Leftmost-first, for its literal prefilter (which finds none under the standard
    // semantics that report overlapping matches): `find` searches again from one byte
    // past each marker's start, and since no marker starts another (tested), that
    // finds every one, overlapping ones too, re-reading at most a marker's length.
    let automaton = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostFirst)
        .build(&patterns)
        .expect("a few dozen short literals always build");
    Markers {
        automaton,
        of,
        patterns,
    }
});

/// Every marker in `text`, overlapping ones too, in order of where they start: what
/// it starts, where it starts and where it ends.
pub(super) fn find(text: &str) -> impl Iterator<Item = (Marker, usize, usize)> + '_ {
    super::passes::one();
    let markers = &*MARKERS;
    let mut from = 0;
    std::iter::from_fn(move || {
        let m = markers.automaton.find(Input::new(text).range(from..))?;
        from = m.start() + 1;
        Some((markers.of[m.pattern().as_usize()], m.start(), m.end()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_marker_starts_another() {
        let patterns = &MARKERS.patterns;
        for (i, a) in patterns.iter().enumerate() {
            for (j, b) in patterns.iter().enumerate() {
                assert!(i == j || !b.starts_with(a), "{a:?} starts {b:?}");
            }
        }
    }

    #[test]
    fn overlapping_markers_are_all_found() {
        // `xoxb-` and `-----BEGIN ` share a dash.
        let text = "xoxb-----BEGIN ://ghp_Bearer ";
        let found: Vec<_> = find(text).map(|(m, at, _)| (m, at)).collect();
        assert_eq!(
            found,
            [
                (Marker::Prefix(4), 0),
                (Marker::PemBegin, 4),
                (Marker::Url, 15),
                (Marker::Prefix(1), 18),
                (Marker::Bearer(0), 22),
            ]
        );
    }
}
