//! `disassemble` as a typed method of [`SessionHandle`], defaulting to the current
//! instruction pointer, with lldb-dap 19's reading of the offsets put right.

use crate::core::state::Operation;
use crate::error::{ProtocolError, SessionError};
use crate::quirks::lldb_dap::reads_instruction_offset_as_bytes;
use crate::session::SessionHandle;
use crate::wire::typed_requests::Disassemble;
use crate::wire::types::{DisassembleArguments, DisassembledInstruction};

/// The longest x86-64 instruction, in bytes: how far back to start decoding per
/// instruction wanted before an address, where the adapter cannot count back itself.
const MAX_INSTRUCTION_BYTES: i64 = 15;

impl SessionHandle {
    /// Disassemble `instruction_count` instructions from `memory_reference` moved by
    /// `offset` bytes, then `instruction_offset` instructions (negative offsets look
    /// back). Without a reference: the current instruction pointer, the top frame's
    /// `instruction_pointer_reference` on the stopped thread.
    pub async fn disassemble(
        &self,
        memory_reference: Option<&str>,
        offset: Option<i64>,
        instruction_offset: Option<i64>,
        instruction_count: i64,
    ) -> Result<Vec<DisassembledInstruction>, SessionError> {
        if instruction_count < 1 {
            return Err(SessionError::InvalidArgument(format!(
                "instruction_count {instruction_count}: ask for at least one instruction"
            )));
        }
        // DAP's integers are 32-bit; past that an adapter cannot take them, and the
        // arithmetic below (counting instructions here for lldb-dap) must not overflow.
        let fits = |n: i64| n.unsigned_abs() <= i32::MAX as u64;
        for (name, value) in [
            ("instruction_count", Some(instruction_count)),
            ("instruction_offset", instruction_offset),
            ("offset", offset),
        ] {
            if let Some(value) = value.filter(|v| !fits(*v)) {
                return Err(SessionError::InvalidArgument(format!(
                    "{name} {value} is beyond what DAP can carry (a 32-bit integer)"
                )));
            }
        }
        let snapshot = self.ready_for(Operation::Inspect).await?;
        let reference = match memory_reference {
            Some(r) => r.to_string(),
            None => self.instruction_pointer().await?,
        };
        match parse_address(&reference)
            .filter(|_| reads_instruction_offset_as_bytes(&snapshot.capabilities))
        {
            Some(base) => {
                let at = base.wrapping_add_signed(offset.unwrap_or(0));
                self.disassemble_counting_here(
                    &reference,
                    at,
                    instruction_offset.unwrap_or(0),
                    instruction_count,
                )
                .await
            }
            None => {
                self.disassemble_as_asked(&reference, offset, instruction_offset, instruction_count)
                    .await
            }
        }
    }

    async fn disassemble_as_asked(
        &self,
        reference: &str,
        offset: Option<i64>,
        instruction_offset: Option<i64>,
        instruction_count: i64,
    ) -> Result<Vec<DisassembledInstruction>, SessionError> {
        let body = self
            .call::<Disassemble>(DisassembleArguments {
                memory_reference: reference.to_string(),
                offset,
                instruction_offset,
                instruction_count,
                resolve_symbols: Some(true),
            })
            .await?;
        Ok(body.instructions)
    }

    /// For adapters that ignore `offset` and add `instructionOffset` to the address as
    /// bytes: ask from the byte address, and count instructions here. Forwards, by
    /// skipping the first ones; backwards, by decoding from far enough before the
    /// address that the instruction stream has lined up with it again (x86 decoding
    /// resynchronizes within a few instructions), then stepping back from it.
    async fn disassemble_counting_here(
        &self,
        reference: &str,
        at: u64,
        instructions: i64,
        count: i64,
    ) -> Result<Vec<DisassembledInstruction>, SessionError> {
        let base = parse_address(reference).unwrap_or(at);
        // What the adapter adds to the reference, in bytes, to start at `address`.
        let bytes_from = |address: u64| address.wrapping_sub(base) as i64;
        if instructions >= 0 {
            let list = self
                .disassemble_as_asked(reference, None, Some(bytes_from(at)), count + instructions)
                .await?;
            return Ok(list.into_iter().skip(instructions as usize).collect());
        }
        let back = instructions.unsigned_abs() as i64;
        for slack in [0, 7, 3] {
            let lead = back * MAX_INSTRUCTION_BYTES + slack;
            let from = at.wrapping_sub(lead as u64);
            let list = self
                .disassemble_as_asked(reference, None, Some(bytes_from(from)), lead + count)
                .await?;
            let Some(here) = list
                .iter()
                .position(|i| parse_address(&i.address) == Some(at))
            else {
                continue;
            };
            let first = here.saturating_sub(back as usize);
            return Ok(list.into_iter().skip(first).take(count as usize).collect());
        }
        Err(SessionError::Protocol(
            ProtocolError::MisalignedDisassembly { address: at },
        ))
    }
}

/// A memory reference that is an address (`0x...` hex, or decimal), as a number.
fn parse_address(text: &str) -> Option<u64> {
    let text = text.trim();
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_address;

    #[test]
    fn addresses_are_read_in_hex_and_decimal() {
        assert_eq!(parse_address("0x5555555551A8"), Some(0x5555_5555_51a8));
        assert_eq!(parse_address("0x49cecc"), Some(0x49_cecc));
        assert_eq!(parse_address("4096"), Some(4096));
        assert_eq!(parse_address("main+4"), None);
    }
}
