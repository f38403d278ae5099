//! The last few KiB of one of an adapter's output streams, kept for error reports:
//! its stderr, and, for an adapter reached over TCP, its stdout (which then carries
//! logs, its listening banner, and for dlv the debuggee's output). Each stream has a
//! tail of its own, so a report never passes one stream off as the other.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// A byte ring holding the most recent output, shared with the reader task.
#[derive(Debug, Clone)]
pub struct OutputTail {
    inner: Arc<Mutex<VecDeque<u8>>>,
    capacity: usize,
}

impl OutputTail {
    /// A tail that keeps at most `capacity` bytes. It allocates nothing until the
    /// adapter writes: most adapters say nothing on stderr, and an in-process one
    /// has no streams at all, so an idle session pays nothing for its tails.
    pub fn new(capacity: usize) -> Self {
        Self {
            inner: Arc::new(Mutex::new(VecDeque::new())),
            capacity,
        }
    }

    /// The most bytes it keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Append bytes, dropping the oldest beyond the capacity.
    pub fn push(&self, bytes: &[u8]) {
        let Ok(mut buf) = self.inner.lock() else {
            return;
        };
        let bytes = &bytes[bytes.len().saturating_sub(self.capacity)..];
        let overflow = (buf.len() + bytes.len()).saturating_sub(self.capacity);
        let held = buf.len();
        buf.drain(..overflow.min(held));
        buf.extend(bytes);
    }

    /// The tail as text (invalid UTF-8 replaced, a split leading character dropped).
    pub fn text(&self) -> String {
        let Ok(buf) = self.inner.lock() else {
            return String::new();
        };
        let (a, b) = buf.as_slices();
        let mut bytes = Vec::with_capacity(buf.len());
        bytes.extend_from_slice(a);
        bytes.extend_from_slice(b);
        let start = bytes
            .iter()
            .position(|b| (*b as i8) >= -0x40)
            .unwrap_or(bytes.len());
        String::from_utf8_lossy(&bytes[start..]).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_the_most_recent_bytes() {
        let tail = OutputTail::new(8);
        tail.push(b"hello ");
        tail.push(b"world!");
        assert_eq!(tail.text(), "o world!");
        tail.push(b"0123456789abcdef");
        assert_eq!(tail.text(), "89abcdef");
    }

    #[test]
    fn a_split_character_at_the_front_is_dropped() {
        let tail = OutputTail::new(4);
        tail.push("aé€".as_bytes()); // 1 + 2 + 3 bytes; the last 4 start inside 'é'
        assert_eq!(tail.text(), "€");
    }
}
