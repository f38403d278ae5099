//! The refusal of an operation the session's state does not allow: the one rule the
//! core and the session handle both apply (the states and their table are in
//! `session_state.rs`).

use crate::error::SessionError;
pub use crate::session_state::{Operation, SessionState};

/// Whether a session in `state` takes `op`: the one rule the core and the session
/// handle both apply. `failure` is why the session failed (the snapshot's
/// `failure`); a failed session refuses everything with it.
pub(crate) fn check(
    state: SessionState,
    failure: Option<&str>,
    op: Operation,
) -> Result<(), SessionError> {
    check_not_failed(state, failure)?;
    if state.allows(op) {
        Ok(())
    } else {
        Err(SessionError::InvalidState {
            operation: op,
            state,
            allowed: state.allowed_operations(),
        })
    }
}

/// A failed session's refusal of everything: [`SessionError::SessionFailed`] with why.
pub(crate) fn check_not_failed(
    state: SessionState,
    failure: Option<&str>,
) -> Result<(), SessionError> {
    if state != SessionState::Failed {
        return Ok(());
    }
    // The core records why before it enters Failed; the text is for a snapshot
    // that somehow lacks it.
    let reason = failure.unwrap_or("the adapter kept crashing").to_string();
    Err(SessionError::SessionFailed { reason })
}
