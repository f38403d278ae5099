//! `keep: true`: both sides run a second time, each with a breakpoint of the diff's
//! own that stops it where its first run was at the first difference
//! (`stop_there.rs`), and those sessions are left stopped there for the agent. The
//! second runs record nothing (no `calls`, no tracepoints, none of the side's own
//! breakpoints): they only go to the point. Each is the launch the gate passed for
//! the diff, with a breakpoint of no condition: dapvisor counts its stops itself
//! (each continued until the n-th in the function's own file), so that a function of
//! the same name elsewhere is not counted, on every adapter alike.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;
use crate::tools::diff::align::{Difference, Side};
use crate::tools::diff::runs::{self, End, SideRun, Started};
use crate::tools::diff::stop_there::{stop_point, StopPoint};
use crate::SessionHandle;

/// One side's second run, as the answer names it.
#[derive(Debug, Clone)]
pub(crate) struct StoppedRun {
    pub side: Side,
    /// Its session, left to the agent; `None` when there was no second run.
    pub session_id: Option<String>,
    /// Where it was to stop (`the 2nd call of quote`), or why it was not run again.
    pub target: String,
    /// How it went: `stopped (breakpoint ...)`, or that it ended before the point.
    pub end: Option<String>,
}

impl StoppedRun {
    /// One line of the answer's text.
    pub fn text(&self) -> String {
        match (&self.session_id, &self.end) {
            (Some(id), Some(end)) => format!(
                "{}: session {id}, run again to {}: {end}",
                self.side.name(),
                self.target
            ),
            _ => format!("{}: not run again ({})", self.side.name(), self.target),
        }
    }

    pub fn json(&self) -> Value {
        json!({ "session_id": self.session_id, "target": self.target, "end": self.end })
    }
}

/// Run each side again to where it was at `difference`, and leave both sessions to
/// the agent (stopped there, or said otherwise).
pub(crate) async fn run_to_difference(
    ctx: &Arc<Context>,
    launches: &[(&'static str, Value)],
    firsts: [&SideRun; 2],
    difference: &Difference,
    wait: Duration,
) -> Result<Vec<StoppedRun>, ToolError> {
    let again = Started::new(ctx.clone());
    let mut plans = Vec::new();
    for ((side, first), (name, launch)) in [Side::A, Side::B].into_iter().zip(firsts).zip(launches)
    {
        let point = if first.calls_dropped > 0 {
            Err("its first run left calls unrecorded, so the call to stop at cannot be counted")
        } else {
            stop_point(difference, side, &first.rows)
                .ok_or("it made no traced call on the way to the difference")
        };
        plans.push((side, *name, launch.clone(), point));
    }
    let starts = plans.iter().map(|(_, name, launch, point)| {
        let again = &again;
        async move {
            let Ok(point) = point else { return Ok(None) };
            let mut launch = launch.clone();
            let object = launch.as_object_mut().expect("a launch is an object");
            object.insert("calls".into(), json!([]));
            object.insert("breakpoints".into(), json!([point.breakpoint]));
            object.remove("stop_on_entry");
            runs::start(ctx, again, name, launch).await.map(Some)
        }
    });
    let sessions = match futures::future::try_join_all(starts).await {
        Ok(sessions) => sessions,
        Err(e) => {
            again.end().await;
            return Err(e);
        }
    };
    let deadline = tokio::time::Instant::now() + wait;
    let ends = sessions
        .iter()
        .zip(&plans)
        .map(|(session, plan)| async move {
            match (session, &plan.3) {
                (Some(session), Ok(point)) => {
                    run_to(ctx, session, point, deadline, wait).await.map(Some)
                }
                _ => Ok(None),
            }
        });
    let ends = match futures::future::try_join_all(ends).await {
        Ok(ends) => ends,
        Err(e) => {
            again.end().await;
            return Err(e);
        }
    };
    again.keep();
    Ok(plans
        .into_iter()
        .zip(sessions)
        .zip(ends)
        .map(|(((side, _, _, point), session), end)| StoppedRun {
            side,
            session_id: session.map(|s| s.id().to_string()),
            target: match point {
                Ok(point) => point.says,
                Err(why) => why.to_string(),
            },
            end: end.map(|(end, reached)| match reached {
                true => end.text(),
                false => format!("{} before reaching it", end.text()),
            }),
        })
        .collect())
}

/// Run `session` on to `point`: each stop at the breakpoint that is not one counted
/// (a function of the same name elsewhere), or not yet the n-th, is continued. How it
/// ended, and whether that is at the point (any other stop, an exception, is left as
/// it is and said).
async fn run_to(
    ctx: &Arc<Context>,
    session: &SessionHandle,
    point: &StopPoint,
    deadline: tokio::time::Instant,
    wait: Duration,
) -> Result<(End, bool), ToolError> {
    let mut counted = 0;
    let mut ticket = None;
    loop {
        let (end, stop) = runs::wait_stop(ctx, session, ticket.take(), deadline, wait).await?;
        let Some(stop) = stop else {
            return Ok((end, false));
        };
        if !stop.reason.contains("breakpoint") {
            return Ok((end, false));
        }
        if let Some(frame) = &stop.frame {
            let file = frame.source.as_ref().and_then(|s| s.path.as_deref());
            if point.counts(&frame.name, file.map(std::path::Path::new), frame.line) {
                counted += 1;
                if counted == point.n {
                    return Ok((end, true));
                }
            }
        }
        ticket = Some(session.continue_(None).await?);
    }
}
