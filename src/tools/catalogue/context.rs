//! [`Context`]: what every tool handler works with (the runtime, the bounds, the path
//! policy), and the lookups they share: a session by id, the default thread and frame.

use crate::wire::types::StackFrame;
use crate::{Runtime, SessionError, SessionHandle, SessionId, SessionState};

use crate::tools::access::paths::PathPolicy;
use crate::tools::catalogue::spec::ToolError;
use crate::tools::inspect::ids::AgentIds;
use crate::tools::results::bounds::Bounds;

/// Shared by every handler of one catalogue.
pub(crate) struct Context {
    pub runtime: Runtime,
    pub bounds: Bounds,
    pub paths: PathPolicy,
    /// The sessions that run a test, and its runner.
    pub test_runs: std::sync::Arc<crate::tools::start::test_launch::TestRuns>,
    /// What each session's launch did beyond starting it, for `debug.restart`.
    pub launch_effects: std::sync::Arc<crate::tools::start::launch_effects::LaunchEffects>,
    /// Where each session's output was last shown in a stop or end result.
    pub output_marks: std::sync::Arc<crate::tools::output::tail::OutputMarks>,
    /// Each session's watch expressions.
    pub watches: std::sync::Arc<crate::tools::inspect::watches::Watches>,
    /// Each session's breakpoints set by statement.
    pub statements: std::sync::Arc<crate::tools::breakpoints::statement_marks::StatementMarks>,
    /// Each session's source built for it, rebuilt by `debug.restart`.
    pub builds: std::sync::Arc<crate::tools::start::source_launch::SourceBuilds>,
    /// The client calling, whose the sessions it starts are; `None`: the host itself,
    /// which may drive every session (`access/owners.rs`).
    pub caller: Option<crate::Owner>,
    /// The clients connected to the catalogue.
    pub clients: std::sync::Arc<crate::tools::access::owners::Clients>,
    /// How long a departed client's sessions outlive it.
    pub owner_grace: std::time::Duration,
    /// For one call of a client that does more than read on a session: whom it acts
    /// for (`access/acting.rs`). The sessions [`Self::session`] gives are checked and act
    /// for that client. `None` in a catalogue's own context.
    pub acting: Option<crate::tools::access::acting::Acting>,
    /// How the caller calls the tools, which the texts it reads follow.
    pub names: crate::tools::ToolNames,
    /// The catalogue's permission gate, for what an exposed session's editors ask
    /// (`debug.expose`): their requests are rated as the agent's own calls.
    pub gate: crate::permission::PermissionGate,
    /// The sessions shown to people's editors, and the moves those made.
    pub exposures: std::sync::Arc<crate::expose::Exposures>,
    /// The catalogue's redaction, for what a tool compares before it answers
    /// (`debug.diff` compares values as the agent will read them).
    pub redaction: crate::tools::Redaction,
    /// The diffs made, kept for their further differences (`debug.diff`).
    pub diffs: std::sync::Arc<crate::tools::diff::store::Diffs>,
}

impl Context {
    /// The tool `canonical` (`debug.output`) as the caller calls it, for a text it reads.
    pub fn tool(&self, canonical: &str) -> String {
        self.names.of(canonical)
    }

    /// The session called `id` (`s1` or `1`), or why there is none: reaped after N s
    /// idle, failed and why (as the runtime remembers ended sessions), or never known
    /// (404 naming the live ones). In a call that acts for a client ([`Self::acting`]),
    /// refused unless the client may drive it now, and a view that acts for the client
    /// ([`SessionHandle::acting_as`]), so that the session checks each call again as
    /// it takes it.
    pub fn session(&self, id: &str) -> Result<SessionHandle, ToolError> {
        let session = self.find_session(id)?;
        match &self.acting {
            None => Ok(session),
            Some(acting) => {
                self.may_act(&session)?;
                Ok(session.acting_as(acting.client.clone()))
            }
        }
    }

    fn find_session(&self, id: &str) -> Result<SessionHandle, ToolError> {
        let parsed: SessionId = id.trim().parse().map_err(|e: String| {
            ToolError::invalid(e, "pass a session_id from debug.launch or debug.sessions")
        })?;
        self.runtime.find(parsed).map_err(|err| match err {
            SessionError::NotFound(_) => {
                let live: Vec<String> = self
                    .runtime
                    .sessions()
                    .iter()
                    .map(|s| s.id().to_string())
                    .collect();
                let hint = if live.is_empty() {
                    "there are no sessions now: start one with debug.launch or debug.attach".into()
                } else {
                    format!(
                        "live sessions: {}; or start one with debug.launch",
                        live.join(", ")
                    )
                };
                ToolError::new(404, format!("no session `{}`", id.trim()), hint)
            }
            ended => ended.into(),
        })
    }

    /// The thread to act on: the one given, else the last stopped thread.
    pub async fn thread(
        &self,
        session: &SessionHandle,
        thread_id: Option<i64>,
    ) -> Result<i64, ToolError> {
        if let Some(t) = thread_id {
            return Ok(t);
        }
        stopped_thread(&session.snapshot().await?)
    }

    /// The top frame of a thread (the last stopped one by default).
    pub async fn top_frame(
        &self,
        session: &SessionHandle,
        thread_id: Option<i64>,
    ) -> Result<StackFrame, ToolError> {
        let thread = self.thread(session, thread_id).await?;
        let frames = session
            .stack_trace(Some(thread), Some(1))
            .await
            .ids(&[("thread_id", thread_id)])?;
        frames.into_iter().next().ok_or_else(|| {
            ToolError::new(
                500,
                format!("thread {thread} has no stack frames"),
                "pick another thread from debug.threads",
            )
        })
    }

    /// The frame asked for, else the top frame of the stopped thread: the frame every
    /// tool that takes a `frame_id` means when the agent gives none.
    pub(crate) async fn frame_or_top(
        &self,
        session: &SessionHandle,
        frame_id: Option<i64>,
    ) -> Result<i64, ToolError> {
        if let Some(frame) = frame_id {
            return Ok(frame);
        }
        // One snapshot: the stopped thread, and its top frame when a stack read of
        // this stop already told it (no `stackTrace` for it again).
        let snapshot = session.snapshot().await?;
        let thread = stopped_thread(&snapshot)?;
        match snapshot.top_frame.filter(|top| top.thread_id == thread) {
            Some(top) => Ok(top.frame_id),
            None => Ok(self.top_frame(session, Some(thread)).await?.id),
        }
    }
}

/// The thread a call that names none acts on: the last stopped thread, refused
/// unless the session is stopped.
fn stopped_thread(snapshot: &dapvisor_actors::SessionSnapshot) -> Result<i64, ToolError> {
    if snapshot.state == SessionState::Terminated {
        return Err(crate::tools::results::exit_signal::session_ended(snapshot));
    }
    if snapshot.state != SessionState::Stopped {
        return Err(not_stopped(snapshot.state));
    }
    snapshot.default_thread().ok_or_else(|| {
        ToolError::invalid(
            "the adapter did not say which thread stopped",
            "pass a thread_id from debug.threads",
        )
    })
}

/// The error for inspecting a session that is not stopped.
pub(crate) fn not_stopped(state: SessionState) -> ToolError {
    let hint = match state {
        SessionState::Running => {
            "the program is running: call debug.pause, or debug.wait for it to stop".to_string()
        }
        SessionState::Terminated => {
            "the program has ended: read debug.output, or launch it again".to_string()
        }
        _ => "call one of the tools allowed now, or debug.wait until it stops".to_string(),
    };
    let mut err = ToolError::invalid(format!("the session is {state}, not stopped"), hint);
    err.allowed_now = Some(state);
    err
}
