//! A JSON Schema checker for the subset that the tools' output schemas use: `type`
//! (one name or several, `null` among them), `properties`, `required`, `items`,
//! `additionalProperties`, `anyOf`, `oneOf`, `enum` and `const`. A keyword outside the
//! subset fails the check, so a schema that starts to use one cannot pass unchecked.
//!
//! Stricter than JSON Schema in one way: an object whose schema lists `properties`
//! and says nothing of `additionalProperties` may hold no other property, so a result
//! cannot carry a field its schema leaves out.

use serde_json::{Map, Value};

/// The keywords the checker knows.
const KNOWN: &[&str] = &[
    "type",
    "properties",
    "required",
    "items",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "enum",
    "const",
];

/// Whether `value` conforms to `schema`: `Ok`, or each place it does not, as
/// `path: what is wrong`.
pub fn check(schema: &Value, value: &Value) -> Result<(), Vec<String>> {
    let mut wrong = Vec::new();
    check_at(schema, value, "$", &mut wrong);
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong)
    }
}

fn check_at(schema: &Value, value: &Value, path: &str, wrong: &mut Vec<String>) {
    let schema = match schema {
        Value::Bool(true) => return,
        Value::Bool(false) => return wrong.push(format!("{path}: no value is allowed")),
        Value::Object(schema) => schema,
        other => return wrong.push(format!("{path}: the schema {other} is no schema")),
    };
    for key in schema.keys() {
        if !KNOWN.contains(&key.as_str()) {
            wrong.push(format!("{path}: the checker does not know `{key}`"));
        }
    }
    if let Some(types) = schema.get("type") {
        let names: Vec<&str> = match types {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !names.iter().any(|name| is_of_type(value, name)) {
            wrong.push(format!("{path}: {value} is not of type {types}"));
        }
    }
    if let Some(Value::Array(allowed)) = schema.get("enum") {
        if !allowed.contains(value) {
            wrong.push(format!("{path}: {value} is not one of {allowed:?}"));
        }
    }
    if let Some(constant) = schema.get("const") {
        if constant != value {
            wrong.push(format!("{path}: {value} is not {constant}"));
        }
    }
    for (key, exactly_one) in [("anyOf", false), ("oneOf", true)] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            let passing = branches
                .iter()
                .filter(|branch| check(branch, value).is_ok())
                .count();
            if passing == 0 || (exactly_one && passing > 1) {
                wrong.push(format!("{path}: {passing} branches of {key} match {value}"));
            }
        }
    }
    match value {
        Value::Object(object) => check_object(schema, object, path, wrong),
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    check_at(item_schema, item, &format!("{path}[{i}]"), wrong);
                }
            }
        }
        _ => {}
    }
}

fn check_object(
    schema: &Map<String, Value>,
    object: &Map<String, Value>,
    path: &str,
    wrong: &mut Vec<String>,
) {
    if let Some(Value::Array(required)) = schema.get("required") {
        for name in required.iter().filter_map(Value::as_str) {
            if !object.contains_key(name) {
                wrong.push(format!("{path}: `{name}` is required but absent"));
            }
        }
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    let others = schema.get("additionalProperties");
    for (name, field) in object {
        let here = format!("{path}.{name}");
        match (properties.and_then(|p| p.get(name)), others) {
            (Some(field_schema), _) => check_at(field_schema, field, &here, wrong),
            (None, Some(other_schema)) => check_at(other_schema, field, &here, wrong),
            (None, None) if properties.is_some() => {
                wrong.push(format!("{here}: not a property the schema declares"));
            }
            (None, None) => {}
        }
    }
}

fn is_of_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}
