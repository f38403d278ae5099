//! What an agent can do next, for each [`SessionError`]: its `hint`.

use super::SessionError;
use crate::session_state::{Operation, SessionState};

/// What an agent can do instead, for [`SessionError::PostMortem`]'s hint.
const POST_MORTEM: &str = "a core dump is read, never run: read its threads, each \
     thread's stack, the locals, memory, and evaluate expressions that need no running \
     process; to run the program again, launch it without `core`";

impl SessionError {
    /// What an agent can do next.
    pub fn hint(&self) -> String {
        match self {
            SessionError::InvalidState { state, .. } => match state {
                SessionState::Running => {
                    "the program is running: pause it, or wait for it to stop at a breakpoint"
                        .into()
                }
                SessionState::NotStarted | SessionState::Terminated => {
                    "launch or attach first".into()
                }
                SessionState::AdapterRestarting => {
                    "the adapter crashed and is being restarted: wait for the \
                     `adapter_restarted` event, then repeat the request"
                        .into()
                }
                SessionState::Stopped => {
                    "the program is already stopped: inspect it, or continue or step it".into()
                }
                SessionState::Failed => {
                    "the session failed: read its failure in the snapshot, end it and \
                     launch again"
                        .into()
                }
                _ => "wait until the session has finished starting".into(),
            },
            SessionError::Adapter { message, .. }
                if message.to_ascii_lowercase().contains("disconnected") =>
            {
                "the debug session has ended (the adapter lost the debuggee): check \
                 the session's state, then launch (or attach) again"
                    .into()
            }
            SessionError::Adapter { .. } => {
                "check the arguments (paths, line numbers, expression syntax for this language)"
                    .into()
            }
            SessionError::Timeout {
                unmatched_count, ..
            } if *unmatched_count > 0 => {
                "the adapter answered something under a request_seq that matches no request \
                 (see the error): it may be misbehaving; retry once, then launch again or use \
                 another adapter"
                    .into()
            }
            SessionError::Timeout { .. } => {
                "retry with a longer timeout, or pause the program if it is busy".into()
            }
            SessionError::AdapterExited { .. } => {
                "the adapter ended; read its stderr above, then launch again".into()
            }
            SessionError::Registry(err) if err.adapter().is_some() => {
                "install the adapter as the message says, or name another adapter".into()
            }
            SessionError::TestRun(err) if !err.is_argument_error() => {
                "fix the build (its errors are shown), or raise the launch timeout if it \
                 only took too long"
                    .into()
            }
            SessionError::StartFailed {
                operation: Operation::Attach,
                ..
            } => "check that the process is alive (the pid exists, and you may trace it) or \
                 that a debug server is listening on the host and port, then attach again"
                .into(),
            SessionError::StartFailed { .. } => {
                "check the program path, its build, and the output shown".into()
            }
            SessionError::Unsupported { .. } => {
                "this adapter cannot do that; use another operation or adapter".into()
            }
            SessionError::LimitExceeded { .. } | SessionError::Busy { .. } => {
                "end sessions or requests you no longer need, or raise the limit".into()
            }
            SessionError::InvalidArgument(_)
            | SessionError::Config(_)
            | SessionError::Registry(_)
            | SessionError::TestRun(_) => "fix the argument and try again".into(),
            SessionError::ReservedCommand { .. } => {
                "use what the error names instead of the raw request".into()
            }
            SessionError::NotOwner { owner, client, .. } => format!(
                "reading the session needs no share; to drive it, ask client {owner} to share \
                 it with {client} (or hand it over), or start a session of your own"
            ),
            SessionError::TargetHeld {
                session: Some(session),
                owner,
                ..
            } => {
                let ask = match owner {
                    Some(owner) => format!(" (ask client {owner} to share it if it is not yours)"),
                    None => String::new(),
                };
                format!(
                    "use session {session}{ask}, or end it first (disconnecting leaves the \
                     program running), then attach again"
                )
            }
            SessionError::TargetHeld { .. } => {
                "wait for the other attach to finish, then list the sessions: use the one \
                 that holds the target"
                    .into()
            }
            SessionError::NotFound(_) | SessionError::SessionEnded(_) => {
                "list the sessions to find a live one, or launch a new one".into()
            }
            SessionError::Protocol(_) => "the adapter misbehaved; try launching again".into(),
            SessionError::Internal { .. } => {
                "dapvisor itself failed (not the adapter, not the request): retry once, and \
                 report it with the error if it happens again"
                    .into()
            }
            SessionError::RuntimeStopped => "start a new runtime".into(),
            SessionError::AdapterCrashed { .. } => {
                "wait for the `adapter_restarted` event (or wait_for_stop: a launched program \
                 stops at its breakpoints again), then repeat the request"
                    .into()
            }
            SessionError::PostMortem { .. } => POST_MORTEM.into(),
            SessionError::SessionFailed { .. } => {
                "the adapter keeps crashing: read the reason, end this session, and launch \
                 again (perhaps with another adapter)"
                    .into()
            }
            SessionError::Reaped { .. } => {
                "launch a new session; keep a session alive by using it, or raise the idle limit"
                    .into()
            }
        }
    }
}
