//! [`RawJson`]: a message body kept as the JSON text it arrived in.
//!
//! Decoding a body into a `serde_json::Value` tree costs far more than finding where
//! it ends (a 4 KB stackTrace: about ten times more, see BENCHMARKS.md), and most
//! bodies are read once, into a typed view, or not at all. So a decoded message keeps
//! its body as text, checked to be JSON, and each reader parses what it needs from
//! that text: a typed struct with [`RawJson::parse`] (fields it does not name are
//! skipped, not built), or a whole tree with [`RawJson::to_value`].

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// JSON text, known to be valid. Cheap to clone relative to a tree (one allocation).
#[derive(Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// The JSON text of `value`.
    pub fn from_value(value: &Value) -> Self {
        // A `Value` always serializes: its map keys are strings.
        let text = serde_json::to_string(value).expect("a JSON value serializes");
        Self::from_text(text).expect("serde_json writes valid JSON")
    }

    /// `{}`.
    pub fn empty_object() -> Self {
        Self::from_text("{}".to_string()).expect("`{}` is JSON")
    }

    /// `text`, if it is one valid JSON value.
    pub fn from_text(text: String) -> Result<Self, serde_json::Error> {
        RawValue::from_string(text).map(Self)
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// Parse into a typed view.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.0.get())
    }

    /// Parse into a JSON tree (for bodies passed on as they are).
    pub fn to_value(&self) -> Value {
        // Valid JSON by construction, so this cannot fail.
        self.parse().unwrap_or(Value::Null)
    }
}

impl From<Value> for RawJson {
    fn from(value: Value) -> Self {
        Self::from_value(&value)
    }
}

impl PartialEq for RawJson {
    /// Equal as JSON values, whatever the spacing or key order of the text.
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str() || self.to_value() == other.to_value()
    }
}

impl PartialEq<Value> for RawJson {
    fn eq(&self, other: &Value) -> bool {
        self.to_value() == *other
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(Self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_the_text_and_parses_on_demand() {
        let raw: RawJson = serde_json::from_str(r#"{"b": [1, 2], "a": "x"}"#).unwrap();
        assert_eq!(raw.as_str(), r#"{"b": [1, 2], "a": "x"}"#);
        assert_eq!(raw.to_value(), json!({"a": "x", "b": [1, 2]}));
        #[derive(Deserialize)]
        struct OnlyA {
            a: String,
        }
        assert_eq!(raw.parse::<OnlyA>().unwrap().a, "x");
    }

    #[test]
    fn equal_as_json_whatever_the_spacing() {
        let spaced: RawJson = serde_json::from_str(r#"{ "a" : 1 , "b" : 2 }"#).unwrap();
        assert_eq!(spaced, RawJson::from(json!({"b": 2, "a": 1})));
        assert_eq!(spaced, json!({"a": 1, "b": 2}));
        assert_ne!(spaced, RawJson::from(json!({"a": 1})));
    }

    #[test]
    fn serializes_as_the_json_it_holds() {
        let raw = RawJson::from(json!({"threads": []}));
        let outer = serde_json::to_value(json!({ "body": raw })).unwrap();
        assert_eq!(outer, json!({"body": {"threads": []}}));
    }

    #[test]
    fn refuses_text_that_is_not_json() {
        assert!(RawJson::from_text("{not json".into()).is_err());
    }
}
