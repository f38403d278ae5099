//! The fake adapter's memory: a small buffer at a fixed address that holds the
//! modelled program's variables, read and written the way DAP's `readMemory` and
//! `writeMemory` describe (a memory reference plus a byte offset; bytes past the end
//! are reported unreadable; a write that does not fit fails unless partial writes are
//! allowed, and then says how much was written).

use serde_json::{json, Value};

use crate::wire::base64;

/// The address of the first byte.
pub(crate) const BASE: u64 = 0x1000;
/// How many bytes there are.
pub(crate) const SIZE: usize = 32;
/// Where the variable `x` lives: an `i32`, little-endian, 42 at the start.
pub(crate) const X_ADDRESS: u64 = BASE;
/// Where the variable `s` lives: `"hi"` and a NUL.
pub(crate) const S_ADDRESS: u64 = BASE + 4;

/// One connection's memory.
pub(crate) struct Memory {
    bytes: [u8; SIZE],
}

impl Memory {
    pub(crate) fn new() -> Self {
        // Filler that no test would write by chance.
        let mut bytes = [0xAA; SIZE];
        bytes[..4].copy_from_slice(&42i32.to_le_bytes());
        bytes[4..7].copy_from_slice(b"hi\0");
        Self { bytes }
    }

    /// `address` as adapters write memory references.
    pub(crate) fn reference(address: u64) -> String {
        format!("0x{address:x}")
    }

    /// The value of `x`, as it is in memory now.
    pub(crate) fn x(&self) -> i32 {
        let mut le = [0; 4];
        le.copy_from_slice(&self.bytes[..4]);
        i32::from_le_bytes(le)
    }

    /// Answer a `readMemory`'s arguments: the body, or why it failed.
    pub(crate) fn read(&self, args: &Value) -> Result<Value, String> {
        let start = address_of(args)?;
        let count = args["count"]
            .as_i64()
            .filter(|c| *c >= 0)
            .ok_or("`count` must be a number of bytes, 0 or more")?;
        let (from, to) = (BASE as i128, BASE as i128 + SIZE as i128);
        let mut body = json!({ "address": Self::reference(start.max(0) as u64) });
        if start < from {
            // Nothing readable before the buffer: skip to it.
            body["data"] = json!("");
            body["unreadableBytes"] = json!((from - start).min(i128::from(count)) as i64);
            return Ok(body);
        }
        let readable = (to - start).clamp(0, i128::from(count)) as usize;
        let at = (start - from) as usize;
        let data = if readable == 0 {
            &[][..]
        } else {
            &self.bytes[at..at + readable]
        };
        body["data"] = json!(base64::encode(data));
        let unreadable = count - readable as i64;
        if unreadable > 0 {
            body["unreadableBytes"] = json!(unreadable);
        }
        Ok(body)
    }

    /// Carry out a `writeMemory`'s arguments: the body, or why it failed.
    pub(crate) fn write(&mut self, args: &Value) -> Result<Value, String> {
        let start = address_of(args)?;
        let data = base64::decode(args["data"].as_str().unwrap_or_default())
            .map_err(|why| format!("`data` is not base64: {why}"))?;
        let partial = args["allowPartial"].as_bool().unwrap_or(false);
        let (from, to) = (BASE as i128, BASE as i128 + SIZE as i128);
        if start < from || start >= to {
            return Err(format!(
                "{} is not writable memory",
                Self::reference(start.max(0) as u64)
            ));
        }
        let fits = ((to - start) as usize).min(data.len());
        if fits < data.len() && !partial {
            return Err(format!(
                "cannot write {} bytes at {}: only {fits} fit",
                data.len(),
                Self::reference(start as u64)
            ));
        }
        let at = (start - from) as usize;
        self.bytes[at..at + fits].copy_from_slice(&data[..fits]);
        Ok(json!({ "bytesWritten": fits }))
    }
}

/// The address `memoryReference` + `offset` names (hex with `0x`, else decimal).
fn address_of(args: &Value) -> Result<i128, String> {
    let reference = args["memoryReference"]
        .as_str()
        .ok_or("`memoryReference` is missing")?;
    let base = match reference.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => reference.parse(),
    }
    .map_err(|_| format!("`{reference}` is not a memory reference of this adapter"))?;
    Ok(i128::from(base) + i128::from(args["offset"].as_i64().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(memory: &Memory, reference: &str, offset: i64, count: i64) -> (Vec<u8>, i64, String) {
        let body = memory
            .read(&json!({ "memoryReference": reference, "offset": offset, "count": count }))
            .unwrap();
        (
            base64::decode(body["data"].as_str().unwrap()).unwrap(),
            body["unreadableBytes"].as_i64().unwrap_or(0),
            body["address"].as_str().unwrap().to_string(),
        )
    }

    #[test]
    fn reads_the_variables_where_they_live() {
        let memory = Memory::new();
        let (x, unreadable, address) = read(&memory, "0x1000", 0, 4);
        assert_eq!(
            (x, unreadable, address.as_str()),
            (vec![42, 0, 0, 0], 0, "0x1000")
        );
        let (s, _, address) = read(&memory, "4096", 4, 3);
        assert_eq!((s, address.as_str()), (b"hi\0".to_vec(), "0x1004"));
    }

    #[test]
    fn bytes_past_the_end_are_unreadable_and_bytes_before_are_skipped() {
        let memory = Memory::new();
        let (data, unreadable, _) = read(&memory, "0x1000", 30, 8);
        assert_eq!((data.len(), unreadable), (2, 6));
        let (data, unreadable, _) = read(&memory, "0x2000", 0, 8);
        assert_eq!((data.len(), unreadable), (0, 8));
        let (data, unreadable, address) = read(&memory, "0x1000", -3, 8);
        assert_eq!((data.len(), unreadable, address.as_str()), (0, 3, "0xffd"));
        assert!(memory
            .read(&json!({ "memoryReference": "main", "count": 1 }))
            .is_err());
    }

    #[test]
    fn writes_fail_past_the_end_unless_partial() {
        let mut memory = Memory::new();
        let write = |memory: &mut Memory, offset: i64, bytes: &[u8], partial: bool| {
            memory.write(&json!({
                "memoryReference": "0x1000", "offset": offset,
                "data": base64::encode(bytes), "allowPartial": partial,
            }))
        };
        assert_eq!(
            write(&mut memory, 0, &7i32.to_le_bytes(), false).unwrap(),
            json!({ "bytesWritten": 4 })
        );
        assert_eq!(memory.x(), 7);
        let refused = write(&mut memory, 30, &[1, 2, 3, 4], false).unwrap_err();
        assert_eq!(refused, "cannot write 4 bytes at 0x101e: only 2 fit");
        assert_eq!(read(&memory, "0x101e", 0, 2).0, vec![0xAA, 0xAA]);
        assert_eq!(
            write(&mut memory, 30, &[1, 2, 3, 4], true).unwrap(),
            json!({ "bytesWritten": 2 })
        );
        assert_eq!(read(&memory, "0x101e", 0, 2).0, vec![1, 2]);
        assert!(write(&mut memory, 40, &[1], true).is_err());
    }
}
