//! MCP prompts: short, concrete plans for the usual debugging jobs, in terms of the
//! core tools by their MCP names, with the user's arguments filled in where the
//! agent will type them (as JSON strings, so any text reads back whole).
//!
//! - `debug_failing_test` (`test`, optional `program`): run the test, read the
//!   runner's failure, stop where the value is made, find the first wrong one;
//! - `find_crash` (`program`, optional `args`): run it without breakpoints, so the
//!   crash stops where it happens, and read the stack and the values there;
//! - `explain_wrong_value` (`file`, `line`, `expression`, optional `program`): stop
//!   there watching it, split it, and trace its parts back.
//!
//! A missing or unknown argument, an argument longer than
//! [`MAX_PROMPT_ARGUMENT_CHARS`], or an unknown prompt is refused, saying what the
//! prompt takes.

use rmcp::model::{GetPromptResult, JsonObject, Prompt, PromptArgument, PromptMessage, Role};
use rmcp::ErrorData;
use serde_json::Value;

/// The longest argument a prompt takes, in characters: 4,096 (a test id, a path, an
/// expression or a command line is far shorter).
pub const MAX_PROMPT_ARGUMENT_CHARS: usize = 4096;

/// One argument of a prompt.
struct Arg {
    name: &'static str,
    description: &'static str,
    required: bool,
}

/// One prompt: what it is for, what it takes, and its text from the arguments.
struct PromptDef {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    arguments: &'static [Arg],
    text: fn(&Given) -> String,
}

/// The prompts, in the order listed.
const PROMPTS: &[PromptDef] = &[
    PromptDef {
        name: "debug_failing_test",
        title: "Debug a failing test",
        description: "Run one test under the debugger, read why it failed, and find the \
                      first wrong value.",
        arguments: &[
            Arg {
                name: "test",
                description: "The test as its runner names it (pytest node id, Go test, Rust \
                              test path, node:test name).",
                required: true,
            },
            Arg {
                name: "program",
                description: "The project, package or crate folder, or the test file.",
                required: false,
            },
        ],
        text: super::prompt_texts::failing_test,
    },
    PromptDef {
        name: "find_crash",
        title: "Find why a program crashes",
        description: "Run the program until it crashes, and read the stack and values \
                      where it does.",
        arguments: &[
            Arg {
                name: "program",
                description: "The program: a script, a binary, or a Go package folder.",
                required: true,
            },
            Arg {
                name: "args",
                description: "Its arguments, separated by spaces, or as a JSON array.",
                required: false,
            },
        ],
        text: super::prompt_texts::crash,
    },
    PromptDef {
        name: "explain_wrong_value",
        title: "Explain how a value got wrong",
        description: "Stop where an expression has a wrong value, and trace its parts \
                      back to where it went wrong.",
        arguments: &[
            Arg {
                name: "file",
                description: "The source file where the value is wrong.",
                required: true,
            },
            Arg {
                name: "line",
                description: "The line there (1-based).",
                required: true,
            },
            Arg {
                name: "expression",
                description: "The expression whose value is wrong.",
                required: true,
            },
            Arg {
                name: "program",
                description: "What to run, when it is not `file` (a binary, a test file).",
                required: false,
            },
        ],
        text: super::prompt_texts::wrong_value,
    },
];

/// The arguments given to a prompt, checked against what it takes.
pub(super) struct Given {
    values: Vec<(&'static str, String)>,
}

impl Given {
    /// The value of `name`, if given.
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of a required argument (checked present).
    pub(super) fn required(&self, name: &str) -> &str {
        self.get(name).unwrap_or_default()
    }
}

/// Every prompt, as `prompts/list` lists it.
pub fn list() -> Vec<Prompt> {
    PROMPTS
        .iter()
        .map(|p| {
            let arguments = p
                .arguments
                .iter()
                .map(|a| {
                    PromptArgument::new(a.name)
                        .with_description(a.description)
                        .with_required(a.required)
                })
                .collect();
            Prompt::new(p.name, Some(p.description), Some(arguments)).with_title(p.title)
        })
        .collect()
}

/// The prompt `name` with `arguments` filled in, or why not.
pub fn get(name: &str, arguments: Option<&JsonObject>) -> Result<GetPromptResult, ErrorData> {
    let Some(prompt) = PROMPTS.iter().find(|p| p.name == name) else {
        let names: Vec<&str> = PROMPTS.iter().map(|p| p.name).collect();
        return Err(refused(format!(
            "no prompt `{name}`; the prompts are {}",
            names.join(", ")
        )));
    };
    let given = check_arguments(prompt, arguments)?;
    let text = (prompt.text)(&given);
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(prompt.description),
    )
}

/// The arguments, each known, a string (or a number: `line`), within the length
/// bound, and every required one given.
fn check_arguments(prompt: &PromptDef, arguments: Option<&JsonObject>) -> Result<Given, ErrorData> {
    let takes = || {
        let names: Vec<String> = prompt
            .arguments
            .iter()
            .map(|a| match a.required {
                true => a.name.to_string(),
                false => format!("{} (optional)", a.name),
            })
            .collect();
        format!("`{}` takes {}", prompt.name, names.join(", "))
    };
    let mut values = Vec::new();
    for (key, value) in arguments.into_iter().flatten() {
        let Some(arg) = prompt.arguments.iter().find(|a| a.name == key) else {
            return Err(refused(format!("no argument `{key}`: {}", takes())));
        };
        let text = match value {
            Value::String(s) => s.trim().to_string(),
            Value::Number(n) => n.to_string(),
            Value::Null => continue,
            other => {
                return Err(refused(format!(
                    "argument `{key}` is {other}, not text: give it as a string"
                )))
            }
        };
        if text.chars().count() > MAX_PROMPT_ARGUMENT_CHARS {
            return Err(refused(format!(
                "argument `{key}` is longer than {MAX_PROMPT_ARGUMENT_CHARS} characters"
            )));
        }
        if !text.is_empty() {
            values.push((arg.name, text));
        }
    }
    for arg in prompt.arguments.iter().filter(|a| a.required) {
        if !values.iter().any(|(n, _)| *n == arg.name) {
            let what = arg.description.trim_end_matches('.');
            let mut what = what.chars();
            let first = what.next().map(|c| c.to_lowercase().to_string());
            return Err(refused(format!(
                "missing argument `{}` ({}{}); {}",
                arg.name,
                first.unwrap_or_default(),
                what.as_str(),
                takes()
            )));
        }
    }
    let given = Given { values };
    if let Some(line) = given.get("line") {
        if !line.parse::<u32>().is_ok_and(|n| n >= 1) {
            return Err(refused(format!(
                "argument `line` is `{line}`: give a line number, counted from 1"
            )));
        }
    }
    Ok(given)
}

fn refused(message: String) -> ErrorData {
    ErrorData::invalid_params(message, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> JsonObject {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn each_prompt_needs_its_required_arguments_and_names_them() {
        let err = get("find_crash", None).unwrap_err();
        assert!(
            err.message.contains("missing argument `program`"),
            "{}",
            err.message
        );
        assert!(
            err.message
                .contains("`find_crash` takes program, args (optional)"),
            "{}",
            err.message
        );
        let blank = get("debug_failing_test", Some(&args(json!({"test": "  "})))).unwrap_err();
        assert!(
            blank.message.contains("missing argument `test`"),
            "{}",
            blank.message
        );
        let unknown = get(
            "find_crash",
            Some(&args(json!({"program": "a", "colour": "red"}))),
        );
        assert!(unknown
            .unwrap_err()
            .message
            .contains("no argument `colour`"));
        let nope = get("fix_everything", None).unwrap_err();
        assert!(nope
            .message
            .contains("the prompts are debug_failing_test, find_crash, explain_wrong_value"));
    }

    #[test]
    fn a_line_must_be_a_line_number_and_long_arguments_are_refused() {
        let given = |line: Value| {
            get(
                "explain_wrong_value",
                Some(&args(
                    json!({"file": "a.py", "line": line, "expression": "x"}),
                )),
            )
        };
        assert!(given(json!(12)).is_ok(), "a number is taken as text");
        assert!(given(json!("0"))
            .unwrap_err()
            .message
            .contains("counted from 1"));
        assert!(given(json!("ten")).is_err());
        assert!(given(json!([1])).unwrap_err().message.contains("not text"));
        let long = "x".repeat(MAX_PROMPT_ARGUMENT_CHARS + 1);
        let err = get("find_crash", Some(&args(json!({"program": long})))).unwrap_err();
        assert!(err.message.contains("longer than 4096"), "{}", err.message);
    }
}
