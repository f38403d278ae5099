//! Bodies of the events about the debuggee and its session: stops, resumes, exits,
//! threads, output, breakpoints, modules, sources, processes and capabilities.
//! Progress, invalidation and memory events are in `progress.rs`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Breakpoint, Capabilities, Module, Source};

/// Body of the `stopped` event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoppedEventBody {
    /// Why execution stopped: `step`, `breakpoint`, `exception`, `pause`, `entry`,
    /// `goto`, `function breakpoint`, `data breakpoint`, `instruction breakpoint`, or
    /// values the spec does not list.
    #[serde(default)]
    pub reason: String,
    /// The full reason, for the user (such as `Paused on exception`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The thread that stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<i64>,
    /// The client should not move the focus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preserve_focus_hint: Option<bool>,
    /// More information, such as the exception's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// All threads stopped, not only `thread_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_threads_stopped: Option<bool>,
    /// IDs of the breakpoints that were hit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_breakpoint_ids: Option<Vec<i64>>,
}

/// Body of the `continued` event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContinuedEventBody {
    /// The thread that continued.
    #[serde(default)]
    pub thread_id: i64,
    /// All threads continued, not only `thread_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_threads_continued: Option<bool>,
}

/// Body of the `exited` event: the debuggee exited.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExitedEventBody {
    /// The debuggee's exit code (0 if the adapter left it out).
    #[serde(default)]
    pub exit_code: i64,
}

/// Body of the `terminated` event: debugging ended (the debuggee may still run).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TerminatedEventBody {
    /// If set, the adapter asks for a restart; pass the value as `__restart` to the
    /// next `launch` or `attach`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart: Option<Value>,
}

/// Body of the `thread` event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadEventBody {
    /// `started`, `exited`, or values the spec does not list.
    #[serde(default)]
    pub reason: String,
    /// The thread.
    #[serde(default)]
    pub thread_id: i64,
}

/// Body of the `output` event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OutputEventBody {
    /// `console` (assumed if absent), `important`, `stdout`, `stderr`, `telemetry`,
    /// or values the spec does not list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The output.
    #[serde(default)]
    pub output: String,
    /// Grouping: `start`, `startCollapsed` or `end`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// If above 0, pass to `variables` to list objects in the output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables_reference: Option<i64>,
    /// The source that produced the output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// The line that produced the output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<i64>,
    /// The column that produced the output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<i64>,
    /// Extra data (for `telemetry`, the data to send).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// Pass to `locations` to find where the output was produced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location_reference: Option<i64>,
}

/// Body of the `breakpoint` event: a breakpoint changed, appeared or went away.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BreakpointEventBody {
    /// `changed`, `new`, `removed`, or values the spec does not list.
    #[serde(default)]
    pub reason: String,
    /// The breakpoint, found by `id`; its other fields are the new values.
    #[serde(default)]
    pub breakpoint: Breakpoint,
}

/// Body of the `module` event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModuleEventBody {
    /// `new`, `changed`, `removed`, or values the spec does not list.
    #[serde(default)]
    pub reason: String,
    /// The module (only its `id` matters for `removed`).
    #[serde(default)]
    pub module: Module,
}

/// Body of the `loadedSource` event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadedSourceEventBody {
    /// `new`, `changed`, `removed`, or values the spec does not list.
    #[serde(default)]
    pub reason: String,
    /// The source.
    #[serde(default)]
    pub source: Source,
}

/// Body of the `process` event: the adapter started debugging a process.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProcessEventBody {
    /// The process's name, usually the path of its executable.
    #[serde(default)]
    pub name: String,
    /// The operating system's process ID.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_process_id: Option<i64>,
    /// The process runs on the adapter's machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_local_process: Option<bool>,
    /// How debugging started: `launch`, `attach` or `attachForSuspendedLaunch`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_method: Option<String>,
    /// The size of a pointer, in bits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer_size: Option<i64>,
}

/// Body of the `capabilities` event: the capabilities that changed, to apply with
/// [`Capabilities::merge`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CapabilitiesEventBody {
    /// The changed capabilities.
    #[serde(default)]
    pub capabilities: Capabilities,
}
