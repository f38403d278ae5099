//! Cuts that do not split a credential: where a bound keeps the newest part of a text,
//! or hands out a read of output and the rest later, a token the cut falls inside would
//! come out in two pieces, neither recognisable. So a cut moves to the token's edge:
//! a tail starts after it, a read ends before it (and the next read starts at it).

/// The most bytes a cut moves to keep a token whole: 512. A longer run of token
/// characters (a blob) is cut where the bound says.
pub const MAX_TOKEN_BYTES: usize = 512;

/// Bytes a credential can be made of: base64 and base64url, and the punctuation of
/// JWTs and URLs with a password.
fn token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_-+/=.~:@%".contains(&b)
}

/// Where a text kept up to `at` should end so as not to split a token: the start of
/// the token `at` falls inside, if it begins within [`MAX_TOKEN_BYTES`] and after the
/// start of the text (a text that is one token is cut where the bound says, and its
/// known prefix, if any, hides it whole); else `at`.
/// At the end of the text (`at` = its length), a trailing token counts as split: the
/// rest may come in the next read.
pub fn end_before_token(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let inside = at > 0
        && at <= bytes.len()
        && token_byte(bytes[at - 1])
        && bytes.get(at).is_none_or(|&b| token_byte(b));
    if !inside {
        return at;
    }
    let floor = at.saturating_sub(MAX_TOKEN_BYTES);
    let mut start = at;
    while start > floor && token_byte(bytes[start - 1]) {
        start -= 1;
    }
    if start == 0 || (start == floor && token_byte(bytes[start - 1])) {
        at
    } else {
        start
    }
}

/// Where a text kept from `at` should start so as not to begin inside a token: past
/// the token `at` falls inside, if it ends within [`MAX_TOKEN_BYTES`] and before the
/// end of the text; else `at`.
pub fn start_after_token(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    if at == 0 || at >= bytes.len() || !token_byte(bytes[at]) || !token_byte(bytes[at - 1]) {
        return at;
    }
    let ceiling = (at + MAX_TOKEN_BYTES).min(bytes.len());
    let mut end = at;
    while end < ceiling && token_byte(bytes[end]) {
        end += 1;
    }
    // A token running to the end is the whole tail: kept as the bound says.
    if end == ceiling {
        at
    } else {
        end
    }
}
