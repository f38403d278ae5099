//! Machine-level and raw requests as typed methods of [`SessionHandle`]: the
//! instruction pointer, memory reads and writes (base64, as on the wire; see
//! [`crate::wire::base64`]), `cancel`, and any command by name. Disassembly is in
//! `requests_disassemble.rs`.

use serde_json::Value;

use crate::core::state::Operation;
use crate::error::SessionError;
use crate::session::SessionHandle;
use crate::wire::typed_requests::{Cancel, ReadMemory, WriteMemory};
use crate::wire::types::{
    CancelArguments, ReadMemoryArguments, ReadMemoryResponseBody, WriteMemoryArguments,
    WriteMemoryResponseBody,
};

impl SessionHandle {
    /// The stopped thread's top frame's instruction pointer, as a memory reference.
    pub async fn instruction_pointer(&self) -> Result<String, SessionError> {
        let frames = self.stack_trace(None, Some(1)).await?;
        let top = frames.into_iter().next().ok_or_else(|| {
            SessionError::InvalidArgument(
                "the stopped thread has no frames: pass a memory_reference".into(),
            )
        })?;
        top.instruction_pointer_reference.ok_or_else(|| {
            SessionError::InvalidArgument(format!(
                "the adapter gave no instruction pointer for frame `{}`: pass a \
                 memory_reference (from a variable or an evaluation)",
                top.name
            ))
        })
    }

    /// Read `count` bytes at `memory_reference` moved by `offset` (`readMemory`). The
    /// answer's `data` is base64; fewer bytes than asked, with `unreadable_bytes`, means
    /// the rest could not be read.
    pub async fn read_memory(
        &self,
        memory_reference: &str,
        offset: Option<i64>,
        count: i64,
    ) -> Result<ReadMemoryResponseBody, SessionError> {
        if count < 0 {
            return Err(SessionError::InvalidArgument(format!(
                "cannot read {count} bytes: count is a number of bytes, 0 or more"
            )));
        }
        self.call::<ReadMemory>(ReadMemoryArguments {
            memory_reference: memory_reference.to_string(),
            offset,
            count,
        })
        .await
    }

    /// Write `data` (base64) at `memory_reference` moved by `offset` (`writeMemory`).
    /// With `allow_partial`, as much as can be written is, and the answer says how
    /// much.
    pub async fn write_memory(
        &self,
        memory_reference: &str,
        offset: Option<i64>,
        data: &str,
        allow_partial: bool,
    ) -> Result<WriteMemoryResponseBody, SessionError> {
        if let Err(why) = crate::wire::base64::decode(data) {
            return Err(SessionError::InvalidArgument(format!(
                "the data to write is not base64: {why}"
            )));
        }
        self.call::<WriteMemory>(WriteMemoryArguments {
            memory_reference: memory_reference.to_string(),
            offset,
            data: data.to_string(),
            allow_partial: allow_partial.then_some(true),
        })
        .await
    }

    /// Ask the adapter to give up on a request (by its `seq`) or a progress (by its
    /// id) (`cancel`). The cancelled request still answers, with an error.
    pub async fn cancel(
        &self,
        request_id: Option<i64>,
        progress_id: Option<&str>,
    ) -> Result<(), SessionError> {
        if request_id.is_none() && progress_id.is_none() {
            return Err(SessionError::InvalidArgument(
                "cancel needs a request_id or a progress_id".into(),
            ));
        }
        self.send_typed::<Cancel>(CancelArguments {
            request_id,
            progress_id: progress_id.map(str::to_string),
        })
        .await?;
        Ok(())
    }

    /// Send any command by name with any arguments, and answer the body as sent.
    /// Allowed while the program runs or is stopped; a command the adapter does not
    /// know is the adapter's error.
    pub async fn custom_request(
        &self,
        command: &str,
        arguments: Option<Value>,
    ) -> Result<Value, SessionError> {
        if command.trim().is_empty() {
            return Err(SessionError::InvalidArgument(
                "custom_request needs a command name".into(),
            ));
        }
        self.request(Operation::CustomRequest, command, arguments, None)
            .await
    }
}
