//! DAP commands an agent may not send by name (`SessionHandle::request`,
//! `custom_request`): each is the session's own to send, as part of an operation the
//! state machine follows. Sent raw, the session would not know: a raw `disconnect`
//! ends the adapter behind its back, and its exit is taken for a crash and the program
//! relaunched; a raw `launch` or `initialize` runs a second handshake over the first;
//! a raw `setBreakpoints` leaves the cache (which a restarted adapter is given) out of
//! step with the adapter.
//!
//! Each is refused ([`SessionError::ReservedCommand`]) with why, the methods that do
//! the job, and their operations, which an agent surface names in its own terms.
//! `cancel`, `setExceptionBreakpoints` (its filters are cached as sent) and every other
//! command go to the adapter as asked.

use crate::core::state::Operation;
use crate::error::SessionError;
use crate::wire::DapCommand;

/// Why `command` cannot be sent by name, and what to use instead; `None` when it can.
pub(crate) fn refusal(command: DapCommand) -> Option<SessionError> {
    use DapCommand as C;
    use Operation as O;
    let (why, instead, operations): (&str, &str, &[Operation]) = match command {
        C::Initialize | C::Launch | C::Attach | C::ConfigurationDone => (
            "the session sends it in its launch handshake",
            "start a session with Runtime::launch or Runtime::attach, or a terminated one \
             again with SessionHandle::start",
            &[O::Launch, O::Attach],
        ),
        C::Disconnect => (
            "it lets the adapter go, which the session must know of (else its exit is \
             taken for a crash and the program relaunched)",
            "detach with SessionHandle::disconnect, or end the program with \
             SessionHandle::terminate",
            &[O::Disconnect, O::Terminate],
        ),
        C::Terminate => (
            "the session sends it where the adapter takes it, then lets the adapter go",
            "end the program with SessionHandle::terminate",
            &[O::Terminate],
        ),
        C::Restart => (
            "the session uses the adapter's `restart` where it has one, else launches again",
            "restart the program with SessionHandle::restart",
            &[O::Restart],
        ),
        C::SetBreakpoints => (
            "the session keeps each file's list and gives it to a restarted adapter",
            "use SessionHandle::set_breakpoints, add_breakpoint or remove_breakpoint",
            &[O::SetBreakpoints],
        ),
        C::SetFunctionBreakpoints => (
            "the session keeps the list and gives it to a restarted adapter",
            "use SessionHandle::set_function_breakpoints",
            &[O::SetBreakpoints],
        ),
        _ => return None,
    };
    Some(SessionError::ReservedCommand {
        command: command.name().to_string(),
        why,
        instead,
        operations: operations.to_vec(),
    })
}
