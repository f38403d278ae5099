//! [`SpawnError`]: why the supervisor made no session, its own error. The runtime's
//! facade turns it into the agent's [`SessionError`]; a child session the adapter
//! asked for reports it to the parent's subscribers instead.

use thiserror::Error;

use crate::error::SessionError;

/// Why no session was created.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub(crate) enum SpawnError {
    /// The runtime is shutting down.
    #[error("the runtime is shut down")]
    ShuttingDown,
    /// `max_sessions` sessions are alive.
    #[error("sessions in this runtime: limit of {limit} reached")]
    AtCapacity {
        /// `max_sessions` in force.
        limit: usize,
    },
    /// The session's actor did not start: a bug to report.
    #[error("internal error: starting the session actor: {0}")]
    ActorFailed(String),
}

impl From<SpawnError> for SessionError {
    fn from(err: SpawnError) -> Self {
        match err {
            SpawnError::ShuttingDown => SessionError::RuntimeStopped,
            SpawnError::AtCapacity { limit } => SessionError::LimitExceeded {
                what: "sessions in this runtime".into(),
                limit,
            },
            SpawnError::ActorFailed(detail) => {
                SessionError::internal("starting the session actor", detail)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_reads_the_same_as_the_session_error_it_becomes() {
        for err in [
            SpawnError::ShuttingDown,
            SpawnError::AtCapacity { limit: 3 },
            SpawnError::ActorFailed("mailbox closed".into()),
        ] {
            let text = err.to_string();
            assert_eq!(SessionError::from(err).to_string(), text);
        }
    }
}
