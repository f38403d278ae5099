//! The two runs of a `debug.diff`: started side by side as `debug.launch` starts a
//! session, waited on until both ended (or the deadline, or a stop), their rows read
//! whole, and ended when the diff is made unless kept. A guard ends both sessions on
//! every other way out (an error, the call dropped when its client went).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;
use crate::tools::start::args::LaunchArgs;
use crate::tools::start::session::start_launch;
use crate::{RunTicket, SessionHandle, SessionState, StopOutcome, TraceRow};

/// How a run ended, as far as the diff waited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum End {
    /// The program ended (its exit code, where the adapter said one).
    Exited(Option<i64>),
    /// It stopped (an uncaught exception, a breakpoint of the launch's own): what and
    /// where.
    Stopped(String),
    /// It had not ended by the deadline.
    TimedOut(Duration),
}

impl End {
    /// `exited with code 0`, `stopped: ...`, `did not end within 30 s`.
    pub fn text(&self) -> String {
        match self {
            End::Exited(Some(code)) => format!("exited with code {code}"),
            End::Exited(None) => "ended".into(),
            End::Stopped(what) => format!("stopped ({what})"),
            End::TimedOut(wait) => format!("did not end within {} s", wait.as_secs()),
        }
    }

    /// Why the run has no rows past its last one, when it was cut short.
    pub fn cut_short(&self) -> Option<String> {
        match self {
            End::Exited(_) => None,
            other => Some(other.text()),
        }
    }
}

/// One run, ended (or given up on) and read.
#[derive(Debug, Clone)]
pub(crate) struct SideRun {
    pub session: SessionHandle,
    /// The program (or test) it ran.
    pub program: Option<String>,
    pub end: End,
    pub rows: Vec<TraceRow>,
    /// Calls left unrecorded past the rate cap.
    pub calls_dropped: u64,
}

/// Both sessions of a diff, each held from the moment it exists and ended when this
/// is dropped unless [`Self::keep`] was called: no process is left behind on an
/// error or a dropped call (a start still under way when the call is dropped is
/// ended by the runtime itself).
pub(crate) struct Started {
    ctx: Arc<Context>,
    sessions: Mutex<Vec<SessionHandle>>,
    kept: bool,
}

impl Started {
    pub fn new(ctx: Arc<Context>) -> Self {
        Self {
            ctx,
            sessions: Mutex::new(Vec::new()),
            kept: false,
        }
    }

    /// Leave the sessions to the agent.
    pub fn keep(mut self) {
        self.kept = true;
    }

    /// End both sessions now (their programs and adapters).
    pub async fn end(self) {
        for session in self.take() {
            let _ = self.ctx.runtime.end_session(session.id()).await;
        }
    }

    fn hold(&self, session: SessionHandle) {
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(session);
    }

    fn take(&self) -> Vec<SessionHandle> {
        std::mem::take(&mut *self.sessions.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        let sessions = self.take();
        if self.kept || sessions.is_empty() {
            return;
        }
        let runtime = self.ctx.runtime.clone();
        // Dropped outside a runtime only at a process's end, which ends them anyway.
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(async move {
                for session in sessions {
                    let _ = runtime.end_session(session.id()).await;
                }
            });
        }
    }
}

/// Start one side as `debug.launch` would with `arguments`, held by `started` as
/// soon as it exists; its session.
pub(crate) async fn start(
    ctx: &Arc<Context>,
    started: &Started,
    side: &str,
    arguments: Value,
) -> Result<SessionHandle, ToolError> {
    let parsed: LaunchArgs = serde_json::from_value(arguments).map_err(|e| {
        ToolError::invalid(
            format!("`{side}` is not a launch: {e}"),
            "pass what debug.launch takes (a `program` with its `args`, or a `test`)",
        )
    })?;
    let (session, _) = start_launch(ctx, parsed).await.map_err(|mut err| {
        err.error = format!("run {side} did not start: {}", err.error);
        err
    })?;
    started.hold(session.clone());
    Ok(session)
}

/// Wait until `session`'s program ends, stops, or `deadline` passes.
pub(crate) async fn wait_end(
    ctx: &Context,
    session: &SessionHandle,
    deadline: Instant,
    wait: Duration,
) -> Result<End, ToolError> {
    Ok(wait_stop(ctx, session, None, deadline, wait).await?.0)
}

/// Where a run stopped: why, and its top frame (`None` where it could not be read).
pub(crate) struct StopSeen {
    pub reason: String,
    pub frame: Option<crate::wire::types::StackFrame>,
}

/// Wait as [`wait_end`] does (from `ticket`, the run that a continue started, where
/// given); a stop also comes back as its reason and top frame.
pub(crate) async fn wait_stop(
    ctx: &Context,
    session: &SessionHandle,
    ticket: Option<RunTicket>,
    deadline: Instant,
    wait: Duration,
) -> Result<(End, Option<StopSeen>), ToolError> {
    let left = deadline.saturating_duration_since(Instant::now());
    let outcome = match ticket {
        Some(ticket) => session.wait_for_stop(ticket, left).await?,
        None => {
            let snapshot = session.snapshot().await?;
            match (snapshot.state, snapshot.last_stop) {
                (SessionState::Terminated, _) => StopOutcome::Terminated {
                    exit_code: snapshot.exit_code,
                },
                (SessionState::Stopped, Some(stop)) => StopOutcome::Stopped(stop),
                _ => {
                    let ticket = RunTicket {
                        epoch: snapshot.stop_epoch,
                    };
                    session.wait_for_stop(ticket, left).await?
                }
            }
        }
    };
    Ok(match outcome {
        StopOutcome::Terminated { exit_code } => (End::Exited(exit_code), None),
        StopOutcome::Stopped(stop) => {
            let mut what = stop.reason.clone();
            if let Some(text) = stop.text.as_ref().or(stop.description.as_ref()) {
                what = format!("{what}: {text}");
            }
            let frame = ctx.top_frame(session, stop.thread_id).await.ok();
            if let Some(frame) = &frame {
                let file = frame.source.as_ref().and_then(|s| s.path.clone());
                what = format!(
                    "{what} in {} at {}:{}",
                    frame.name,
                    file.as_deref().unwrap_or("?"),
                    frame.line
                );
            }
            let seen = StopSeen {
                reason: stop.reason.clone(),
                frame,
            };
            (End::Stopped(what), Some(seen))
        }
        // Timed out (or an outcome this version does not know): not ended in time.
        _ => (End::TimedOut(wait), None),
    })
}

/// Every row `session` kept, read by cursor (at most the session's row cap). Returns
/// the rows, the calls left unrecorded, and the rows dropped past the cap.
pub(crate) async fn read_rows(
    session: &SessionHandle,
) -> Result<(Vec<TraceRow>, u64, u64), ToolError> {
    let mut rows = Vec::new();
    let mut since = 0;
    loop {
        let slice = session.trace(since, 1000).await?;
        rows.extend(slice.rows);
        since = slice.next;
        if !slice.more {
            return Ok((rows, slice.calls_dropped, slice.dropped));
        }
    }
}
