//! The DAP wire: framing ([`codec`]), the message envelope ([`message`]) and typed
//! arguments and bodies ([`types`]). Pure code: no tasks, no I/O.

pub mod message;

pub use message::{Event, Message, Request, Response};
