//! [`StartPlan`]: everything a session starts (and starts again) from, and the
//! [`ReplayCheck`] a launch must still pass when the runtime starts it again on its own
//! after its adapter crashed. The host that made the launch checked it when the agent
//! asked (a path inside a root, say); the restart comes minutes later, when a link may
//! have been put in the program's place. The check is made again at that moment, off
//! the session's handler (it reads the file system), and a launch that no longer
//! passes ends the session instead of running. The two share a file because each holds
//! the other: a plan carries its check, and the check reads the plan.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::core::session_id::SessionId;
use crate::core::state::Operation;
use crate::launch::InitialBreakpoint;
use crate::registry::ResolvedAdapter;
use crate::wire::types::FunctionBreakpoint;

/// Everything needed to start (or start again) the adapter and the debuggee.
///
/// An embedder gets one from [`Runtime::plan_launch`](crate::Runtime::plan_launch) or
/// [`Runtime::plan_attach`](crate::Runtime::plan_attach), and starts it with
/// [`SessionHandle::start`](crate::SessionHandle::start) on a session it created and
/// subscribed to first, so it sees every event from the first. Its fields may be read
/// and adjusted; it is not built from scratch outside the runtime (`non_exhaustive`),
/// so its adapter has always been found and checked.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StartPlan {
    /// [`Operation::Launch`] or [`Operation::Attach`].
    pub operation: Operation,
    /// The adapter, found and checked.
    pub adapter: ResolvedAdapter,
    /// The `launch` or `attach` arguments in the adapter's dialect.
    pub arguments: Map<String, Value>,
    /// Source breakpoints to set before the debuggee runs.
    pub breakpoints: Vec<InitialBreakpoint>,
    /// Function breakpoints to set before the debuggee runs, whole (a child session
    /// gets its parent's with their conditions).
    pub function_breakpoints: Vec<FunctionBreakpoint>,
    /// Exception filters to set before the debuggee runs.
    pub exception_filters: Vec<String>,
    /// Call-trace patterns recorded from the start.
    pub calls: Vec<String>,
    /// The program, for display.
    pub program: Option<String>,
    /// The session whose adapter asked for this one with `startDebugging`. A child
    /// is not restarted after a crash: it depends on its parent's adapter, which asks
    /// for it again when the parent runs again.
    pub parent: Option<SessionId>,
    /// What an attach reached, checked before its adapter is restarted after a
    /// crash; `None` for a launch and for a child session.
    pub attach_target: Option<crate::core::attach_target::AttachTarget>,
    /// The deadline of the handshake (and of each of its requests), on every start of
    /// this plan; the runtime's `launch_timeout` when `None`.
    pub launch_timeout: Option<Duration>,
    /// Lines dapvisor says in the session's output (category `console`) once, when the
    /// session starts: what the agent should know about how it was set up.
    pub notes: Vec<String>,
    /// What a launch must still satisfy before the runtime starts it again after its
    /// adapter crashed ([`ReplayCheck`]); `None` restarts it as it is.
    pub replay_check: Option<ReplayCheck>,
    /// The core dump the session opened (`LaunchSpec::core`): it cannot run, so what
    /// would move or change the program is refused (`post_mortem.rs`); `None` for a
    /// live program.
    pub core_file: Option<PathBuf>,
    /// The signal that ended the dumped process, as its core file's notes say
    /// (`core_signal.rs`); `None` for a live program, or where the notes say none.
    pub core_signal: Option<i32>,
    /// The path mappings of a remote or container target, applied to every message
    /// exchanged with the adapter; empty (nothing mapped) elsewhere.
    pub path_map: crate::path_map::PathMap,
}

/// A check of a launch's plan before its adapter is restarted after a crash: `Ok`
/// runs it again, `Err(reason)` fails the session with `reason`. It may block (it runs
/// on a blocking thread), and must not take long.
#[derive(Clone)]
pub struct ReplayCheck(Arc<CheckFn>);

/// The check itself: `Err` says why the plan may not start again.
type CheckFn = dyn Fn(&StartPlan) -> Result<(), String> + Send + Sync;

impl ReplayCheck {
    /// A check made by `check`.
    pub fn new(check: impl Fn(&StartPlan) -> Result<(), String> + Send + Sync + 'static) -> Self {
        Self(Arc::new(check))
    }

    /// Whether `plan` may be started again.
    pub fn check(&self, plan: &StartPlan) -> Result<(), String> {
        (self.0)(plan)
    }
}

impl fmt::Debug for ReplayCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ReplayCheck(..)")
    }
}
