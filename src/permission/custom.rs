//! How the gate rates a `debug.custom_request`: by the DAP command it sends, as the
//! request is sent (an `evaluate` in the context the core will give it), and as the
//! tool that sends the same command is rated. A command not named here, an adapter's
//! own one or a standard one in another spelling (pydevd takes `Evaluate` for
//! `evaluate`), can do anything the adapter can: it runs commands on the host, which
//! [includes](Effect::includes) every other effect.

use dapvisor_actors::wire::DapCommand;
use dapvisor_actors::wire::DapCommand as C;
use serde_json::Value;

use super::adapters::AdapterTraits;
use super::classify::{ending, evaluated_list, evaluation, expression, is_set, CallTarget};
use super::effect::{Effect, Found};

/// The fields of a DAP request's arguments, at any depth, whose values the adapter
/// evaluates: a breakpoint's or an exception filter's `condition`, `hitCondition`,
/// `logMessage`.
const CODE_FIELDS: &[&str] = &["condition", "hitCondition", "logMessage"];

/// Every effect of a `debug.custom_request` with `arguments` on `target`.
pub(super) fn classify_custom(arguments: &Value, target: &CallTarget) -> Vec<Found> {
    let adapters = &target.adapters;
    let command = arguments
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim();
    let sent = arguments.get("arguments").unwrap_or(&Value::Null);
    let carrier = |field: &str| format!("command: {command}, arguments.{field}");
    let mut found = Vec::new();
    let Some(known) = DapCommand::from_name(command) else {
        return vec![unrated(command)];
    };
    match known {
        // Only read the debuggee.
        C::Threads
        | C::StackTrace
        | C::Scopes
        | C::Variables
        | C::Source
        | C::LoadedSources
        | C::Modules
        | C::ExceptionInfo
        | C::ReadMemory
        | C::Disassemble
        | C::Locations
        | C::BreakpointLocations
        | C::StepInTargets
        | C::GotoTargets => found.push(plain(Effect::Read, command)),
        // Move the program or give up on a request, evaluating nothing they are given.
        C::Continue
        | C::Next
        | C::StepIn
        | C::StepOut
        | C::StepBack
        | C::ReverseContinue
        | C::Goto
        | C::RestartFrame
        | C::Pause
        | C::Cancel => found.push(plain(Effect::Control, command)),
        C::TerminateThreads => found.push(ending(Effect::Control, target)),
        C::Evaluate => {
            let mut said = evaluation(adapters, sent);
            said.carrier = format!("command: evaluate, {}", said.carrier);
            found.push(said);
        }
        C::SetVariable => found.push(expression(adapters, carrier("value"))),
        C::SetExpression => found.push(expression(
            adapters,
            format!("command: {command}, arguments.expression, arguments.value"),
        )),
        C::Completions => {
            let (effect, what) = adapters.strongest(|t| t.completions);
            found.push(Found::new(effect, what, carrier("text")));
        }
        C::DataBreakpointInfo => {
            found.push(plain(Effect::Read, command));
            let reference = sent.get("variablesReference").and_then(Value::as_i64);
            if reference.is_none_or(|r| r == 0) {
                found.push(expression(adapters, carrier("name")));
            }
        }
        C::SetExceptionBreakpoints => {
            found.push(plain(Effect::Control, command));
            found.extend(evaluated(
                sent,
                target,
                command,
                "exceptionOptions",
                "path",
                |t| t.evaluates_exception_names,
            ));
        }
        C::SetInstructionBreakpoints => {
            found.push(plain(Effect::Control, command));
            found.extend(evaluated(
                sent,
                target,
                command,
                "breakpoints",
                "instructionReference",
                |t| t.evaluates_instruction_references,
            ));
        }
        C::SetDataBreakpoints => found.push(plain(Effect::Control, command)),
        C::WriteMemory => found.push(Found::new(
            Effect::Code,
            "writes the debuggee's memory",
            carrier("memoryReference"),
        )),
        // The session refuses these by name (it sends them itself); were that to
        // change, they would still ask as the strongest.
        C::Initialize
        | C::Launch
        | C::Attach
        | C::ConfigurationDone
        | C::SetBreakpoints
        | C::SetFunctionBreakpoints
        | C::Terminate
        | C::Disconnect
        | C::Restart => return vec![unrated(command)],
    }
    let mut fields = Vec::new();
    code_fields(sent, "arguments".into(), &mut fields);
    found.extend(
        fields
            .into_iter()
            .map(|field| expression(adapters, format!("command: {command}, {field}"))),
    );
    found
}

/// The `field` of each item of `list` in a request's arguments `sent`, where the
/// adapters for which `keep` holds evaluate it.
fn evaluated(
    sent: &Value,
    target: &CallTarget,
    command: &str,
    list: &str,
    field: &str,
    keep: fn(&AdapterTraits) -> bool,
) -> Vec<Found> {
    let mut found = evaluated_list(sent, &target.adapters, list, field, keep);
    for item in &mut found {
        item.carrier = format!("command: {command}, arguments.{}", item.carrier);
    }
    found
}

/// A command dapvisor does not rate: it can do anything the adapter can.
fn unrated(command: &str) -> Found {
    Found::new(
        Effect::Host,
        "sends the adapter a request dapvisor does not rate, which can do anything the \
         adapter can, running commands on the host",
        format!("command: {command}"),
    )
}

/// The effect of `command` itself, said plainly.
fn plain(effect: Effect, command: &str) -> Found {
    Found::new(effect, effect.meaning(), format!("command: {command}"))
}

/// The path of every [`CODE_FIELDS`] field set in `value`.
fn code_fields(value: &Value, path: String, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let here = format!("{path}.{key}");
                if CODE_FIELDS.contains(&key.as_str()) && is_set(Some(child)) {
                    found.push(here);
                } else {
                    code_fields(child, here, found);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                code_fields(child, format!("{path}[{i}]"), found);
            }
        }
        _ => {}
    }
}
