//! The token an editor shows in its `attach` arguments to join an exposed session:
//! fresh for each exposure, made of the kernel's random bytes as the HTTP server's
//! own token is (`cli/http_token.rs`), and compared in constant time.

use serde_json::Value;

/// The field of an editor's `attach` arguments that carries the token.
pub const TOKEN_FIELD: &str = "token";

/// The secret of one exposure.
#[derive(Clone)]
pub struct ExposeToken(String);

impl ExposeToken {
    /// A new token, or why none could be made.
    pub fn fresh() -> Result<Self, String> {
        crate::cli::http_token::made_up().map(Self)
    }

    /// The token, for the owner to hand to the person.
    pub fn secret(&self) -> &str {
        &self.0
    }

    /// Whether `attach` arguments carry this token in [`TOKEN_FIELD`].
    pub fn admits(&self, arguments: Option<&Value>) -> bool {
        let given = arguments
            .and_then(|a| a.get(TOKEN_FIELD))
            .and_then(Value::as_str)
            .unwrap_or("");
        crate::mcp::same_secret(given.as_bytes(), self.0.as_bytes())
    }
}

impl std::fmt::Debug for ExposeToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExposeToken(..)")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_token_admits_only_itself_and_each_is_new() {
        let token = ExposeToken::fresh().unwrap();
        let other = ExposeToken::fresh().unwrap();
        assert_ne!(token.secret(), other.secret());
        assert_eq!(token.secret().len(), 64);
        assert!(token.admits(Some(&json!({"token": token.secret()}))));
        assert!(!token.admits(Some(&json!({"token": other.secret()}))));
        assert!(!token.admits(Some(&json!({"token": &token.secret()[1..]}))));
        assert!(!token.admits(Some(&json!({"token": 7}))));
        assert!(!token.admits(Some(&json!({}))));
        assert!(!token.admits(None));
        assert_eq!(format!("{token:?}"), "ExposeToken(..)");
    }
}
