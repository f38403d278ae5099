//! The error an agent gets back from a session or the runtime.
//!
//! Every variant says what went wrong and, through [`SessionError::hint`], what the
//! agent can do next. How a client sees it (an HTTP-like code and a snake-case kind) is
//! the agent surface's mapping (`dapvisor::ErrorCode`), not the runtime's.

use std::time::Duration;

use serde_json::Value;
use thiserror::Error;

use crate::session_state::{Operation, SessionState};

mod config;
mod hint;
mod protocol;
mod transport;

pub use config::{ConfigError, ConfigRule};
pub use protocol::ProtocolError;
pub use transport::TransportError;

/// How an adapter connection ended, for errors and events.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct AdapterExit {
    /// Exit code, if the adapter exited normally.
    pub code: Option<i32>,
    /// Signal number, if the adapter was killed by a signal.
    pub signal: Option<i32>,
    /// Why the connection ended, in words (end of stream, a read error, a failed spawn).
    pub reason: String,
    /// The last few KiB of the adapter's stderr.
    pub stderr_tail: String,
    /// The last few KiB of the adapter's stdout, for an adapter reached over TCP
    /// (whose stdout carries logs, not DAP); empty otherwise.
    #[serde(default)]
    pub stdout_tail: String,
    /// Whether the runtime asked for this end (terminate, disconnect, shutdown).
    pub requested: bool,
}

impl std::fmt::Display for AdapterExit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)?;
        match (self.code, self.signal) {
            (Some(code), _) => write!(f, " (exit code {code})")?,
            (None, Some(sig)) => write!(f, " (killed by signal {sig})")?,
            (None, None) => {}
        }
        for (stream, tail) in [("stderr", &self.stderr_tail), ("stdout", &self.stdout_tail)] {
            let tail = tail.trim();
            if !tail.is_empty() {
                write!(f, "; adapter {stream} ends with: {tail}")?;
            }
        }
        Ok(())
    }
}

/// A response from the adapter that matched no request in flight.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnmatchedResponse {
    /// The `request_seq` it named.
    pub request_seq: i64,
    /// Its `command`.
    pub command: String,
    /// Whether it reported success.
    pub success: bool,
    /// Whether `request_seq` names a request that was never sent (a wrong
    /// `request_seq`), rather than one no longer in flight (answered already, or past
    /// its deadline).
    pub never_sent: bool,
}

impl std::fmt::Display for UnmatchedResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let outcome = if self.success { "success" } else { "failure" };
        write!(
            f,
            "a `{}` {outcome} for request {}, ",
            self.command, self.request_seq
        )?;
        if self.never_sent {
            f.write_str("which was never sent")
        } else {
            f.write_str("which was no longer in flight")
        }
    }
}

/// Errors from sessions, the adapter, and the runtime.
#[derive(Debug, Clone, Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The operation is not allowed in the session's current state.
    #[error(
        "`{operation}` is not allowed while the session is {state}; allowed now: {}",
        list(allowed)
    )]
    InvalidState {
        /// What was asked for.
        operation: Operation,
        /// The state the session is in.
        state: SessionState,
        /// What the state allows.
        allowed: Vec<Operation>,
    },
    /// The adapter answered the request with a failure.
    #[error("the adapter refused `{command}`: {message}")]
    Adapter {
        /// The DAP command.
        command: String,
        /// The adapter's message (or its error body's format string).
        message: String,
        /// The response body, which may hold a structured error.
        body: Option<Value>,
    },
    /// The adapter did not answer in time.
    #[error(
        "{}",
        timeout_text(command, *seq, *after, *cancel_sent, unmatched, *unmatched_count)
    )]
    Timeout {
        /// The DAP command.
        command: String,
        /// The deadline that passed.
        after: Duration,
        /// The request's `seq` on the wire, which names it (in a `cancel`, in the
        /// adapter's logs); 0 where it never reached the wire.
        seq: i64,
        /// Whether the adapter was sent `cancel` for it (it does when it advertises
        /// `supportsCancelRequest`).
        cancel_sent: bool,
        /// The most recent responses the adapter sent while the request waited that
        /// matched no request in flight: perhaps its answer, under a wrong
        /// `request_seq`.
        unmatched: Vec<UnmatchedResponse>,
        /// How many such responses came meanwhile (more than `unmatched` holds when
        /// older ones were no longer kept).
        unmatched_count: usize,
    },
    /// The adapter process ended or its stream broke.
    #[error("the adapter is gone: {exit}")]
    AdapterExited {
        /// How it ended.
        exit: AdapterExit,
    },
    /// The registry gave no adapter: the caller's arguments chose none (an unknown
    /// name, a program no adapter serves, an attach with no target: an argument
    /// error, kind `invalid_argument`), or the adapter chosen is missing or too old
    /// (kind `adapter_start`; [`RegistryError::adapter`](crate::registry::RegistryError::adapter) names it).
    #[error("{}", registry_text(.0))]
    Registry(#[from] crate::registry::RegistryError),
    /// A test could not be started: the test asked for is not found (an argument
    /// error, kind `invalid_argument`) or did not build or list in time (kind
    /// `start_failed`); [`TestRunError::is_argument_error`] tells which.
    ///
    /// [`TestRunError::is_argument_error`]: crate::TestRunError::is_argument_error
    #[error("{}", test_run_text(.0))]
    TestRun(#[from] crate::test_run::TestRunError),
    /// Launching or attaching failed; `message` is the adapter's own launch error.
    #[error("{operation} failed: {message}")]
    StartFailed {
        /// Launch or attach.
        operation: Operation,
        /// Why, in the adapter's words where it gave any.
        message: String,
        /// The debuggee's and adapter's output so far (build errors often land here).
        output: String,
    },
    /// The adapter lacks a capability the request needs.
    #[error("adapter `{adapter}` does not support {capability}")]
    Unsupported {
        /// The adapter's name.
        adapter: String,
        /// The missing capability (such as `supportsConditionalBreakpoints`).
        capability: String,
    },
    /// A named limit would be exceeded.
    #[error("{what}: limit of {limit} reached")]
    LimitExceeded {
        /// What is limited.
        what: String,
        /// The limit in force.
        limit: usize,
    },
    /// An argument is missing or malformed.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// The runtime's configuration holds a value it cannot work with (the runtime
    /// refused to start): which field, its value and the rule it broke. An argument
    /// error to clients: the same code, kind and hint as
    /// [`InvalidArgument`](Self::InvalidArgument).
    #[error("invalid argument: {0}")]
    Config(#[from] ConfigError),
    /// A DAP command the session sends itself as part of an operation, asked for by
    /// name (`SessionHandle::request`, `custom_request`): sent raw, it would put the
    /// session out of step with its adapter. An argument error (400,
    /// `invalid_argument`).
    #[error("`{command}` cannot be sent as a raw request: {why}; instead, {instead}")]
    ReservedCommand {
        /// The DAP command.
        command: String,
        /// Why the session keeps it to itself.
        why: &'static str,
        /// What does its job, in the runtime's API.
        instead: &'static str,
        /// The operations that do its job, for a caller to name in its own terms.
        operations: Vec<Operation>,
    },
    /// No session has this id.
    #[error("no session `{0}`")]
    NotFound(String),
    /// An attach to a process or debug server that a live session holds (attached to
    /// it, or runs it), or that another attach is reaching right now: one debugger per
    /// target.
    #[error("{}", target_held_text(target, session.as_deref(), owner.as_deref()))]
    TargetHeld {
        /// The target (`pid 1234`, `127.0.0.1:5678`).
        target: String,
        /// The session that holds it; `None`: an attach to it is under way.
        session: Option<String>,
        /// That session's owner; `None`: anyone's (or no session yet).
        owner: Option<String>,
    },
    /// A call made for a client ([`SessionHandle::acting_as`]) that may not drive the
    /// session at the moment the session took the call: another client owns it and
    /// does not share it with this one (ownership may have changed since the call was
    /// made).
    ///
    /// [`SessionHandle::acting_as`]: crate::SessionHandle::acting_as
    #[error(
        "session `{session}` belongs to client {owner}, and client {client}, for whom \
         the call was made, may not drive it"
    )]
    NotOwner {
        /// The session.
        session: String,
        /// Its owner when the session took the call.
        owner: String,
        /// The client the call was made for.
        client: String,
    },
    /// The session has ended and its actor is gone.
    #[error("session `{0}` has ended")]
    SessionEnded(String),
    /// The session has too many requests waiting.
    #[error("session is busy: {queued} requests are waiting (limit {limit})")]
    Busy {
        /// Requests waiting.
        queued: usize,
        /// The limit in force.
        limit: usize,
    },
    /// The adapter sent something that does not follow the protocol.
    #[error("protocol error: {0}")]
    Protocol(ProtocolError),
    /// Something inside the runtime failed that no agent request could cause (an
    /// actor that would not start, a lookup that panicked): a bug to report.
    #[error("internal error: {context}: {detail}")]
    Internal {
        /// What the runtime was doing.
        context: &'static str,
        /// What failed, in the failing part's words.
        detail: String,
    },
    /// The runtime is shutting down or gone.
    #[error("the runtime is shut down")]
    RuntimeStopped,
    /// The adapter crashed while the request was pending (or the session is between
    /// adapters); the supervisor restarts it with the same configuration.
    #[error(
        "the adapter crashed ({exit}); restart {attempt} begins in {}ms with the same \
         configuration and breakpoints",
        retry_in.as_millis()
    )]
    AdapterCrashed {
        /// How the adapter ended.
        exit: AdapterExit,
        /// Which restart of the current series is coming (1 for the first).
        attempt: u32,
        /// How long until the new adapter starts.
        retry_in: Duration,
    },
    /// The session's adapter crashed more often than its restart budget allows.
    #[error("the session failed: {reason}")]
    SessionFailed {
        /// Why, with the last crash.
        reason: String,
    },
    /// The session opened a core dump, which cannot run: `operation` would move or
    /// change the program (continue, a step, pause, goto, restart, a write).
    #[error("{}", post_mortem_refusal(*operation))]
    PostMortem {
        /// What was asked for.
        operation: Operation,
    },
    /// The session was ended by the idle reaper.
    #[error("session `{session}` was reaped after {idle_secs}s without an agent request")]
    Reaped {
        /// The session.
        session: String,
        /// How long it had been idle.
        idle_secs: u64,
    },
}

fn timeout_text(
    command: &str,
    seq: i64,
    after: Duration,
    cancel_sent: bool,
    unmatched: &[UnmatchedResponse],
    unmatched_count: usize,
) -> String {
    let mut text = format!("`{command}`");
    if seq > 0 {
        text += &format!(" (request {seq})");
    }
    text += &format!(
        " got no answer from the adapter within {}s",
        after.as_secs_f64()
    );
    if cancel_sent {
        text += "; the adapter was asked to cancel it";
    }
    if unmatched_count > 0 {
        text += &format!(
            "; meanwhile the adapter sent {unmatched_count} response(s) matching no request \
             in flight"
        );
        if unmatched.len() < unmatched_count {
            text += &format!(", the last {}", unmatched.len());
        }
        let listed: Vec<String> = unmatched.iter().map(ToString::to_string).collect();
        text += &format!(": {}", listed.join("; "));
    }
    text
}

/// Who holds an attach target, as [`SessionError::TargetHeld`] says it.
fn target_held_text(target: &str, session: Option<&str>, owner: Option<&str>) -> String {
    match (session, owner) {
        (Some(session), Some(owner)) => format!(
            "{target} is held by session {session}, which belongs to client {owner}: a \
             process or debug server takes one debugger at a time"
        ),
        (Some(session), None) => format!(
            "{target} is held by session {session}: a process or debug server takes one \
             debugger at a time"
        ),
        _ => format!("another attach to {target} is under way"),
    }
}

/// A core dump's refusal of `op`: why it cannot be done.
fn post_mortem_refusal(op: Operation) -> String {
    let why = match op {
        Operation::Modify => "a dump's memory and variables cannot be written",
        Operation::SetBreakpoints | Operation::SetExceptionBreakpoints => {
            "a dump never runs to a breakpoint"
        }
        _ => "a dump cannot run",
    };
    format!(
        "`{op}` is refused: the session is a core dump (the memory of a process that has \
         ended); {why}"
    )
}

/// A registry refusal as it always read: an argument error, or the adapter that could
/// not be started.
fn registry_text(err: &crate::registry::RegistryError) -> String {
    match err.adapter() {
        Some(adapter) => format!("could not start adapter `{adapter}`: {err}"),
        None => format!("invalid argument: {err}"),
    }
}

/// A test-run refusal as it always read: an argument error, or a failed launch.
fn test_run_text(err: &crate::test_run::TestRunError) -> String {
    if err.is_argument_error() {
        format!("invalid argument: {err}")
    } else {
        format!("{} failed: {err}", Operation::Launch)
    }
}

fn list(ops: &[Operation]) -> String {
    if ops.is_empty() {
        return "nothing until it changes state".to_string();
    }
    ops.iter().map(|o| o.name()).collect::<Vec<_>>().join(", ")
}

impl SessionError {
    /// A [`SessionError::Timeout`] of `command` after `after`, for a request that never
    /// reached the wire (no seq, no cancel).
    pub fn timeout(command: impl Into<String>, after: Duration) -> Self {
        SessionError::Timeout {
            command: command.into(),
            after,
            seq: 0,
            cancel_sent: false,
            unmatched: Vec::new(),
            unmatched_count: 0,
        }
    }

    /// A [`SessionError::Internal`] while doing `context`.
    pub fn internal(context: &'static str, detail: impl std::fmt::Display) -> Self {
        SessionError::Internal {
            context,
            detail: detail.to_string(),
        }
    }
}

#[cfg(test)]
mod tests;
