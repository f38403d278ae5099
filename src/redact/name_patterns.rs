//! [`NamePattern`]: a name added to the secret ones (`--redact-name`). Either words,
//! matched as the built-in names are (the last words of a name's last segment, in any
//! case and style: `ssn` hides `ssn`, `userSSN` and `customer.ssn`, not `ssn_count`),
//! or a glob with `*` over that segment, lowercased (`*_pin`, `customer*`).

use super::names::{last_segment, name_words, words};

/// The longest name a glob is matched against, in characters: 256. A longer "name" is
/// not a variable's; capping it keeps a glob's match within a fixed cost.
pub const MAX_GLOB_NAME_CHARS: usize = 256;

/// One added name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum NamePattern {
    /// The name's last words, lowercased: `pin code` for `pinCode`.
    Words(Vec<String>),
    /// A glob over the lowercased last segment, and its parts between the `*`s.
    Glob { glob: String, parts: Vec<String> },
}

impl NamePattern {
    /// Read `pattern`, or say why it names nothing.
    pub(super) fn parse(pattern: &str) -> Result<Self, String> {
        let pattern = pattern.trim();
        if pattern.contains('*') {
            if pattern.chars().all(|c| c == '*') {
                return Err(format!(
                    "--redact-name `{pattern}` matches every name: use --redact strict, or \
                     name the variables"
                ));
            }
            let glob = pattern.to_lowercase();
            let parts = glob
                .split('*')
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect();
            return Ok(Self::Glob { glob, parts });
        }
        let words = words(pattern);
        if words.is_empty() {
            return Err(format!(
                "--redact-name `{pattern}` has no letters: give a variable, field or key name"
            ));
        }
        Ok(Self::Words(words))
    }

    /// Whether `name` (a variable, field or key) matches.
    pub(super) fn matches(&self, name: &str) -> bool {
        if !self.may_match(name) {
            return false;
        }
        let segment = last_segment(name);
        match self {
            Self::Words(pattern) => name_words(name).ends_with(pattern),
            Self::Glob { glob, .. } => {
                // The glob of call patterns: `*` for any run, at most glob × name steps.
                segment.chars().count() <= MAX_GLOB_NAME_CHARS
                    && crate::call_glob(glob, &segment.to_lowercase())
            }
        }
    }

    /// A test that `name` cannot match, without cutting, splitting or lowercasing it
    /// (which allocate): this runs at every assignment in every text redacted. Exact
    /// for ASCII, where lowercasing changes no length and the words and the glob's
    /// literal parts must stand in the name (in its last segment, so in it all) as
    /// they are, in some case; any other name is matched in full.
    fn may_match(&self, name: &str) -> bool {
        if !name.is_ascii() {
            return true;
        }
        let stands = |part: &String| {
            name.as_bytes()
                .windows(part.len())
                .any(|w| w.eq_ignore_ascii_case(part.as_bytes()))
        };
        match self {
            Self::Words(pattern) => pattern.last().is_none_or(stands),
            Self::Glob { parts, .. } => parts.iter().all(stands),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, name: &str) -> bool {
        NamePattern::parse(pattern).unwrap().matches(name)
    }

    #[test]
    fn words_match_the_last_words_in_any_style() {
        for name in [
            "ssn",
            "SSN",
            "user_ssn",
            "userSsn",
            "customer.ssn",
            "ssn_str",
        ] {
            assert!(matches("ssn", name), "{name}");
        }
        for name in ["ssn_count", "ssnLength", "lesson"] {
            assert!(!matches("ssn", name), "{name}");
        }
        assert!(matches("pin_code", "userPinCode"));
        assert!(!matches("pin_code", "code"));
    }

    #[test]
    fn globs_match_the_lowercased_last_segment() {
        assert!(matches("*_pin", "card_pin"));
        assert!(matches("*_pin", "self.CARD_PIN"));
        assert!(!matches("*_pin", "pinned"));
        assert!(matches("customer*", "customerEmail"));
        assert!(matches("a*b*c", "axxbyyc"));
        assert!(!matches("a*b*c", "axxbyy"));
        let long = format!("x{}", "a".repeat(MAX_GLOB_NAME_CHARS));
        assert!(!matches("x*", &long), "a name past the cap is not a name");
    }

    #[test]
    fn patterns_that_name_nothing_are_refused() {
        assert!(NamePattern::parse("***")
            .unwrap_err()
            .contains("every name"));
        assert!(NamePattern::parse("__").unwrap_err().contains("no letters"));
    }
}
