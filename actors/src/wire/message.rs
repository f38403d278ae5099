//! The DAP envelope: request, response and event, as serde types.
//!
//! Arguments and bodies stay as JSON values here so that nothing an adapter sends is
//! lost: unknown fields, unknown events and custom commands pass through untouched.
//! Typed views of the bodies the runtime uses live in [`super::types`] and are parsed
//! on demand with [`Response::parse_body`] and [`Event::parse_body`].

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One DAP protocol message, tagged by its `type` field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Message {
    /// A request, from the client or (reverse requests) from the adapter.
    Request(Request),
    /// A response to a request.
    Response(Response),
    /// An event from the adapter.
    Event(Event),
}

/// A DAP request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Sequence number of this message; the sender numbers its messages from 1.
    #[serde(default)]
    pub seq: i64,
    /// The command, such as `initialize` or `stackTrace`.
    pub command: String,
    /// The command's arguments; absent for commands that take none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
}

/// A DAP response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// Sequence number of this message. Some adapters leave it out; it defaults to 0.
    #[serde(default)]
    pub seq: i64,
    /// The `seq` of the request this answers.
    pub request_seq: i64,
    /// Whether the request succeeded.
    pub success: bool,
    /// The command of the request this answers.
    pub command: String,
    /// On failure, a short machine-readable reason (such as `cancelled`) or a message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The response body; some adapters leave it out even where the spec has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

/// A DAP event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Sequence number of this message; defaults to 0 where an adapter leaves it out.
    #[serde(default)]
    pub seq: i64,
    /// The event's name, such as `stopped` or `output`; unknown names are kept as they are.
    pub event: String,
    /// The event body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

impl Request {
    /// A request with the given command and arguments; `seq` is filled in when it is sent.
    pub fn new(command: impl Into<String>, arguments: Option<Value>) -> Self {
        Self {
            seq: 0,
            command: command.into(),
            arguments,
        }
    }

    /// Parse the arguments into a typed view; absent arguments parse as `{}`.
    pub fn parse_arguments<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        parse_optional(&self.arguments)
    }
}

impl Response {
    /// Parse the body into a typed view; an absent body parses as `{}`, so a body type
    /// whose fields all have defaults accepts a response that has none.
    pub fn parse_body<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        parse_optional(&self.body)
    }

    /// The body, or an empty object where the adapter sent none.
    pub fn body_or_empty(&self) -> Value {
        self.body
            .clone()
            .unwrap_or_else(|| Value::Object(Default::default()))
    }
}

impl Event {
    /// An event with the given name and body.
    pub fn new(event: impl Into<String>, body: Option<Value>) -> Self {
        Self {
            seq: 0,
            event: event.into(),
            body,
        }
    }

    /// Parse the body into a typed view; an absent body parses as `{}`.
    pub fn parse_body<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        parse_optional(&self.body)
    }
}

fn parse_optional<T: DeserializeOwned>(value: &Option<Value>) -> Result<T, serde_json::Error> {
    match value {
        Some(v) => T::deserialize(v),
        // Adapters leave out bodies the spec has; an empty object lets a body type
        // whose fields all have defaults accept that.
        None => T::deserialize(&Value::Object(serde_json::Map::new())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_event_and_fields_are_kept() {
        let raw = json!({"seq": 7, "type": "event", "event": "debugpySockets",
                         "body": {"sockets": [1, 2]}, "extra": true});
        let msg: Message = serde_json::from_value(raw).unwrap();
        let Message::Event(ev) = msg else {
            panic!("not an event")
        };
        assert_eq!(ev.event, "debugpySockets");
        assert_eq!(ev.body, Some(json!({"sockets": [1, 2]})));
    }

    #[test]
    fn response_without_seq_or_body_decodes() {
        let raw = json!({"type": "response", "request_seq": 3, "success": true,
                         "command": "configurationDone"});
        let msg: Message = serde_json::from_value(raw).unwrap();
        let Message::Response(resp) = msg else {
            panic!("not a response")
        };
        assert_eq!((resp.seq, resp.request_seq, resp.body), (0, 3, None));
    }

    #[test]
    fn request_round_trips_with_type_tag() {
        let req = Request {
            seq: 1,
            command: "configurationDone".into(),
            arguments: Some(json!({})),
        };
        let text = serde_json::to_value(Message::Request(req)).unwrap();
        assert_eq!(
            text,
            json!({"seq": 1, "type": "request", "command": "configurationDone", "arguments": {}})
        );
    }
}
