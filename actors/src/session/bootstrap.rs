//! The session actor's side of a program with a session of its own (js-debug, see
//! `core/bootstrap.rs`): output of the bootstrap connection, once the program's
//! connection was adopted, goes to the core as [`Input::Bootstrap`].

use crate::core::bootstrap::BootstrapInput;
use crate::core::command::Input;
use crate::transport::{FrameCredit, TransportOutput};

/// The core's input for `output` of the bootstrap connection, and the place it holds
/// in that connection's bound on unhandled events (given back once it is handled).
pub(super) fn input_of(output: TransportOutput) -> (Input, FrameCredit) {
    let (input, credit) = match output {
        TransportOutput::Event(event, credit) => (BootstrapInput::Event(event), credit),
        TransportOutput::Response { tag, result } => (
            BootstrapInput::Response { tag, result },
            FrameCredit::none(),
        ),
        TransportOutput::StartDebugging {
            request,
            configuration,
            server,
        } => (
            BootstrapInput::StartDebugging {
                request,
                configuration,
                server,
            },
            FrameCredit::none(),
        ),
        TransportOutput::Closed(exit) => (BootstrapInput::Closed(exit), FrameCredit::none()),
    };
    (Input::Bootstrap(input), credit)
}
