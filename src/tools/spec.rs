//! What a tool is to its callers: [`ToolSpec`] (name, description, argument schema,
//! annotations), and what a call gives back: [`ToolResult`], or a [`ToolError`] inside
//! it.

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::SessionError;

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

/// One tool of the catalogue, as an agent framework registers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolSpec {
    /// Canonical name, such as `debug.launch`.
    pub name: &'static str,
    /// What the tool does and when to use it, written for a model.
    pub description: &'static str,
    /// JSON Schema (2020-12) of the arguments, generated from their Rust type.
    pub input_schema: Map<String, Value>,
    /// What it does to the world.
    pub annotations: ToolAnnotations,
}

impl ToolSpec {
    /// The name over MCP, where several model APIs reject dots: `debug_launch`.
    pub fn mcp_name(&self) -> String {
        mcp_name(self.name)
    }
}

/// `debug.launch` -> `debug_launch`.
pub fn mcp_name(canonical: &str) -> String {
    canonical.replace('.', "_")
}

/// The answer to a tool call: structured content (JSON, snake case) and the same
/// rendered as text. An error is a result too, with `is_error` set and
/// `structured` holding `{code, error, hint}`.
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
        })
    }
}

impl From<ToolError> for ToolResult {
    fn from(err: ToolError) -> Self {
        Self {
            text: err.to_string(),
            structured: json!({ "code": err.code, "error": err.error, "hint": err.hint }),
            is_error: true,
        }
    }
}

/// A failed call: an HTTP-like code (404 no such session, 400 invalid state or
/// argument, 403 refused by the permission gate, 501 unsupported, 503 busy or over a
/// limit, 504 timed out, 500 otherwise), what went wrong, and what to do next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("error {code}: {error}. Next: {hint}")]
pub struct ToolError {
    /// The code.
    pub code: u16,
    /// What went wrong.
    pub error: String,
    /// What the agent can do next.
    pub hint: String,
}

impl ToolError {
    /// An error with this code, message and hint.
    pub fn new(code: u16, error: impl Into<String>, hint: impl Into<String>) -> Self {
        Self {
            code,
            error: error.into(),
            hint: hint.into(),
        }
    }

    /// A 400: an argument is missing or wrong.
    pub fn invalid(error: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::new(400, error, hint)
    }
}

impl From<SessionError> for ToolError {
    fn from(err: SessionError) -> Self {
        // A refusal for the state says what is allowed in tools an agent can call.
        if let SessionError::InvalidState {
            operation, state, ..
        } = &err
        {
            return Self {
                code: err.code(),
                error: format!(
                    "{} cannot run while the session is {state}; allowed now: {}",
                    super::operations::tools_named(*operation),
                    super::operations::allowed_tools(*state).join(", ")
                ),
                hint: err.hint(),
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
            error,
            hint: err.hint(),
        }
    }
}
