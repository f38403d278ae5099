//! [`ProtocolError`]: what an adapter sent that does not follow DAP, with the
//! command it answered and what was wrong, so an agent learns which request met it.

use thiserror::Error;

/// An adapter's answer that breaks the protocol, carried by
/// [`SessionError::Protocol`](crate::SessionError::Protocol).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The answer lacks the one field it exists for (a `stackTrace` without
    /// `stackFrames`): it cannot pass as an empty answer.
    #[error(
        "the adapter answered `{command}` without `{field}`; its answer cannot be used \
         (body: {body})"
    )]
    MissingField {
        /// The DAP command answered.
        command: String,
        /// The field it lacks.
        field: &'static str,
        /// The answer's body, as JSON text.
        body: String,
    },
    /// The answer's body does not have the shape DAP gives it.
    #[error("the adapter's `{command}` answer is malformed: {detail}")]
    Malformed {
        /// The DAP command answered.
        command: String,
        /// What did not parse.
        detail: String,
    },
    /// The answer is not a DAP message at all.
    #[error("the adapter answered `{command}` with a message that is not DAP: {detail}")]
    NotDap {
        /// The DAP command answered.
        command: String,
        /// What was wrong with the message.
        detail: String,
    },
    /// Disassembly read from before an address never lined up with that address.
    #[error(
        "the adapter's disassembly from before {address:#x} never lined up with that \
         address; disassemble from the address itself (instruction_offset 0)"
    )]
    MisalignedDisassembly {
        /// The address asked about.
        address: u64,
    },
}
