//! The results of the inspection tools, whose shape is fixed (`debug.threads`,
//! `debug.stack_trace`, `debug.scopes`, `debug.variables`, `debug.evaluate`): each
//! type here is the one home of its result's shape, serialized as the structured
//! content and described by the tool's output schema. [`VariableEntry`] is also a
//! stop's locals.

use schemars::JsonSchema;
use serde::Serialize;

use crate::wire::types::{Scope, StackFrame, Thread, Variable};

/// The result of `debug.threads`: a page of the program's threads.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ThreadsResult {
    /// The threads of this page.
    pub threads: Vec<ThreadEntry>,
    /// How many threads the program has.
    pub total: usize,
    /// The index of the first thread of this page.
    pub offset: usize,
    /// Whether threads follow this page.
    pub truncated: bool,
    /// The `offset` of the next page, when `truncated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
}

/// One thread as `debug.threads` lists it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ThreadEntry {
    /// Its thread id.
    pub id: i64,
    /// Its name.
    pub name: String,
}

impl From<&Thread> for ThreadEntry {
    fn from(thread: &Thread) -> Self {
        Self {
            id: thread.id,
            name: thread.name.clone(),
        }
    }
}

/// The result of `debug.stack_trace`: a page of one thread's frames, innermost first.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct StackTraceResult {
    /// The thread whose stack this is.
    pub thread_id: i64,
    /// The frames of this page.
    pub frames: Vec<FrameEntry>,
    /// The index of the first frame of this page (0: the innermost).
    pub start_frame: usize,
    /// Whether frames follow this page.
    pub truncated: bool,
    /// How deep the stack is, when the adapter says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_frames: Option<usize>,
    /// The `start_frame` of the next page, when `truncated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_start_frame: Option<usize>,
}

/// One frame as `debug.stack_trace` lists it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct FrameEntry {
    /// Its frame id, for `frame_id` arguments.
    pub id: i64,
    /// The function's name.
    pub name: String,
    /// The source's path (or name, for sources without one); `null` without a source.
    pub file: Option<String>,
    /// The 1-based line.
    pub line: i64,
    /// The column.
    pub column: i64,
}

impl From<&StackFrame> for FrameEntry {
    fn from(frame: &StackFrame) -> Self {
        Self {
            id: frame.id,
            name: frame.name.clone(),
            file: crate::tools::results::render::frame_file(frame),
            line: frame.line,
            column: frame.column,
        }
    }
}

/// The result of `debug.scopes`: the scopes of one frame.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ScopesResult {
    /// The frame whose scopes these are.
    pub frame_id: i64,
    /// Its scopes, in the adapter's order.
    pub scopes: Vec<ScopeEntry>,
}

/// One scope as `debug.scopes` lists it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ScopeEntry {
    /// Its name, such as `Locals`.
    pub name: String,
    /// What to pass debug.variables to read it.
    pub variables_reference: i64,
    /// Whether reading it is costly for the adapter.
    pub expensive: bool,
}

impl From<&Scope> for ScopeEntry {
    fn from(scope: &Scope) -> Self {
        Self {
            name: scope.name.clone(),
            variables_reference: scope.variables_reference,
            expensive: scope.expensive,
        }
    }
}

/// The result of `debug.evaluate`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct EvaluateResult {
    /// The value, cut to the call's characters.
    pub result: String,
    /// Its type, when the adapter says.
    #[serde(rename = "type")]
    pub type_: Option<String>,
    /// Above 0: what to pass debug.variables to expand the value.
    pub variables_reference: i64,
    /// The frame it was evaluated in.
    pub frame_id: i64,
    /// Where the value is in memory, when the adapter says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_reference: Option<String>,
    /// `true` when `result` was cut (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// How many characters were cut off `result`, when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_truncated_chars: Option<usize>,
}

/// The result of `debug.variables`: a page of a scope's variables or a value's members.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct VariablesResult {
    /// Whose variables these are.
    pub variables_reference: i64,
    /// The variables of this page.
    pub variables: Vec<VariableEntry>,
    /// How many there are in all; `null` when a filtered answer does not tell.
    pub total: Option<usize>,
    /// The index of the first variable of this page.
    pub offset: usize,
    /// The most variables a page holds.
    pub count: usize,
    /// Whether variables follow this page.
    pub truncated: bool,
    /// `true` when the page ended at the characters budget of its values (absent
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_reached: Option<bool>,
    /// The `offset` of the next page, when `truncated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
}

/// A variable as tools show it (in `debug.variables` and in a stop's locals).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct VariableEntry {
    /// Its name.
    pub name: String,
    /// Its value, cut to the call's characters.
    pub value: String,
    /// Its type, when the adapter says.
    #[serde(rename = "type")]
    pub type_: Option<String>,
    /// Above 0: what to pass debug.variables to expand it.
    pub variables_reference: i64,
    /// Where it is in memory, when the adapter says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_reference: Option<String>,
    /// How many characters were cut off `value`, when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_truncated_chars: Option<usize>,
}

impl VariableEntry {
    /// `var`, its value cut to `max_chars`.
    pub fn cut(var: &Variable, max_chars: usize) -> Self {
        let (value, cut) = crate::tools::results::render::cut_value(&var.value, max_chars);
        Self {
            name: var.name.clone(),
            value,
            type_: var.type_.clone(),
            variables_reference: var.variables_reference,
            memory_reference: var.memory_reference.clone(),
            value_truncated_chars: (cut > 0).then_some(cut),
        }
    }
}
