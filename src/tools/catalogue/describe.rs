//! Descriptions that state a limit read it from the [`Bounds`] in force, so a catalogue
//! with other bounds never tells an agent a stale number. A tool's description and the
//! descriptions in its argument schema are written with placeholders (`{wait}`,
//! `{max_output}`) that [`render`] fills in; a text without any is left as it is.

use serde_json::{Map, Value};

use crate::tools::results::bounds::{Bounds, MAX_WAIT};
use crate::tools::ToolNames;

/// The placeholders a description may use, and what each says under `bounds`.
fn placeholders(bounds: &Bounds) -> [(&'static str, String); 13] {
    [
        ("{wait}", seconds(bounds.wait)),
        ("{max_wait}", seconds(MAX_WAIT)),
        ("{initial_wait}", seconds(bounds.initial_stop_wait)),
        ("{max_value_chars}", bounds.max_value_chars.to_string()),
        ("{max_output}", bytes(bounds.max_output_bytes)),
        ("{max_frames}", bounds.max_frames.to_string()),
        (
            "{max_frames_per_call}",
            bounds.max_frames_per_call.to_string(),
        ),
        ("{max_variables}", bounds.max_variables.to_string()),
        ("{max_threads}", bounds.max_threads.to_string()),
        ("{max_items}", bounds.max_items.to_string()),
        ("{instruction_count}", bounds.instruction_count.to_string()),
        ("{max_instructions}", bounds.max_instructions.to_string()),
        ("{max_memory}", bytes(bounds.max_memory_bytes)),
    ]
}

/// `text` with every placeholder filled in from `bounds`.
pub(crate) fn render(text: &str, bounds: &Bounds) -> String {
    if !text.contains('{') {
        return text.to_string();
    }
    placeholders(bounds)
        .iter()
        .fold(text.to_string(), |text, (name, value)| {
            text.replace(name, value)
        })
}

/// `schema` with the placeholders of every `description` in it filled in, and the
/// tools it names as `names` says.
pub(crate) fn render_schema(
    schema: &Map<String, Value>,
    bounds: &Bounds,
    names: ToolNames,
) -> Map<String, Value> {
    let mut schema = schema.clone();
    for (key, value) in schema.iter_mut() {
        render_value(key, value, bounds, names);
    }
    schema
}

fn render_value(key: &str, value: &mut Value, bounds: &Bounds, names: ToolNames) {
    match value {
        Value::String(text) if key == "description" => *text = names.in_text(&render(text, bounds)),
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                render_value(key, value, bounds, names);
            }
        }
        Value::Array(items) => {
            for item in items {
                render_value("", item, bounds, names);
            }
        }
        _ => {}
    }
}

/// Whole seconds as a number (`30`), else to a tenth (`0.5`).
fn seconds(d: std::time::Duration) -> String {
    if d.subsec_nanos() == 0 {
        d.as_secs().to_string()
    } else {
        format!("{:.1}", d.as_secs_f64())
    }
}

/// A byte count as people write it: `16 KiB` where it is whole kibibytes.
fn bytes(n: usize) -> String {
    if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// Whether `text` still holds one of the placeholders (a test's check that every one
/// is known and filled).
#[cfg(test)]
pub(crate) fn unfilled(text: &str) -> Option<&str> {
    let start = text.find('{')?;
    let end = start + text[start..].find('}')?;
    let name = &text[start..=end];
    // `{expr}` in a log message's description is DAP's syntax, not a placeholder.
    let inner = &name[1..name.len() - 1];
    let is_word = !inner.is_empty() && inner.chars().all(|c| c.is_ascii_lowercase() || c == '_');
    (is_word && name != "{expr}")
        .then_some(name)
        .or_else(|| unfilled(&text[end + 1..]))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_placeholder_says_the_bound_in_force() {
        let bounds = Bounds::default()
            .wait(Duration::from_millis(2500))
            .max_output_bytes(8 * 1024)
            .max_value_chars(300);
        assert_eq!(
            render(
                "waits {wait} s (at most {max_wait}), reads {max_output}, cuts at {max_value_chars}",
                &bounds
            ),
            "waits 2.5 s (at most 300), reads 8 KiB, cuts at 300"
        );
        assert_eq!(
            render("{max_output}", &Bounds::default().max_output_bytes(1000)),
            "1000 bytes"
        );
    }

    #[test]
    fn text_without_placeholders_and_log_message_syntax_are_left_alone() {
        let bounds = Bounds::default();
        assert_eq!(render("plain text", &bounds), "plain text");
        assert_eq!(
            render("`{expr}` is interpolated", &bounds),
            "`{expr}` is interpolated"
        );
        assert_eq!(unfilled("`{expr}` is interpolated"), None);
        assert_eq!(unfilled("a {typo} here"), Some("{typo}"));
    }

    #[test]
    fn every_description_in_a_schema_is_filled_in() {
        let schema = serde_json::json!({
            "properties": {
                "timeout": {"description": "default {wait}", "type": "number"},
                "items": {"oneOf": [{"description": "at most {max_items}"}]},
                "description": {"type": "string"}
            }
        });
        let rendered = render_schema(
            schema.as_object().unwrap(),
            &Bounds::default(),
            ToolNames::Canonical,
        );
        assert_eq!(
            rendered["properties"]["timeout"]["description"],
            "default 30"
        );
        assert_eq!(
            rendered["properties"]["items"]["oneOf"][0]["description"],
            "at most 100"
        );
        // A property that happens to be called `description` is not a text.
        assert_eq!(rendered["properties"]["description"]["type"], "string");
    }
}
