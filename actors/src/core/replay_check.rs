//! [`ReplayCheck`]: what a launch must still satisfy when the runtime starts it again on
//! its own, after its adapter crashed. The host that made the launch checked it when
//! the agent asked (a path inside a root, say); the restart comes minutes later, when a
//! link may have been put in the program's place. The check is made again at that
//! moment, off the session's handler (it reads the file system), and a launch that no
//! longer passes ends the session instead of running.

use std::fmt;
use std::sync::Arc;

use super::command::StartPlan;

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
