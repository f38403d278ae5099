//! The DAP wire: framing ([`codec`]), the message envelope ([`message`]) and typed
//! arguments and bodies ([`types`]). Pure code: no tasks, no I/O.

pub mod base64;
pub mod codec;
pub mod commands;
pub mod envelope;
pub mod message;
pub mod raw_json;
pub mod typed_requests;
pub mod types;

pub use codec::{CodecError, ContentLengthCodec, DapCodec};
pub use commands::{CommandSpec, DapCommand, StopCacheRule};
pub use envelope::DecodeError;
pub use message::{Event, Message, Request, Response};
pub use raw_json::RawJson;
