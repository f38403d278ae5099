//! Execution control: `debug.continue`, `debug.step_over`, `debug.step_in`,
//! `debug.step_out`, `debug.pause`, and `debug.wait`. Each waits until the program
//! stops, ends, or the timeout passes, and says which.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::permission::Effect;
use crate::tools::catalogue::profile::Stage;
use crate::Operation;
use crate::{RunTicket, SessionHandle, SessionState, StopOutcome};

use super::catalogue::context::Context;
use super::catalogue::def::{tool, Outcome, Reply, ToolDef};
use super::catalogue::spec::{ToolAnnotations, ToolError};
use super::inspect::ids::AgentIds;
use super::results::render;

pub(crate) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            "debug.continue",
            concat!(
                "Resume the stopped program until the next breakpoint, exception or its end.",
                waits!()
            ),
            ToolAnnotations::CONTROL,
            |ctx, args: ControlArgs| control(ctx, args, Action::Continue),
        )
        .effect(Effect::Control)
        .asks(Operation::Continue)
        .core(Stage::Run, &["thread_id", "watch"]),
        tool(
            "debug.step_over",
            concat!("Run the current line, stepping over calls.", waits!(short)),
            ToolAnnotations::CONTROL,
            |ctx, args: ControlArgs| control(ctx, args, Action::StepOver),
        )
        .effect(Effect::Control)
        .asks(Operation::Next),
        tool(
            "debug.step_in",
            concat!(
                "Step into the function called on the current line.",
                waits!(short)
            ),
            ToolAnnotations::CONTROL,
            |ctx, args: ControlArgs| control(ctx, args, Action::StepIn),
        )
        .effect(Effect::Control)
        .asks(Operation::StepIn),
        tool(
            "debug.step_out",
            concat!(
                "Run until the current function returns to its caller.",
                waits!(short)
            ),
            ToolAnnotations::CONTROL,
            |ctx, args: ControlArgs| control(ctx, args, Action::StepOut),
        )
        .effect(Effect::Control)
        .asks(Operation::StepOut),
        tool(
            "debug.pause",
            concat!("Interrupt the running program.", waits!(short)),
            ToolAnnotations::CONTROL,
            |ctx, args: ControlArgs| control(ctx, args, Action::Pause),
        )
        .effect(Effect::Control)
        .asks(Operation::Pause)
        .core(Stage::Stop, &["thread_id", "watch"]),
        tool(
            "debug.wait",
            concat!(
                "Wait on for a running program (after a `timed_out`); at once if it is \
                 stopped or ended.",
                waits!(short)
            ),
            ToolAnnotations::READ_ONLY,
            wait,
        )
        .effect(Effect::Read)
        .core(Stage::Stop, &[]),
    ]
}

/// Arguments of the control actions.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ControlArgs {
    session_id: String,
    /// The thread (default: the last stopped; for a pause, else the first).
    thread_id: Option<i64>,
    /// Seconds to wait (default {wait}, at most {max_wait}).
    timeout: Option<f64>,
    /// Also watch these.
    #[serde(default)]
    watch: Vec<String>,
}

/// Arguments of `debug.wait`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct WaitArgs {
    session_id: String,
    /// Seconds to wait (default {wait}, at most {max_wait}).
    timeout: Option<f64>,
}

#[derive(Debug, Clone, Copy)]
enum Action {
    Continue,
    StepOver,
    StepIn,
    StepOut,
    Pause,
}

async fn control(ctx: Arc<Context>, args: ControlArgs, action: Action) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    // Added before the program moves, so the stop it comes to shows them.
    super::inspect::watches::add(&ctx, &session, &args.watch)?;
    let wait = ctx.bounds.wait_for(args.timeout);
    let thread = args.thread_id;
    let given = [("thread_id", thread)];
    let ticket = match action {
        Action::Continue => session.continue_(thread).await.ids(&given)?,
        Action::StepOver => session.next(thread).await.ids(&given)?,
        Action::StepIn => session.step_in(thread).await.ids(&given)?,
        Action::StepOut => session.step_out(thread).await.ids(&given)?,
        Action::Pause => {
            let thread = match thread {
                Some(t) => Some(t),
                None => thread_to_pause(&session).await?,
            };
            session.pause(thread).await.ids(&given)?
        }
    };
    let outcome = session.wait_for_stop(ticket, wait).await?;
    Ok(reply(&ctx, &session, outcome, wait).await)
}

/// The thread a `pause` without `thread_id` names. The session defaults to the thread
/// of the last stop or of a `thread` event; a program that has not stopped yet under an
/// adapter that sends no thread events (lldb-dap, dlv) has neither, so the adapter is
/// asked for its threads and the first is named. lldb-dap and dlv stop every thread
/// whichever one a pause names; debugpy knows its threads from its events.
async fn thread_to_pause(session: &SessionHandle) -> Result<Option<i64>, ToolError> {
    let snapshot = session.snapshot().await?;
    if snapshot.default_thread().is_some() || snapshot.state != SessionState::Running {
        // The session's own default, or its refusal naming the state.
        return Ok(None);
    }
    let threads = session.threads().await?;
    match threads.first() {
        Some(t) => Ok(Some(t.id)),
        None => Err(ToolError::invalid(
            "the adapter lists no threads yet, so there is nothing to pause",
            "the program may still be starting: call debug.wait with a short timeout, \
             then debug.pause again",
        )),
    }
}

async fn wait(ctx: Arc<Context>, args: WaitArgs) -> Outcome {
    let session = ctx.session(&args.session_id)?;
    let wait = ctx.bounds.wait_for(args.timeout);
    let snapshot = session.snapshot().await?;
    let outcome = match (snapshot.state, snapshot.last_stop) {
        (SessionState::Stopped, Some(stop)) => StopOutcome::Stopped(stop),
        // An end is asked of the session too: it answers once the exit code is in
        // (dlv says it only while it is let go, js-debug on another connection).
        _ => {
            let ticket = RunTicket {
                epoch: snapshot.stop_epoch,
            };
            session.wait_for_stop(ticket, wait).await?
        }
    };
    Ok(reply(&ctx, &session, outcome, wait).await)
}

async fn reply(
    ctx: &Context,
    session: &SessionHandle,
    outcome: StopOutcome,
    waited: std::time::Duration,
) -> Reply {
    let (mut json, mut text) = render::outcome(ctx, session, outcome, waited).await;
    json["session_id"] = json!(session.id().to_string());
    // Moves a person's editor made on the exposed session since the agent last
    // looked (`debug.expose` with `control`), said before the stop they led to.
    if let Some(seen) = ctx.exposures.moves().take(session.id()) {
        text = format!("{}.\n{text}", seen.sentence());
        json["editor_moves"] = json!(seen);
    }
    Reply::new(json, text)
}
