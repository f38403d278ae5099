//! What a request's answer from the adapter means to the agent: the response, or the
//! agent's error (the transport's failure, converted, or the adapter's refusal).

use serde_json::Value;

use crate::error::{SessionError, TransportError};
use crate::wire::{RawJson, Response};

/// What a request's answer means to the agent: a response, or why there is none (the
/// transport's failure, or the adapter's refusal: a response with `success: false`).
pub(super) fn answer_of(
    command: &str,
    result: Result<Response, TransportError>,
) -> Result<Response, SessionError> {
    let response = result?;
    if response.success {
        return Ok(response);
    }
    // Adapters put the human text either in `message` or in body.error.format.
    let body = response.body.as_ref().map(RawJson::to_value);
    let detail = body
        .as_ref()
        .and_then(|b| b.pointer("/error/format"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let message = match (response.message.clone(), detail) {
        (Some(m), Some(d)) if m != d => format!("{m}: {d}"),
        (Some(m), _) => m,
        (None, Some(d)) => d,
        (None, None) => "no reason given".into(),
    };
    Err(SessionError::Adapter {
        command: command.to_string(),
        message,
        body,
    })
}
