//! Sample DAP traffic for the codec benchmark, shaped like what debugpy sends: small
//! events (`output`, `stopped`) and a stackTrace response of about 4 KB.

use serde_json::{json, Value};

/// An `output` event of one short line (about 150 bytes of JSON).
pub fn output_event(seq: i64) -> Value {
    json!({"seq": seq, "type": "event", "event": "output", "body": {
        "category": "stdout", "output": format!("processing item {seq} of the order\n"),
        "source": {"path": "/work/app/orders.py"}, "line": 42}})
}

/// A `stopped` event at a breakpoint.
pub fn stopped_event(seq: i64) -> Value {
    json!({"seq": seq, "type": "event", "event": "stopped", "body": {
        "reason": "breakpoint", "threadId": 1, "allThreadsStopped": true,
        "hitBreakpointIds": [3], "preserveFocusHint": false}})
}

/// A `stackTrace` response with as many frames as make its JSON at least 4096 bytes.
pub fn stack_trace_response(seq: i64) -> Value {
    let mut frames = Vec::new();
    loop {
        let response = stack_trace_with(seq, &frames);
        if serde_json::to_vec(&response).map_or(0, |b| b.len()) >= 4096 {
            return response;
        }
        let n = frames.len() as i64;
        frames.push(json!({
            "id": 1000 + n, "name": format!("handle_request_{n}"), "line": 100 + n,
            "column": 1, "source": {"name": format!("module_{n}.py"),
                "path": format!("/work/app/service/handlers/module_{n}.py"),
                "sourceReference": 0},
            "moduleId": "app.service", "presentationHint": "normal"}));
    }
}

fn stack_trace_with(seq: i64, frames: &[Value]) -> Value {
    json!({"seq": seq, "type": "response", "request_seq": seq - 1, "success": true,
        "command": "stackTrace", "body": {"stackFrames": frames, "totalFrames": frames.len()}})
}

/// One `Content-Length` frame around `message`.
pub fn frame(message: &Value) -> Vec<u8> {
    let body = serde_json::to_vec(message).expect("JSON values serialize");
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(&body);
    out
}

/// Frames from `make(seq)`, seq counting from 1, until the stream holds at least
/// `bytes`. Returns the stream and how many frames it holds.
pub fn stream(bytes: usize, make: impl Fn(i64) -> Value) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(bytes + 8192);
    let mut count = 0;
    while out.len() < bytes {
        count += 1;
        out.extend_from_slice(&frame(&make(count as i64)));
    }
    (out, count)
}
