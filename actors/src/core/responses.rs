//! Answers from the adapter and timers: a response is matched to what its request
//! was for (a handshake step, an agent's request, the ending `disconnect`) and turned
//! into the agent's answer; a timer ends a handshake that took too long or a wait for
//! a stop.

use crate::core::answer::answer_of;
use crate::core::command::StopOutcome;
use crate::core::command::{Answer, ControlAction, Tag, TimerId, Token};
use crate::core::pending::{Pending, Purpose};
use crate::core::phase::Program;
use crate::core::session::SessionCore;
use crate::core::snapshot::TopFrame;
use crate::core::state::SessionState;
use crate::error::{SessionError, TransportError};
use crate::wire::types::{SetBreakpointsResponseBody, StackTraceResponseBody, ThreadsResponseBody};
use crate::wire::Response;

impl SessionCore {
    pub(super) fn on_response(&mut self, tag: Tag, result: Result<Response, TransportError>) {
        let Some(pending) = self.pending.remove(&tag) else {
            tracing::debug!(tag, "response for a request no longer pending; dropped");
            return;
        };
        if self.phase.is_live()
            && matches!(pending, Pending::Agent { .. })
            && matches!(result, Err(TransportError::AdapterGone { .. }))
        {
            // The transport refused it as its adapter is going, and the close that
            // follows has not come yet. It says how the adapter went (a crash held for
            // the supervisor, or an end) and answers this with the requests in flight.
            self.pending.insert(tag, pending);
            return;
        }
        let body = result.as_ref().ok().filter(|r| r.success);
        self.stop_cache
            .answered(tag, body.map(Response::raw_body_or_empty));
        match pending {
            Pending::Startup(step) => self.on_startup_response(step, result),
            Pending::Ending { token } => self.finish_ending(token),
            Pending::TraceStop(stop) => self.on_trace_step(stop, result),
            Pending::CallStop(stop) => self.on_call_step(stop, result),
            Pending::StopHits(ids) => self.on_stop_place(&ids, result),
            Pending::Agent {
                token,
                command,
                purpose,
            } => match answer_of(&command, result) {
                Ok(response) => self.on_agent_success(token, purpose, response),
                Err(err) => self.on_agent_failure(token, purpose, err),
            },
        }
    }

    fn on_agent_success(&mut self, token: Token, purpose: Purpose, response: Response) {
        let answer = match purpose {
            Purpose::Terminating => return self.terminate_answered(token, true),
            Purpose::Moving {
                epoch,
                ticket: true,
                ..
            } => Answer::Resumed { epoch },
            Purpose::Body | Purpose::Moving { .. } => Answer::Body(response.raw_body_or_empty()),
            Purpose::StackTop { thread_id, epoch } => {
                self.remember_top_frame(thread_id, epoch, &response);
                Answer::Body(response.raw_body_or_empty())
            }
            Purpose::Threads => {
                if let Ok(body) = response.parse_body::<ThreadsResponseBody>() {
                    self.run.threads = body.threads.into_iter().map(|t| (t.id, t)).collect();
                }
                Answer::Body(response.raw_body_or_empty())
            }
            Purpose::SourceBreakpoints(file, sent) => {
                let body: SetBreakpointsResponseBody = response.parse_body().unwrap_or_default();
                self.breakpoints
                    .record_file_result(&file, &sent, body.breakpoints);
                Answer::SourceBreakpoints(self.breakpoints.file(&file).to_vec())
            }
            Purpose::FunctionBreakpoints(sent) => {
                let body: SetBreakpointsResponseBody = response.parse_body().unwrap_or_default();
                let (agents, _) = self.take_call_ids(&sent, body.breakpoints);
                self.breakpoints
                    .record_function_result(&sent, agents.clone());
                Answer::Breakpoints(agents)
            }
            Purpose::CallBreakpoints(sent) => {
                let body: SetBreakpointsResponseBody = response.parse_body().unwrap_or_default();
                let (agents, calls) = self.take_call_ids(&sent, body.breakpoints);
                self.breakpoints.record_function_result(&sent, agents);
                Answer::Calls {
                    patterns: self.call_pattern_texts(),
                    breakpoints: calls,
                }
            }
            Purpose::Control { epoch, .. } | Purpose::Restart { epoch } => {
                Answer::Resumed { epoch }
            }
        };
        self.reply(token, Ok(answer));
    }

    /// A stack read from the top answered at stop `epoch`: its first frame is the
    /// thread's top frame while that stop lasts.
    fn remember_top_frame(&mut self, thread_id: i64, epoch: u64, response: &Response) {
        if epoch != self.stop_epoch || self.state() != SessionState::Stopped {
            return;
        }
        let body: StackTraceResponseBody = response.parse_body().unwrap_or_default();
        if let Some(top) = body.stack_frames.first() {
            let frame = TopFrame {
                thread_id,
                frame_id: top.id,
            };
            self.run.top_frame = Some((epoch, frame));
        }
    }

    fn on_agent_failure(&mut self, token: Token, purpose: Purpose, err: SessionError) {
        if let Purpose::Terminating = purpose {
            // Refused or unanswered: end it the forceful way.
            tracing::debug!(%err, "`terminate` failed; disconnecting");
            return self.terminate_answered(token, false);
        }
        let resumed_at = match purpose {
            Purpose::Control {
                action, epoch, was, ..
            } if action != ControlAction::Pause => Some((epoch, was)),
            Purpose::Moving { epoch, was, .. } => Some((epoch, was)),
            _ => None,
        };
        // Only a refusal says the adapter did not move the program: then the state
        // the request left comes back (a raw `continue` refused while running stays
        // running). Unanswered, it may have moved: the session stays running until
        // the adapter says otherwise (a `stopped` event; a pause asks for one).
        let refused = matches!(err, SessionError::Adapter { .. });
        if let Some((epoch, was)) = resumed_at.filter(|_| refused) {
            if self.state() == SessionState::Running
                && self.stop_epoch == epoch
                && self.phase.is_live()
            {
                if let Some(was) = Program::from_state(was) {
                    self.set_program(was);
                }
            }
        }
        self.reply(token, Err(err));
    }

    pub(super) fn on_timer(&mut self, id: TimerId) {
        if self.graceful_timer(id) || self.launcher_report_timer(id) || self.held_retry_timer(id) {
            return;
        }
        if let Some(handshake) = self.phase.handshake().filter(|h| h.timer == id) {
            let waiting_for = if handshake.is_done() && self.awaiting_target() {
                "the adapter's `startDebugging` for the program's own session"
            } else {
                handshake.waiting_for()
            };
            let after = handshake.deadline.as_secs();
            let reason = self.startup_timeout_reason(format!(
                "the adapter did not finish starting within {after}s (still waiting for {waiting_for})"
            ));
            self.fail_startup(reason);
            return;
        }
        if let Some(pos) = self.waiters.iter().position(|w| w.timer == id) {
            let waiter = self.waiters.remove(pos);
            self.reply(waiter.token, Ok(Answer::Stop(StopOutcome::TimedOut)));
        }
    }
}
