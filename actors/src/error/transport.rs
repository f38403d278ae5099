//! [`TransportError`]: why a request written for the adapter got no response, the
//! transport's own errors. Only these four can befall a request on the wire; the core
//! matches them exhaustively and turns each into the agent's [`SessionError`] where it
//! answers a call. An adapter's refusal (`success: false`) is a response, not one of
//! these.

use std::time::Duration;

use thiserror::Error;

use super::{timeout_text, AdapterExit, ProtocolError, SessionError, UnmatchedResponse};

/// Why a request sent to the adapter has no response.
#[derive(Debug, Clone, Error)]
#[non_exhaustive]
pub enum TransportError {
    /// Its deadline passed with no answer.
    #[error(
        "{}",
        timeout_text(command, *seq, *after, *cancel_sent, unmatched, *unmatched_count)
    )]
    Timeout {
        /// The DAP command.
        command: String,
        /// The deadline that passed.
        after: Duration,
        /// The request's `seq` on the wire.
        seq: i64,
        /// Whether the adapter was sent `cancel` for it.
        cancel_sent: bool,
        /// The most recent responses, while it waited, that matched no request in
        /// flight: perhaps its answer, under a wrong `request_seq`.
        unmatched: Vec<UnmatchedResponse>,
        /// How many such responses came meanwhile.
        unmatched_count: usize,
    },
    /// The connection is closing or closed: the request was not written, or its
    /// answer can no longer come.
    #[error("the adapter is gone: {exit}")]
    AdapterGone {
        /// How the connection ended, so far as is known.
        exit: AdapterExit,
    },
    /// The adapter answered it with a frame that is JSON but not DAP.
    #[error("protocol error: {0}")]
    NotDap(ProtocolError),
    /// The adapter is not reading its input: too many messages wait to be written.
    #[error("{}: limit of {limit} reached", not_reading_what(adapter))]
    NotReading {
        /// The adapter's name.
        adapter: String,
        /// `max_unwritten_messages` in force.
        limit: usize,
    },
}

/// What [`TransportError::NotReading`] says is limited.
fn not_reading_what(adapter: &str) -> String {
    format!(
        "messages waiting to be written to adapter `{adapter}`, which is not reading its \
         input (max_unwritten_messages)"
    )
}

impl From<TransportError> for SessionError {
    fn from(err: TransportError) -> Self {
        match err {
            TransportError::Timeout {
                command,
                after,
                seq,
                cancel_sent,
                unmatched,
                unmatched_count,
            } => SessionError::Timeout {
                command,
                after,
                seq,
                cancel_sent,
                unmatched,
                unmatched_count,
            },
            TransportError::AdapterGone { exit } => SessionError::AdapterExited { exit },
            TransportError::NotDap(err) => SessionError::Protocol(err),
            TransportError::NotReading { adapter, limit } => SessionError::LimitExceeded {
                what: not_reading_what(&adapter),
                limit,
            },
        }
    }
}

#[cfg(test)]
impl TransportError {
    /// A timeout of `command` after `after` with nothing else to say (no seq, no
    /// cancel, no unmatched answers), as the core's tests feed it.
    pub(crate) fn timeout(command: &str, after: Duration) -> Self {
        TransportError::Timeout {
            command: command.to_string(),
            after,
            seq: 0,
            cancel_sent: false,
            unmatched: Vec::new(),
            unmatched_count: 0,
        }
    }
}
