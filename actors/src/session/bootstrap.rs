//! The session actor's side of a program with a session of its own (js-debug, see
//! `core/bootstrap.rs`): output of the bootstrap connection, once the program's
//! connection was adopted, goes to the core as [`Input::Bootstrap`].

use crate::core::command::BootstrapInput;
use crate::core::command::Input;
use crate::transport::{ChildSlot, FrameCredit, TransportOutput};

/// The core's input for `output` of the bootstrap connection, the place it holds in
/// that connection's bound on unhandled events (given back once it is handled), and
/// the place of a child session it asks for.
pub(super) fn input_of(output: TransportOutput) -> (Input, FrameCredit, Option<ChildSlot>) {
    let mut child_slot = None;
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
            slot,
        } => {
            child_slot = Some(slot);
            (
                BootstrapInput::StartDebugging {
                    request,
                    configuration,
                    server,
                },
                FrameCredit::none(),
            )
        }
        TransportOutput::Closed(exit) => (BootstrapInput::Closed(exit), FrameCredit::none()),
    };
    (Input::Bootstrap(input), credit, child_slot)
}
