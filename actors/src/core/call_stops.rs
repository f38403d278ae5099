//! Call traces, the effects: each stop at a call breakpoint (`call_breakpoints.rs`),
//! or at the session's own step out of a call, is read and moved on from without
//! anyone seeing it: no event, no waiter woken, no stop epoch.
//!
//! A stop is read as a chain of requests, one at a time (the whole stack, the top
//! frame's scopes, its first scope's variables), what it has so far travelling with
//! the request in flight ([`Pending::CallStop`]); then the program steps out or
//! continues ([`CallTracker::resume`]). The pairing and the counting are `calls.rs`'s.

use std::time::Instant;

use serde_json::json;

use crate::core::answer::answer_of;
use crate::core::call_patterns::{without_symbol_hash, CallPattern};
use crate::core::calls::{self, Ended, Resume};
use crate::core::pending::Pending;
use crate::core::session::SessionCore;
use crate::core::trace::{CallEvent, CallRecord};
use crate::error::TransportError;
use crate::wire::types::{
    ScopesResponseBody, StackTraceResponseBody, StoppedEventBody, VariablesResponseBody,
};
use crate::wire::{DapCommand, Response};

/// A stop at a call breakpoint, or at the session's step out of a call, being read.
#[derive(Debug)]
pub(crate) struct CallStop {
    step: CallStep,
    thread: i64,
    /// At a function's entry (else at a return).
    entry: bool,
    frames: usize,
    top: Option<Top>,
    ended: Vec<Ended>,
    /// The first scope's variables, kept while a struct returned is read whole.
    variables: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
struct Top {
    id: i64,
    name: String,
    file: Option<String>,
    line: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CallStep {
    Frames,
    Scopes,
    Variables,
    /// The members of a return value the adapter shows as its type's name alone.
    Members(usize),
    Resume,
}

impl SessionCore {
    /// If this stop is the session's own (a call breakpoint alone, or its step out),
    /// read it and go on, and return `true`.
    pub(super) fn stop_at_call(&mut self, body: &StoppedEventBody) -> bool {
        let Some(thread) = body.thread_id else {
            self.calls.interrupted(None);
            return false;
        };
        let hits = body.hit_breakpoint_ids.as_deref().unwrap_or_default();
        let entry = self.calls.is_call_hit(hits);
        if !entry && !self.calls.take_step(&body.reason, thread) {
            self.calls.interrupted(Some(thread));
            return false;
        }
        if entry {
            self.breakpoints.record_hits(hits, None);
            if !self.calls.admit(Instant::now()) {
                self.resume_after_call(thread);
                return true;
            }
        }
        let stop = CallStop {
            step: CallStep::Frames,
            thread,
            entry,
            frames: 0,
            top: None,
            ended: Vec::new(),
            variables: Vec::new(),
        };
        self.send(
            DapCommand::StackTrace,
            Some(json!({ "threadId": thread, "startFrame": 0 })),
            None,
            Pending::CallStop(stop),
        );
        true
    }

    /// An answer to one of a [`CallStop`]'s requests.
    pub(super) fn on_call_step(
        &mut self,
        mut stop: CallStop,
        result: Result<Response, TransportError>,
    ) {
        let command = match stop.step {
            CallStep::Frames => DapCommand::StackTrace,
            CallStep::Scopes => DapCommand::Scopes,
            CallStep::Variables | CallStep::Members(_) => DapCommand::Variables,
            CallStep::Resume => {
                if let Err(err) = result {
                    tracing::warn!(%err, "going on after a call trace's stop failed");
                }
                return;
            }
        };
        let response = match answer_of(command.name(), result) {
            Ok(response) => response,
            Err(err) => {
                tracing::debug!(%err, "a call trace's read failed; going on");
                return self.finish_call_stop(stop, None);
            }
        };
        match stop.step {
            CallStep::Frames => {
                let body: StackTraceResponseBody = response.parse_body().unwrap_or_default();
                stop.frames = body.stack_frames.len();
                stop.top = body.stack_frames.first().map(|f| Top {
                    id: f.id,
                    name: without_symbol_hash(&f.name).to_string(),
                    file: f.source.as_ref().and_then(|s| s.path.clone()),
                    line: f.line,
                });
                if !stop.entry {
                    stop.ended = self.calls.returned(stop.thread, stop.frames);
                    let shown = !self.quirks().no_return_value_after_step_out;
                    if !shown || !stop.ended.iter().any(|e| e.own_frame) {
                        return self.finish_call_stop(stop, None);
                    }
                } else if !self.traced(stop.top.as_ref()) {
                    return self.resume_after_call(stop.thread);
                }
                let Some(frame) = stop.top.as_ref().map(|t| t.id) else {
                    return self.finish_call_stop(stop, None);
                };
                stop.step = CallStep::Scopes;
                self.send(
                    DapCommand::Scopes,
                    Some(json!({ "frameId": frame })),
                    None,
                    Pending::CallStop(stop),
                );
            }
            CallStep::Scopes => {
                let body: ScopesResponseBody = response.parse_body().unwrap_or_default();
                let Some(scope) = body.scopes.first().map(|s| s.variables_reference) else {
                    return self.finish_call_stop(stop, None);
                };
                stop.step = CallStep::Variables;
                self.send(
                    DapCommand::Variables,
                    Some(json!({ "variablesReference": scope })),
                    None,
                    Pending::CallStop(stop),
                );
            }
            CallStep::Variables => {
                let body: VariablesResponseBody = response.parse_body().unwrap_or_default();
                // A struct returned that the adapter shows as its type's name (lldb):
                // its members are read, one level.
                let own = stop.ended.iter().find(|e| e.own_frame);
                let slot = own.and_then(|ended| {
                    body.variables.iter().position(|v| {
                        calls::is_return_slot(&v.name, &ended.open.function)
                            && calls::shows_only_a_type(&v.value, v.variables_reference)
                    })
                });
                let reference = slot.map(|at| body.variables[at].variables_reference);
                stop.variables = body
                    .variables
                    .into_iter()
                    .map(|v| (v.name, v.value))
                    .collect();
                match (slot, reference) {
                    (Some(at), Some(reference)) => {
                        stop.step = CallStep::Members(at);
                        self.send(
                            DapCommand::Variables,
                            Some(json!({ "variablesReference": reference })),
                            None,
                            Pending::CallStop(stop),
                        );
                    }
                    _ => {
                        let variables = std::mem::take(&mut stop.variables);
                        self.finish_call_stop(stop, Some(variables));
                    }
                }
            }
            CallStep::Members(at) => {
                let body: VariablesResponseBody = response.parse_body().unwrap_or_default();
                let members: Vec<(String, String)> = body
                    .variables
                    .into_iter()
                    .map(|v| (v.name, v.value))
                    .collect();
                let mut variables = std::mem::take(&mut stop.variables);
                if let (Some(slot), Some(text)) =
                    (variables.get_mut(at), calls::members_shown(&members))
                {
                    slot.1 = text;
                }
                self.finish_call_stop(stop, Some(variables));
            }
            CallStep::Resume => {}
        }
    }

    /// Whether the stopped frame is one of the traced patterns' (a breakpoint on a
    /// function's own name may stop in a namesake of another module).
    fn traced(&self, top: Option<&Top>) -> bool {
        let Some(top) = top else { return false };
        self.calls
            .patterns
            .iter()
            .any(|p: &CallPattern| p.matches(&top.name, top.file.as_deref()))
    }

    /// Record what the stop showed (`variables`: the top frame's first scope, where
    /// it was read), then go on.
    fn finish_call_stop(&mut self, stop: CallStop, variables: Option<Vec<(String, String)>>) {
        let thread = stop.thread;
        let top = stop.top.clone();
        let site = |top: &Option<Top>| crate::core::trace::CallSite {
            file: top
                .as_ref()
                .and_then(|t| t.file.clone())
                .unwrap_or_default()
                .into(),
            line: top.as_ref().map_or(0, |t| t.line),
            thread,
        };
        if stop.entry {
            let Some(top) = &stop.top else {
                return self.resume_after_call(thread);
            };
            // Calls at this depth or deeper ended unseen (the program ran on from
            // someone's stop inside them): they end here.
            let stale = self.calls.stale(thread, stop.frames);
            self.push_returns(stale, None, site(&stop.top));
            let (call, depth) = self.calls.enter(thread, stop.frames, &top.name);
            let record = CallRecord {
                call,
                event: CallEvent::Call,
                function: top.name.clone(),
                depth,
                returned: None,
                unknown: None,
                pair: None,
            };
            let arguments = crate::core::calls::arguments_of(variables.unwrap_or_default());
            let row = self.trace.push_call(site(&stop.top), record, arguments);
            self.calls.set_row(thread, call, row);
            if self.calls.agent_step(thread) == Some(true) {
                return self.end_agents_step(thread); // stepped into: it ends here
            }
        } else {
            self.push_returns(stop.ended, variables.as_deref(), site(&top));
        }
        self.resume_after_call(thread);
    }

    /// The program ended: the calls still open end with it (innermost first).
    pub(super) fn end_open_calls(&mut self) {
        for (thread, ended) in self.calls.end_all() {
            let site = crate::core::trace::CallSite {
                file: Default::default(),
                line: 0,
                thread,
            };
            let call = ended.open.call;
            let record = CallRecord {
                call,
                event: CallEvent::Return,
                function: ended.open.function,
                depth: ended.open.depth,
                returned: None,
                unknown: Some("no return was seen before the program ended".into()),
                pair: None,
            };
            self.trace.push_return(ended.open.row, site, record);
        }
    }

    /// The agent's step on `thread` ends where the program is: a stop of its own.
    fn end_agents_step(&mut self, thread: i64) {
        let body = StoppedEventBody {
            reason: "step".into(),
            thread_id: Some(thread),
            description: Some("a traced call interrupted the step; it ends here".into()),
            ..StoppedEventBody::default()
        };
        self.on_stopped(body);
    }

    /// The return rows of the calls `ended` (innermost first), with the value each
    /// shows among `variables` where the step out ended its own frame.
    fn push_returns(
        &mut self,
        ended: Vec<Ended>,
        variables: Option<&[(String, String)]>,
        site: crate::core::trace::CallSite,
    ) {
        for ended in ended {
            let value = variables.and_then(|v| calls::return_value_of(v, &ended.open.function));
            let (returned, unknown) = match (value, ended.own_frame) {
                (Some(v), true) => (Some(v), None),
                (None, true) if variables.is_none() => (
                    None,
                    Some("this adapter shows no return value after a step out"),
                ),
                (None, true) => (
                    None,
                    Some("the adapter showed no return value (it may have raised)"),
                ),
                (_, false) => (
                    None,
                    Some("it returned while the program ran on from someone's stop"),
                ),
            };
            let record = CallRecord {
                call: ended.open.call,
                event: CallEvent::Return,
                function: ended.open.function.clone(),
                depth: ended.open.depth,
                returned,
                unknown: unknown.map(str::to_string),
                pair: None,
            };
            self.trace.push_return(ended.open.row, site.clone(), record);
        }
    }

    /// Step out while calls are open on `thread`, else continue (or, when a step of
    /// the agent's was under way, end it here).
    fn resume_after_call(&mut self, thread: i64) {
        let command = match self.calls.resume(thread) {
            Resume::StepOut => DapCommand::StepOut,
            Resume::Continue if self.calls.agent_step(thread).is_some() => {
                return self.end_agents_step(thread);
            }
            Resume::Continue => DapCommand::Continue,
        };
        let stop = CallStop {
            step: CallStep::Resume,
            thread,
            entry: false,
            frames: 0,
            top: None,
            ended: Vec::new(),
            variables: Vec::new(),
        };
        self.send(
            command,
            Some(json!({ "threadId": thread })),
            None,
            Pending::CallStop(stop),
        );
    }
}
