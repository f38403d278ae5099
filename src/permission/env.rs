//! [`EnvAllowlist`]: the environment variables a launch may set without its call
//! counting as code. A list of dangerous names always misses the next one (pytest
//! reads `PYTEST_ADDOPTS` and `PYTEST_PLUGINS`, debugpy `DEBUGPY_LOG_DIR`, a Go build
//! `GIT_CONFIG_*`, `CC` and `GOFLAGS`, cargo `RUSTFLAGS`, Python `HOME`'s site
//! folder), so it is the other way round: a few names known to change only how a
//! program speaks to its terminal and its user ([`INERT_ENV`]), and the patterns a
//! user adds (`--allow-env PATTERN`); any other name a launch sets is
//! [`Effect::Code`](super::Effect::Code).

use serde_json::Value;

use super::effect::{Effect, Found};
use super::rule::glob;

/// The environment variables known to be inert, built in: locale (`LANG`,
/// `LANGUAGE`, `LC_*`), time zone (`TZ`), terminal size and kind (`TERM`, `COLUMNS`,
/// `LINES`), colour (`COLORTERM`, `NO_COLOR`, `FORCE_COLOR`, `CLICOLOR`,
/// `CLICOLOR_FORCE`), and the runtimes' output settings that load nothing and write
/// nowhere new (`PYTHONUNBUFFERED`, `PYTHONIOENCODING`, `PYTHONUTF8`, `RUST_BACKTRACE`).
/// `*` stands for any run of characters. Extend it with
/// [`EnvAllowlist::allow`] (`--allow-env`), never by editing it for one project.
pub const INERT_ENV: &[&str] = &[
    "LANG",
    "LANGUAGE",
    "LC_*",
    "TZ",
    "TERM",
    "COLUMNS",
    "LINES",
    "COLORTERM",
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "PYTHONUNBUFFERED",
    "PYTHONIOENCODING",
    "PYTHONUTF8",
    "RUST_BACKTRACE",
];

/// The names a launch may set in `env` without asking: [`INERT_ENV`] and the
/// patterns added. `EnvAllowlist::default()` is [`INERT_ENV`] alone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvAllowlist {
    added: Vec<String>,
}

impl EnvAllowlist {
    /// Also take the names matching `pattern` for inert: a name where `*` stands for
    /// any run of characters and `?` for one (`MYAPP_*`), matched case-sensitively as
    /// the environment is. Refused: an empty pattern, or one with `=` or a NUL byte,
    /// which no variable's name has.
    pub fn allow(mut self, pattern: &str) -> Result<Self, String> {
        self.added.push(check_pattern(pattern)?);
        Ok(self)
    }

    /// The patterns added to [`INERT_ENV`], in the order they were.
    pub fn added(&self) -> &[String] {
        &self.added
    }

    /// Whether the variable `name` is known to be inert.
    pub fn is_inert(&self, name: &str) -> bool {
        INERT_ENV
            .iter()
            .copied()
            .chain(self.added.iter().map(String::as_str))
            .any(|pattern| glob(pattern.as_bytes(), name.as_bytes()))
    }

    /// What setting `arguments`' `env` does: one finding naming every variable not
    /// known to be inert (sorted), or none.
    pub(crate) fn finding(&self, arguments: &Value) -> Option<Found> {
        let env = arguments.get("env")?.as_object()?;
        let mut names: Vec<&str> = env
            .keys()
            .map(String::as_str)
            .filter(|name| !self.is_inert(name))
            .collect();
        if names.is_empty() {
            return None;
        }
        names.sort_unstable();
        Some(Found::new(
            Effect::Code,
            "sets environment variables not known to be inert, which can make the program, \
             its test runner or its build load other code or write files (`--allow-env NAME` \
             marks a name inert)",
            format!("env: {}", names.join(", ")),
        ))
    }
}

/// A pattern `--allow-env` takes, trimmed; or why not.
pub fn check_pattern(pattern: &str) -> Result<String, String> {
    let pattern = pattern.trim();
    if pattern.is_empty() {
        return Err(
            "an empty pattern names no environment variable; pass a name such as \
                    MYAPP_MODE or a pattern such as MYAPP_*"
                .into(),
        );
    }
    if pattern.contains(['=', '\0']) {
        return Err(format!(
            "`{pattern}` is not a variable's name: pass the name alone (MYAPP_MODE, not \
             MYAPP_MODE=1), with `*` for any run of characters"
        ));
    }
    Ok(pattern.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_built_in_names_and_the_added_patterns_are_inert() {
        let env = EnvAllowlist::default();
        for name in ["LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "NO_COLOR"] {
            assert!(env.is_inert(name), "{name}");
        }
        for name in [
            "PYTEST_ADDOPTS",
            "PYTEST_PLUGINS",
            "DEBUGPY_LOG_DIR",
            "GIT_CONFIG_COUNT",
            "CC",
            "GOFLAGS",
            "RUSTFLAGS",
            "CARGO_BUILD_RUSTC_WRAPPER",
            "HOME",
            "PATH",
            "lang",
            "MYAPP_MODE",
        ] {
            assert!(!env.is_inert(name), "{name}");
        }
        let env = env.allow(" MYAPP_* ").unwrap().allow("ONE?").unwrap();
        assert!(env.is_inert("MYAPP_MODE") && env.is_inert("ONE1"));
        assert!(!env.is_inert("myapp_mode") && !env.is_inert("ONE12"));
        assert_eq!(env.added(), ["MYAPP_*", "ONE?"]);
    }

    #[test]
    fn a_pattern_that_cannot_name_a_variable_is_refused_saying_what_to_pass() {
        let err = EnvAllowlist::default().allow("MYAPP=1").unwrap_err();
        assert!(
            err.contains("MYAPP=1") && err.contains("name alone"),
            "{err}"
        );
        assert!(check_pattern("  ").unwrap_err().contains("MYAPP_*"));
    }

    #[test]
    fn the_finding_names_each_variable_not_known_to_be_inert_once_sorted() {
        let env = EnvAllowlist::default().allow("MYAPP_*").unwrap();
        let launch = json!({ "env": { "TZ": "UTC", "PYTEST_ADDOPTS": "-p x", "CC": "cc",
                                      "MYAPP_MODE": "1" } });
        let found = env.finding(&launch).unwrap();
        assert_eq!(found.effect, Effect::Code);
        assert_eq!(found.carrier, "env: CC, PYTEST_ADDOPTS");
        assert!(env.finding(&json!({ "env": { "LC_ALL": "C" } })).is_none());
        assert!(
            env.finding(&json!({ "env": ["CC=cc"] })).is_none(),
            "not a map"
        );
        assert!(env.finding(&json!({})).is_none());
    }
}
