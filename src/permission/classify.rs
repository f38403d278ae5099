//! [`classify`]: the effects of one call, from its tool, its arguments and the adapter
//! it reaches. Each tool has one effect it always has ([`tool_effect`]); its arguments
//! and its adapter can add others (a breakpoint's condition is code; lldb-dap's
//! console runs commands on the host; ending a program a session attached to touches
//! a process dapvisor did not start; a launch's environment variables not known to be
//! inert are code).

use serde_json::Value;

use crate::tools::ToolSpec;

use super::adapters::{AdapterTraits, Adapters};
use super::custom::classify_custom;
use super::effect::{Effect, Effects, Found};
use super::env::EnvAllowlist;

/// How a tool's arguments and the adapter it reaches add to the effect it always has,
/// as [`classify`] finds them. Each tool's description in the catalogue says which one
/// it is; besides, the code its arguments carry (a condition, a log message) adds to
/// every tool's ([`ToolSpec::code_in`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Adds {
    /// Nothing but the code its arguments carry.
    #[default]
    Nothing,
    /// An evaluation: an expression, or console input, by its context and adapter.
    Evaluation,
    /// A watch expression it adds (`add`).
    WatchExpression,
    /// The new value of a variable, an expression the adapter evaluates.
    VariableValue,
    /// An assignable expression and its new value, both evaluated.
    Assignment,
    /// A write into the debuggee's memory.
    MemoryWrite,
    /// Any DAP request, rated by what its command does (`custom.rs`).
    CustomRequest,
    /// A launch: its environment, a module, a test runner's or the adapter's own
    /// arguments.
    Launch,
    /// An attach to a process dapvisor did not start.
    Attach,
    /// Ending and starting again the session's program, replaying what its launch did.
    Restart,
    /// Ending the session's program (or some of its threads): a foreign process's when
    /// the session attached to one.
    Ending,
    /// A data breakpoint's `name`, an expression unless it names its container.
    DataBreakpointName,
    /// Exception options, whose paths some adapters evaluate.
    ExceptionOptions,
    /// Instruction references, which some adapters evaluate.
    InstructionReferences,
    /// Completions, which some adapters compute by running code.
    Completions,
    /// A session shown to a person's editor: with `control: true` the editor may
    /// move the program, which the exposure is rated as (`debug.expose`).
    EditorControl,
    /// Two runs (`debug.diff`), each also gated as the launch it is; a call that only
    /// reads on a kept diff (`diff_id` and its cursor alone) runs nothing: a read.
    DiffRuns,
}

impl Adds {
    /// Whether what it adds depends on where the call lands.
    pub fn depends_on_target(self) -> bool {
        !matches!(
            self,
            Adds::Nothing | Adds::MemoryWrite | Adds::EditorControl | Adds::DiffRuns
        )
    }
}

/// The effect the tool called `name` always has, as its description in the catalogue
/// says; `None` for a name no tool has (the gate then takes it for [`Effect::Host`]).
pub fn tool_effect(name: &str) -> Option<Effect> {
    crate::tools::tool_effects()
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, e)| *e)
}

/// What the gate knows of where a call lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallTarget {
    /// The adapters it may reach.
    pub adapters: Adapters,
    /// The debug session it acts on, as the call names it.
    pub session: Option<String>,
    /// The process dapvisor did not start that the session attached to, said for a
    /// person (`pid 1234`); for a session not known yet, why it may be one.
    pub attached_to: Option<String>,
    /// For `debug.restart`: what the session's launch did beyond starting its program
    /// (its environment, a module, runner or launch arguments), which the restart does
    /// again; empty otherwise.
    pub replays: Vec<Found>,
}

impl CallTarget {
    /// A call on no session, reaching `adapters`.
    pub fn reaching(adapters: Adapters) -> Self {
        Self {
            adapters,
            session: None,
            attached_to: None,
            replays: Vec::new(),
        }
    }

    /// A call the gate knows nothing about the landing of: any adapter, and (when
    /// it names a session) possibly an attached one.
    pub fn unknown(session: Option<String>) -> Self {
        let attached_to = session
            .as_ref()
            .map(|id| format!("session {id} is not known yet and may attach to one"));
        Self {
            adapters: Adapters::Any,
            session,
            attached_to,
            replays: Vec::new(),
        }
    }
}

/// Whether [`classify`] needs to know where a call lands, or finds the same effects
/// wherever it does: the tool's own effect alone. Looking a session up costs a round
/// trip to it, which the calls that only read or move the program need not pay.
pub fn depends_on_target(tool: &ToolSpec, arguments: &Value) -> bool {
    let by_tool = tool.adds.depends_on_target();
    by_tool || !tool.code_in(arguments).is_empty()
}

/// Every effect of calling `tool` with `arguments` on `target`, with only the
/// built-in [`INERT_ENV`](super::INERT_ENV) taken for inert in a launch's `env` (the
/// gate's own [`PermissionGate::classify`](super::PermissionGate::classify) adds the
/// user's `--allow-env` patterns).
pub fn classify(tool: &ToolSpec, arguments: &Value, target: &CallTarget) -> Effects {
    classify_with(tool, arguments, target, &EnvAllowlist::default())
}

/// [`classify`], with the variables `env` allows taken for inert.
pub(super) fn classify_with(
    tool: &ToolSpec,
    arguments: &Value,
    target: &CallTarget,
    env: &EnvAllowlist,
) -> Effects {
    let adapters = &target.adapters;
    let text = |field: &str| arguments.get(field).and_then(Value::as_str).unwrap_or("");
    let base = tool_effect(tool.name).unwrap_or(Effect::Host);
    let mut found = Vec::new();
    match tool.adds {
        Adds::Evaluation => found.push(evaluation(adapters, arguments)),
        Adds::WatchExpression => {
            found.push(Found::new(base, base.meaning(), ""));
            if is_set(arguments.get("add")) {
                found.push(expression(adapters, "add".into()));
            }
        }
        Adds::VariableValue => found.push(expression(adapters, "value".into())),
        Adds::Assignment => found.push(expression(adapters, "expression, value".into())),
        Adds::MemoryWrite => found.push(Found::new(
            Effect::Code,
            "writes the debuggee's memory",
            format!("memory_reference: {}", text("memory_reference")),
        )),
        Adds::CustomRequest => found.extend(classify_custom(arguments, target)),
        Adds::Launch => found.extend(launch(arguments, env)),
        Adds::Attach => found.push(Found::new(
            Effect::Foreign,
            Effect::Foreign.meaning(),
            attach_carrier(arguments),
        )),
        Adds::Restart => {
            found.push(ending(base, target));
            found.extend(target.replays.iter().cloned());
        }
        Adds::Ending => found.push(ending(base, target)),
        Adds::DataBreakpointName => {
            found.push(Found::new(base, base.meaning(), ""));
            if !names_a_container(arguments) {
                found.push(expression(adapters, "name".into()));
            }
        }
        Adds::ExceptionOptions => {
            found.push(Found::new(base, base.meaning(), ""));
            found.extend(evaluated_list(
                arguments,
                adapters,
                "exception_options",
                "path",
                |t| t.evaluates_exception_names,
            ));
        }
        Adds::InstructionReferences => {
            found.push(Found::new(base, base.meaning(), ""));
            found.extend(evaluated_list(
                arguments,
                adapters,
                "breakpoints",
                "instruction_reference",
                |t| t.evaluates_instruction_references,
            ));
        }
        Adds::Completions => {
            let (effect, what) = adapters.strongest(|t| t.completions);
            let carrier = if effect == Effect::Read { "" } else { "text" };
            found.push(Found::new(effect, what, carrier));
        }
        Adds::Nothing => found.push(Found::new(base, base.meaning(), "")),
        Adds::EditorControl => {
            found.push(Found::new(base, base.meaning(), ""));
            if arguments.get("control").and_then(Value::as_bool) == Some(true) {
                found.push(Found::new(
                    Effect::Control,
                    "lets a person's editor move the program",
                    "control",
                ));
            }
        }
        Adds::DiffRuns => found.push(if reads_a_kept_diff(arguments) {
            Found::new(Effect::Read, "reads a diff made before", "diff_id")
        } else {
            Found::new(base, base.meaning(), "")
        }),
    }
    // Conditions, hit conditions and log messages are expressions the adapter
    // evaluates, whatever the tool.
    found.extend(
        tool.code_in(arguments)
            .into_iter()
            .map(|carrier| expression(adapters, carrier)),
    );
    Effects(found)
}

/// Whether a `debug.diff` call only reads on a diff made before: `diff_id` with none
/// of the fields that make runs (an allowlist: any other field makes it a new diff's,
/// which the handler refuses beside `diff_id`, and the gate rates as one).
fn reads_a_kept_diff(arguments: &Value) -> bool {
    const READING: &[&str] = &["diff_id", "cursor", "limit"];
    let Some(fields) = arguments.as_object() else {
        return false;
    };
    fields.get("diff_id").is_some_and(Value::is_string)
        && fields
            .iter()
            .all(|(name, value)| READING.contains(&name.as_str()) || value.is_null())
}

/// An expression the adapters evaluate, carried by `carrier`.
pub(super) fn expression(adapters: &Adapters, carrier: String) -> Found {
    let (effect, what) = adapters.strongest(|t| t.expressions);
    Found::new(effect, what, carrier)
}

/// The contexts in which an `evaluate` is an expression rather than console input
/// (DAP's own values besides `repl`); any other context, one an adapter may read as
/// its console's, counts as `repl`.
const EXPRESSION_CONTEXTS: &[&str] = &["watch", "hover", "clipboard", "variables"];

/// An `evaluate` with `arguments` (DAP's or `debug.evaluate`'s: `context` is spelt
/// alike) as each adapter is sent it: the context named, or the adapter's own for
/// an evaluation that names none ([`AdapterFlavor::evaluate_context`], which the
/// session core sends); console input in `repl`, else an expression.
///
/// [`AdapterFlavor::evaluate_context`]: crate::registry::AdapterFlavor::evaluate_context
pub(super) fn evaluation(adapters: &Adapters, arguments: &Value) -> Found {
    let in_console = |t: &AdapterTraits| is_console(&t.flavor.evaluate_context(Some(arguments)));
    let (effect, what) = adapters.strongest(|t| {
        if in_console(t) {
            t.console
        } else {
            t.expressions
        }
    });
    let carrier = match arguments.get("context").filter(|c| !c.is_null()) {
        Some(named) if is_console(named) => {
            format!(
                "context: {}",
                named.as_str().map_or(named.to_string(), str::to_string)
            )
        }
        // Said where it changes what the call does: the console is not the expressions.
        None if adapters
            .rows()
            .into_iter()
            .any(|t| in_console(t) && t.console != t.expressions) =>
        {
            "expression, in the repl context the adapter gets when none is named".to_string()
        }
        _ => "expression".to_string(),
    };
    Found::new(effect, what, carrier)
}

/// Whether an `evaluate` sent in `context` is console input: any context but DAP's
/// expression ones.
fn is_console(context: &Value) -> bool {
    !EXPRESSION_CONTEXTS.contains(&context.as_str().unwrap_or(""))
}

/// Ending (or restarting) a session's program: a foreign process's when the session
/// attached to one, else `base`.
pub(super) fn ending(base: Effect, target: &CallTarget) -> Found {
    match &target.attached_to {
        Some(process) => Found::new(
            Effect::Foreign,
            Effect::Foreign.meaning(),
            match &target.session {
                Some(id) if !process.contains(id.as_str()) => {
                    format!("session {id} attached to {process}")
                }
                _ => process.clone(),
            },
        ),
        None => Found::new(base, base.meaning(), ""),
    }
}

/// The effects of a `debug.launch`: it starts a process (opening a core dump reads
/// one that has ended); the environment variables
/// not known to be inert, a module run instead of the program, the test runner's own
/// arguments and the adapter's own launch arguments add more.
fn launch(arguments: &Value, env: &EnvAllowlist) -> Vec<Found> {
    let text = |field: &str| arguments.get(field).and_then(Value::as_str).unwrap_or("");
    let (program, test) = (text("program"), text("test"));
    let carrier = match (program.is_empty(), test.is_empty()) {
        (_, false) => format!("test: {test}"),
        (false, true) => format!("program: {program}"),
        (true, true) => String::new(),
    };
    // A C, C++ or Rust source is built first: its compiler runs on the host.
    let what = match crate::SourceLanguage::named(std::path::Path::new(program)) {
        Some(_) if test.is_empty() => "builds the source with its compiler, then starts it",
        _ => Effect::Start.meaning(),
    };
    let core = text("core");
    // A core dump is the memory of a process that has ended: opening it runs nothing.
    let mut found = match core.is_empty() {
        true => vec![Found::new(Effect::Start, what, carrier)],
        false => vec![Found::new(
            Effect::Read,
            "opens a core dump: reads the memory of a process that has ended",
            format!("core: {core}"),
        )],
    };
    found.extend(env.finding(arguments));
    if is_set(arguments.get("module")) {
        found.push(Found::new(
            Effect::Code,
            "runs a module's code in the debuggee instead of the program",
            format!("module: {}", text("module")),
        ));
    }
    if !test.is_empty() && is_set(arguments.get("args")) {
        found.push(Found::new(
            Effect::Code,
            "passes the test runner arguments of its own, which can load code (pytest's              `-p`) or write files (`--junitxml`, `-test.coverprofile`)",
            "args",
        ));
    }
    if let Some(own) = arguments
        .get("launch_args")
        .and_then(Value::as_object)
        .filter(|own| !own.is_empty())
    {
        let keys: Vec<&str> = own.keys().map(String::as_str).collect();
        found.push(Found::new(
            Effect::Host,
            "passes the adapter launch arguments of its own, which can run commands              on the host (lldb's initCommands, a runtime executable)",
            format!("launch_args: {}", keys.join(", ")),
        ));
    }
    found
}

/// `pid: 1234`, or `port: 5678` (with its host when given).
fn attach_carrier(arguments: &Value) -> String {
    let number = |field| arguments.get(field).and_then(Value::as_u64);
    match (number("port"), number("pid")) {
        (Some(port), _) => match arguments.get("host").and_then(Value::as_str) {
            Some(host) => format!("host: {host}, port: {port}"),
            None => format!("port: {port}"),
        },
        (None, Some(pid)) => format!("pid: {pid}"),
        (None, None) => String::new(),
    }
}

/// Whether a `debug.data_breakpoint_info` call names the container of `name` (a scope
/// or a variables reference other than 0), so that `name` is only looked up in it.
/// Without one, DAP lets the adapter evaluate `name` as an expression, and lldb-dap
/// does.
fn names_a_container(arguments: &Value) -> bool {
    let scope = arguments.get("scope").is_some_and(|s| !s.is_null());
    let reference = arguments
        .get("variables_reference")
        .and_then(Value::as_i64)
        .is_some_and(|r| r != 0);
    scope || reference
}

/// The `field` of each item of the list `list` that the adapters for which `keep`
/// holds evaluate, when it is set: one finding per item, carried by `list[i].field`.
pub(super) fn evaluated_list(
    arguments: &Value,
    adapters: &Adapters,
    list: &str,
    field: &str,
    keep: fn(&AdapterTraits) -> bool,
) -> Vec<Found> {
    let Some(items) = arguments.get(list).and_then(Value::as_array) else {
        return Vec::new();
    };
    let Some((effect, what)) = adapters.strongest_where(keep, |t| t.expressions) else {
        return Vec::new();
    };
    items
        .iter()
        .enumerate()
        .filter(|(_, item)| is_set(item.get(field)))
        .map(|(i, _)| Found::new(effect, what.clone(), format!("{list}[{i}].{field}")))
        .collect()
}

/// Whether a value says something: not absent, `null`, `""` or an empty list (of
/// empty lists).
pub(super) fn is_set(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(items)) => items.iter().any(|i| is_set(Some(i))),
        Some(_) => true,
    }
}
