//! Decoding a frame into a [`Message`] in one pass over its bytes.
//!
//! The envelope's fields are read as they come, whatever their order (`type` may come
//! last); bodies are kept as text ([`RawJson`]), not built into a tree; fields the
//! protocol does not have are kept in `extra`. A derived, internally tagged
//! deserializer would first buffer the whole message to find `type`, and could not
//! keep a body as text.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::message::{Event, Message, Request, Response};
use super::raw_json::RawJson;

/// Why a frame is not a DAP message.
#[derive(Debug, Clone, PartialEq)]
pub enum DecodeError {
    /// Not JSON at all: the stream cannot be trusted any further.
    NotJson(String),
    /// JSON, but not a DAP message; `request_seq` is the request it names, if any,
    /// so that the request can fail with what was wrong.
    NotDap {
        /// The `request_seq` the frame names, if it names one as a number.
        request_seq: Option<i64>,
        /// What was wrong.
        detail: String,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::NotJson(detail) => write!(f, "not JSON ({detail})"),
            DecodeError::NotDap { detail, .. } => write!(f, "not a DAP message ({detail})"),
        }
    }
}

impl Message {
    /// Decode one frame's bytes.
    pub fn decode(bytes: &[u8]) -> Result<Message, DecodeError> {
        serde_json::from_slice(bytes).map_err(|err| {
            if err.is_syntax() || err.is_eof() || err.is_io() {
                return DecodeError::NotJson(err.to_string());
            }
            // Only on this rare path is the frame read a second time, for the
            // request it answers.
            #[derive(Deserialize)]
            struct Names {
                request_seq: Option<Value>,
            }
            let names: Option<Names> = serde_json::from_slice(bytes).ok();
            let request_seq = names.and_then(|n| n.request_seq).and_then(|v| v.as_i64());
            DecodeError::NotDap {
                request_seq,
                detail: err.to_string(),
            }
        })
    }
}

impl<'de> Deserialize<'de> for Message {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(EnvelopeVisitor)
    }
}

/// Every field any kind of message has, as read.
#[derive(Default)]
struct Fields {
    kind: Option<String>,
    seq: Option<i64>,
    command: Option<String>,
    arguments: Option<Value>,
    request_seq: Option<i64>,
    success: Option<bool>,
    message: Option<String>,
    body: Option<RawJson>,
    event: Option<String>,
    extra: Map<String, Value>,
}

/// A field name, matched without allocating unless it is one the protocol lacks.
enum Key {
    Type,
    Seq,
    Command,
    Arguments,
    RequestSeq,
    Success,
    Message,
    Body,
    Event,
    Other(String),
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
                Ok(match name {
                    "type" => Key::Type,
                    "seq" => Key::Seq,
                    "command" => Key::Command,
                    "arguments" => Key::Arguments,
                    "request_seq" => Key::RequestSeq,
                    "success" => Key::Success,
                    "message" => Key::Message,
                    "body" => Key::Body,
                    "event" => Key::Event,
                    other => Key::Other(other.to_string()),
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

struct EnvelopeVisitor;

impl<'de> Visitor<'de> for EnvelopeVisitor {
    type Value = Message;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a DAP message: a JSON object with a `type`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
        let mut fields = Fields::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Type => fields.kind = Some(map.next_value()?),
                Key::Seq => fields.seq = Some(map.next_value()?),
                Key::Command => fields.command = Some(map.next_value()?),
                Key::Arguments => fields.arguments = map.next_value()?,
                Key::RequestSeq => fields.request_seq = Some(map.next_value()?),
                Key::Success => fields.success = Some(map.next_value()?),
                Key::Message => fields.message = map.next_value()?,
                // `null` is read as no body, as a missing one is.
                Key::Body => fields.body = map.next_value::<Option<RawJson>>()?,
                Key::Event => fields.event = Some(map.next_value()?),
                Key::Other(name) => {
                    let value = map.next_value()?;
                    fields.extra.insert(name, value);
                }
            }
        }
        fields.into_message()
    }
}

impl Fields {
    fn into_message<E: de::Error>(self) -> Result<Message, E> {
        let seq = self.seq.unwrap_or(0);
        match self.kind.as_deref() {
            Some("request") => Ok(Message::Request(Request {
                seq,
                command: self.command.ok_or_else(|| E::missing_field("command"))?,
                arguments: self.arguments,
                extra: self.extra,
            })),
            Some("response") => Ok(Message::Response(Response {
                seq,
                request_seq: self
                    .request_seq
                    .ok_or_else(|| E::missing_field("request_seq"))?,
                success: self.success.ok_or_else(|| E::missing_field("success"))?,
                command: self.command.ok_or_else(|| E::missing_field("command"))?,
                message: self.message,
                body: self.body,
                extra: self.extra,
            })),
            Some("event") => Ok(Message::Event(Event {
                seq,
                event: self.event.ok_or_else(|| E::missing_field("event"))?,
                body: self.body,
                extra: self.extra,
            })),
            Some(other) => Err(E::unknown_variant(other, &["request", "response", "event"])),
            None => Err(E::missing_field("type")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decode(value: Value) -> Result<Message, DecodeError> {
        Message::decode(value.to_string().as_bytes())
    }

    #[test]
    fn an_unknown_event_and_unknown_fields_are_kept() {
        let msg = decode(json!({"seq": 7, "type": "event", "event": "debugpySockets",
                               "body": {"sockets": [1, 2]}, "extra": true}));
        let Ok(Message::Event(ev)) = msg else {
            panic!("not an event: {msg:?}")
        };
        assert_eq!(ev.event, "debugpySockets");
        assert_eq!(ev.body_or_empty(), json!({"sockets": [1, 2]}));
        assert_eq!(ev.extra.get("extra"), Some(&json!(true)));
    }

    #[test]
    fn a_response_without_seq_or_body_decodes() {
        let msg = decode(
            json!({"type": "response", "request_seq": 3, "success": true,
                                "command": "configurationDone"}),
        );
        let Ok(Message::Response(resp)) = msg else {
            panic!("not a response: {msg:?}")
        };
        assert_eq!((resp.seq, resp.request_seq, resp.body), (0, 3, None));
    }

    #[test]
    fn the_type_may_come_last_and_a_null_body_is_no_body() {
        let text = br#"{"event":"initialized","body":null,"seq":2,"type":"event"}"#;
        let Ok(Message::Event(ev)) = Message::decode(text) else {
            panic!("not an event")
        };
        assert_eq!(
            (ev.seq, ev.event.as_str(), ev.body),
            (2, "initialized", None)
        );
    }

    #[test]
    fn the_body_keeps_its_text() {
        let text = br#"{"type":"response","request_seq":1,"success":true,"command":"threads","body":{ "threads" : [ ] }}"#;
        let Ok(Message::Response(resp)) = Message::decode(text) else {
            panic!("not a response")
        };
        assert_eq!(resp.body.unwrap().as_str(), r#"{ "threads" : [ ] }"#);
    }

    #[test]
    fn a_request_keeps_its_arguments() {
        let msg = decode(
            json!({"seq": 4, "type": "request", "command": "runInTerminal",
                                "arguments": {"args": ["ls"], "cwd": "/"}}),
        );
        let Ok(Message::Request(req)) = msg else {
            panic!("not a request: {msg:?}")
        };
        assert_eq!(req.arguments, Some(json!({"args": ["ls"], "cwd": "/"})));
    }

    #[test]
    fn what_is_not_json_is_told_apart_from_what_is_not_dap() {
        assert!(matches!(
            Message::decode(b"{\"type\": \"event\", "),
            Err(DecodeError::NotJson(_))
        ));
        assert!(matches!(
            Message::decode(b"Content-Length: 2"),
            Err(DecodeError::NotJson(_))
        ));
        let not_dap = decode(json!({"type": "response", "request_seq": 5, "command": "x"}));
        let Err(DecodeError::NotDap {
            request_seq: Some(5),
            detail,
        }) = not_dap
        else {
            panic!("{not_dap:?}")
        };
        assert!(detail.starts_with("missing field `success`"), "{detail}");
        let wrong_type = decode(json!({"type": "response", "request_seq": 6,
                                       "success": "yes", "command": "x"}));
        assert!(
            matches!(
                wrong_type,
                Err(DecodeError::NotDap {
                    request_seq: Some(6),
                    ..
                })
            ),
            "{wrong_type:?}"
        );
        let no_type = decode(json!({"seq": 1}));
        assert!(matches!(
            no_type,
            Err(DecodeError::NotDap {
                request_seq: None,
                ..
            })
        ));
        let other_type = decode(json!({"type": "notification"}));
        assert!(matches!(other_type, Err(DecodeError::NotDap { .. })));
        assert!(matches!(
            decode(json!([1, 2])),
            Err(DecodeError::NotDap { .. })
        ));
    }

    #[test]
    fn decoding_what_was_encoded_gives_the_same_message() {
        let sent = Message::Response(Response::new(
            3,
            "stackTrace",
            Ok(Some(
                json!({"stackFrames": [{"id": 1, "name": "main", "line": 4,
                                            "column": 1}]}),
            )),
        ));
        let text = serde_json::to_vec(&sent).unwrap();
        assert_eq!(Message::decode(&text), Ok(sent));
    }
}
