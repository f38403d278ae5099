//! Tracepoints where the adapter has no log points: the breakpoint is sent without
//! its log message and stops the program, and the session reads the values itself
//! (the top frame of the stopped thread, then an `evaluate` per expression) and
//! continues. No one sees the stop: no event, no waiter woken, no stop epoch. Each
//! row says it came `by stop`, with its thread.
//!
//! The reading is a chain of requests, one at a time: what it has read so far travels
//! with the request in flight ([`Pending::TraceStop`]), so it ends with that request
//! (an adapter gone, a crash) and needs no field of its own.

use std::path::Path;

use serde_json::{json, Value};

use crate::core::answer::answer_of;
use crate::core::pending::{Pending, TraceStep, TraceStop};
use crate::core::session::SessionCore;
use crate::core::trace::collected;
use crate::error::TransportError;
use crate::wire::types::{EvaluateResponseBody, StackTraceResponseBody, StoppedEventBody};
use crate::wire::DapCommand;
use crate::wire::Response;

impl SessionCore {
    /// The adapter is known to have no log points: tracepoints go by stops.
    pub(super) fn traces_by_stops(&self) -> bool {
        self.run
            .capabilities
            .as_ref()
            .is_some_and(|caps| caps.supports_log_points != Some(true))
    }

    /// The `setBreakpoints` arguments for `file`: a tracepoint's template goes out only
    /// to an adapter with log points.
    pub(super) fn source_arguments(&self, file: &Path) -> Option<Value> {
        let mut arguments = self.breakpoints.arguments_for(file);
        if self.traces_by_stops() {
            for bp in arguments.breakpoints.iter_mut().flatten() {
                if bp.log_message.as_deref().and_then(collected).is_some() {
                    bp.log_message = None;
                }
            }
        }
        serde_json::to_value(arguments).ok()
    }

    /// If this stop is at tracepoints alone, read it as one and return `true`.
    pub(super) fn stop_at_tracepoint(&mut self, body: &StoppedEventBody) -> bool {
        let (Some(thread), Some(hits)) = (body.thread_id, body.hit_breakpoint_ids.as_deref())
        else {
            return false;
        };
        if !self.traces_by_stops() || body.reason != "breakpoint" || hits.is_empty() {
            return false;
        }
        let templates: Vec<String> = hits
            .iter()
            .filter_map(|id| self.breakpoints.template_of(*id))
            .collect();
        let Some(template) = templates.first().filter(|_| templates.len() == hits.len()) else {
            return false; // a breakpoint of the agent's is among them: a real stop
        };
        self.breakpoints.record_hits(hits, None);
        let collect = collected(template).unwrap_or_default();
        let stop = TraceStop {
            step: TraceStep::Frame,
            template: template.clone(),
            thread,
            frame: None,
            collect,
            values: Vec::new(),
        };
        let arguments = json!({ "threadId": thread, "startFrame": 0, "levels": 1 });
        self.send(
            DapCommand::StackTrace,
            Some(arguments),
            None,
            Pending::TraceStop(stop),
        );
        true
    }

    /// An answer to one of a [`TraceStop`]'s requests.
    pub(super) fn on_trace_step(
        &mut self,
        mut stop: TraceStop,
        result: Result<Response, TransportError>,
    ) {
        let command = match stop.step {
            TraceStep::Frame => DapCommand::StackTrace,
            TraceStep::Value => DapCommand::Evaluate,
            TraceStep::Resume => DapCommand::Continue,
        };
        let result = answer_of(command.name(), result);
        match (stop.step, result) {
            (TraceStep::Frame, Ok(response)) => {
                let body: StackTraceResponseBody = response.parse_body().unwrap_or_default();
                stop.frame = body.stack_frames.first().map(|f| f.id);
            }
            (TraceStep::Frame, Err(_)) => {}
            (TraceStep::Value, Ok(response)) => {
                let body: EvaluateResponseBody = response.parse_body().unwrap_or_default();
                stop.values.push(body.result);
            }
            (TraceStep::Value, Err(err)) => stop.values.push(format!("<error: {err}>")),
            (TraceStep::Resume, result) => {
                if let Err(err) = result {
                    tracing::warn!(%err, "continuing after a tracepoint's stop failed");
                }
                return;
            }
        }
        self.next_trace_value(stop);
    }

    /// Ask for the next value, or record the row and continue.
    fn next_trace_value(&mut self, mut stop: TraceStop) {
        if let Some(expression) = stop.collect.get(stop.values.len()) {
            let mut arguments = json!({ "expression": expression, "context": "watch" });
            if let Some(frame) = stop.frame {
                arguments["frameId"] = json!(frame);
            }
            stop.step = TraceStep::Value;
            self.send(
                DapCommand::Evaluate,
                Some(arguments),
                None,
                Pending::TraceStop(stop),
            );
            return;
        }
        if let Some((file, line)) = self
            .trace
            .record_stop(&stop.template, stop.thread, stop.values)
        {
            tracing::trace!(file = %file.display(), line, "tracepoint row by stop");
        }
        let thread = stop.thread;
        stop.step = TraceStep::Resume;
        stop.values = Vec::new();
        self.send(
            DapCommand::Continue,
            Some(json!({ "threadId": thread })),
            None,
            Pending::TraceStop(stop),
        );
    }
}
