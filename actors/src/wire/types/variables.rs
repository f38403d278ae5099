//! Values: variables, expression evaluation, assignment and completions.

use serde::{Deserialize, Serialize};

use super::{Source, ValueFormat};

/// A variable: a name, a value, and a handle to its children if it has any.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Variable {
    /// The variable's name.
    #[serde(default)]
    pub name: String,
    /// The variable's value; may be multi-line, or empty to show nothing.
    #[serde(default)]
    pub value: String,
    /// The type of the value (if the client sent `supportsVariableType`).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// How to present the variable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presentation_hint: Option<VariablePresentationHint>,
    /// An expression that evaluates to this variable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluate_name: Option<String>,
    /// If above 0, pass to `variables` to list the children. Valid until execution
    /// resumes.
    #[serde(default)]
    pub variables_reference: i64,
    /// The number of named children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named_variables: Option<i64>,
    /// The number of indexed children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_variables: Option<i64>,
    /// A memory reference for the variable (for pointers, the address pointed to).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_reference: Option<String>,
    /// Pass to `locations` to find where the variable is declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declaration_location_reference: Option<i64>,
    /// Pass to `locations` to find where the value is declared (such as the function
    /// a function pointer points to).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_location_reference: Option<i64>,
}

/// How to present a variable or value.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VariablePresentationHint {
    /// The kind: `property`, `method`, `class`, `data`, `event`, `baseClass`,
    /// `innerClass`, `interface`, `mostDerivedClass`, `virtual`, or other values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Attributes such as `static`, `constant`, `readOnly`, `rawString`,
    /// `hasSideEffects` or `hasDataBreakpoint`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attributes: Option<Vec<String>>,
    /// Visibility: `public`, `private`, `protected`, `internal`, `final`, or other values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// The value is computed on demand (say by a getter): fetching it through
    /// `variables_reference` may be expensive or have side effects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lazy: Option<bool>,
}

/// Arguments of the `variables` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VariablesArguments {
    /// The container whose children to list, from the current stop.
    pub variables_reference: i64,
    /// Only `indexed` or only `named` children; both if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// Index of the first child to return (`supportsVariablePaging`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<i64>,
    /// Number of children to return; all if absent or 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    /// How to format the values (`supportsValueFormattingOptions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<ValueFormat>,
}

/// Body of the `variables` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VariablesResponseBody {
    /// The children (all, or the requested range).
    #[serde(default)]
    pub variables: Vec<Variable>,
}

/// Arguments of the `evaluate` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvaluateArguments {
    /// The expression.
    pub expression: String,
    /// The frame to evaluate in; the global scope if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<i64>,
    /// The line the expression comes from (for `hover`, say), if it comes from a source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<i64>,
    /// The column the expression comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// The source the expression comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// Where the request comes from: `watch`, `repl`, `hover`, `clipboard`,
    /// `variables`, or other values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// How to format the result (`supportsValueFormattingOptions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<ValueFormat>,
}

/// Body of the `evaluate` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvaluateResponseBody {
    /// The result.
    #[serde(default)]
    pub result: String,
    /// The result's type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// How to present the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presentation_hint: Option<VariablePresentationHint>,
    /// If above 0, pass to `variables` to list the result's children.
    #[serde(default)]
    pub variables_reference: i64,
    /// The number of named children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named_variables: Option<i64>,
    /// The number of indexed children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_variables: Option<i64>,
    /// A memory reference for the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_reference: Option<String>,
    /// Pass to `locations` to find where the value is declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_location_reference: Option<i64>,
}

/// Arguments of the `setVariable` request (`supportsSetVariable`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetVariableArguments {
    /// The container of the variable, from the current stop.
    pub variables_reference: i64,
    /// The variable's name in the container.
    pub name: String,
    /// The new value.
    pub value: String,
    /// How to format the response's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<ValueFormat>,
}

/// Body of the `setVariable` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetVariableResponseBody {
    /// The new value.
    #[serde(default)]
    pub value: String,
    /// The new value's type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// If above 0, pass to `variables` to list the new value's children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables_reference: Option<i64>,
    /// The number of named children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named_variables: Option<i64>,
    /// The number of indexed children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_variables: Option<i64>,
    /// A memory reference for the new value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_reference: Option<String>,
    /// Pass to `locations` to find where the new value is declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_location_reference: Option<i64>,
}

/// Arguments of the `setExpression` request (`supportsSetExpression`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetExpressionArguments {
    /// The l-value expression to assign to.
    pub expression: String,
    /// The expression whose value to assign.
    pub value: String,
    /// The frame to evaluate in; the global scope if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<i64>,
    /// How to format the response's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<ValueFormat>,
}

/// Body of the `setExpression` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetExpressionResponseBody {
    /// The new value.
    #[serde(default)]
    pub value: String,
    /// The new value's type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// How to present the new value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presentation_hint: Option<VariablePresentationHint>,
    /// If above 0, pass to `variables` to list the new value's children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables_reference: Option<i64>,
    /// The number of named children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named_variables: Option<i64>,
    /// The number of indexed children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_variables: Option<i64>,
    /// A memory reference for the new value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_reference: Option<String>,
    /// Pass to `locations` to find where the new value is declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_location_reference: Option<i64>,
}

/// Arguments of the `completions` request (`supportsCompletionsRequest`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompletionsArguments {
    /// The frame to complete in; the global scope if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<i64>,
    /// The text typed so far (one or more lines).
    pub text: String,
    /// The cursor's position within `text`.
    pub column: i64,
    /// The cursor's line within `text` (the first if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<i64>,
}

/// Body of the `completions` response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompletionsResponseBody {
    /// The possible completions.
    #[serde(default)]
    pub targets: Vec<CompletionItem>,
}

/// One completion proposal.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompletionItem {
    /// The label; also the text inserted unless `text` is set.
    #[serde(default)]
    pub label: String,
    /// The text to insert instead of the label, if non-empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The text to sort by instead of the label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_text: Option<String>,
    /// More about the item, such as its type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The item's type, such as `method`, `variable` or `keyword`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// Where in the request's `text` the completion starts (the request's column if
    /// absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<i64>,
    /// How many characters the completion replaces (0 if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<i64>,
    /// Start of the selection after insertion, within the inserted text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection_start: Option<i64>,
    /// Length of the selection after insertion (0 if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection_length: Option<i64>,
}
