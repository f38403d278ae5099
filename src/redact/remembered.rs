//! [`Remembered`]: the secrets a redactor hid by their name, to hide again wherever
//! they appear, and the one automaton that finds them all in a single pass.
//!
//! A search per secret would read a text once for each of up to
//! [`MAX_REMEMBERED_SECRETS`] of them; Aho-Corasick automata over all of them read it
//! once (twice where a secret is in it), and are built again only after a secret is
//! added, which is rare next to how often text is redacted.

use std::collections::VecDeque;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, Input, MatchKind};

use super::{Span, MAX_REMEMBERED_SECRETS, MIN_REMEMBERED_CHARS, NAMED};

/// The remembered secrets, oldest first, and the automata over them (built when first
/// needed after a change).
#[derive(Debug, Default, Clone)]
pub(super) struct Remembered {
    secrets: VecDeque<String>,
    finder: OnceLock<Option<Finder>>,
}

/// Two automata over the same secrets: `first` finds where the first one stands, with a
/// literal prefilter that skips text holding none many bytes at a time (only
/// leftmost-first searches have one); `all` then reports every occurrence from there,
/// overlapping ones too.
#[derive(Debug, Clone)]
struct Finder {
    first: AhoCorasick,
    all: AhoCorasick,
}

impl Remembered {
    /// Remember `secret` (if it is long enough), forgetting the oldest past
    /// [`MAX_REMEMBERED_SECRETS`].
    pub(super) fn remember(&mut self, secret: &str) {
        if secret.chars().count() < MIN_REMEMBERED_CHARS || self.secrets.iter().any(|s| s == secret)
        {
            return;
        }
        if self.secrets.len() >= MAX_REMEMBERED_SECRETS {
            self.secrets.pop_front();
        }
        self.secrets.push_back(secret.to_string());
        self.finder = OnceLock::new();
    }

    pub(super) fn len(&self) -> usize {
        self.secrets.len()
    }

    /// Where the remembered secrets stand in `text`: of each secret, its occurrences
    /// that do not overlap one another, leftmost first (as `str::match_indices` finds
    /// them), while occurrences of different secrets may overlap.
    pub(super) fn spans(&self, text: &str) -> Vec<Span> {
        if self.secrets.is_empty() {
            return Vec::new();
        }
        let Some(finder) = self.finder.get_or_init(|| self.build()) else {
            return self.spans_one_by_one(text);
        };
        super::passes::one();
        let Some(first) = finder.first.find(text) else {
            return Vec::new();
        };
        super::passes::one();
        let mut found = Vec::new();
        // Per secret, where its last occurrence taken ended.
        let mut free_from = vec![0usize; self.secrets.len()];
        // Occurrences of one secret all have its length, so they come in order of
        // where they start.
        for m in finder
            .all
            .find_overlapping_iter(Input::new(text).range(first.start()..))
        {
            let next = &mut free_from[m.pattern().as_usize()];
            if m.start() >= *next {
                *next = m.end();
                found.push(Span::new(m.start(), m.end(), NAMED));
            }
        }
        found
    }

    /// The automata over the secrets; `None` if they cannot be built (too large for
    /// their state ids), when each is searched for on its own.
    fn build(&self) -> Option<Finder> {
        let with = |kind| {
            AhoCorasick::builder()
                .match_kind(kind)
                .build(&self.secrets)
                .ok()
        };
        Some(Finder {
            first: with(MatchKind::LeftmostFirst)?,
            all: with(MatchKind::Standard)?,
        })
    }

    /// The same spans as [`Remembered::spans`], a search per secret.
    pub(super) fn spans_one_by_one(&self, text: &str) -> Vec<Span> {
        let mut found = Vec::new();
        for secret in &self.secrets {
            super::passes::one();
            for (at, _) in text.match_indices(secret.as_str()) {
                found.push(Span::new(at, at + secret.len(), NAMED));
            }
        }
        found
    }
}
