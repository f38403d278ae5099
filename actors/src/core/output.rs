//! The debuggee output ring: the newest `capacity` bytes of everything the
//! debuggee printed, addressed by byte cursors into the whole stream.
//!
//! Cursors count every byte ever pushed, trimmed or not, so a reader that keeps
//! passing back [`OutputSlice::next`] gets the stream without loss or
//! duplication, and learns exactly how many bytes it missed when it fell behind
//! the trimming ([`OutputSlice::missed_bytes`]).
//!
//! Decisions:
//! - Consecutive pushes of the same category are coalesced into one entry: the
//!   boundaries of DAP output events carry no meaning, and coalescing keeps the
//!   per-entry overhead from dwarfing the text when output arrives in tiny pieces.
//! - Nothing ever splits a UTF-8 character. Trimming drops the whole character
//!   that straddles the limit (so slightly more than needed may go), and a read
//!   stops before a character that would exceed `max_bytes`, except that a read
//!   with data waiting always returns at least one whole character, even past
//!   `max_bytes`, so no `max_bytes` (not even 0) can leave a reader stuck.
//! - A cursor inside a character (one this ring never handed out) is moved
//!   forward to the next character.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// A run of output in one category.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputEntry {
    /// The DAP output category (`stdout`, `stderr`, `console`, ...).
    pub category: String,
    /// The text, whole UTF-8 characters only.
    pub text: String,
}

/// The answer to [`SessionHandle::output`](crate::SessionHandle::output).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputSlice {
    /// The output read, oldest first, one entry per run of a category.
    pub entries: Vec<OutputEntry>,
    /// The cursor to pass as `since` next time.
    pub next: u64,
    /// Bytes between `since` and the oldest byte still held that were trimmed
    /// before this reader got them.
    pub missed_bytes: u64,
    /// Whether `max_bytes` cut the slice short and more output is waiting.
    pub more: bool,
}

impl OutputSlice {
    /// The entries' text, concatenated.
    pub fn text(&self) -> String {
        self.entries
            .iter()
            .map(|entry| entry.text.as_str())
            .collect()
    }
}

/// Where an entry begins in the stream; the entry runs to the next mark.
#[derive(Debug, Clone)]
struct Mark {
    /// Cursor of the entry's first byte; for the oldest entry this may lie
    /// before [`OutputRing::start`] when its front has been trimmed.
    at: u64,
    category: Box<str>,
}

/// The newest `capacity` bytes of debuggee output, with categories.
#[derive(Debug, Clone)]
pub struct OutputRing {
    /// The held text, valid UTF-8, beginning at cursor `start`.
    bytes: VecDeque<u8>,
    /// One mark per held entry, oldest first; empty exactly when `bytes` is.
    marks: VecDeque<Mark>,
    start: u64,
    capacity: usize,
    truncated: bool,
}

impl Default for OutputRing {
    /// A ring of [`crate::limits::DEFAULT_OUTPUT_BUFFER_BYTES`].
    fn default() -> Self {
        OutputRing::new(crate::limits::DEFAULT_OUTPUT_BUFFER_BYTES)
    }
}

/// Whether `byte` continues a multi-byte UTF-8 character (so no cut may fall before it).
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

impl OutputRing {
    /// An empty ring that will hold at most `capacity_bytes` bytes of text.
    pub fn new(capacity_bytes: usize) -> Self {
        OutputRing {
            bytes: VecDeque::new(),
            marks: VecDeque::new(),
            start: 0,
            capacity: capacity_bytes,
            truncated: false,
        }
    }

    /// Appends `text` in `category`, trimming the oldest output so that at most
    /// [`capacity`](Self::capacity) bytes are held. A text larger than the
    /// capacity keeps only its tail (and everything older goes).
    pub fn push(&mut self, category: &str, text: &str) {
        if text.is_empty() {
            return;
        }
        let at = self.end();
        let mut skip = text.len().saturating_sub(self.capacity);
        while !text.is_char_boundary(skip) {
            skip += 1;
        }
        let keep = &text[skip..];
        if skip > 0 {
            // Part of this text is already lost, so nothing older may stay.
            self.bytes.clear();
            self.marks.clear();
            self.start = at + skip as u64;
            self.truncated = true;
        } else {
            // Make room first so the buffer never grows past the capacity.
            self.trim_to(self.capacity - keep.len());
        }
        if keep.is_empty() {
            return;
        }
        if self.marks.back().map(|mark| &*mark.category) != Some(category) {
            self.marks.push_back(Mark {
                at,
                category: category.into(),
            });
        }
        let needed = self.bytes.len() + keep.len();
        if needed > self.bytes.capacity() {
            // Grow by doubling, but never allocate beyond the capacity.
            let target = needed.max(self.bytes.capacity() * 2).min(self.capacity);
            self.bytes.reserve_exact(target - self.bytes.len());
        }
        self.bytes.extend(keep.as_bytes());
    }

    /// Reads from cursor `since` (0 = the start of the stream), at most
    /// `max_bytes` bytes unless the first character alone is larger (see the
    /// module docs). A `since` at or past [`end`](Self::end) gives an empty
    /// slice whose `next` is `end`.
    pub fn read_since(&self, since: u64, max_bytes: usize) -> OutputSlice {
        let end = self.end();
        if since >= end {
            return OutputSlice {
                next: end,
                ..OutputSlice::default()
            };
        }
        let missed_bytes = self.start.saturating_sub(since);
        let mut from = since.max(self.start);
        while from < end && is_continuation(self.byte_at(from)) {
            from += 1;
        }
        if from == end {
            // Everything after `since` was trimmed: report it, nothing to read.
            return OutputSlice {
                next: end,
                missed_bytes,
                ..OutputSlice::default()
            };
        }
        let mut stop = end.min(from.saturating_add(max_bytes as u64));
        while stop > from && stop < end && is_continuation(self.byte_at(stop)) {
            stop -= 1;
        }
        if stop == from {
            // max_bytes is smaller than the next character: hand it over whole.
            stop += 1;
            while stop < end && is_continuation(self.byte_at(stop)) {
                stop += 1;
            }
        }

        let mut entries = Vec::new();
        // marks[0].at <= start <= from, so the partition point is at least 1.
        let mut index = self.marks.partition_point(|mark| mark.at <= from) - 1;
        let mut pos = from;
        while pos < stop {
            let seg_end = self.marks.get(index + 1).map_or(stop, |m| m.at.min(stop));
            entries.push(OutputEntry {
                category: self.marks[index].category.to_string(),
                text: self.text_between(pos, seg_end),
            });
            pos = seg_end;
            index += 1;
        }
        OutputSlice {
            entries,
            next: stop,
            missed_bytes,
            more: stop < end,
        }
    }

    /// The cursor just after the last byte pushed.
    pub fn end(&self) -> u64 {
        self.start + self.bytes.len() as u64
    }

    #[cfg(test)]
    /// The cursor of the oldest byte still held (equal to [`end`](Self::end) when empty).
    pub fn start(&self) -> u64 {
        self.start
    }

    /// Whether any output was ever trimmed.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    #[cfg(test)]
    /// Bytes of text held now; never more than [`capacity`](Self::capacity).
    pub fn bytes_held(&self) -> usize {
        self.bytes.len()
    }

    #[cfg(test)]
    /// The most bytes of text the ring holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    #[cfg(test)]
    /// Changes the capacity, trimming at once (and releasing memory) if it shrank.
    pub fn set_capacity(&mut self, bytes: usize) {
        self.capacity = bytes;
        self.trim_to(bytes);
        if self.bytes.capacity() > bytes {
            self.bytes.shrink_to(bytes);
        }
    }

    /// Trims the oldest bytes until at most `limit` are held, cutting only at a
    /// character boundary.
    fn trim_to(&mut self, limit: usize) {
        if self.bytes.len() <= limit {
            return;
        }
        let mut cut = self.bytes.len() - limit;
        while cut < self.bytes.len() && is_continuation(self.bytes[cut]) {
            cut += 1;
        }
        self.bytes.drain(..cut);
        self.start += cut as u64;
        self.truncated = true;
        if self.bytes.is_empty() {
            self.marks.clear();
        }
        while self.marks.len() > 1 && self.marks[1].at <= self.start {
            self.marks.pop_front();
        }
    }

    fn byte_at(&self, cursor: u64) -> u8 {
        self.bytes[(cursor - self.start) as usize]
    }

    /// The held text in `from..to` (both cursors at character boundaries).
    fn text_between(&self, from: u64, to: u64) -> String {
        let range = (from - self.start) as usize..(to - self.start) as usize;
        let bytes: Vec<u8> = self.bytes.range(range).copied().collect();
        // Always valid by construction; stay panic-free regardless.
        String::from_utf8(bytes)
            .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
    }
}

#[cfg(test)]
#[path = "tests/output_unit.rs"]
mod tests;
