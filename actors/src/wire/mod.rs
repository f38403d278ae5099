//! The DAP wire: framing ([`codec`]), the message envelope ([`message`]) and typed
//! arguments and bodies ([`types`]). Pure code: no tasks, no I/O.

pub mod base64;
pub mod codec;
pub mod message;
pub mod types;

pub use codec::{CodecError, ContentLengthCodec, DapCodec};
pub use message::{Event, Message, Request, Response};
