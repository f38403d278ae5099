//! How an editor's bytes are framed: the runtime's DAP codec, stricter at the start.
//! The codec skips lines before a header (adapters print banners), so an HTTP
//! request, which also carries a `Content-Length`, would be read as a DAP message: a
//! web page the person opens could post to the endpoint. Every DAP client begins with
//! its `Content-Length` header, so a connection whose first bytes are anything else is
//! ended before a message is read.

use bytes::BytesMut;
use tokio_util::codec::Decoder;

use dapvisor_actors::wire::{CodecError, DapCodec, Message};

use super::connection::MAX_EDITOR_MESSAGE_BYTES;

/// What every DAP message's header begins with, in any case.
const HEADER_START: &[u8] = b"content-length";

/// The DAP codec for an editor's side of the connection.
#[derive(Debug)]
pub struct EditorCodec {
    dap: DapCodec,
    started: bool,
}

impl Default for EditorCodec {
    fn default() -> Self {
        Self {
            dap: DapCodec::new().with_max_content_length(MAX_EDITOR_MESSAGE_BYTES),
            started: false,
        }
    }
}

impl EditorCodec {
    /// Whether the connection began as DAP does (a `Content-Length` header).
    pub fn spoke_dap(&self) -> bool {
        self.started
    }
}

impl Decoder for EditorCodec {
    type Item = Message;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Message>, CodecError> {
        if !self.started {
            let seen = src.len().min(HEADER_START.len());
            if !src[..seen].eq_ignore_ascii_case(&HEADER_START[..seen]) {
                return Err(CodecError::Io(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "the connection does not begin with a DAP `Content-Length` header",
                )));
            }
            if seen < HEADER_START.len() {
                return Ok(None);
            }
            self.started = true;
        }
        self.dap.decode(src)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn a_dap_client_is_read_and_an_http_request_is_refused_at_its_first_bytes() {
        let body = r#"{"seq":1,"type":"request","command":"initialize"}"#;
        let mut codec = EditorCodec::default();
        let mut bytes = BytesMut::from(&frame(body)[..7]);
        assert!(codec.decode(&mut bytes).unwrap().is_none());
        bytes.extend_from_slice(&frame(body).as_bytes()[7..]);
        assert!(matches!(
            codec.decode(&mut bytes),
            Ok(Some(Message::Request(_)))
        ));

        let http = format!("POST / HTTP/1.1\r\nHost: x\r\n{}", frame(body));
        let mut codec = EditorCodec::default();
        assert!(codec.decode(&mut BytesMut::from(&http[..3])).is_err());
        let mut lower = BytesMut::from(frame(body).to_lowercase().as_str());
        assert!(EditorCodec::default().decode(&mut lower).is_ok());
    }
}
