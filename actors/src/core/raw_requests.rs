//! DAP commands an agent may not send by name (`SessionHandle::request`,
//! `custom_request`, the `debug.custom_request` tool): each is the session's own to
//! send, as part of an operation the state machine follows. Sent raw, the session
//! would not know: a raw `disconnect` ends the adapter behind its back, and its exit
//! is taken for a crash and the program relaunched; a raw `launch` or `initialize`
//! runs a second handshake over the first; a raw `setBreakpoints` leaves the cache
//! (which a restarted adapter is given) out of step with the adapter.
//!
//! Each is refused with the method and tool that do the job. `cancel`,
//! `setExceptionBreakpoints` (its filters are cached as sent) and every other command
//! go to the adapter as asked.

use crate::error::SessionError;

/// Why `command` cannot be sent by name, and what to use instead; `None` when it can.
pub(crate) fn refusal(command: &str) -> Option<SessionError> {
    let instead = match command {
        "initialize" | "launch" | "attach" | "configurationDone" => {
            "the session sends it in its launch handshake: start a session with \
             Runtime::launch or Runtime::attach (tools debug.launch, debug.attach), or \
             a terminated one again with SessionHandle::start"
        }
        "disconnect" => {
            "it lets the adapter go, which the session must know of (else its exit is \
             taken for a crash and the program relaunched): detach with \
             SessionHandle::disconnect (tool debug.disconnect), or end the program with \
             SessionHandle::terminate (debug.terminate)"
        }
        "terminate" => {
            "end the program with SessionHandle::terminate (tool debug.terminate): it \
             sends `terminate` where the adapter takes it, then lets the adapter go"
        }
        "restart" => {
            "restart the program with SessionHandle::restart (tool debug.restart): it \
             uses the adapter's `restart` where it has one, else launches again"
        }
        "setBreakpoints" => {
            "the session keeps each file's list and gives it to a restarted adapter: \
             use SessionHandle::set_breakpoints, add_breakpoint or remove_breakpoint \
             (tools debug.set_breakpoints, debug.set_breakpoint, debug.remove_breakpoint)"
        }
        "setFunctionBreakpoints" => {
            "the session keeps the list and gives it to a restarted adapter: use \
             SessionHandle::set_function_breakpoints (tools debug.set_breakpoint and \
             debug.remove_breakpoint with `function`)"
        }
        _ => return None,
    };
    Some(SessionError::InvalidArgument(format!(
        "`{command}` cannot be sent as a raw request: {instead}"
    )))
}
