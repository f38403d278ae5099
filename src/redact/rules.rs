//! [`RedactRules`]: what a redactor hides beyond its built-in formats and names. Set
//! once by the person who starts dapvisor (`--redact`, `--redact-name`,
//! `--redact-pattern`, the config file's `[redact]`) or by an embedder
//! ([`ToolCatalogue::with_redaction_rules`](crate::tools::ToolCatalogue::with_redaction_rules)),
//! never by an agent.

use std::fmt;
use std::str::FromStr;

use regex::{Regex, RegexBuilder};

use super::name_patterns::NamePattern;
use super::Span;

/// How much is hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RedactLevel {
    /// Nothing: values are shown as the program holds them.
    Off,
    /// Credentials by format and values under secret names (the default).
    #[default]
    Default,
    /// Also every key-like string (long, mixed, of high entropy: see
    /// [`is_high_entropy`](super::is_high_entropy)) wherever it stands, under any name
    /// or none. Hashes, UUIDs and mangled symbol names may be hidden too.
    Strict,
}

impl FromStr for RedactLevel {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "off" => Ok(Self::Off),
            "default" => Ok(Self::Default),
            "strict" => Ok(Self::Strict),
            _ => Err(format!(
                "`{text}` is not a redaction level: say default, strict or off"
            )),
        }
    }
}

impl fmt::Display for RedactLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Off => "off",
            Self::Default => "default",
            Self::Strict => "strict",
        })
    }
}

/// The most names and patterns added to the built-in ones, each: 64. Every pattern
/// costs a scan of every string redacted.
pub const MAX_ADDED_RULES: usize = 64;

/// The longest name pattern or regular expression accepted: 512 bytes.
pub const MAX_RULE_BYTES: usize = 512;

/// The most memory one compiled `--redact-pattern` may take: 1 MiB (the `regex`
/// crate's size limit). Matching is linear in the text whatever the pattern; this
/// bounds what compiling it costs.
pub const MAX_PATTERN_PROGRAM_BYTES: usize = 1 << 20;

/// The marker kind of a value a `--redact-pattern` found.
pub(super) const PATTERN_KIND: &str = "pattern";

/// The redaction level and the names and patterns added to the built-in ones.
#[derive(Debug, Clone, Default)]
pub struct RedactRules {
    level: RedactLevel,
    names: Vec<NamePattern>,
    patterns: Vec<Regex>,
}

impl RedactRules {
    /// The built-in rules at `level`.
    pub fn new(level: RedactLevel) -> Self {
        Self {
            level,
            ..Self::default()
        }
    }

    /// Also hide values whose name matches `pattern`: words (`ssn`, `pin_code`: a name
    /// ending in those words, in any case, with `_`, `-` or camelCase), or a glob with
    /// `*` over the whole name (`*_pin`, `customer*`). The last segment of a dotted
    /// name is the one matched, as for the built-in names.
    pub fn with_name(mut self, pattern: &str) -> Result<Self, String> {
        self.check_room(self.names.len(), pattern, "--redact-name")?;
        self.names.push(NamePattern::parse(pattern)?);
        Ok(self)
    }

    /// Also hide whatever `regex` matches, wherever it stands. Compiled by the `regex`
    /// crate, so matching stays linear in the text; a pattern that matches the empty
    /// string is refused (it would hide nothing and cost a scan).
    pub fn with_pattern(mut self, regex: &str) -> Result<Self, String> {
        self.check_room(self.patterns.len(), regex, "--redact-pattern")?;
        let compiled = RegexBuilder::new(regex)
            .size_limit(MAX_PATTERN_PROGRAM_BYTES)
            .build()
            .map_err(|e| format!("--redact-pattern `{regex}` is not a valid pattern: {e}"))?;
        if compiled.is_match("") {
            return Err(format!(
                "--redact-pattern `{regex}` matches the empty string: give a pattern that \
                 needs at least one character"
            ));
        }
        self.patterns.push(compiled);
        Ok(self)
    }

    fn check_room(&self, held: usize, rule: &str, flag: &str) -> Result<(), String> {
        if held >= MAX_ADDED_RULES {
            return Err(format!(
                "{flag}: at most {MAX_ADDED_RULES} may be given; merge some into one pattern"
            ));
        }
        if rule.is_empty() || rule.len() > MAX_RULE_BYTES {
            return Err(format!(
                "{flag} takes 1 to {MAX_RULE_BYTES} bytes; `{}` has {}",
                rule.chars().take(40).collect::<String>(),
                rule.len()
            ));
        }
        Ok(())
    }

    /// The level.
    pub fn level(&self) -> RedactLevel {
        self.level
    }

    /// Set the level, keeping the added names and patterns.
    pub fn with_level(mut self, level: RedactLevel) -> Self {
        self.level = level;
        self
    }

    /// How many names and patterns were added.
    pub fn added(&self) -> usize {
        self.names.len() + self.patterns.len()
    }

    /// Whether `name` says its value is a secret: by the built-in rule or an added name.
    pub fn is_secret_name(&self, name: &str) -> bool {
        super::is_secret_name(name) || self.is_added_name(name)
    }

    /// The added patterns (for the tests' reference redactor).
    #[cfg(test)]
    pub(super) fn patterns(&self) -> &[Regex] {
        &self.patterns
    }

    /// The added names (for the tests' reference redactor).
    #[cfg(test)]
    pub(super) fn names(&self) -> &[NamePattern] {
        &self.names
    }

    /// Whether `name` matches an added name.
    pub(super) fn is_added_name(&self, name: &str) -> bool {
        self.names.iter().any(|p| p.matches(name))
    }

    /// The spans of `text` these rules hide beyond the built-in ones: what an added
    /// pattern matches, and, when strict, every key-like token.
    pub(super) fn spans(&self, text: &str) -> Vec<Span> {
        let mut found = Vec::new();
        // Each pattern is its own pass, using its own literal prefilter: one `RegexSet`
        // pass over all of them measured no faster (2026-11-28, BENCHMARKS.md), and a
        // large set can outgrow the lazy DFA's cache and fall back to a slower engine.
        for pattern in &self.patterns {
            super::passes::one();
            found.extend(
                pattern
                    .find_iter(text)
                    .filter(|m| !m.is_empty())
                    .map(|m| Span::new(m.start(), m.end(), PATTERN_KIND)),
            );
        }
        if self.level == RedactLevel::Strict {
            found.extend(super::strict::spans(text));
        }
        found
    }
}
