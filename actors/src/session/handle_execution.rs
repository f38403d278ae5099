//! Execution control as typed methods of [`SessionHandle`]: continue, the three
//! steps, pause, and waiting for the stop they cause. More ways to move the program
//! are in `requests_execution.rs`.

use std::time::Duration;

use crate::core::command::{Answer, Command, ControlAction, StopOutcome};
use crate::error::SessionError;
use crate::session::handle::unexpected;
use crate::session::{RunTicket, SessionHandle};
use crate::wire::types::SteppingGranularity;

impl SessionHandle {
    pub(super) async fn control(
        &self,
        action: ControlAction,
        thread_id: Option<i64>,
        granularity: Option<SteppingGranularity>,
    ) -> Result<RunTicket, SessionError> {
        match self
            .ask(Command::Control {
                action,
                thread_id,
                granularity,
            })
            .await?
        {
            Answer::Resumed { epoch } => Ok(RunTicket { epoch }),
            other => Err(unexpected(other)),
        }
    }

    /// Resume; the thread defaults to the last stopped thread.
    pub async fn continue_(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::Continue, thread_id, None).await
    }

    /// Step over one line.
    pub async fn next(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::Next, thread_id, None).await
    }

    /// Step into the call on this line.
    pub async fn step_in(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::StepIn, thread_id, None).await
    }

    /// Step out of the current function.
    pub async fn step_out(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::StepOut, thread_id, None).await
    }

    /// Step with a granularity (`statement`, `line`, `instruction`).
    pub async fn step(
        &self,
        kind: StepKind,
        thread_id: Option<i64>,
        granularity: SteppingGranularity,
    ) -> Result<RunTicket, SessionError> {
        let action = match kind {
            StepKind::Over => ControlAction::Next,
            StepKind::In => ControlAction::StepIn,
            StepKind::Out => ControlAction::StepOut,
        };
        self.control(action, thread_id, Some(granularity)).await
    }

    /// Interrupt the running debuggee; wait for the stop with the ticket.
    pub async fn pause(&self, thread_id: Option<i64>) -> Result<RunTicket, SessionError> {
        self.control(ControlAction::Pause, thread_id, None).await
    }

    /// Wait for the first stop after `ticket`, or the debuggee's end, or `timeout`
    /// ([`StopOutcome::TimedOut`], not an error). [`RunTicket`]`{ epoch: 0 }` waits
    /// for the first stop of the session (such as one right after launch).
    pub async fn wait_for_stop(
        &self,
        ticket: RunTicket,
        timeout: Duration,
    ) -> Result<StopOutcome, SessionError> {
        match self
            .ask(Command::WaitForStop {
                after: ticket.epoch,
                timeout,
            })
            .await?
        {
            Answer::Stop(outcome) => Ok(outcome),
            other => Err(unexpected(other)),
        }
    }
}

/// Which way to step, for [`SessionHandle::step`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// Over.
    Over,
    /// In.
    In,
    /// Out.
    Out,
}
