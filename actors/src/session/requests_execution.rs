//! Execution beyond continue and the three plain steps as typed methods of
//! [`SessionHandle`]: steps with a granularity, into a chosen call or on one thread,
//! stepping back, goto, restarting a frame or the whole debuggee, ending threads.
//! Each answers the [`RunTicket`] to wait for the stop it causes.

use std::path::Path;

use crate::core::command::{Answer, Command, StartPlan};
use crate::core::snapshot::SessionSnapshot;
use crate::core::state::Operation;
use crate::error::SessionError;
use crate::session::handle::unexpected;
use crate::session::requests::source_of;
use crate::session::{RunTicket, SessionHandle, StepKind};
use crate::wire::typed_requests::{
    Continue, Goto, GotoTargets, Next, RestartFrame, ReverseContinue, StepBack, StepIn,
    StepInTargets, StepOut, TerminateThreads,
};
use crate::wire::types::{
    ContinueArguments, GotoArguments, GotoTarget, GotoTargetsArguments, NextArguments,
    RestartFrameArguments, ReverseContinueArguments, StepBackArguments, StepInArguments,
    StepInTarget, StepInTargetsArguments, StepOutArguments, SteppingGranularity,
    TerminateThreadsArguments,
};

impl SessionHandle {
    /// Step with every option: `granularity` (needs `supportsSteppingGranularity`
    /// unless `statement`) and `single_thread`, leaving the other threads stopped
    /// (needs `supportsSingleThreadExecutionRequests`). The session core refuses an
    /// option the adapter did not advertise, naming the capability.
    pub async fn step_with(
        &self,
        kind: StepKind,
        thread_id: Option<i64>,
        granularity: Option<SteppingGranularity>,
        single_thread: bool,
    ) -> Result<RunTicket, SessionError> {
        if !single_thread {
            return match granularity {
                Some(g) => self.step(kind, thread_id, g).await,
                None => match kind {
                    StepKind::Over => self.next(thread_id).await,
                    StepKind::In => self.step_in(thread_id).await,
                    StepKind::Out => self.step_out(thread_id).await,
                },
            };
        }
        let operation = match kind {
            StepKind::Over => Operation::Next,
            StepKind::In => Operation::StepIn,
            StepKind::Out => Operation::StepOut,
        };
        let snapshot = self.ready_for(operation).await?;
        let thread_id = Self::thread_or_stopped(&snapshot, thread_id)?;
        let single_thread = Some(true);
        match kind {
            StepKind::Over => {
                self.moving::<Next>(NextArguments {
                    thread_id,
                    single_thread,
                    granularity,
                })
                .await
            }
            StepKind::In => {
                self.moving::<StepIn>(StepInArguments {
                    thread_id,
                    single_thread,
                    granularity,
                    target_id: None,
                })
                .await
            }
            StepKind::Out => {
                self.moving::<StepOut>(StepOutArguments {
                    thread_id,
                    single_thread,
                    granularity,
                })
                .await
            }
        }
    }

    /// Resume only `thread_id` (the last stopped thread by default), leaving the
    /// others stopped (needs `supportsSingleThreadExecutionRequests`).
    pub async fn continue_single_thread(
        &self,
        thread_id: Option<i64>,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Continue).await?;
        let thread_id = Self::thread_or_stopped(&snapshot, thread_id)?;
        self.moving::<Continue>(ContinueArguments {
            thread_id,
            single_thread: Some(true),
        })
        .await
    }

    /// The calls `stepIn` could enter from `frame_id` (`stepInTargets`).
    pub async fn step_in_targets(&self, frame_id: i64) -> Result<Vec<StepInTarget>, SessionError> {
        let body = self
            .call::<StepInTargets>(StepInTargetsArguments { frame_id })
            .await?;
        Ok(body.targets)
    }

    /// Step into one chosen call (a `target_id` from [`Self::step_in_targets`]).
    pub async fn step_in_target(
        &self,
        thread_id: Option<i64>,
        target_id: i64,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::StepIn).await?;
        let thread_id = Self::thread_or_stopped(&snapshot, thread_id)?;
        self.moving::<StepIn>(StepInArguments {
            thread_id,
            target_id: Some(target_id),
            ..Default::default()
        })
        .await
    }

    /// Step backwards (`stepBack`, needs `supportsStepBack`).
    pub async fn step_back(
        &self,
        thread_id: Option<i64>,
        granularity: Option<SteppingGranularity>,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Navigate).await?;
        let thread_id = Self::thread_or_stopped(&snapshot, thread_id)?;
        self.moving::<StepBack>(StepBackArguments {
            thread_id,
            granularity,
            ..Default::default()
        })
        .await
    }

    /// Run backwards to the previous stop (`reverseContinue`, needs `supportsStepBack`).
    pub async fn reverse_continue(
        &self,
        thread_id: Option<i64>,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Navigate).await?;
        let thread_id = Self::thread_or_stopped(&snapshot, thread_id)?;
        self.moving::<ReverseContinue>(ReverseContinueArguments {
            thread_id,
            ..Default::default()
        })
        .await
    }

    /// Where execution could jump to at `file:line` (`gotoTargets`).
    pub async fn goto_targets(
        &self,
        file: impl AsRef<Path>,
        line: i64,
        column: Option<i64>,
    ) -> Result<Vec<GotoTarget>, SessionError> {
        let body = self
            .call::<GotoTargets>(GotoTargetsArguments {
                source: source_of(file.as_ref()),
                line,
                column,
            })
            .await?;
        Ok(body.targets)
    }

    /// Jump to a target from [`Self::goto_targets`] without running the code between
    /// (`goto`); the adapter reports the move as a stop.
    pub async fn goto(
        &self,
        thread_id: Option<i64>,
        target_id: i64,
    ) -> Result<RunTicket, SessionError> {
        let snapshot = self.ready_for(Operation::Navigate).await?;
        let thread_id = Self::thread_or_stopped(&snapshot, thread_id)?;
        self.moving::<Goto>(GotoArguments {
            thread_id,
            target_id,
        })
        .await
    }

    /// Run `frame_id` again from its start (`restartFrame`).
    pub async fn restart_frame(&self, frame_id: i64) -> Result<RunTicket, SessionError> {
        // The core checks the state, then the capability, as it sends.
        self.moving::<RestartFrame>(RestartFrameArguments { frame_id })
            .await
    }

    /// Restart the debuggee, keeping the session (its id) and every cached breakpoint;
    /// wait for the new run's first stop with the ticket. Where the adapter advertises
    /// `supportsRestartRequest` (lldb-dap) its `restart` request does it under the same
    /// adapter; elsewhere (debugpy, dlv) the debuggee and the adapter are ended and the
    /// plan the session was started with runs again on a fresh adapter, with the
    /// breakpoints as they are now (added ones in, removed ones out). A session that
    /// attached to a process without a `restart` request is refused (501): its process
    /// cannot be launched again.
    pub async fn restart(&self) -> Result<RunTicket, SessionError> {
        match self.ask(Command::Restart).await? {
            Answer::Resumed { epoch } => Ok(RunTicket { epoch }),
            other => Err(unexpected(other)),
        }
    }

    /// Start `plan` again, ending the debuggee and the adapter first if they still
    /// run: for running an ended program again, or with a changed plan (from
    /// [`crate::Runtime::plan_launch`]). The session keeps its id and every cached
    /// breakpoint, and the plan's breakpoints are added to them; answers like
    /// [`Self::start`]. To restart a running program as it was started, use
    /// [`Self::restart`].
    pub async fn relaunch(&self, plan: StartPlan) -> Result<SessionSnapshot, SessionError> {
        if self.snapshot().await?.state.is_live() {
            self.terminate().await?;
        }
        self.start(plan).await
    }

    /// End some threads (`terminateThreads`).
    pub async fn terminate_threads(&self, thread_ids: Vec<i64>) -> Result<(), SessionError> {
        self.send_typed::<TerminateThreads>(TerminateThreadsArguments {
            thread_ids: Some(thread_ids),
        })
        .await?;
        Ok(())
    }
}
