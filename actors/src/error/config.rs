//! [`ConfigError`]: a [`RuntimeConfig`](crate::RuntimeConfig) value that
//! [`RuntimeConfig::validate`](crate::RuntimeConfig::validate) refuses, with the field,
//! the value and the rule it broke, so an embedder can branch on them and a person
//! reads which setter to fix, to what, and why.

use std::fmt;
use std::time::Duration;

/// A configuration value refused before a runtime starts, carried by
/// [`SessionError::Config`](crate::SessionError::Config) when
/// [`Runtime::start`](crate::Runtime::start) refuses it.
///
/// Its text names the field, its value, the rule, what the value would have done,
/// and the default: `RuntimeConfig::max_sessions is 0; it must be at least 1 (with 0,
/// no session could be started); the default is 1000`.
///
/// Its parts are read through methods; it is one pointer wide, so that a `Result`
/// carrying it (or a [`SessionError`](crate::SessionError) wrapping it) stays small.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError(Box<Refusal>);

#[derive(Debug, Clone, PartialEq)]
struct Refusal {
    field: &'static str,
    value: String,
    rule: ConfigRule,
    why: Option<String>,
    default: Option<String>,
}

/// The rule a refused configuration value broke.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum ConfigRule {
    /// A count or size of at least `min` (a 0 that would refuse every request, a
    /// frame limit too small for any adapter's first answer).
    AtLeast {
        /// The smallest value that works.
        min: usize,
    },
    /// A duration longer than zero.
    NotZero,
    /// A duration longer than zero while `other` is above zero (the restart window
    /// while restarts are allowed).
    NotZeroWhile {
        /// The field whose value above zero needs this one.
        other: &'static str,
    },
    /// A deadline within `min..=max`: the range its setter clamps into, so only a
    /// value set around the setter breaks it.
    Within {
        /// The shortest deadline.
        min: Duration,
        /// The longest deadline.
        max: Duration,
    },
    /// A number from `min` to `max`, both included (not NaN, not infinite).
    Between {
        /// The lowest value.
        min: f64,
        /// The highest value.
        max: f64,
    },
    /// A duration no longer than the field `other`, which is `max`.
    NoLongerThan {
        /// The field it must not exceed.
        other: &'static str,
        /// That field's value.
        max: Duration,
    },
}

impl fmt::Display for ConfigRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigRule::AtLeast { min } => write!(f, "at least {min}"),
            ConfigRule::NotZero => f.write_str("longer than 0"),
            ConfigRule::NotZeroWhile { other } => {
                write!(f, "longer than 0 while {other} is above 0")
            }
            ConfigRule::Within { min, max } => {
                write!(f, "within {}..={} s", min.as_secs(), max.as_secs())
            }
            ConfigRule::Between { min, max } => write!(f, "a number from {min} to {max}"),
            ConfigRule::NoLongerThan { other, max } => {
                write!(f, "no longer than {other} ({max:?})")
            }
        }
    }
}

impl ConfigError {
    /// `field` is `value`, which breaks `rule`; the why and the default are added
    /// with [`because`](Self::because) and [`with_default`](Self::with_default).
    pub(crate) fn new(field: &'static str, value: impl fmt::Display, rule: ConfigRule) -> Self {
        Self(Box::new(Refusal {
            field,
            value: value.to_string(),
            rule,
            why: None,
            default: None,
        }))
    }

    /// The same error, saying why the rule holds or how to meet it.
    pub(crate) fn because(mut self, why: impl Into<String>) -> Self {
        self.0.why = Some(why.into());
        self
    }

    /// The same error, naming the field's default.
    pub(crate) fn with_default(mut self, default: impl fmt::Display) -> Self {
        self.0.default = Some(default.to_string());
        self
    }

    /// The field refused, named as its path from `RuntimeConfig`: a setter's name
    /// (`request_timeout`), or a field of the restart policy
    /// (`restart_policy.jitter`).
    pub fn field(&self) -> &'static str {
        self.0.field
    }

    /// The value refused, as text (`0`, `1ms`, `NaN`).
    pub fn value(&self) -> &str {
        &self.0.value
    }

    /// The rule the value broke.
    pub fn rule(&self) -> ConfigRule {
        self.0.rule
    }

    /// Why the rule holds or how to meet it, in words: what the value would have
    /// done (`with 0, every request would be refused as busy`), or what else fixes it.
    pub fn why(&self) -> Option<&str> {
        self.0.why.as_deref()
    }

    /// The field's default, as text (`1000`, `60s`), where one helps.
    pub fn default_value(&self) -> Option<&str> {
        self.0.default.as_deref()
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Refusal {
            field,
            value,
            rule,
            why,
            default,
        } = &*self.0;
        write!(f, "RuntimeConfig::{field} is {value}; it must be {rule}")?;
        if let Some(why) = why {
            write!(f, " ({why})")?;
        }
        if let Some(default) = default {
            write!(f, "; the default is {default}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}
