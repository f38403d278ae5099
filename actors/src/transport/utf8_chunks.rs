//! Text from a byte stream read in chunks. A chunk edge can fall inside a UTF-8
//! character; decoding each chunk on its own would turn both halves into U+FFFD. The
//! incomplete end of a chunk is kept and decoded with the next one instead; bytes that
//! are not UTF-8 at all still become U+FFFD, as `String::from_utf8_lossy` does.

/// A decoder that carries an incomplete character from one chunk to the next.
#[derive(Debug, Default)]
pub struct Utf8Chunks {
    /// The start of a character whose remaining bytes have not come yet (at most 3).
    pending: Vec<u8>,
}

impl Utf8Chunks {
    /// A decoder with nothing carried.
    pub fn new() -> Self {
        Self::default()
    }

    /// The text of `chunk`, with what the previous chunk left in front; an incomplete
    /// character at its end is kept for the next call.
    pub fn push(&mut self, chunk: &[u8]) -> String {
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(chunk);
        let mut out = String::with_capacity(bytes.len());
        let mut rest = &bytes[..];
        loop {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    out.push_str(text);
                    break;
                }
                Err(err) => {
                    let (valid, after) = rest.split_at(err.valid_up_to());
                    out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                    match err.error_len() {
                        Some(bad) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            rest = &after[bad..];
                        }
                        None => {
                            // Cut short by the chunk's end, not invalid: wait for more.
                            self.pending = after.to_vec();
                            break;
                        }
                    }
                }
            }
        }
        out
    }

    /// What is left once the stream ended: an incomplete character, as U+FFFD.
    pub fn finish(&mut self) -> String {
        let rest = std::mem::take(&mut self.pending);
        String::from_utf8_lossy(&rest).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_split_at_any_chunk_edge_comes_out_whole() {
        let text = "naïve €5 — 𝄞 done";
        let bytes = text.as_bytes();
        for size in 1..=bytes.len() {
            let mut decoder = Utf8Chunks::new();
            let mut out: String = bytes.chunks(size).map(|c| decoder.push(c)).collect();
            out.push_str(&decoder.finish());
            assert_eq!(out, text, "chunks of {size}");
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_still_become_replacement_characters() {
        let mut decoder = Utf8Chunks::new();
        assert_eq!(decoder.push(b"a\xffb\xe2\x82"), "a\u{fffd}b");
        // The stream ends mid-character: what was kept is reported, not lost.
        assert_eq!(decoder.finish(), "\u{fffd}");
        assert_eq!(decoder.finish(), "");
        // An incomplete start followed by a byte that cannot continue it.
        let mut decoder = Utf8Chunks::new();
        assert_eq!(decoder.push(b"\xe2"), "");
        assert_eq!(decoder.push(b"x"), "\u{fffd}x");
    }
}
