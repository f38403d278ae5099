//! What a tool is to its callers: [`ToolSpec`] (name, description, argument schema,
//! annotations), and what a call gives back: [`ToolResult`], or a [`ToolError`] inside
//! it.

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::{ErrorCode, SessionError};

/// Hints about what a tool does to the world, as MCP defines them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ToolAnnotations {
    /// It changes nothing: inspection only.
    pub read_only: bool,
    /// It may change the debuggee's state in ways that cannot be undone (run
    /// arbitrary code, write memory or variables).
    pub destructive: bool,
    /// Its effects are not a closed set (an arbitrary expression or program).
    pub open_world: bool,
    /// Calling it again with the same arguments changes nothing more.
    pub idempotent: bool,
}

impl ToolAnnotations {
    /// Inspection: read-only, idempotent, closed world.
    pub const READ_ONLY: Self = Self {
        read_only: true,
        destructive: false,
        open_world: false,
        idempotent: true,
    };
    /// Changes the session (breakpoints): idempotent, not destructive.
    pub const SETTING: Self = Self {
        read_only: false,
        destructive: false,
        open_world: false,
        idempotent: true,
    };
    /// Moves execution on (continue, steps): neither idempotent nor destructive.
    pub const CONTROL: Self = Self {
        read_only: false,
        destructive: false,
        open_world: false,
        idempotent: false,
    };
    /// Starts a program or reaches a process outside dapvisor.
    pub const START: Self = Self {
        read_only: false,
        destructive: false,
        open_world: true,
        idempotent: false,
    };
    /// Runs arbitrary code in the debuggee.
    pub const ARBITRARY_CODE: Self = Self {
        read_only: false,
        destructive: true,
        open_world: true,
        idempotent: false,
    };
}

/// The argument fields whose values the debuggee evaluates: a breakpoint's
/// `condition`, its `hit_condition`, a logpoint's `log_message` (whose `{expr}` parts
/// are evaluated), a tracepoint's `collect` and the expressions to `watch`. A tool whose argument schema has a field so named, at any
/// depth, lists it in [`ToolSpec::code_arguments`].
pub const CODE_ARGUMENTS: &[&str] = &[
    "condition",
    "hit_condition",
    "log_message",
    "collect",
    "watch",
];

/// One tool of the catalogue, as an agent framework registers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolSpec {
    /// Canonical name, such as `debug.launch`.
    pub name: &'static str,
    /// What the tool does and when to use it, written for a model; the limits it
    /// states are the catalogue's [`Bounds`](crate::tools::Bounds).
    pub description: String,
    /// JSON Schema (2020-12) of the arguments, generated from their Rust type.
    pub input_schema: Map<String, Value>,
    /// What it does to the world, as MCP's hints say it (the worst case over its
    /// arguments and adapters).
    pub annotations: ToolAnnotations,
    /// The effect it always has, whatever its arguments: what an allow rule naming the
    /// tool grants. A call's own effects, which its arguments and adapter can add to,
    /// are [`classify`](crate::permission::classify)'s.
    pub effect: crate::permission::Effect,
    /// How its arguments and the adapter it reaches add to [`effect`](Self::effect), as
    /// [`classify`](crate::permission::classify) finds them.
    #[serde(skip)]
    pub adds: crate::permission::Adds,
    /// The argument fields (at any depth: `condition` also names
    /// `breakpoints[].condition`) whose values run as code in the debuggee. A call
    /// that carries any of them runs code (the permission gate's
    /// [`Effect::Code`](crate::permission::Effect::Code), or commands on the host on
    /// adapters whose expressions can), whatever the tool's own effect.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub code_arguments: Vec<&'static str>,
    /// JSON Schema of the structured result of a successful call, for the tools whose
    /// result has a fixed shape, generated from the Rust type that builds it; `None`
    /// for the others, and where the [`ToolProfile`](crate::tools::ToolProfile) serves none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Map<String, Value>>,
}

impl ToolSpec {
    /// The name over MCP, where several model APIs reject dots: `debug_launch`.
    pub fn mcp_name(&self) -> String {
        mcp_name(self.name)
    }

    /// Where `arguments` carry code for the debuggee to run: the path of each
    /// [`code_arguments`](Self::code_arguments) field set to something other than
    /// `null` or `""`, such as `condition` or `breakpoints[1].log_message`. Empty for
    /// a call that carries none.
    pub fn code_in(&self, arguments: &Value) -> Vec<String> {
        let mut found = Vec::new();
        if !self.code_arguments.is_empty() {
            collect_code(&self.code_arguments, arguments, String::new(), &mut found);
        }
        found
    }
}

fn collect_code(fields: &[&str], value: &Value, path: String, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let here = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                let set = match child {
                    Value::Null => false,
                    Value::String(text) => !text.is_empty(),
                    Value::Array(items) => !items.is_empty(),
                    _ => true,
                };
                if set && fields.contains(&key.as_str()) {
                    found.push(here);
                } else {
                    collect_code(fields, child, here, found);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                collect_code(fields, child, format!("{path}[{i}]"), found);
            }
        }
        _ => {}
    }
}

/// The [`CODE_ARGUMENTS`] named anywhere in `schema`'s properties, in
/// [`CODE_ARGUMENTS`] order.
pub(crate) fn code_arguments_of(schema: &Map<String, Value>) -> Vec<&'static str> {
    fn walk(value: &Value, seen: &mut Vec<&'static str>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Object(props)) = map.get("properties") {
                    for name in CODE_ARGUMENTS {
                        if props.contains_key(*name) && !seen.contains(name) {
                            seen.push(name);
                        }
                    }
                }
                map.values().for_each(|v| walk(v, seen));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, seen)),
            _ => {}
        }
    }
    let mut seen = Vec::new();
    walk(&Value::Object(schema.clone()), &mut seen);
    CODE_ARGUMENTS
        .iter()
        .copied()
        .filter(|n| seen.contains(n))
        .collect()
}

/// `debug.launch` -> `debug_launch`.
pub fn mcp_name(canonical: &str) -> String {
    canonical.replace('.', "_")
}

/// How a caller calls the tools, and so how every text it reads names them: the
/// descriptions, errors, hints and "allowed now" lists of a catalogue. A
/// [`ToolCatalogue`](crate::tools::ToolCatalogue) takes either name in a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ToolNames {
    /// `debug.launch`: the names of [`ToolSpec::name`], for the Rust API.
    #[default]
    Canonical,
    /// `debug_launch`: the names an MCP client calls ([`ToolSpec::mcp_name`]).
    Mcp,
    /// `--eval`, `dapvisor trace`: what a person at `dapvisor debug` gives for the
    /// tool. A sentence naming a tool the command line has nothing for is left out
    /// of a text (a person there cannot act on it), and an "allowed now" list names
    /// only the flags and commands.
    Cli,
}

impl ToolNames {
    /// The tool `canonical` (`debug.launch`) as this caller calls it.
    pub fn of(self, canonical: &str) -> String {
        match self {
            ToolNames::Canonical => canonical.to_string(),
            ToolNames::Mcp => mcp_name(canonical),
            ToolNames::Cli => super::cli_names::cli_term(canonical)
                .map_or_else(|| canonical.to_string(), String::from),
        }
    }

    /// `text` with every tool it names as this caller calls it. Only whole words that
    /// are a tool's canonical name change (`debug.step_*` or `debug.py` do not).
    pub fn in_text(self, text: &str) -> String {
        if self == ToolNames::Canonical || !text.contains("debug.") {
            return text.to_string();
        }
        if self == ToolNames::Cli {
            return super::cli_names::in_text(text, true);
        }
        rename_tools(text, |name| self.of(name))
    }

    /// A hint (what to do next) as this caller calls the tools it names: as
    /// [`Self::in_text`], but at the command line one that sends a person to a tool
    /// they have no flag for says nothing.
    pub fn in_hint(self, hint: &str) -> String {
        match self {
            ToolNames::Cli => super::cli_names::in_text(hint, false),
            names => names.in_text(hint),
        }
    }
}

/// `text` with each whole word that is a tool's canonical name as `rename` says.
pub(super) fn rename_tools(text: &str, mut rename: impl FnMut(&str) -> String) -> String {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("debug.") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let name_len = "debug.".len()
            + from["debug.".len()..]
                .find(|c: char| !word(c))
                .unwrap_or(from.len() - "debug.".len());
        let name = &from[..name_len];
        let starts_a_word = !out.chars().next_back().is_some_and(word);
        let is_tool = crate::tools::catalogue_tools()
            .iter()
            .any(|t| t.spec.name == name);
        if starts_a_word && is_tool {
            out.push_str(&rename(name));
        } else {
            out.push_str(name);
        }
        rest = &from[name_len..];
    }
    out.push_str(rest);
    out
}

/// The answer to a tool call: structured content (JSON, snake case) and the same
/// rendered as text. An error is a result too, with `is_error` set and
/// `structured` holding `{code, kind, error, hint}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolResult {
    /// The result as JSON.
    pub structured: Value,
    /// The result as text for a model to read.
    pub text: String,
    /// Whether the call failed.
    pub is_error: bool,
}

impl ToolResult {
    /// A successful result.
    pub fn ok(structured: Value, text: String) -> Self {
        Self {
            structured,
            text,
            is_error: false,
        }
    }

    /// The error this result carries, if it is one.
    pub fn error(&self) -> Option<ToolError> {
        if !self.is_error {
            return None;
        }
        Some(ToolError {
            code: self.structured["code"].as_u64().unwrap_or(500) as u16,
            error: self.structured["error"].as_str().unwrap_or("").to_string(),
            hint: self.structured["hint"].as_str().unwrap_or("").to_string(),
            kind: self.structured["kind"].as_str().unwrap_or("").to_string(),
            allowed_now: None,
        })
    }
}

impl From<ToolError> for ToolResult {
    fn from(err: ToolError) -> Self {
        Self {
            text: err.to_string(),
            structured: json!({
                "code": err.code,
                "kind": err.kind,
                "error": err.error,
                "hint": err.hint,
            }),
            is_error: true,
        }
    }
}

/// A failed call: a code, a finer `kind`, what went wrong, and what to do next.
///
/// The codes are the second seed's: 404 no such session, 400 invalid state or
/// argument, 501 unsupported, 500 otherwise. `kind` tells apart what shares a code,
/// 500 above all: `forbidden` (refused by the permission gate or `--root`),
/// `not_owner` (another client's session, [`NOT_OWNER`](crate::tools::NOT_OWNER)),
/// `unknown_session` (404: a call that would change a session, on an id no session
/// has, [`UNKNOWN_SESSION`](crate::tools::UNKNOWN_SESSION)), `limit`,
/// `busy`, `timeout`, `adapter_crashed`, `internal`, ... (see
/// [`ErrorCode`](crate::ErrorCode) for the runtime's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("error {code} ({kind}): {error}. Next: {hint}")]
pub struct ToolError {
    /// The code: 404, 400, 501 or 500.
    pub code: u16,
    /// What kind of failure, in snake case, such as `not_found`, `invalid_state`,
    /// `forbidden` or `timeout`.
    pub kind: String,
    /// What went wrong.
    pub error: String,
    /// What the agent can do next.
    pub hint: String,
    /// For a call the session's state refused: the state, whose tools the catalogue
    /// that answers lists at the end of [`error`](Self::error) ("allowed now: ..."),
    /// those it serves, as its caller calls them.
    #[serde(skip)]
    pub(crate) allowed_now: Option<crate::SessionState>,
}

/// The [`ToolError::kind`] a code gets unless a finer one is given.
fn default_kind(code: u16) -> &'static str {
    match code {
        404 => "not_found",
        400 => "invalid_argument",
        501 => "unsupported",
        _ => "internal",
    }
}

impl ToolError {
    /// An error with this code, message and hint, of the code's plain kind
    /// (`not_found`, `invalid_argument`, `unsupported`, `internal`).
    pub fn new(code: u16, error: impl Into<String>, hint: impl Into<String>) -> Self {
        Self {
            code,
            kind: default_kind(code).to_string(),
            error: error.into(),
            hint: hint.into(),
            allowed_now: None,
        }
    }

    /// A 400: an argument is missing or wrong.
    pub fn invalid(error: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::new(400, error, hint)
    }

    /// The same error, of this `kind`.
    pub fn with_kind(mut self, kind: impl Into<String>) -> Self {
        self.kind = kind.into();
        self
    }
}

impl From<SessionError> for ToolError {
    fn from(err: SessionError) -> Self {
        // A refusal for the state says what is allowed in tools an agent can call.
        if let SessionError::InvalidState {
            operation, state, ..
        } = &err
        {
            if *state == crate::SessionState::Terminated {
                return crate::tools::results::exit_signal::ended_error(format!(
                    "{} cannot run: the session has ended",
                    crate::tools::catalogue::operations::tools_named(*operation),
                ));
            }
            return Self {
                code: err.code(),
                kind: err.kind().to_string(),
                error: format!(
                    "{} cannot run while the session is {state}",
                    crate::tools::catalogue::operations::tools_named(*operation),
                ),
                hint: err.hint(),
                allowed_now: Some(*state),
            };
        }
        // A raw request the session keeps to itself names the tools that do its job.
        if let SessionError::ReservedCommand {
            command,
            why,
            operations,
            ..
        } = &err
        {
            let tools: Vec<&str> = operations
                .iter()
                .flat_map(|op| crate::tools::catalogue::operations::tools_for(*op))
                .collect();
            return Self {
                code: err.code(),
                kind: err.kind().to_string(),
                error: format!(
                    "`{command}` cannot be sent as a raw request: {why}; instead, use {}",
                    tools.join(", ")
                ),
                hint: err.hint(),
                allowed_now: None,
            };
        }
        let mut error = err.to_string();
        // A failed start carries the program's output so far (a build error, say).
        if let SessionError::StartFailed { output, .. } = &err {
            let output = output.trim();
            if !output.is_empty() {
                error.push_str("; output so far:\n");
                error.push_str(output);
            }
        }
        Self {
            code: err.code(),
            kind: err.kind().to_string(),
            error,
            hint: err.hint(),
            allowed_now: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ToolNames;

    #[test]
    fn a_text_names_the_tools_as_its_caller_calls_them_and_nothing_else() {
        let text = "call debug.wait, or debug.pause. debug.step_* and debug.py and \
                    mydebug.launch stay; debug.nosuch too";
        assert_eq!(ToolNames::Canonical.in_text(text), text);
        assert_eq!(
            ToolNames::Mcp.in_text(text),
            "call debug_wait, or debug_pause. debug.step_* and debug.py and \
             mydebug.launch stay; debug.nosuch too"
        );
        assert_eq!(ToolNames::Mcp.of("debug.launch"), "debug_launch");
        assert_eq!(ToolNames::Canonical.of("debug.launch"), "debug.launch");
    }
}
