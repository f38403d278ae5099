//! The redactor as it was before it was made fast (2026-11-28): each format, each
//! remembered secret and each rule its own scan of every byte. Kept for the tests only,
//! as the reference the fast scans must agree with exactly (`differential.rs`), so that
//! nothing the slow one found goes unfound.

use super::assigned::{name_before, value_after};
use super::entropy::is_high_entropy;
use super::formats::{
    is_jwt, token68, AWS_SECRET_CHARS, MIN_BEARER_CHARS, PREFIXED, PREFIX_STARTS,
};
use super::name_patterns::NamePattern;
use super::names::{last_segment, name_words, STEMS};
use super::rules::{RedactLevel, RedactRules, PATTERN_KIND};
use super::strict::{key_like, separates, STRICT_KIND};
use super::values::is_plain;
use super::{apply, Redactor, Span, NAMED};

/// `redact_text` by the reference scans.
pub(super) fn redact_text(text: &str, redactor: &mut Redactor) -> String {
    let rules = redactor.rules_shared();
    let mut spans = assigned(text, &rules);
    for span in &spans {
        redactor.remember(&text[span.start..span.end]);
    }
    spans.extend(redactor.secrets.spans_one_by_one(text));
    spans.extend(formats(text));
    for pattern in rules.patterns() {
        spans.extend(
            pattern
                .find_iter(text)
                .filter(|m| !m.is_empty())
                .map(|m| Span::new(m.start(), m.end(), PATTERN_KIND)),
        );
    }
    if rules.level() == RedactLevel::Strict {
        spans.extend(strict(text));
    }
    apply(text, spans)
}

/// Whether `name` contains a stem, each stem searched for at every place.
pub(super) fn mentions_secret(name: &str) -> bool {
    let bytes = name.as_bytes();
    STEMS.iter().any(|stem| {
        bytes
            .windows(stem.len())
            .any(|w| w.eq_ignore_ascii_case(stem.as_bytes()))
    })
}

/// Whether an added name matches, splitting and lowercasing every name.
pub(super) fn name_matches(pattern: &NamePattern, name: &str) -> bool {
    match pattern {
        NamePattern::Words(words) => name_words(name).ends_with(words),
        NamePattern::Glob { glob, .. } => {
            let segment = last_segment(name);
            segment.chars().count() <= super::MAX_GLOB_NAME_CHARS
                && crate::call_glob(glob, &segment.to_lowercase())
        }
    }
}

/// The built-in names by the fast test of stems, which `differential.rs` checks
/// against [`mentions_secret`] on its own.
fn is_secret_name(name: &str, rules: &RedactRules) -> bool {
    super::is_secret_name(name) || rules.names().iter().any(|p| name_matches(p, name))
}

/// Values assigned to secret names, looking at every byte.
pub(super) fn assigned(text: &str, rules: &RedactRules) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|p| bytes[p]);
        let assigns = match b {
            b'=' => {
                !matches!(next, Some(b'=' | b'>'))
                    && !matches!(prev, Some(b'=' | b'!' | b'<' | b'>'))
            }
            b':' => !matches!(next, Some(b':' | b'/' | b'=')) && prev != Some(b':'),
            _ => false,
        };
        if !assigns {
            i += 1;
            continue;
        }
        let name = name_before(bytes, i);
        let name = &text[name.0..name.1];
        let strict = is_secret_name(name, rules);
        if name.is_empty() || !(strict || super::sounds_secret(name)) {
            i += 1;
            continue;
        }
        let Some((start, end, resume)) = value_after(bytes, i + 1) else {
            i += 1;
            continue;
        };
        let value = &text[start..end];
        if strict && !is_plain(value) {
            found.push(Span::new(start, end, NAMED));
        } else if !strict && is_high_entropy(value) {
            found.push(Span::new(start, end, "assigned-secret"));
        }
        i = resume.max(i + 1);
    }
    found
}

/// Key-like tokens, decoding every character.
pub(super) fn strict(text: &str) -> Vec<Span> {
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
                if token.len() >= super::MIN_HIGH_ENTROPY_CHARS && key_like(token) {
                    found.push(Span::new(from, at, STRICT_KIND));
                }
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// Credentials by format, each kind a scan of its own.
pub(super) fn formats(text: &str) -> Vec<Span> {
    let mut found = prefixed(text);
    let beside_a_key_id = found.iter().any(|s| s.kind == "aws-access-key-id");
    found.extend(aws_secrets(text, beside_a_key_id));
    found.extend(private_keys(text));
    found.extend(url_passwords(text));
    found.extend(bearer_tokens(text));
    found
}

fn prefixed(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut scanned_to = [0usize; PREFIXED.len()];
    for i in 0..bytes.len() {
        if !PREFIX_STARTS.contains(&bytes[i]) || (i > 0 && bytes[i - 1].is_ascii_alphanumeric()) {
            continue;
        }
        for (k, kind) in PREFIXED.iter().enumerate() {
            if i < scanned_to[k] {
                continue;
            }
            let Some(prefix) = kind
                .prefixes
                .iter()
                .find(|p| bytes[i..].starts_with(p.as_bytes()))
            else {
                continue;
            };
            let body = i + prefix.len();
            let end = body
                + bytes[body..]
                    .iter()
                    .position(|&b| !(kind.body)(b))
                    .unwrap_or(bytes.len() - body);
            scanned_to[k] = end;
            let jwt_ok = kind.kind != "jwt" || is_jwt(&bytes[i..end]);
            let cut = end == bytes.len() || text[end..].starts_with(['…', '[']);
            let long_enough = end - body >= kind.min_body || (cut && end > body);
            if long_enough && (jwt_ok || cut) {
                found.push(Span::new(i, end, kind.kind));
            }
        }
    }
    found
}

fn aws_secrets(text: &str, beside_a_key_id: bool) -> Vec<Span> {
    let b64 = |b: u8| b.is_ascii_alphanumeric() || b == b'/' || b == b'+';
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !b64(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && b64(bytes[i]) {
            i += 1;
        }
        let run = &bytes[start..i];
        if run.len() == AWS_SECRET_CHARS
            && run.iter().any(u8::is_ascii_lowercase)
            && run.iter().any(u8::is_ascii_uppercase)
            && run.iter().any(u8::is_ascii_digit)
            && (beside_a_key_id || run.iter().any(|&b| b == b'/' || b == b'+'))
        {
            found.push(Span::new(start, i, "aws-secret-access-key"));
        }
    }
    found
}

fn private_keys(text: &str) -> Vec<Span> {
    const BEGIN: &str = "-----BEGIN ";
    const END: &str = "-----END ";
    const DASHES: &str = "-----";
    const MAX_LABEL: usize = 64;
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(BEGIN).map(|p| from + p) {
        let label_start = at + BEGIN.len();
        let window = &text.as_bytes()[label_start..(label_start + MAX_LABEL).min(text.len())];
        let label_end = window
            .windows(DASHES.len())
            .position(|w| w == DASHES.as_bytes())
            .map(|p| label_start + p);
        let is_private =
            label_end.is_some_and(|e| text.as_bytes()[label_start..e].ends_with(b"PRIVATE KEY"));
        if !is_private {
            from = label_start;
            continue;
        }
        let body = label_end.unwrap_or(label_start) + DASHES.len();
        let end = match text[body..].find(END).map(|p| body + p + END.len()) {
            Some(end_label) => text[end_label..]
                .find(DASHES)
                .map_or(text.len(), |p| end_label + p + DASHES.len()),
            None => text.len(),
        };
        found.push(Span::new(at, end, "private-key"));
        from = end;
    }
    found
}

fn url_passwords(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("://").map(|p| from + p) {
        let start = at + 3;
        let stop = |b: u8| b"/?#@\"'<>\\` \t\r\n".contains(&b) || b >= 0x80;
        let end = start
            + bytes[start..]
                .iter()
                .position(|&b| stop(b))
                .unwrap_or(bytes.len() - start);
        if bytes.get(end) == Some(&b'@') {
            if let Some(colon) = bytes[start..end].iter().position(|&b| b == b':') {
                let password = start + colon + 1;
                if password < end {
                    found.push(Span::new(password, end, "url-password"));
                }
            }
        }
        from = end.max(start);
    }
    found
}

fn bearer_tokens(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for word in ["Bearer ", "bearer ", "BEARER "] {
        let mut from = 0;
        while let Some(at) = text[from..].find(word).map(|p| from + p) {
            let start = at + word.len();
            let end = start
                + bytes[start..]
                    .iter()
                    .position(|&b| !token68(b))
                    .unwrap_or(bytes.len() - start);
            if end - start >= MIN_BEARER_CHARS {
                found.push(Span::new(start, end, "bearer-token"));
            }
            from = end;
        }
    }
    found
}
