//! The bearer token every request to `dapvisor mcp --http` must carry: long enough not
//! to be guessed, made of what an `Authorization` header can carry, compared in
//! constant time, and found under the `Bearer` scheme in any case (HTTP's
//! authentication schemes are case-insensitive, RFC 9110 §11.1).

use std::sync::Arc;

/// The fewest characters a token may have: 32 (a made-up one has 64 hex digits).
/// A shorter one is refused when the server starts, saying why.
pub const MIN_TOKEN_CHARS: usize = 32;

/// A bearer token, compared in constant time.
#[derive(Clone)]
pub struct BearerToken(Arc<str>);

impl BearerToken {
    /// The token `secret` (surrounding whitespace, such as a file's last newline, is
    /// not part of it), or why it cannot be one: it is empty, shorter than
    /// [`MIN_TOKEN_CHARS`], or holds a character other than visible ASCII (a space, a
    /// control character, a non-ASCII letter), which a header cannot carry as a token.
    pub fn new(secret: &str) -> Result<Self, String> {
        let secret = secret.trim();
        if secret.is_empty() {
            return Err("the token is empty".into());
        }
        if let Some(odd) = secret.chars().find(|c| !c.is_ascii_graphic()) {
            return Err(format!(
                "the token holds {}, and an `Authorization: Bearer TOKEN` header carries \
                 only visible ASCII: use letters, digits and `-._~+/=`",
                match odd {
                    ' ' => "a space".to_string(),
                    c if c.is_control() => "a control character".to_string(),
                    c => format!("`{c}`"),
                }
            ));
        }
        let chars = secret.chars().count();
        if chars < MIN_TOKEN_CHARS {
            return Err(format!(
                "the token has {chars} characters; it needs at least {MIN_TOKEN_CHARS} not \
                 to be guessed: make one with `openssl rand -hex 32`, or give neither \
                 --token-file nor DAPVISOR_TOKEN and dapvisor makes one"
            ));
        }
        Ok(Self(secret.into()))
    }

    /// Whether an `Authorization` header value carries this token: `Bearer` in any
    /// case, then one or more spaces, then the token.
    pub(super) fn admits(&self, authorization: Option<&[u8]>) -> bool {
        let Some(value) = authorization else {
            return false;
        };
        let Some(space) = value.iter().position(|&b| b == b' ') else {
            return false;
        };
        let (scheme, given) = value.split_at(space);
        if !scheme.eq_ignore_ascii_case(b"bearer") {
            return false;
        }
        same_secret(given.trim_ascii(), self.0.as_bytes())
    }
}

/// Whether `given` is `expected`, every byte compared whatever the first difference,
/// so that the time taken does not tell how much of a guess was right. Also the
/// check of an exposed session's token (`expose/token.rs`).
pub(crate) fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len()
        && given
            .iter()
            .zip(expected)
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
}

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn a_token_admits_only_its_own_bearer_header_in_any_case() {
        let token = BearerToken::new(&format!("{SECRET}\n")).unwrap();
        for scheme in ["Bearer", "bearer", "BEARER", "bEARER"] {
            let header = format!("{scheme} {SECRET}");
            assert!(token.admits(Some(header.as_bytes())), "{header}");
        }
        assert!(token.admits(Some(format!("Bearer   {SECRET}").as_bytes())));
        assert!(!token.admits(Some(format!("Bearer {}", &SECRET[1..]).as_bytes())));
        assert!(!token.admits(Some(format!("Bearer {SECRET}x").as_bytes())));
        assert!(!token.admits(Some(format!("Basic {SECRET}").as_bytes())));
        assert!(!token.admits(Some(format!("Bearer{SECRET}").as_bytes())));
        assert!(!token.admits(Some(format!("Bearerx {SECRET}").as_bytes())));
        assert!(!token.admits(Some(SECRET.as_bytes())));
        assert!(!token.admits(None));
        assert_eq!(format!("{token:?}"), "BearerToken(..)");
    }

    #[test]
    fn a_token_too_short_or_that_no_header_can_carry_is_refused_saying_why() {
        let empty = BearerToken::new("  \n").unwrap_err();
        assert!(empty.contains("empty"), "{empty}");
        let short = BearerToken::new("s3cret").unwrap_err();
        assert!(
            short.contains("6 characters") && short.contains("at least 32"),
            "{short}"
        );
        assert!(BearerToken::new(&SECRET[1..]).is_err());
        let spaced = BearerToken::new(&format!("{SECRET} {SECRET}")).unwrap_err();
        assert!(spaced.contains("a space"), "{spaced}");
        let accented = BearerToken::new(&format!("{SECRET}é")).unwrap_err();
        assert!(accented.contains("`é`"), "{accented}");
        assert!(BearerToken::new(&format!("{SECRET}\t{SECRET}")).is_err());
    }
}
