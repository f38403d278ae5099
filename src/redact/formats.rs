//! Credentials found by their format, wherever they stand: cloud and forge tokens by
//! their documented prefixes, JWTs, PEM private keys, passwords in URLs, bearer tokens,
//! and AWS secret access keys (40 characters of base64: beside an access key id, or
//! alone where a `/` or `+` tells them from identifiers).
//!
//! Every scan is a single pass over the bytes with a constant amount of work per byte
//! (no backtracking): a token's extent is scanned at most once per kind, and each
//! search for a marker (`://`, `-----BEGIN `) resumes where the last one ended.

use super::Span;

/// A credential known by the prefix it starts with.
pub(super) struct Prefixed {
    kind: &'static str,
    pub(super) prefixes: &'static [&'static str],
    /// The characters that may follow the prefix.
    body: fn(u8) -> bool,
    /// The fewest of them for a match. Lower than the real lengths, so that a value
    /// the tools cut short is still hidden.
    min_body: usize,
}

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn upper_digit(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

fn word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn word_dash(b: u8) -> bool {
    word(b) || b == b'-'
}

fn alnum_dash(b: u8) -> bool {
    alnum(b) || b == b'-'
}

/// The base64url alphabet and the dots between a JWT's parts.
fn jwt_char(b: u8) -> bool {
    word_dash(b) || b == b'.'
}

/// What may follow `Bearer `: RFC 6750's token68 characters.
fn token68(b: u8) -> bool {
    word_dash(b) || b"._~+/=".contains(&b)
}

/// The first bytes of every prefix in [`PREFIXED`]: a byte that is none of them
/// starts no token.
pub(super) const PREFIX_STARTS: &[u8] = b"Agxsre";

pub(super) const PREFIXED: &[Prefixed] = &[
    Prefixed {
        kind: "aws-access-key-id",
        prefixes: &["AKIA", "ASIA"],
        body: upper_digit,
        min_body: 10,
    },
    Prefixed {
        kind: "github-token",
        prefixes: &["ghp_", "gho_", "ghs_", "ghu_", "ghr_"],
        body: alnum,
        min_body: 16,
    },
    Prefixed {
        kind: "github-token",
        prefixes: &["github_pat_"],
        body: word,
        min_body: 16,
    },
    Prefixed {
        kind: "gitlab-token",
        prefixes: &["glpat-"],
        body: word_dash,
        min_body: 16,
    },
    Prefixed {
        kind: "slack-token",
        prefixes: &["xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"],
        body: alnum_dash,
        min_body: 10,
    },
    Prefixed {
        kind: "stripe-key",
        prefixes: &["sk_live_", "rk_live_"],
        body: alnum,
        min_body: 10,
    },
    Prefixed {
        kind: "google-api-key",
        prefixes: &["AIza"],
        body: word_dash,
        min_body: 20,
    },
    Prefixed {
        kind: "jwt",
        prefixes: &["eyJ"],
        body: jwt_char,
        min_body: 10,
    },
];

/// The length of an AWS secret access key: 40 characters of base64.
const AWS_SECRET_CHARS: usize = 40;

/// The fewest characters after `Bearer ` taken for a token.
const MIN_BEARER_CHARS: usize = 16;

/// Every credential `text` holds by its format.
pub(super) fn spans(text: &str) -> Vec<Span> {
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
    // Per kind, where its last scan ended: a later start inside that run is not
    // scanned again, so that each byte is read at most once per kind.
    let mut scanned_to = [0usize; PREFIXED.len()];
    for i in 0..bytes.len() {
        if !PREFIX_STARTS.contains(&bytes[i]) || (i > 0 && bytes[i - 1].is_ascii_alphanumeric()) {
            continue; // no prefix starts so, or inside a word: not where a token starts
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
            // Cut short by a bound (`…`, or the end of a read of output): whatever
            // follows the prefix is part of the secret.
            let cut = end == bytes.len() || text[end..].starts_with(['…', '[']);
            let long_enough = end - body >= kind.min_body || (cut && end > body);
            if long_enough && (jwt_ok || cut) {
                found.push(Span::new(i, end, kind.kind));
            }
        }
    }
    found
}

/// A JWT, or the start of one cut short: a header of at least [`MIN_JWT_HEADER`]
/// characters, a dot, and more.
fn is_jwt(run: &[u8]) -> bool {
    run.iter()
        .position(|&b| b == b'.')
        .is_some_and(|dot| dot >= MIN_JWT_HEADER && dot + 1 < run.len())
}

/// The shortest JWT header: `eyJhbGciOiJ...`, the encoded `{"alg":`, is 10 characters.
const MIN_JWT_HEADER: usize = 10;

/// Runs of exactly [`AWS_SECRET_CHARS`] base64 characters with letters of both cases
/// and a digit: an AWS secret key where the text also holds an access key id, or where
/// the run has a `/` or `+` (as most do), which no identifier or hex digest has.
fn aws_secrets(text: &str, beside_a_key_id: bool) -> Vec<Span> {
    let b64 = |b: u8| b.is_ascii_alphanumeric() || b == b'/' || b == b'+';
    runs(text.as_bytes(), b64)
        .filter(|&(s, e)| e - s == AWS_SECRET_CHARS)
        .filter(|&(s, e)| {
            let run = &text.as_bytes()[s..e];
            run.iter().any(u8::is_ascii_lowercase)
                && run.iter().any(u8::is_ascii_uppercase)
                && run.iter().any(u8::is_ascii_digit)
                && (beside_a_key_id || run.iter().any(|&b| b == b'/' || b == b'+'))
        })
        .map(|(s, e)| Span::new(s, e, "aws-secret-access-key"))
        .collect()
}

/// The maximal runs of bytes that `member` accepts, as `(start, end)`.
fn runs(bytes: &[u8], member: fn(u8) -> bool) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && !member(bytes[i]) {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && member(bytes[i]) {
            i += 1;
        }
        Some((start, i))
    })
}

/// PEM blocks of private keys, from `-----BEGIN ... PRIVATE KEY-----` to their END
/// line, or to the end of the text where the END is missing (cut off).
fn private_keys(text: &str) -> Vec<Span> {
    const BEGIN: &str = "-----BEGIN ";
    const END: &str = "-----END ";
    const DASHES: &str = "-----";
    /// A PEM label is short: `ENCRYPTED PRIVATE KEY`, `OPENSSH PRIVATE KEY`.
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

/// The password in `scheme://user:password@host`.
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

/// The token after `Bearer ` (an HTTP Authorization header, as printed or logged).
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
