//! Name-aware redaction of JSON: a value is hidden where the JSON itself says whose it
//! is. Three shapes say so:
//!
//! - an object with a `name` and a `value` (a variable, a field, a child): the value
//!   when the name [is secret](super::names::is_secret_name);
//! - an object with an `expression` and a `value`, `result` or `previous` (a watch, a
//!   trace column): those when the expression is only a
//!   [path to a secret name](super::names::expression_name);
//! - an object key that is a secret name (`{"DB_PASSWORD": "..."}`, an environment),
//!   or a path to one (a trace column `self.password`, not `len(password)`): its
//!   string value.
//!
//! A value hidden here is remembered ([`Redactor`]) so that it is hidden wherever else it
//! appears, in the text rendering above all.

use serde_json::{Map, Value};

use super::names::expression_name;
use super::rules::RedactRules;
use super::values::{core, is_plain};
use super::{kind_of, marker, Redactor};

/// The fields beside an `expression` that hold its value.
const EXPRESSION_VALUES: &[&str] = &["value", "result", "previous"];

/// Hide, in place, every string in `value` that the JSON names as secret, and remember
/// each in `redactor`.
pub(super) fn hide_named(value: &mut Value, redactor: &mut Redactor) {
    match value {
        Value::Object(map) => {
            hide_in_object(map, redactor);
            map.values_mut().for_each(|v| hide_named(v, redactor));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| hide_named(v, redactor)),
        _ => {}
    }
}

fn hide_in_object(map: &mut Map<String, Value>, redactor: &mut Redactor) {
    let rules = redactor.rules_shared();
    let named = map
        .get("name")
        .and_then(Value::as_str)
        .is_some_and(|name| names_a_secret(name, &rules));
    if named {
        if let Some(leaf) = map.get_mut("value") {
            hide_leaf(leaf, redactor);
        }
    }
    let expression_secret = map
        .get("expression")
        .and_then(Value::as_str)
        .and_then(expression_name)
        .is_some_and(|name| rules.is_secret_name(name));
    if expression_secret {
        for field in EXPRESSION_VALUES {
            if let Some(leaf) = map.get_mut(*field) {
                hide_leaf(leaf, redactor);
            }
        }
    }
    for (key, leaf) in map.iter_mut() {
        if leaf.is_string() && names_a_secret(key, &rules) {
            hide_leaf(leaf, redactor);
        }
    }
}

/// Whether a variable's name or a key names a secret. One that is an expression (a
/// trace column such as `len(password)`) does only where it is a path to one.
fn names_a_secret(name: &str, rules: &RedactRules) -> bool {
    if name.contains(|c: char| "()=!<>+*/%,& \t".contains(c)) {
        expression_name(name).is_some_and(|name| rules.is_secret_name(name))
    } else {
        rules.is_secret_name(name)
    }
}

/// Hide a string value (keeping its quotes) unless it is plain; numbers are hidden
/// too (a PIN), booleans and nulls are not.
pub(super) fn hide_leaf(leaf: &mut Value, redactor: &mut Redactor) {
    let shown = match leaf {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return,
    };
    if let Some(hidden) = hide_str(&shown, redactor) {
        *leaf = Value::String(hidden);
    }
}

/// `shown` with its value hidden (quotes kept), remembering it; `None` when it is
/// plain.
pub(super) fn hide_str(shown: &str, redactor: &mut Redactor) -> Option<String> {
    let (start, end) = core(shown);
    let secret = &shown[start..end];
    if is_plain(secret) {
        return None;
    }
    redactor.remember(secret);
    Some(format!(
        "{}{}{}",
        &shown[..start],
        marker(kind_of(secret), secret.chars().count()),
        &shown[end..]
    ))
}
