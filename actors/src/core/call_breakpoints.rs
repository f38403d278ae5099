//! Call traces, the setup: the traced patterns, and the session's call breakpoints,
//! which go out with the agent's function breakpoints (DAP sets them all in one list)
//! and are told from them in the answers by a mark on their names.

use crate::core::call_patterns;
use crate::core::command::{Answer, Token};
use crate::core::pending::{Pending, Purpose};
use crate::core::session::SessionCore;
use crate::core::state::Operation;
use crate::error::SessionError;
use crate::wire::types::{Breakpoint, FunctionBreakpoint, SetFunctionBreakpointsArguments};
use crate::wire::DapCommand;

/// What the names of call breakpoints carry in a request's list of names sent, so
/// that their verdicts are told from the agent's own.
const CALL_NAME: &str = "\u{0}call:";

impl SessionCore {
    /// Check `texts` and make them the traced patterns (the start's, or a change's).
    pub(super) fn set_call_patterns(&mut self, texts: &[String]) -> Result<(), SessionError> {
        let patterns = call_patterns::parse_all(texts)?;
        if let Some(glob) = patterns.iter().find(|p| p.is_glob()) {
            return Err(SessionError::InvalidArgument(format!(
                "the call pattern {:?} has a `*` in the function's own name, which the \
                 adapter's function breakpoints cannot take: name the function, or put the \
                 glob in the module or file part",
                glob.text
            )));
        }
        self.calls.patterns = patterns;
        Ok(())
    }

    /// The traced patterns, as given.
    pub(super) fn call_pattern_texts(&self) -> Vec<String> {
        self.calls.patterns.iter().map(|p| p.text.clone()).collect()
    }

    /// Say (as important output) that the call trace asked for cannot be recorded: the
    /// adapter has no function breakpoints (js-debug).
    pub(super) fn note_calls_unsupported(&mut self) {
        if self.calls.patterns.is_empty()
            || self.advertised().supports_function_breakpoints == Some(true)
        {
            return;
        }
        let note = format!(
            "dapvisor: no calls are recorded ({}): this adapter has no function \
             breakpoints, which call traces stop at; use tracepoints (a breakpoint with \
             `collect`) at the function's first line instead\n",
            self.call_pattern_texts().join(", ")
        );
        self.output.push("important", &note);
        self.emit(crate::core::session_event::EventKind::Output {
            category: "important".into(),
            output: note,
        });
    }

    /// The function breakpoints to send: the agent's, then the call breakpoints (one
    /// per name, not already among the agent's).
    pub(super) fn function_breakpoint_arguments(&self) -> SetFunctionBreakpointsArguments {
        let mut arguments = self.breakpoints.function_arguments();
        for name in self.call_breakpoint_names() {
            arguments.breakpoints.push(FunctionBreakpoint {
                name,
                ..FunctionBreakpoint::default()
            });
        }
        arguments
    }

    /// The names of [`Self::function_breakpoint_arguments`], call breakpoints marked.
    pub(super) fn function_breakpoint_names(&self) -> Vec<String> {
        let mut names = self.breakpoints.function_names();
        names.extend(
            self.call_breakpoint_names()
                .into_iter()
                .map(|n| format!("{CALL_NAME}{n}")),
        );
        names
    }

    fn call_breakpoint_names(&self) -> Vec<String> {
        let qualified = self.quirks().qualified_function_breakpoints;
        let agents = self.breakpoints.function_names();
        let mut names: Vec<String> = Vec::new();
        for name in self
            .calls
            .patterns
            .iter()
            .map(|p| p.breakpoint_name(qualified))
        {
            if !names.contains(&name) && !agents.contains(&name) {
                names.push(name);
            }
        }
        names
    }

    /// Whether function breakpoints go out at all (the agent's or the calls').
    pub(super) fn has_function_breakpoints(&self) -> bool {
        !self.breakpoints.functions().is_empty() || !self.calls.patterns.is_empty()
    }

    /// Split an answer to a list sent as `sent` into the agent's verdicts and the call
    /// breakpoints' (whose ids the session keeps, to know their stops).
    pub(super) fn take_call_ids(
        &mut self,
        sent: &[String],
        actual: Vec<Breakpoint>,
    ) -> (Vec<Breakpoint>, Vec<Breakpoint>) {
        let mut agents = Vec::new();
        let mut calls = Vec::new();
        for (i, bp) in actual.into_iter().enumerate() {
            match sent.get(i) {
                Some(name) if name.starts_with(CALL_NAME) => calls.push(bp),
                _ => agents.push(bp),
            }
        }
        self.calls.clear_ids();
        for id in calls.iter().filter_map(|bp| bp.id) {
            self.calls.add_id(id);
        }
        (agents, calls)
    }

    /// Change the traced patterns: `remove` those, then `add` these; the call
    /// breakpoints' verdicts answer.
    pub(super) fn change_calls(
        &mut self,
        token: Token,
        add: Vec<String>,
        remove: Vec<String>,
    ) -> Result<(), SessionError> {
        self.check(Operation::SetBreakpoints)?;
        let mut texts = self.call_pattern_texts();
        for gone in &remove {
            let Some(at) = texts.iter().position(|t| t == gone.trim()) else {
                return Err(SessionError::InvalidArgument(format!(
                    "no call pattern {gone:?} is traced; traced now: {texts:?}"
                )));
            };
            texts.remove(at);
        }
        for new in add {
            if !texts.iter().any(|t| t == new.trim()) {
                texts.push(new.trim().to_string());
            }
        }
        if !self.calls.patterns.is_empty() || !texts.is_empty() {
            self.check_function_features(&[])?;
        }
        self.set_call_patterns(&texts)?;
        if self.adapter_takes_breakpoints() {
            let args = serde_json::to_value(self.function_breakpoint_arguments()).ok();
            self.send(
                DapCommand::SetFunctionBreakpoints,
                args,
                None,
                Pending::Agent {
                    token,
                    command: DapCommand::SetFunctionBreakpoints.name().into(),
                    purpose: Purpose::CallBreakpoints(self.function_breakpoint_names()),
                },
            );
        } else {
            let patterns = self.call_pattern_texts();
            self.reply(
                token,
                Ok(Answer::Calls {
                    patterns,
                    breakpoints: Vec::new(),
                }),
            );
        }
        Ok(())
    }
}
