//! Execution control as the core sees it: continue, the steps and pause sent to the
//! adapter, and agents waiting for the next stop (or the debuggee's end).

use std::time::Duration;

use serde_json::{json, Value};

use crate::core::command::{Answer, ControlAction, Effect, StopOutcome, Tag, Token};
use crate::core::pending::{Pending, Purpose, StopWaiter};
use crate::core::phase::Program;
use crate::core::session::SessionCore;
use crate::core::state::SessionState;
use crate::error::SessionError;
use crate::limits;
use crate::wire::types::SteppingGranularity;

impl SessionCore {
    fn default_thread(&self) -> Option<i64> {
        crate::core::snapshot::default_thread(
            self.run.last_stop.as_ref(),
            self.run.threads.keys().copied(),
        )
    }

    pub(super) fn control(
        &mut self,
        token: Token,
        action: ControlAction,
        thread_id: Option<i64>,
        granularity: Option<SteppingGranularity>,
    ) -> Result<(), SessionError> {
        self.check(action.operation())?;
        let thread = thread_id.or_else(|| self.default_thread()).ok_or_else(|| {
            SessionError::InvalidArgument(
                "no thread is known yet; list the threads and pass a thread_id".into(),
            )
        })?;
        let mut args = json!({ "threadId": thread });
        if let Some(g) = granularity {
            args["granularity"] = serde_json::to_value(g).unwrap_or(Value::Null);
        }
        self.check_request(action.command().name(), Some(&args))?;
        let (epoch, was) = (self.stop_epoch, self.state());
        self.send(
            action.command(),
            Some(args),
            None,
            Pending::Agent {
                token,
                command: action.command().name().into(),
                purpose: Purpose::Control { action, epoch, was },
            },
        );
        // A call trace's stops inside this move end it where the agent expects one.
        let step_into = match action {
            ControlAction::Next | ControlAction::StepOut => Some(false),
            ControlAction::StepIn => Some(true),
            ControlAction::Continue | ControlAction::Pause => None,
        };
        self.calls.agent_moves(thread, step_into);
        if action != ControlAction::Pause {
            // Running from the moment the request leaves: a `stopped` event may beat the
            // response, and must not be overwritten by it.
            self.set_program(Program::Running);
        }
        Ok(())
    }

    pub(super) fn wait_for_stop(&mut self, token: Token, after: u64, timeout: Duration) {
        // dlv tells the exit status only while it is being let go: wait for that.
        let exit_status_coming = self.run.exit_code.is_none() && self.phase.is_ending();
        // js-debug tells the exit status on the bootstrap connection, a moment later.
        let exit_status_coming = exit_status_coming || self.end_report_pending();
        let ready = if self.state() == SessionState::Terminated {
            (!exit_status_coming).then_some(StopOutcome::Terminated {
                exit_code: self.run.exit_code,
            })
        } else {
            self.run
                .last_stop
                .as_ref()
                .filter(|s| s.epoch > after)
                .map(|s| StopOutcome::Stopped(s.clone()))
        };
        match ready {
            Some(outcome) => self.reply(token, Ok(Answer::Stop(outcome))),
            None => {
                let timer = self.timer(timeout.min(limits::MAX_STOP_WAIT));
                self.waiters.push(StopWaiter {
                    token,
                    after,
                    timer,
                });
            }
        }
    }

    /// The agent behind `token` gave up on its command: a wait for a stop is
    /// forgotten (it no longer holds the session), and a request still with the
    /// adapter that only reads or computes something (an evaluation, a custom
    /// request, ...) is cancelled where the adapter can. A request that moves the
    /// program or changes the session's own state (a step, breakpoints, ending) goes
    /// on: its effect is the session's, whoever waits for the answer.
    pub(super) fn withdraw(&mut self, token: Token) {
        self.releases.withdrawn(token);
        self.waiters.retain(|w| w.token != token);
        self.stop_cache.withdraw(token);
        if self.stop_cache.is_followed(token) {
            return; // others wait for the answer to its read
        }
        let abandoned: Vec<Tag> = self
            .pending
            .iter()
            .filter(|(_, pending)| {
                matches!(pending, Pending::Agent { token: t, purpose: Purpose::Body | Purpose::Threads | Purpose::StackTop { .. }, .. } if *t == token)
            })
            .map(|(tag, _)| *tag)
            .collect();
        for tag in abandoned {
            self.effects.push(Effect::Cancel { tag });
        }
    }

    /// Answer every waiter the latest stop or end satisfies.
    pub(super) fn wake_waiters(&mut self) {
        let terminated = self.state() == SessionState::Terminated;
        if terminated && self.end_report_pending() {
            // The exit code is on its way (see `bootstrap.rs`); woken when it comes.
            return;
        }
        let outcome = if terminated {
            StopOutcome::Terminated {
                exit_code: self.run.exit_code,
            }
        } else if let Some(stop) = &self.run.last_stop {
            StopOutcome::Stopped(stop.clone())
        } else {
            return;
        };
        let epoch = self.stop_epoch;
        let (ready, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.waiters)
            .into_iter()
            .partition(|w| terminated || w.after < epoch);
        self.waiters = waiting;
        for w in ready {
            self.reply(w.token, Ok(Answer::Stop(outcome.clone())));
        }
    }
}
