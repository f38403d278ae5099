//! Secrets hidden from whatever dapvisor hands an agent: plain functions over strings
//! and JSON, with no state but the secrets already seen ([`Redactor`]).
//!
//! What an agent reads ends up in its transcript, its provider's logs and often a
//! shared chat, while the program being debugged holds keys, passwords and tokens. So
//! every tool result, resource and notification passes [`redact_result`] or
//! [`redact_json`] before it leaves (on by default; see
//! [`ToolCatalogue::with_redaction`](crate::tools::ToolCatalogue::with_redaction)).
//!
//! Two things are found:
//!
//! - credentials by their format, wherever they stand (`formats.rs`): AWS access key
//!   ids and the secret key beside one, GitHub, GitLab, Slack, Stripe and Google API
//!   tokens, JWTs, PEM private keys, passwords in URLs, bearer tokens;
//! - values whose name says secret (`names.rs`): in JSON, a variable's `value` beside
//!   its `name`, a watch's value beside its `expression`, a key's string value
//!   (`structured.rs`); in text, a value assigned to a name (`assigned.rs`), and a
//!   high-entropy value assigned to a name that only sounds secret (`entropy.rs`).
//!
//! A value hidden by its name is remembered (up to [`MAX_REMEMBERED_SECRETS`], those of
//! at least [`MIN_REMEMBERED_CHARS`]) and hidden wherever it appears later: printed by
//! the program, inside a string built from it. What is hidden is replaced by a marker
//! that says what and why, such as `«redacted: github-token, 40 chars»`; nothing of
//! the secret is kept, not even a prefix. A fact derived from a secret is not hidden:
//! `len(password)` is a number, `password == expected` a boolean.
//!
//! Every scan is linear in its input (no backtracking; the only regular expressions are
//! those a person adds, [`RedactRules::with_pattern`], compiled by the `regex` crate,
//! whose matching is linear too), and no input makes it panic (property-tested).
//!
//! This is best-effort pattern matching: a secret with no known format, under a name
//! that does not say secret, and not seen before under one, passes; so does one
//! transformed (reversed, encoded) by an expression.

mod assigned;
mod edges;
mod entropy;
mod formats;
mod markers;
mod name_patterns;
mod names;
mod passes;
mod remembered;
mod rules;
mod strict;
mod structured;
mod values;

#[cfg(test)]
mod differential;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use serde_json::{Map, Value};

pub use edges::{end_before_token, start_after_token, MAX_TOKEN_BYTES};
pub use entropy::{is_high_entropy, HIGH_ENTROPY_BITS_PER_CHAR, MIN_HIGH_ENTROPY_CHARS};
pub use name_patterns::MAX_GLOB_NAME_CHARS;
pub use names::{expression_name, is_secret_name, sounds_secret};
pub use rules::{
    RedactLevel, RedactRules, MAX_ADDED_RULES, MAX_PATTERN_PROGRAM_BYTES, MAX_RULE_BYTES,
};

/// The most secrets remembered to hide again wherever they appear: 256, the oldest
/// forgotten first. Each costs a search of every string redacted.
pub const MAX_REMEMBERED_SECRETS: usize = 256;

/// The fewest characters a secret needs to be remembered and hidden wherever it
/// appears: 4. A shorter one is hidden only where its name says secret, so that a
/// one-letter password does not hide that letter everywhere.
pub const MIN_REMEMBERED_CHARS: usize = 4;

/// A redactor: its [rules](RedactRules), and the secrets it hid by their name so far,
/// to hide again wherever they appear.
#[derive(Debug, Default, Clone)]
pub struct Redactor {
    rules: Arc<RedactRules>,
    secrets: remembered::Remembered,
}

impl Redactor {
    /// A redactor with `rules` beside the built-in ones, having seen nothing yet.
    pub fn new(rules: Arc<RedactRules>) -> Self {
        Self {
            rules,
            secrets: remembered::Remembered::default(),
        }
    }

    /// Its rules.
    pub fn rules(&self) -> &RedactRules {
        &self.rules
    }

    /// Its rules, shared, to read while the redactor itself is changed.
    pub(crate) fn rules_shared(&self) -> Arc<RedactRules> {
        Arc::clone(&self.rules)
    }

    /// Remember `secret` (if it is long enough), forgetting the oldest past
    /// [`MAX_REMEMBERED_SECRETS`].
    pub fn remember(&mut self, secret: &str) {
        self.secrets.remember(secret);
    }

    /// How many secrets are remembered.
    pub fn len(&self) -> usize {
        self.secrets.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.secrets.len() == 0
    }

    fn spans(&self, text: &str) -> Vec<Span> {
        self.secrets.spans(text)
    }
}

/// A byte range of a text to hide, and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    start: usize,
    end: usize,
    kind: &'static str,
}

impl Span {
    fn new(start: usize, end: usize, kind: &'static str) -> Self {
        Self { start, end, kind }
    }
}

/// The kind of the credential `value` is, whole, by its format; else `named-secret`.
fn kind_of(value: &str) -> &'static str {
    formats::spans(value)
        .into_iter()
        .find(|s| s.start == 0 && s.end == value.len())
        .map_or(NAMED, |s| s.kind)
}

/// What stands where a secret was: `«redacted: github-token, 40 chars»`.
pub fn marker(kind: &str, chars: usize) -> String {
    format!("«redacted: {kind}, {chars} chars»")
}

/// `text` with every secret it holds by format, by an assignment to a secret name, or
/// as a value remembered in `redactor`, hidden. Values it hides by their name are
/// remembered in `redactor`.
pub fn redact_text(text: &str, redactor: &mut Redactor) -> String {
    let mut spans = assigned::spans(text, &redactor.rules);
    for span in &spans {
        redactor.remember(&text[span.start..span.end]);
    }
    spans.extend(redactor.spans(text));
    spans.extend(formats::spans(text));
    spans.extend(redactor.rules.spans(text));
    apply(text, spans)
}

/// Hide the secrets in `value`: by name where the JSON says whose a value is, then in
/// every string (and key) as [`redact_text`] does.
pub fn redact_json(value: &mut Value, redactor: &mut Redactor) {
    structured::hide_named(value, redactor);
    scrub_strings(value, redactor);
}

/// Hide the secrets in one tool result, its structured content and its text alike.
/// `expression` is the one the call evaluated, if any: where it is only a path to a
/// secret name (`password`, `cfg.api_key`), the result's top-level `result` is hidden.
pub fn redact_result(
    structured: &mut Value,
    text: &str,
    expression: Option<&str>,
    redactor: &mut Redactor,
) -> String {
    if expression
        .and_then(expression_name)
        .is_some_and(|name| redactor.rules.is_secret_name(name))
    {
        if let Some(result) = structured.get_mut("result") {
            structured::hide_leaf(result, redactor);
        }
    }
    structured::hide_named(structured, redactor);
    // The text first: what it assigns to secret names is then hidden in the JSON too.
    let text = redact_text(text, redactor);
    scrub_strings(structured, redactor);
    text
}

fn scrub_strings(value: &mut Value, redactor: &mut Redactor) {
    match value {
        Value::String(s) => {
            let redacted = redact_text(s, redactor);
            if redacted != *s {
                *s = redacted;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| scrub_strings(v, redactor)),
        Value::Object(map) => {
            let keys_hold_secrets = map.keys().any(|k| redact_text(k, redactor) != *k);
            if keys_hold_secrets {
                let old = std::mem::take(map);
                *map = old
                    .into_iter()
                    .map(|(k, v)| (redact_text(&k, redactor), v))
                    .collect::<Map<String, Value>>();
            }
            map.values_mut().for_each(|v| scrub_strings(v, redactor));
        }
        _ => {}
    }
}

/// Of two kinds for one secret, the one that says more: a format (`github-token`)
/// over a high-entropy value under a name over a secret name.
fn telling(a: &'static str, b: &'static str) -> &'static str {
    let rank = |k: &str| match k {
        NAMED => 0,
        "assigned-secret" => 1,
        _ => 2,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// The kind of a value hidden for its name (or seen before under one).
const NAMED: &str = "named-secret";

/// `text` with `spans` (merged where they overlap, widened to whole characters)
/// replaced by markers.
fn apply(text: &str, mut spans: Vec<Span>) -> String {
    spans.retain(|s| s.start < s.end && s.end <= text.len());
    if spans.is_empty() {
        return text.to_string();
    }
    spans.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut i = 0;
    while i < spans.len() {
        let Span {
            start,
            mut end,
            mut kind,
        } = spans[i];
        i += 1;
        while i < spans.len() && spans[i].start < end {
            end = end.max(spans[i].end);
            kind = telling(kind, spans[i].kind);
            i += 1;
        }
        let mut start = start.max(at);
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let start = start.max(at);
        if start >= end {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(&marker(kind, text[start..end].chars().count()));
        at = end;
    }
    out.push_str(&text[at..]);
    out
}
