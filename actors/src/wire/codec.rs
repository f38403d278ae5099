//! DAP framing: `Content-Length: N\r\n\r\n` followed by N bytes of JSON.
//!
//! [`ContentLengthCodec`] splits a byte stream into frame bodies and frames outgoing
//! bodies; [`DapCodec`] adds JSON on top and yields [`Message`]s. Both plug into
//! `tokio_util::codec::{FramedRead, FramedWrite}`.
//!
//! # What the decoder accepts
//!
//! * Header names are matched case-insensitively; whitespace around a value is
//!   ignored; headers other than `Content-Length` (such as `Content-Type`) are ignored.
//! * Lines end in `\n`, with one optional `\r` before it. DAP requires `\r\n`, but some
//!   adapters write bare `\n`; accepting both stays unambiguous because the header
//!   block ends at the first *empty* line and a header line is never empty.
//! * Junk is skipped, because adapters sometimes print stray text on stdout: before
//!   the first header line of a frame, any complete line that is not of the form
//!   `Name: value` (name made of HTTP token characters, no spaces) is discarded as
//!   soon as its `\n` arrives, and so are blank lines. A stream of junk lines
//!   therefore never grows the buffer; only a single unterminated line can, and it is
//!   bounded by the header limit.
//! * Once a header line has been seen, the frame has started: a later line that is
//!   not `Name: value` is [`CodecError::MalformedHeader`], and a block without
//!   `Content-Length` is [`CodecError::MissingContentLength`].
//!
//! Decode errors mean framing is lost; treat them as the end of the stream.

use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::message::Message;
use crate::limits::{DEFAULT_MAX_CONTENT_LENGTH, DEFAULT_MAX_HEADER_LENGTH};

/// Longest excerpt of a bad header value or line quoted in an error message.
const QUOTE_LIMIT: usize = 80;

/// Why a DAP stream could not be framed, parsed or written.
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    /// A frame declared a body larger than the configured limit; nothing was buffered.
    #[error(
        "DAP frame declares Content-Length {length}, above the limit of {limit} bytes; \
         if the adapter really sends frames this large, raise the limit \
         (ContentLengthCodec::with_max_content_length)"
    )]
    ContentTooLong {
        /// The declared body length.
        length: usize,
        /// The limit in force.
        limit: usize,
    },
    /// No complete header block (or stray line before one) arrived within the limit.
    #[error(
        "no end of DAP header found within {limit} bytes (expected `Content-Length: N` \
         and a blank line); the stream may not be speaking DAP, or, if its headers are \
         really this long, raise the limit (RuntimeConfig::max_header_bytes, or \
         ContentLengthCodec::with_max_header_length on a codec of your own)"
    )]
    HeaderTooLong {
        /// The limit in force.
        limit: usize,
    },
    /// A header block ended without a `Content-Length` header.
    #[error(
        "DAP header block has no Content-Length header; every frame must start with \
         `Content-Length: <body bytes>` followed by a blank line"
    )]
    MissingContentLength,
    /// The `Content-Length` value is not a non-negative decimal integer that fits in memory.
    #[error(
        "DAP Content-Length value {value:?} is not a valid byte count \
         (expected a non-negative decimal integer)"
    )]
    InvalidContentLength {
        /// The value as received (lossily decoded, possibly shortened).
        value: String,
    },
    /// One header block declared two different `Content-Length`s, so the frame is ambiguous.
    #[error("DAP header block declares two different Content-Lengths, {first} and {second}")]
    ConflictingContentLength {
        /// The first value.
        first: usize,
        /// The value that disagrees with it.
        second: usize,
    },
    /// A line inside a started header block is not of the form `Name: value`.
    #[error(
        "malformed line {line:?} inside a DAP header block; expected `Name: value` \
         lines ended by a blank line"
    )]
    MalformedHeader {
        /// The offending line (lossily decoded, possibly shortened).
        line: String,
    },
    /// The stream ended part-way through a frame.
    #[error(
        "DAP stream ended inside a frame: {received} bytes of {} received; \
         the adapter likely exited or closed its output mid-message",
        describe_expected(.expected)
    )]
    UnexpectedEof {
        /// Bytes of the unfinished header or body that had arrived.
        received: usize,
        /// The declared body length, if the header had been read; `None` inside a header.
        expected: Option<usize>,
    },
    /// Reading or writing the underlying stream failed.
    #[error("I/O error on the DAP stream: {0}")]
    Io(#[from] std::io::Error),
    /// A frame's body is not a valid DAP message, or a message could not be serialized.
    #[error("DAP frame body is not a valid DAP message: {0}")]
    Json(#[from] serde_json::Error),
}

fn describe_expected(expected: &Option<usize>) -> String {
    match expected {
        Some(n) => format!("a {n}-byte body"),
        None => "an unfinished header".to_owned(),
    }
}

/// Where the decoder is within the current frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DecodeState {
    /// Looking for (or part-way through) a header block.
    Header,
    /// Header consumed; waiting for this many body bytes.
    Body(usize),
}

/// Splits a byte stream on `Content-Length` framing; yields each frame's body.
///
/// See the [module docs](self) for the exact rules on junk and line endings.
/// Encoding writes `Content-Length: N\r\n\r\n` and the body; it does not enforce the
/// content limit, which guards only what is read.
#[derive(Debug, Clone)]
pub struct ContentLengthCodec {
    max_content_length: usize,
    max_header_length: usize,
    state: DecodeState,
}

impl ContentLengthCodec {
    /// A codec with the limits from [`crate::limits`].
    pub fn new() -> Self {
        Self {
            max_content_length: DEFAULT_MAX_CONTENT_LENGTH,
            max_header_length: DEFAULT_MAX_HEADER_LENGTH,
            state: DecodeState::Header,
        }
    }

    /// Set the largest `Content-Length` a frame may declare.
    pub fn with_max_content_length(mut self, limit: usize) -> Self {
        self.max_content_length = limit;
        self
    }

    /// Set the largest header block, counted from its first line through the blank line.
    /// A single stray line before a header is held to the same limit.
    pub fn with_max_header_length(mut self, limit: usize) -> Self {
        self.max_header_length = limit;
        self
    }

    /// The largest `Content-Length` a frame may declare.
    pub fn max_content_length(&self) -> usize {
        self.max_content_length
    }

    /// The largest header block accepted.
    pub fn max_header_length(&self) -> usize {
        self.max_header_length
    }

    /// Consume junk and a full header block from the front of `src`, returning the
    /// declared body length, or `None` if the block is not complete yet. The block is
    /// re-scanned on each call until it completes; it is bounded by the header limit.
    fn decode_header(&self, src: &mut BytesMut) -> Result<Option<usize>, CodecError> {
        let limit = self.max_header_length;
        let mut pos = 0;
        let mut seen_header = false;
        let mut length: Option<usize> = None;
        loop {
            let Some(nl) = src[pos..].iter().position(|&b| b == b'\n') else {
                // Everything buffered belongs to this block or stray line, and at least
                // one more byte (its `\n`) is still to come.
                if !src.is_empty() && src.len() >= limit {
                    return Err(CodecError::HeaderTooLong { limit });
                }
                return Ok(None);
            };
            let end = pos + nl + 1;
            if end > limit {
                return Err(CodecError::HeaderTooLong { limit });
            }
            let line = strip_cr(&src[pos..pos + nl]);
            if line.is_empty() && seen_header {
                let length = length.ok_or(CodecError::MissingContentLength)?;
                src.advance(end);
                return Ok(Some(length));
            }
            match split_header(line) {
                Some((name, value)) => {
                    seen_header = true;
                    if name.eq_ignore_ascii_case(b"content-length") {
                        let n = self.parse_length(value)?;
                        if let Some(first) = length.filter(|&first| first != n) {
                            return Err(CodecError::ConflictingContentLength { first, second: n });
                        }
                        length = Some(n);
                    }
                    pos = end;
                }
                None if seen_header => {
                    return Err(CodecError::MalformedHeader { line: quote(line) });
                }
                None => {
                    // Junk (or a blank line) before any header: drop it now so that
                    // junk never accumulates in the buffer.
                    src.advance(end);
                    pos = 0;
                }
            }
        }
    }

    fn parse_length(&self, value: &[u8]) -> Result<usize, CodecError> {
        let invalid = || CodecError::InvalidContentLength {
            value: quote(value),
        };
        // `str::parse` would accept a leading `+`; DAP wants bare digits.
        if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
            return Err(invalid());
        }
        let length: usize = std::str::from_utf8(value)
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(invalid)?;
        if length > self.max_content_length {
            return Err(CodecError::ContentTooLong {
                length,
                limit: self.max_content_length,
            });
        }
        Ok(length)
    }
}

impl Default for ContentLengthCodec {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder for ContentLengthCodec {
    type Item = Bytes;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>, CodecError> {
        let length = match self.state {
            DecodeState::Body(length) => length,
            DecodeState::Header => match self.decode_header(src)? {
                Some(length) => {
                    self.state = DecodeState::Body(length);
                    length
                }
                None => return Ok(None),
            },
        };
        if src.len() < length {
            // The length is already checked against the cap, so this is bounded.
            src.reserve(length - src.len());
            return Ok(None);
        }
        self.state = DecodeState::Header;
        Ok(Some(src.split_to(length).freeze()))
    }

    /// At end of stream, leftover junk (stray text, whitespace) is discarded and ends
    /// the stream cleanly; a partial header or body is [`CodecError::UnexpectedEof`].
    /// An unterminated last line counts as the start of a header only once it has the
    /// `Name:` shape.
    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Bytes>, CodecError> {
        if let Some(frame) = self.decode(buf)? {
            return Ok(Some(frame));
        }
        match self.state {
            DecodeState::Body(length) => Err(CodecError::UnexpectedEof {
                received: buf.len(),
                expected: Some(length),
            }),
            // `decode` already dropped every complete junk line, so a complete line
            // left over is a header line.
            DecodeState::Header
                if buf.contains(&b'\n') || split_header(strip_cr(buf)).is_some() =>
            {
                Err(CodecError::UnexpectedEof {
                    received: buf.len(),
                    expected: None,
                })
            }
            DecodeState::Header => {
                buf.clear();
                Ok(None)
            }
        }
    }
}

impl<T: AsRef<[u8]>> Encoder<T> for ContentLengthCodec {
    type Error = CodecError;

    fn encode(&mut self, item: T, dst: &mut BytesMut) -> Result<(), CodecError> {
        let body = item.as_ref();
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        dst.reserve(header.len() + body.len());
        dst.extend_from_slice(header.as_bytes());
        dst.extend_from_slice(body);
        Ok(())
    }
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Split `Name: value` into the name and the trimmed value; `None` if the line does
/// not have that form.
fn split_header(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = line.iter().position(|&b| b == b':')?;
    let (name, rest) = line.split_at(colon);
    if name.is_empty() || !name.iter().all(|&b| is_token_char(b)) {
        return None;
    }
    Some((name, rest[1..].trim_ascii()))
}

/// HTTP token characters (RFC 9110 `tchar`): what a header name may contain.
fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn quote(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(QUOTE_LIMIT) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.into_owned(),
    }
}

/// Frames DAP [`Message`]s: [`ContentLengthCodec`] framing plus JSON.
///
/// A body that is not a valid message is [`CodecError::Json`]; its frame has been
/// consumed by then, so a caller driving the codec by hand may log it and go on.
#[derive(Debug, Clone, Default)]
pub struct DapCodec {
    framing: ContentLengthCodec,
}

impl DapCodec {
    /// A codec with the limits from [`crate::limits`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Set the largest `Content-Length` a frame may declare.
    pub fn with_max_content_length(self, limit: usize) -> Self {
        Self {
            framing: self.framing.with_max_content_length(limit),
        }
    }

    /// Set the largest header block accepted.
    pub fn with_max_header_length(self, limit: usize) -> Self {
        Self {
            framing: self.framing.with_max_header_length(limit),
        }
    }

    /// The framing codec underneath, with its limits.
    pub fn framing(&self) -> &ContentLengthCodec {
        &self.framing
    }

    /// Unwrap into the framing codec, keeping any partial-frame state.
    pub fn into_framing(self) -> ContentLengthCodec {
        self.framing
    }
}

impl From<ContentLengthCodec> for DapCodec {
    fn from(framing: ContentLengthCodec) -> Self {
        Self { framing }
    }
}

impl Decoder for DapCodec {
    type Item = Message;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Message>, CodecError> {
        match self.framing.decode(src)? {
            Some(body) => Ok(Some(serde_json::from_slice(&body)?)),
            None => Ok(None),
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Message>, CodecError> {
        match self.framing.decode_eof(buf)? {
            Some(body) => Ok(Some(serde_json::from_slice(&body)?)),
            None => Ok(None),
        }
    }
}

impl Encoder<&Message> for DapCodec {
    type Error = CodecError;

    fn encode(&mut self, item: &Message, dst: &mut BytesMut) -> Result<(), CodecError> {
        let body = serde_json::to_vec(item)?;
        self.framing.encode(body, dst)
    }
}

impl Encoder<Message> for DapCodec {
    type Error = CodecError;

    fn encode(&mut self, item: Message, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.encode(&item, dst)
    }
}
