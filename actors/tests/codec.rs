//! DAP framing codec: one test per boundary, plus property tests over chunking and junk.

use bytes::{BufMut, Bytes, BytesMut};
use dapvisor_actors::wire::{
    CodecError, ContentLengthCodec, DapCodec, Event, Message, Request, Response,
};
use proptest::prelude::*;
use serde_json::json;
use tokio_util::codec::{Decoder, Encoder};

const BODY: &[u8] = br#"{"seq":1,"type":"event","event":"initialized"}"#;

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn decode_one(codec: &mut ContentLengthCodec, buf: &mut BytesMut) -> Option<Bytes> {
    codec.decode(buf).expect("decode failed")
}

#[test]
fn frame_split_at_every_byte() {
    let whole = frame(BODY);
    for cut in 0..whole.len() {
        let mut codec = ContentLengthCodec::new();
        let mut buf = BytesMut::from(&whole[..cut]);
        assert_eq!(decode_one(&mut codec, &mut buf), None, "cut at {cut}");
        buf.put_slice(&whole[cut..]);
        assert_eq!(decode_one(&mut codec, &mut buf).as_deref(), Some(BODY));
        assert!(buf.is_empty());
    }
}

#[test]
fn body_split_reserves_declared_length_and_waits() {
    let mut codec = ContentLengthCodec::new();
    let whole = frame(BODY);
    let mut buf = BytesMut::from(&whole[..whole.len() - 10]);
    assert_eq!(decode_one(&mut codec, &mut buf), None);
    assert!(buf.capacity() >= BODY.len());
    // The header is consumed; only body bytes stay buffered.
    assert_eq!(buf.len(), BODY.len() - 10);
    assert_eq!(decode_one(&mut codec, &mut buf), None);
    buf.put_slice(&whole[whole.len() - 10..]);
    assert_eq!(decode_one(&mut codec, &mut buf).as_deref(), Some(BODY));
}

#[test]
fn several_messages_in_one_read() {
    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::new();
    for body in [&b"{}"[..], b"", BODY] {
        buf.put_slice(&frame(body));
    }
    assert_eq!(
        decode_one(&mut codec, &mut buf).as_deref(),
        Some(&b"{}"[..])
    );
    assert_eq!(decode_one(&mut codec, &mut buf).as_deref(), Some(&b""[..]));
    assert_eq!(decode_one(&mut codec, &mut buf).as_deref(), Some(BODY));
    assert_eq!(decode_one(&mut codec, &mut buf), None);
}

#[test]
fn junk_lines_before_and_between_frames_are_skipped() {
    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::new();
    buf.put_slice(b"Loading symbols...\n\r\nwarning - cache miss\r\n");
    buf.put_slice(&frame(b"{}"));
    buf.put_slice(b"\r\n  stray (no colon)\n\n\r\n\r\n");
    buf.put_slice(&frame(BODY));
    assert_eq!(
        decode_one(&mut codec, &mut buf).as_deref(),
        Some(&b"{}"[..])
    );
    assert_eq!(decode_one(&mut codec, &mut buf).as_deref(), Some(BODY));
    assert_eq!(decode_one(&mut codec, &mut buf), None);
}

#[test]
fn junk_is_dropped_as_each_line_completes() {
    let mut codec = ContentLengthCodec::new().with_max_header_length(64);
    let mut buf = BytesMut::new();
    for _ in 0..100 {
        buf.put_slice(b"some stray output line from the adapter\n");
        assert_eq!(decode_one(&mut codec, &mut buf), None);
        assert!(buf.is_empty());
    }
    buf.put_slice(b"half a line");
    assert_eq!(decode_one(&mut codec, &mut buf), None);
    buf.put_slice(b"\n");
    buf.put_slice(&frame(b"{}"));
    assert_eq!(
        decode_one(&mut codec, &mut buf).as_deref(),
        Some(&b"{}"[..])
    );
}

#[test]
fn header_name_is_case_insensitive_and_value_trimmed() {
    for header in [
        "content-length: 2",
        "CONTENT-LENGTH:2",
        "Content-Length: \t2  ",
    ] {
        let mut codec = ContentLengthCodec::new();
        let mut buf = BytesMut::from(format!("{header}\r\n\r\n{{}}").as_bytes());
        assert_eq!(
            decode_one(&mut codec, &mut buf).as_deref(),
            Some(&b"{}"[..])
        );
    }
}

#[test]
fn bare_newline_line_endings_are_accepted() {
    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::from(&b"Content-Length: 2\n\n{}Content-Length: 2\r\n\n[]"[..]);
    assert_eq!(
        decode_one(&mut codec, &mut buf).as_deref(),
        Some(&b"{}"[..])
    );
    assert_eq!(
        decode_one(&mut codec, &mut buf).as_deref(),
        Some(&b"[]"[..])
    );
}

#[test]
fn extra_headers_are_ignored() {
    let mut codec = ContentLengthCodec::new();
    let raw = b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\
                Content-Length: 2\r\nX-Other: 1\r\n\r\n{}";
    let mut buf = BytesMut::from(&raw[..]);
    assert_eq!(
        decode_one(&mut codec, &mut buf).as_deref(),
        Some(&b"{}"[..])
    );
}

#[test]
fn over_limit_content_length_is_rejected_without_allocating() {
    let declared = 1_000_000;
    let mut codec = ContentLengthCodec::new().with_max_content_length(1000);
    let mut buf = BytesMut::from(format!("Content-Length: {declared}\r\n\r\n{{").as_bytes());
    let err = codec.decode(&mut buf).expect_err("should reject");
    assert!(
        matches!(err, CodecError::ContentTooLong { length, limit: 1000 } if length == declared)
    );
    assert!(buf.capacity() < declared);
    assert!(err.to_string().contains("with_max_content_length"));
}

#[test]
fn default_content_limit_applies() {
    let mut codec = ContentLengthCodec::new();
    let declared = codec.max_content_length() + 1;
    // Rejected from the header line alone, before the blank line arrives.
    let mut buf = BytesMut::from(format!("Content-Length: {declared}\r\n").as_bytes());
    let err = codec.decode(&mut buf).expect_err("should reject");
    assert!(matches!(err, CodecError::ContentTooLong { .. }));
    assert!(buf.capacity() < declared);
}

#[test]
fn header_too_long() {
    let mut codec = ContentLengthCodec::new().with_max_header_length(64);
    assert_eq!(codec.max_header_length(), 64);
    let mut buf = BytesMut::from(&b"X-Padding: "[..]);
    buf.put_slice(&[b'a'; 60]);
    let err = codec.decode(&mut buf).expect_err("should reject");
    assert!(matches!(err, CodecError::HeaderTooLong { limit: 64 }));
    assert!(err.to_string().contains("with_max_header_length"));
}

#[test]
fn header_block_exactly_at_limit_is_accepted() {
    let whole = frame(b"{}");
    let limit = whole.len() - 2;
    let mut codec = ContentLengthCodec::new().with_max_header_length(limit);
    let mut buf = BytesMut::from(&whole[..limit - 1]);
    assert_eq!(decode_one(&mut codec, &mut buf), None);
    buf.put_slice(&whole[limit - 1..]);
    assert_eq!(
        decode_one(&mut codec, &mut buf).as_deref(),
        Some(&b"{}"[..])
    );
}

#[test]
fn missing_content_length() {
    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::from(&b"Content-Type: text/json\r\n\r\n{}"[..]);
    let err = codec.decode(&mut buf).expect_err("should reject");
    assert!(matches!(err, CodecError::MissingContentLength));
}

#[test]
fn malformed_content_length() {
    for value in ["abc", "-1", "+2", "", "1.5", "99999999999999999999999999"] {
        let mut codec = ContentLengthCodec::new();
        let mut buf = BytesMut::from(format!("Content-Length: {value}\r\n\r\n{{}}").as_bytes());
        match codec.decode(&mut buf) {
            Err(CodecError::InvalidContentLength { value: got }) => assert_eq!(got, value),
            other => panic!("{value:?}: unexpected {other:?}"),
        }
    }
}

#[test]
fn conflicting_lengths_and_malformed_lines_are_rejected() {
    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::from(&b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"[..]);
    let err = codec.decode(&mut buf).expect_err("should reject");
    assert!(matches!(
        err,
        CodecError::ConflictingContentLength {
            first: 2,
            second: 3
        }
    ));

    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::from(&b"Content-Length: 2\r\nnot a header\r\n\r\n{}"[..]);
    let err = codec.decode(&mut buf).expect_err("should reject");
    assert!(matches!(err, CodecError::MalformedHeader { line } if line == "not a header"));
}

#[test]
fn eof_mid_header() {
    for partial in [
        &b"Content-Length: 2\r\n"[..],
        b"Content-Length: 2",
        b"junk\nX-A: 1\r\n",
    ] {
        let mut codec = ContentLengthCodec::new();
        let mut buf = BytesMut::from(partial);
        let err = codec.decode_eof(&mut buf).expect_err("should reject");
        assert!(
            matches!(err, CodecError::UnexpectedEof { expected: None, .. }),
            "{partial:?}: {err:?}"
        );
        assert!(err.to_string().contains("ended inside a frame"));
    }
}

#[test]
fn eof_mid_body() {
    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::from(&b"Content-Length: 10\r\n\r\n{\"a\""[..]);
    let err = codec.decode_eof(&mut buf).expect_err("should reject");
    assert!(matches!(
        err,
        CodecError::UnexpectedEof {
            received: 4,
            expected: Some(10)
        }
    ));
}

#[test]
fn clean_eof_after_frames_junk_or_nothing() {
    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::from(&frame(b"{}")[..]);
    buf.put_slice(b"\r\nbye now\n  ");
    assert_eq!(
        codec.decode_eof(&mut buf).expect("eof").as_deref(),
        Some(&b"{}"[..])
    );
    assert_eq!(codec.decode_eof(&mut buf).expect("eof"), None);
    assert!(buf.is_empty());
    assert_eq!(codec.decode_eof(&mut BytesMut::new()).expect("eof"), None);
}

#[test]
fn encode_produces_exact_bytes() {
    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::new();
    codec.encode(&b"{}"[..], &mut buf).expect("encode");
    codec.encode(String::from("é"), &mut buf).expect("encode");
    codec.encode(Vec::new(), &mut buf).expect("encode");
    assert_eq!(
        &buf[..],
        "Content-Length: 2\r\n\r\n{}Content-Length: 2\r\n\r\néContent-Length: 0\r\n\r\n".as_bytes()
    );
}

#[test]
fn dap_codec_round_trips_each_message_kind() {
    let messages = [
        Message::Request(Request {
            seq: 1,
            ..Request::new("stackTrace", Some(json!({"threadId": 1})))
        }),
        Message::Response(Response {
            seq: 2,
            ..Response::new(
                1,
                "stackTrace",
                Ok(Some(json!({"stackFrames": [], "totalFrames": 0}))),
            )
        }),
        Message::Event(Event::new("stopped", Some(json!({"reason": "breakpoint"})))),
    ];
    let mut codec = DapCodec::new();
    let mut buf = BytesMut::new();
    codec.encode(&messages[0], &mut buf).expect("encode");
    codec.encode(messages[1].clone(), &mut buf).expect("encode");
    codec.encode(&messages[2], &mut buf).expect("encode");
    for expected in &messages {
        assert_eq!(
            codec.decode(&mut buf).expect("decode").as_ref(),
            Some(expected)
        );
    }
    assert_eq!(codec.decode_eof(&mut buf).expect("eof"), None);
}

#[test]
fn dap_codec_reports_bad_json_and_exposes_limits() {
    let framing = ContentLengthCodec::new().with_max_content_length(100);
    let mut codec = DapCodec::from(framing);
    assert_eq!(codec.framing().max_content_length(), 100);
    let mut buf = BytesMut::from(&frame(br#"{"type":"nonsense"}"#)[..]);
    buf.put_slice(&frame(br#"{"type":"event","event":"x"}"#));
    assert!(matches!(codec.decode(&mut buf), Err(CodecError::Json(_))));
    // The bad frame was consumed; the next one still decodes.
    let next = codec.decode(&mut buf).expect("decode");
    assert!(matches!(next, Some(Message::Event(ev)) if ev.event == "x"));
}

/// Feed `stream` in chunks cut at `cuts` and collect every decoded body, then EOF.
fn decode_in_chunks(stream: &[u8], cuts: &[usize]) -> Vec<Bytes> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
    points.push(stream.len());
    points.sort_unstable();
    let mut codec = ContentLengthCodec::new();
    let (mut buf, mut out, mut start) = (BytesMut::new(), Vec::new(), 0);
    for end in points {
        buf.put_slice(&stream[start..end]);
        start = end;
        while let Some(body) = codec.decode(&mut buf).expect("decode") {
            out.push(body);
        }
    }
    assert_eq!(codec.decode_eof(&mut buf).expect("eof"), None);
    out
}

fn junk_line() -> impl Strategy<Value = Vec<u8>> {
    // Anything without ':' or '\n', then the newline that completes it.
    prop::collection::vec(
        any::<u8>().prop_filter("no colon or newline", |b| *b != b':' && *b != b'\n'),
        0..40,
    )
    .prop_map(|mut line| {
        line.push(b'\n');
        line
    })
}

proptest! {
    #[test]
    fn chunked_frames_decode_to_the_same_bodies(
        bodies in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..200), 0..8),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
    ) {
        let mut codec = ContentLengthCodec::new();
        let mut stream = BytesMut::new();
        for body in &bodies {
            codec.encode(body, &mut stream).expect("encode");
        }
        let decoded = decode_in_chunks(&stream, &cuts);
        prop_assert_eq!(decoded, bodies);
    }

    #[test]
    fn junk_between_frames_is_skipped(
        frames in prop::collection::vec(
            (prop::collection::vec(junk_line(), 0..3), prop::collection::vec(any::<u8>(), 0..200)),
            0..8,
        ),
        trailing in prop::collection::vec(junk_line(), 0..3),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
    ) {
        let mut codec = ContentLengthCodec::new();
        let mut stream = BytesMut::new();
        for (junk, body) in &frames {
            junk.iter().for_each(|line| stream.put_slice(line));
            codec.encode(body, &mut stream).expect("encode");
        }
        trailing.iter().for_each(|line| stream.put_slice(line));
        let decoded = decode_in_chunks(&stream, &cuts);
        let bodies: Vec<_> = frames.into_iter().map(|(_, body)| body).collect();
        prop_assert_eq!(decoded, bodies);
    }

    #[test]
    fn any_framing_of_a_message_stream_decodes_to_the_same_messages(
        messages in prop::collection::vec(message(), 0..8),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
    ) {
        let mut codec = DapCodec::new();
        let mut stream = BytesMut::new();
        for message in &messages {
            codec.encode(message, &mut stream).expect("encode");
        }
        let mut points: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
        points.push(stream.len());
        points.sort_unstable();
        let (mut buf, mut decoded, mut start) = (BytesMut::new(), Vec::new(), 0);
        for end in points {
            buf.put_slice(&stream[start..end]);
            start = end;
            while let Some(message) = codec.decode(&mut buf).expect("decode") {
                decoded.push(message);
            }
        }
        prop_assert_eq!(decoded, messages);
    }
}

/// Any JSON value of a few levels: strings with quotes, escapes and non-ASCII text,
/// numbers, arrays and objects.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        "[a-z\\\"é\\n ]{0,12}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            prop::collection::btree_map("[a-zA-Z]{1,8}", inner, 0..4)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A body: absent, or any JSON object (`null` would decode as absent).
fn body() -> impl Strategy<Value = Option<serde_json::Value>> {
    prop::option::of(
        prop::collection::btree_map("[a-zA-Z]{1,8}", json_value(), 0..4)
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
    )
}

/// Any request, response or event, with fields beyond the protocol's now and then.
fn message() -> impl Strategy<Value = Message> {
    let extra = || {
        prop::collection::btree_map("x-[a-z]{1,6}", json_value(), 0..2)
            .prop_map(|m| m.into_iter().collect::<serde_json::Map<_, _>>())
    };
    let command = "[a-zA-Z]{1,16}";
    prop_oneof![
        (any::<i32>(), command, body(), extra()).prop_map(|(seq, command, args, extra)| {
            let mut request = Request::new(command, args);
            request.seq = i64::from(seq);
            request.extra = extra;
            Message::Request(request)
        }),
        (
            any::<i32>(),
            any::<i32>(),
            command,
            body(),
            prop::option::of("[a-z ]{0,20}"),
            extra()
        )
            .prop_map(|(seq, request_seq, command, body, failure, extra)| {
                let result = match failure {
                    Some(message) => Err(message),
                    None => Ok(body),
                };
                let mut response = Response::new(i64::from(request_seq), command, result);
                response.seq = i64::from(seq);
                response.extra = extra;
                Message::Response(response)
            }),
        (any::<i32>(), command, body(), extra()).prop_map(|(seq, name, body, extra)| {
            let mut event = Event::new(name, body);
            event.seq = i64::from(seq);
            event.extra = extra;
            Message::Event(event)
        }),
    ]
}
