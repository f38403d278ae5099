//! The DAP envelope: request, response and event, as serde types.
//!
//! Nothing an adapter sends is lost: request arguments stay JSON values, response and
//! event bodies stay as the JSON text they came in ([`RawJson`], parsed only when
//! read), unknown events and custom commands pass through, and fields of the envelope
//! this module does not know are kept in `extra`. Typed views of the bodies the
//! runtime uses live in [`super::types`] and are parsed on demand with
//! [`Response::parse_body`] and [`Event::parse_body`]. Decoding, in one pass over the
//! bytes, is in `envelope.rs`.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use super::raw_json::RawJson;

/// One DAP protocol message, tagged by its `type` field.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Request {
    /// Sequence number of this message; the sender numbers its messages from 1.
    pub seq: i64,
    /// The command, such as `initialize` or `stackTrace`.
    pub command: String,
    /// The command's arguments; absent for commands that take none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// Fields of the envelope beyond the protocol's, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A DAP response.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Response {
    /// Sequence number of this message. Some adapters leave it out; it defaults to 0.
    pub seq: i64,
    /// The `seq` of the request this answers.
    pub request_seq: i64,
    /// Whether the request succeeded.
    pub success: bool,
    /// The command of the request this answers.
    pub command: String,
    /// On failure, a short machine-readable reason (such as `cancelled`) or a message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The response body; some adapters leave it out even where the spec has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<RawJson>,
    /// Fields of the envelope beyond the protocol's, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A DAP event.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Event {
    /// Sequence number of this message; defaults to 0 where an adapter leaves it out.
    pub seq: i64,
    /// The event's name, such as `stopped` or `output`; unknown names are kept as they are.
    pub event: String,
    /// The event body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<RawJson>,
    /// Fields of the envelope beyond the protocol's, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Request {
    /// A request with the given command and arguments; `seq` is filled in when it is sent.
    pub fn new(command: impl Into<String>, arguments: Option<Value>) -> Self {
        Self {
            command: command.into(),
            arguments,
            ..Self::default()
        }
    }

    /// Parse the arguments into a typed view; absent arguments parse as `{}`.
    pub fn parse_arguments<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        match &self.arguments {
            Some(v) => T::deserialize(v),
            None => T::deserialize(&Value::Object(Map::new())),
        }
    }
}

impl Response {
    /// A response to `request_seq` (`seq` is filled in when it is sent).
    pub fn new(
        request_seq: i64,
        command: impl Into<String>,
        result: Result<Option<Value>, String>,
    ) -> Self {
        let (success, message, body) = match result {
            Ok(body) => (true, None, body.map(RawJson::from)),
            Err(message) => (false, Some(message), None),
        };
        Self {
            request_seq,
            success,
            command: command.into(),
            message,
            body,
            ..Self::default()
        }
    }

    /// Parse the body into a typed view; an absent body parses as `{}`, so a body type
    /// whose fields all have defaults accepts a response that has none.
    pub fn parse_body<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        parse_optional(&self.body)
    }

    /// The body as a JSON tree, or an empty object where the adapter sent none.
    pub fn body_or_empty(&self) -> Value {
        body_value(&self.body)
    }

    /// The body as it came, or an empty object where the adapter sent none.
    pub fn raw_body_or_empty(&self) -> RawJson {
        self.body.clone().unwrap_or_else(RawJson::empty_object)
    }
}

impl Event {
    /// An event with the given name and body.
    pub fn new(event: impl Into<String>, body: Option<Value>) -> Self {
        Self {
            event: event.into(),
            body: body.map(RawJson::from),
            ..Self::default()
        }
    }

    /// Parse the body into a typed view; an absent body parses as `{}`.
    pub fn parse_body<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        parse_optional(&self.body)
    }

    /// The body as a JSON tree, or an empty object where the adapter sent none.
    pub fn body_or_empty(&self) -> Value {
        body_value(&self.body)
    }
}

fn parse_optional<T: DeserializeOwned>(body: &Option<RawJson>) -> Result<T, serde_json::Error> {
    match body {
        Some(raw) => raw.parse(),
        // Adapters leave out bodies the spec has; an empty object lets a body type
        // whose fields all have defaults accept that.
        None => T::deserialize(&Value::Object(Map::new())),
    }
}

fn body_value(body: &Option<RawJson>) -> Value {
    body.as_ref()
        .map_or_else(|| Value::Object(Map::new()), RawJson::to_value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_serializes_with_its_type_tag_and_arguments() {
        let req = Request {
            seq: 1,
            command: "configurationDone".into(),
            arguments: Some(json!({})),
            ..Request::default()
        };
        let text = serde_json::to_value(Message::Request(req)).unwrap();
        assert_eq!(
            text,
            json!({"seq": 1, "type": "request", "command": "configurationDone", "arguments": {}})
        );
    }

    #[test]
    fn a_response_serializes_its_body_and_extra_fields_as_they_are() {
        let mut resp = Response::new(4, "threads", Ok(Some(json!({"threads": []}))));
        resp.seq = 9;
        resp.extra.insert("x-trace".into(), json!("abc"));
        let text = serde_json::to_value(Message::Response(resp)).unwrap();
        assert_eq!(
            text,
            json!({"seq": 9, "type": "response", "request_seq": 4, "success": true,
                   "command": "threads", "body": {"threads": []}, "x-trace": "abc"})
        );
    }

    #[test]
    fn a_failed_response_carries_its_message_and_no_body() {
        let resp = Response::new(2, "evaluate", Err("name 'x' is not defined".into()));
        assert!(!resp.success && resp.body.is_none());
        assert_eq!(resp.message.as_deref(), Some("name 'x' is not defined"));
        // A body type whose fields have defaults reads a missing body as `{}`.
        assert_eq!(resp.body_or_empty(), json!({}));
    }
}
