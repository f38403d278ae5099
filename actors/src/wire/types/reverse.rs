//! Reverse requests, sent by the adapter to the client: `runInTerminal` and
//! `startDebugging`. Their arguments come from the adapter, so required fields have
//! defaults here too.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Arguments of the `runInTerminal` reverse request: run a command (usually the
/// debuggee) in a terminal.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunInTerminalRequestArguments {
    /// `integrated` (the default) or `external`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The terminal's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The working directory; empty means none was given.
    #[serde(default)]
    pub cwd: String,
    /// The command and its arguments; the first is the program. Passed verbatim.
    #[serde(default)]
    pub args: Vec<String>,
    /// Environment changes: a string sets the variable, `None` (JSON `null`) removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<BTreeMap<String, Option<String>>>,
    /// The client may let a shell interpret the arguments instead of escaping them
    /// (`supportsArgsCanBeInterpretedByShell`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args_can_be_interpreted_by_shell: Option<bool>,
}

/// Body of the response to `runInTerminal`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunInTerminalResponseBody {
    /// The process ID of the command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_id: Option<i64>,
    /// The process ID of the terminal's shell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shell_process_id: Option<i64>,
}

/// Arguments of the `startDebugging` reverse request: start a child session of the
/// same adapter type.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartDebuggingRequestArguments {
    /// The `launch` or `attach` arguments of the new session.
    #[serde(default)]
    pub configuration: Map<String, Value>,
    /// `launch` or `attach`: which request starts the new session.
    #[serde(default)]
    pub request: String,
}
