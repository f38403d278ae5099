//! Credentials found by their format, wherever they stand: cloud and forge tokens by
//! their documented prefixes, JWTs, PEM private keys, passwords in URLs, bearer tokens,
//! and AWS secret access keys (40 characters of base64: beside an access key id, or
//! alone where a `/` or `+` tells them from identifiers).
//!
//! Where a credential may start (a prefix, `://`, `-----BEGIN `, `Bearer `) is found in
//! one pass over the text for all of them ([`markers`]); each kind's scan then reads
//! on from there with a constant amount of work per byte (no backtracking), and a
//! token's extent is scanned at most once per kind: a marker inside what a scan of
//! its kind already read is passed over. AWS secret keys, which have no marker, are
//! one more pass.

use super::markers::{self, Marker, BEARER_WORDS};
use super::Span;

/// A credential known by the prefix it starts with.
pub(super) struct Prefixed {
    pub(super) kind: &'static str,
    pub(super) prefixes: &'static [&'static str],
    /// The characters that may follow the prefix.
    pub(super) body: fn(u8) -> bool,
    /// The fewest of them for a match. Lower than the real lengths, so that a value
    /// the tools cut short is still hidden.
    pub(super) min_body: usize,
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
pub(super) fn token68(b: u8) -> bool {
    word_dash(b) || b"._~+/=".contains(&b)
}

/// The first bytes of every prefix in [`PREFIXED`]: a byte that is none of them
/// starts no token. The scan once looked at these bytes one by one; the tests' reference
/// scan still does.
#[cfg(test)]
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
pub(super) const AWS_SECRET_CHARS: usize = 40;

/// The fewest characters after `Bearer ` taken for a token.
pub(super) const MIN_BEARER_CHARS: usize = 16;

/// Every credential `text` holds by its format. One pass of [`markers`] finds where a
/// credential may start; each scan then reads on from there, resuming past what it
/// read. The spans come in the order the scans once ran one after another (prefixed
/// tokens, AWS secret keys, private keys, URL passwords, bearer tokens), which decides
/// the kind named when two of them hide the same bytes.
pub(super) fn spans(text: &str) -> Vec<Span> {
    let mut prefixed = Vec::new();
    let mut keys = Vec::new();
    let mut urls = Vec::new();
    let mut bearers: [Vec<Span>; BEARER_WORDS.len()] = Default::default();
    // Per scan, where it ended: a marker before that was read already.
    let mut prefix_to = [0usize; PREFIXED.len()];
    let mut key_from = 0;
    let mut url_from = 0;
    let mut bearer_from = [0usize; BEARER_WORDS.len()];
    for (marker, at, after) in markers::find(text) {
        match marker {
            Marker::Prefix(k) if at >= prefix_to[k] && !after_alphanumeric(text, at) => {
                prefix_to[k] = prefixed_at(text, k, (at, after), &mut prefixed);
            }
            Marker::PemBegin if at >= key_from => key_from = private_key_at(text, at, &mut keys),
            Marker::Url if at >= url_from => url_from = url_password_at(text, after, &mut urls),
            Marker::Bearer(w) if at >= bearer_from[w] => {
                bearer_from[w] = bearer_token_at(text, after, &mut bearers[w]);
            }
            _ => {}
        }
    }
    let beside_a_key_id = prefixed.iter().any(|s| s.kind == "aws-access-key-id");
    let mut found = prefixed;
    found.extend(aws_secrets(text, beside_a_key_id));
    found.extend(keys);
    found.extend(urls);
    bearers.into_iter().for_each(|b| found.extend(b));
    found
}

/// Whether the byte before `at` is a letter or digit: a prefix there is inside a word,
/// not where a token starts.
fn after_alphanumeric(text: &str, at: usize) -> bool {
    at > 0 && text.as_bytes()[at - 1].is_ascii_alphanumeric()
}

/// The token of kind `k` whose prefix stands at `start..body`, if long enough (or cut
/// short by a bound); where its run of body characters ends.
fn prefixed_at(
    text: &str,
    k: usize,
    (start, body): (usize, usize),
    found: &mut Vec<Span>,
) -> usize {
    let bytes = text.as_bytes();
    let kind = &PREFIXED[k];
    let end = body
        + bytes[body..]
            .iter()
            .position(|&b| !(kind.body)(b))
            .unwrap_or(bytes.len() - body);
    let jwt_ok = kind.kind != "jwt" || is_jwt(&bytes[start..end]);
    // Cut short by a bound (`…`, or the end of a read of output): whatever follows
    // the prefix is part of the secret.
    let cut = end == bytes.len() || text[end..].starts_with(['…', '[']);
    let long_enough = end - body >= kind.min_body || (cut && end > body);
    if long_enough && (jwt_ok || cut) {
        found.push(Span::new(start, end, kind.kind));
    }
    end
}

/// A JWT, or the start of one cut short: a header of at least [`MIN_JWT_HEADER`]
/// characters, a dot, and more.
pub(super) fn is_jwt(run: &[u8]) -> bool {
    run.iter()
        .position(|&b| b == b'.')
        .is_some_and(|dot| dot >= MIN_JWT_HEADER && dot + 1 < run.len())
}

/// The shortest JWT header: `eyJhbGciOiJ...`, the encoded `{"alg":`, is 10 characters.
const MIN_JWT_HEADER: usize = 10;

/// Runs of exactly [`AWS_SECRET_CHARS`] base64 characters with letters of both cases
/// and a digit: an AWS secret key where the text also holds an access key id, or where
/// the run has a `/` or `+` (as most do), which no identifier or hex digest has.
///
/// Such a run holds the byte 39 past the earliest place it can start, so that byte is
/// read first: where it is not base64, no such run starts before it, and the scan
/// moves on 40 bytes. Where it is, its run is read both ways. Each byte is read at most
/// twice, and most text (words, numbers, shorter than 40) far less.
fn aws_secrets(text: &str, beside_a_key_id: bool) -> Vec<Span> {
    super::passes::one();
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    // No run not yet read starts before `from`, and the byte before it is not base64.
    let mut from = 0;
    while from + AWS_SECRET_CHARS <= bytes.len() {
        let probe = from + AWS_SECRET_CHARS - 1;
        if !base64(bytes[probe]) {
            from = probe + 1;
            continue;
        }
        let mut start = probe;
        while start > from && base64(bytes[start - 1]) {
            start -= 1;
        }
        let mut end = probe + 1;
        while end < bytes.len() && base64(bytes[end]) {
            end += 1;
        }
        let run = &bytes[start..end];
        if run.len() == AWS_SECRET_CHARS
            && run.iter().any(u8::is_ascii_lowercase)
            && run.iter().any(u8::is_ascii_uppercase)
            && run.iter().any(u8::is_ascii_digit)
            && (beside_a_key_id || run.iter().any(|&b| b == b'/' || b == b'+'))
        {
            found.push(Span::new(start, end, "aws-secret-access-key"));
        }
        from = end + 1;
    }
    found
}

/// The characters of an AWS secret access key.
fn base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'/' || b == b'+'
}

/// The PEM block of a private key starting with the `-----BEGIN ` at `at`, to its END
/// line, or to the end of the text where the END is missing (cut off); where the
/// search for the next one resumes.
fn private_key_at(text: &str, at: usize, found: &mut Vec<Span>) -> usize {
    const END: &str = "-----END ";
    const DASHES: &str = "-----";
    /// A PEM label is short: `ENCRYPTED PRIVATE KEY`, `OPENSSH PRIVATE KEY`.
    const MAX_LABEL: usize = 64;
    let label_start = at + markers::PEM_BEGIN.len();
    let window = &text.as_bytes()[label_start..(label_start + MAX_LABEL).min(text.len())];
    let label_end = window
        .windows(DASHES.len())
        .position(|w| w == DASHES.as_bytes())
        .map(|p| label_start + p);
    let is_private =
        label_end.is_some_and(|e| text.as_bytes()[label_start..e].ends_with(b"PRIVATE KEY"));
    if !is_private {
        return label_start;
    }
    let body = label_end.unwrap_or(label_start) + DASHES.len();
    let end = match text[body..].find(END).map(|p| body + p + END.len()) {
        Some(end_label) => text[end_label..]
            .find(DASHES)
            .map_or(text.len(), |p| end_label + p + DASHES.len()),
        None => text.len(),
    };
    found.push(Span::new(at, end, "private-key"));
    end
}

/// The password in `scheme://user:password@host`, the `://` ending at `start`; where
/// the search for the next `://` resumes.
fn url_password_at(text: &str, start: usize, found: &mut Vec<Span>) -> usize {
    let bytes = text.as_bytes();
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
    end.max(start)
}

/// The token after `Bearer ` (an HTTP Authorization header, as printed or logged), the
/// word ending at `start`; where the search for the next one resumes.
fn bearer_token_at(text: &str, start: usize, found: &mut Vec<Span>) -> usize {
    let bytes = text.as_bytes();
    let end = start
        + bytes[start..]
            .iter()
            .position(|&b| !token68(b))
            .unwrap_or(bytes.len() - start);
    if end - start >= MIN_BEARER_CHARS {
        found.push(Span::new(start, end, "bearer-token"));
    }
    end
}
