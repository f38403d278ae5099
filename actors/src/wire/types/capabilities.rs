//! The `initialize` handshake: what the client tells the adapter about itself
//! ([`InitializeRequestArguments`]) and what the adapter can do ([`Capabilities`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Arguments of the `initialize` request: the client's identity and abilities.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeRequestArguments {
    /// The ID of the client using this adapter.
    #[serde(rename = "clientID", default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The human-readable name of the client using this adapter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_name: Option<String>,
    /// The ID of the debug adapter.
    #[serde(rename = "adapterID")]
    pub adapter_id: String,
    /// The ISO-639 locale of the client, such as `en-US`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// If true all line numbers are 1-based (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_start_at1: Option<bool>,
    /// If true all column numbers are 1-based (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns_start_at1: Option<bool>,
    /// The format of paths: `path` (native, the default) or `uri`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_format: Option<String>,
    /// The client supports the `type` attribute of variables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_variable_type: Option<bool>,
    /// The client supports paging of variables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_variable_paging: Option<bool>,
    /// The client supports the `runInTerminal` reverse request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_run_in_terminal_request: Option<bool>,
    /// The client supports memory references.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_memory_references: Option<bool>,
    /// The client supports progress reporting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_progress_reporting: Option<bool>,
    /// The client supports the `invalidated` event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_invalidated_event: Option<bool>,
    /// The client supports the `memory` event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_memory_event: Option<bool>,
    /// The client supports `argsCanBeInterpretedByShell` on `runInTerminal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_args_can_be_interpreted_by_shell: Option<bool>,
    /// The client supports the `startDebugging` reverse request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_start_debugging_request: Option<bool>,
    /// The client renders ANSI escape sequences in output.
    #[serde(
        rename = "supportsANSIStyling",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub supports_ansi_styling: Option<bool>,
}

/// What a debug adapter can do: the body of the `initialize` response, and the
/// changed part of a `capabilities` event (see [`Capabilities::merge`]).
///
/// Every flag is an `Option`: `None` means the adapter did not say, which the spec
/// reads as `false`. Capabilities the spec does not define are kept in [`other`].
///
/// [`other`]: Capabilities::other
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Capabilities {
    /// Supports the `configurationDone` request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_configuration_done_request: Option<bool>,
    /// Supports function breakpoints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_function_breakpoints: Option<bool>,
    /// Supports conditional breakpoints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_conditional_breakpoints: Option<bool>,
    /// Supports breakpoints that break after a number of hits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_hit_conditional_breakpoints: Option<bool>,
    /// Supports a side-effect-free `evaluate` for data hovers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_evaluate_for_hovers: Option<bool>,
    /// The exception filters `setExceptionBreakpoints` accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exception_breakpoint_filters: Option<Vec<ExceptionBreakpointsFilter>>,
    /// Supports `stepBack` and `reverseContinue`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_step_back: Option<bool>,
    /// Supports `setVariable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_set_variable: Option<bool>,
    /// Supports `restartFrame`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_restart_frame: Option<bool>,
    /// Supports `gotoTargets`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_goto_targets_request: Option<bool>,
    /// Supports `stepInTargets`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_step_in_targets_request: Option<bool>,
    /// Supports `completions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_completions_request: Option<bool>,
    /// Characters that trigger completion in a REPL (`.` if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_trigger_characters: Option<Vec<String>>,
    /// Supports `modules`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_modules_request: Option<bool>,
    /// Extra module attributes the adapter exposes, as columns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_module_columns: Option<Vec<ColumnDescriptor>>,
    /// Checksum algorithms the adapter supports (`MD5`, `SHA1`, `SHA256`, `timestamp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supported_checksum_algorithms: Option<Vec<String>>,
    /// Supports `restart` (instead of the client relaunching the adapter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_restart_request: Option<bool>,
    /// Supports `exceptionOptions` on `setExceptionBreakpoints`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_exception_options: Option<bool>,
    /// Supports `format` on `stackTrace`, `variables` and `evaluate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_value_formatting_options: Option<bool>,
    /// Supports `exceptionInfo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_exception_info_request: Option<bool>,
    /// Supports `terminateDebuggee` on `disconnect`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub support_terminate_debuggee: Option<bool>,
    /// Supports `suspendDebuggee` on `disconnect`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub support_suspend_debuggee: Option<bool>,
    /// Supports paging stack traces (`startFrame`, `levels`, `totalFrames`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_delayed_stack_trace_loading: Option<bool>,
    /// Supports `loadedSources`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_loaded_sources_request: Option<bool>,
    /// Supports log points (`logMessage` on source breakpoints).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_log_points: Option<bool>,
    /// Supports `terminateThreads`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_terminate_threads_request: Option<bool>,
    /// Supports `setExpression`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_set_expression: Option<bool>,
    /// Supports `terminate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_terminate_request: Option<bool>,
    /// Supports data breakpoints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_data_breakpoints: Option<bool>,
    /// Supports `readMemory`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_read_memory_request: Option<bool>,
    /// Supports `writeMemory`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_write_memory_request: Option<bool>,
    /// Supports `disassemble`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_disassemble_request: Option<bool>,
    /// Supports `cancel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_cancel_request: Option<bool>,
    /// Supports `breakpointLocations`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_breakpoint_locations_request: Option<bool>,
    /// Supports the `clipboard` context of `evaluate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_clipboard_context: Option<bool>,
    /// Supports `granularity` on the stepping requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_stepping_granularity: Option<bool>,
    /// Supports instruction breakpoints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_instruction_breakpoints: Option<bool>,
    /// Supports `filterOptions` on `setExceptionBreakpoints`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_exception_filter_options: Option<bool>,
    /// Supports `singleThread` on the execution requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_single_thread_execution_requests: Option<bool>,
    /// Supports `bytes` and `asAddress` on `dataBreakpointInfo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_data_breakpoint_bytes: Option<bool>,
    /// Breakpoint modes (such as hardware or software) the adapter offers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breakpoint_modes: Option<Vec<BreakpointMode>>,
    /// The adapter's output may contain ANSI escape sequences.
    #[serde(
        rename = "supportsANSIStyling",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub supports_ansi_styling: Option<bool>,
    /// Capabilities the spec does not define (such as debugpy's
    /// `supportsDebuggerProperties`), kept as the adapter sent them.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// Copies every field that `$update` sets into `$target`. The destructuring is
/// exhaustive, so a field added to [`Capabilities`] and not listed here fails to compile.
macro_rules! merge_set_fields {
    ($target:ident, $update:ident; $($field:ident),* $(,)?) => {{
        let Capabilities { $($field,)* other } = $update;
        $(
            if $field.is_some() {
                $target.$field = $field;
            }
        )*
        $target.other.extend(other);
    }};
}

impl Capabilities {
    /// Apply a `capabilities` event: every field set in `update` (and every key of its
    /// [`other`](Capabilities::other)) replaces the current value; fields `update`
    /// leaves out keep theirs.
    pub fn merge(&mut self, update: Capabilities) {
        merge_set_fields!(self, update;
            supports_configuration_done_request,
            supports_function_breakpoints,
            supports_conditional_breakpoints,
            supports_hit_conditional_breakpoints,
            supports_evaluate_for_hovers,
            exception_breakpoint_filters,
            supports_step_back,
            supports_set_variable,
            supports_restart_frame,
            supports_goto_targets_request,
            supports_step_in_targets_request,
            supports_completions_request,
            completion_trigger_characters,
            supports_modules_request,
            additional_module_columns,
            supported_checksum_algorithms,
            supports_restart_request,
            supports_exception_options,
            supports_value_formatting_options,
            supports_exception_info_request,
            support_terminate_debuggee,
            support_suspend_debuggee,
            supports_delayed_stack_trace_loading,
            supports_loaded_sources_request,
            supports_log_points,
            supports_terminate_threads_request,
            supports_set_expression,
            supports_terminate_request,
            supports_data_breakpoints,
            supports_read_memory_request,
            supports_write_memory_request,
            supports_disassemble_request,
            supports_cancel_request,
            supports_breakpoint_locations_request,
            supports_clipboard_context,
            supports_stepping_granularity,
            supports_instruction_breakpoints,
            supports_exception_filter_options,
            supports_single_thread_execution_requests,
            supports_data_breakpoint_bytes,
            breakpoint_modes,
            supports_ansi_styling,
        );
    }
}

/// An exception filter the adapter offers, to pass by `filter` id to
/// `setExceptionBreakpoints`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionBreakpointsFilter {
    /// The filter's internal ID, passed to `setExceptionBreakpoints`.
    #[serde(default)]
    pub filter: String,
    /// The filter's name, shown in the UI.
    #[serde(default)]
    pub label: String,
    /// Help text about the filter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the filter is on initially (`false` if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<bool>,
    /// Whether a condition may be given for this filter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_condition: Option<bool>,
    /// Help text about the condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition_description: Option<String>,
}

/// A column of the modules view: which [`Module`](super::Module) attribute it shows.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ColumnDescriptor {
    /// Name of the module attribute shown in this column.
    #[serde(default)]
    pub attribute_name: String,
    /// The column's header.
    #[serde(default)]
    pub label: String,
    /// How to format the values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The values' type: `string` (the default), `number`, `boolean` or `unixTimestampUTC`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// Width of the column in characters (a hint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<i64>,
}

/// A breakpoint mode the adapter offers (such as `hardware`), to pass as `mode` when
/// setting breakpoints.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BreakpointMode {
    /// The mode's internal ID, passed as `mode`.
    #[serde(default)]
    pub mode: String,
    /// The mode's name, shown in the UI.
    #[serde(default)]
    pub label: String,
    /// Help text about the mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Which kinds of breakpoint the mode applies to: `source`, `exception`, `data`,
    /// `instruction`, or values the spec does not list.
    #[serde(default)]
    pub applies_to: Vec<String>,
}
