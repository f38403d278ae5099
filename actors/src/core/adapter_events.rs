//! How the core follows the adapter's events: stops, resumes, output, threads,
//! breakpoint changes, the debuggee's end. Unknown events are passed on untouched.

use serde_json::{json, Value};

use crate::core::pending::Pending;
use crate::core::phase::{Phase, Program};
use crate::core::session::SessionCore;
use crate::core::session_event::EventKind;
use crate::core::snapshot::StopInfo;
use crate::core::state::SessionState;
use crate::wire::types::{
    BreakpointEventBody, CapabilitiesEventBody, ContinuedEventBody, ExitedEventBody,
    OutputEventBody, StoppedEventBody, TerminatedEventBody, Thread, ThreadEventBody,
};
use crate::wire::DapCommand;
use crate::wire::{Event, RawJson};

impl SessionCore {
    pub(super) fn on_event(&mut self, event: Event) {
        let lost = self.lost_target_in(&event);
        self.on_adapter_event(event);
        if let Some(gone) = lost {
            self.target_lost(gone);
        }
    }

    fn on_adapter_event(&mut self, event: Event) {
        self.stop_cache.on_event(&event.event);
        match event.event.as_str() {
            "invalidated" => {
                // The adapter says what it answered may no longer hold: frames too.
                self.run.top_frame = None;
                self.emit(EventKind::Adapter {
                    body: event.body.as_ref().map(RawJson::to_value),
                    event: event.event,
                });
            }
            "initialized" => self.on_initialized(),
            "stopped" => match event.parse_body::<StoppedEventBody>() {
                Ok(body) => self.on_stopped(body),
                Err(err) => tracing::warn!(%err, "malformed stopped event"),
            },
            "continued" => {
                let body: ContinuedEventBody = event.parse_body().unwrap_or_default();
                if self.state() == SessionState::Stopped {
                    self.set_program(Program::Running);
                }
                self.emit(EventKind::Continued {
                    thread_id: body.thread_id,
                    all_threads_continued: body.all_threads_continued.unwrap_or(true),
                });
            }
            "exited" => {
                let body: ExitedEventBody = event.parse_body().unwrap_or_default();
                self.run.exit_code = Some(body.exit_code);
                self.emit(EventKind::Exited {
                    exit_code: body.exit_code,
                });
                self.on_debuggee_ended();
            }
            "terminated" => {
                // dlv sends a second `terminated` after the disconnect; one per run.
                if self.run.terminated_seen {
                    return;
                }
                self.run.terminated_seen = true;
                self.run.ended_on_its_own = !self.phase.is_ending();
                let body: TerminatedEventBody = event.parse_body().unwrap_or_default();
                self.emit(EventKind::Terminated {
                    restart: body.restart,
                });
                self.end_open_calls();
                self.set_program(Program::Ended);
                self.maybe_finish_startup();
                self.graceful_end_seen();
                // The debuggee is gone; let the adapter go too. Where no exit code came
                // yet, the waiters wait for the disconnect: dlv reports the status then.
                // js-debug reports it on the bootstrap: the adapter is let go after.
                let releasing = if self.end_report_pending() {
                    self.await_launcher_report();
                    false
                } else {
                    self.release_adapter()
                };
                if !(releasing && self.run.exit_code.is_none()) {
                    self.wake_waiters();
                }
            }
            "output" => {
                let body: OutputEventBody = event.parse_body().unwrap_or_default();
                let category = body.category.unwrap_or_else(|| "console".to_string());
                if category == "telemetry" {
                    // Telemetry is for the adapter's makers, not the debuggee's output
                    // (debugpy sends `ptvsd`, `debugpy`): kept as a plain adapter event.
                    let body = event.body.as_ref().map(RawJson::to_value);
                    self.emit(EventKind::Adapter {
                        event: event.event,
                        body,
                    });
                    return;
                }
                // An adapter that sends no `exited` (dlv) says the status in a console
                // line. Other adapters' lines, and the program's own, are just text.
                let read_status = self
                    .quirks()
                    .exit_status_in_console
                    .filter(|_| category == "console" && self.run.exit_code.is_none());
                if let Some(read_status) = read_status {
                    if let Some(code) = read_status(&body.output) {
                        self.run.exit_code = Some(code);
                        self.emit(EventKind::Exited { exit_code: code });
                    }
                }
                // Tracepoint rows are taken out; what is left is output.
                let (text, hits) = self.trace.take_rows(&category, &body.output);
                for (file, line) in hits {
                    self.breakpoints.record_trace_hit(&file, line);
                }
                if text.is_empty() {
                    return;
                }
                self.output.push(&category, &text);
                self.watch_injection(&text);
                self.emit(EventKind::Output {
                    category,
                    output: text,
                });
            }
            "thread" => {
                let body: ThreadEventBody = event.parse_body().unwrap_or_default();
                if body.reason == "exited" {
                    self.run.threads.remove(&body.thread_id);
                } else {
                    self.run
                        .threads
                        .entry(body.thread_id)
                        .or_insert_with(|| Thread {
                            id: body.thread_id,
                            name: String::new(),
                        });
                }
                self.emit(EventKind::Thread {
                    reason: body.reason,
                    thread_id: body.thread_id,
                });
            }
            "breakpoint" => {
                let body: BreakpointEventBody = event.parse_body().unwrap_or_default();
                self.breakpoints.apply_event(&body.reason, &body.breakpoint);
                self.emit(EventKind::Breakpoint {
                    reason: body.reason,
                    breakpoint: Box::new(body.breakpoint),
                });
            }
            "module" => {
                // The module is passed on whole, fields the spec lacks included.
                #[derive(serde::Deserialize, Default)]
                struct ModuleAsSent {
                    #[serde(default)]
                    reason: String,
                    #[serde(default)]
                    module: Value,
                }
                let body: ModuleAsSent = event.parse_body().unwrap_or_default();
                self.emit(EventKind::Module {
                    reason: body.reason,
                    module: body.module,
                });
            }
            "process" => self.emit(EventKind::Process {
                body: event.body_or_empty(),
            }),
            "capabilities" => {
                // Before the `initialize` answer there is nothing to change: that
                // answer says all.
                if let (Ok(body), Some(known)) = (
                    event.parse_body::<CapabilitiesEventBody>(),
                    self.run.capabilities.as_mut(),
                ) {
                    known.merge(body.capabilities);
                }
                self.emit(EventKind::Adapter {
                    body: event.body.as_ref().map(RawJson::to_value),
                    event: event.event,
                });
            }
            _ => self.emit(EventKind::Adapter {
                body: event.body.as_ref().map(RawJson::to_value),
                event: event.event,
            }),
        }
    }

    pub(super) fn on_stopped(&mut self, mut body: StoppedEventBody) {
        if self.stop_at_call(&body) {
            return; // a call trace's own stop: read and moved on from, no one's stop
        }
        if self.stop_at_tracepoint(&body) {
            return; // read and continued by the session: no one's stop
        }
        if self.is_codelldb_exception_stop(&body) {
            body.reason = "exception".into();
            body.description
                .get_or_insert_with(|| "an exception filter (CodeLLDB says breakpoint)".into());
        }
        self.stop_epoch += 1;
        let stop = StopInfo {
            reason: body.reason,
            thread_id: body.thread_id,
            all_threads_stopped: body.all_threads_stopped.unwrap_or(false),
            hit_breakpoint_ids: body.hit_breakpoint_ids.unwrap_or_default(),
            description: body.description,
            text: body.text,
            epoch: self.stop_epoch,
        };
        if let Some(id) = stop.thread_id {
            self.run.threads.entry(id).or_insert_with(|| Thread {
                id,
                name: String::new(),
            });
        }
        self.count_stop_hits(stop.thread_id, &stop.hit_breakpoint_ids);
        self.run.last_stop = Some(stop.clone());
        self.set_program(Program::Stopped);
        self.emit(EventKind::Stopped(stop));
        self.wake_waiters();
    }

    /// CodeLLDB 1.11 reports a stop made by an exception filter (`cpp_throw`,
    /// `rust_panic`) as a `breakpoint` stop, hitting the breakpoint it set for the
    /// filter, which is none of the session's: that stop is an exception stop.
    fn is_codelldb_exception_stop(&self, body: &StoppedEventBody) -> bool {
        let hits = body.hit_breakpoint_ids.as_deref().unwrap_or_default();
        self.quirks().exception_stops_look_like_breakpoints
            && body.reason == "breakpoint"
            && !self.breakpoints.exception_filters().is_empty()
            && !hits.is_empty()
            && !hits.iter().any(|id| self.breakpoints.has_id(*id))
    }

    fn on_debuggee_ended(&mut self) {
        self.end_open_calls();
        self.set_program(Program::Ended);
        self.maybe_finish_startup();
        self.wake_waiters();
    }

    /// Send the `disconnect` that lets a live adapter go, once the debuggee ended and
    /// no handshake is under way. Returns whether it was sent.
    pub(super) fn release_adapter(&mut self) -> bool {
        if !matches!(self.phase, Phase::Live { .. }) {
            return false;
        }
        self.change_phase(Phase::ending);
        self.send(
            DapCommand::Disconnect,
            Some(json!({ "restart": false })),
            Some(self.config.disconnect_timeout),
            Pending::Ending { token: None },
        );
        true
    }
}
