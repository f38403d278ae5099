//! Session ids: unique within a runtime, shown as `s1`, `s2`, ... (in the core, which
//! names its own session and its parent; the session layer re-exports it).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Identifies a session within its runtime. Displayed and serialized as `s<n>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SessionId(pub u64);

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.0)
    }
}

impl FromStr for SessionId {
    type Err = String;

    /// Accepts `s12` and `12`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let digits = s.strip_prefix('s').unwrap_or(s);
        digits
            .parse()
            .map(SessionId)
            .map_err(|_| format!("`{s}` is not a session id (ids look like `s1`)"))
    }
}

impl Serialize for SessionId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SessionId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_parses_and_serializes_as_s_n() {
        let id = SessionId(7);
        assert_eq!(id.to_string(), "s7");
        assert_eq!("s7".parse::<SessionId>().unwrap(), id);
        assert_eq!("7".parse::<SessionId>().unwrap(), id);
        assert!("x7".parse::<SessionId>().is_err());
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"s7\"");
        assert_eq!(serde_json::from_str::<SessionId>("\"s7\"").unwrap(), id);
    }
}
