//! The DAP wire: framing alone (bytes per second), and framing plus decoding into
//! [`Message`] and a typed body, for small events and for a ~4 KB stackTrace
//! response. Each iteration handles 1 MiB of frames.
//!
//! `message` is what the transport's reader does with each frame (`Message::decode`:
//! the envelope's fields in one pass, the body kept as text); `message_and_typed_body`
//! adds the typed body a consumer parses from that text. Two comparison rows show
//! where decoding time goes: `json_value_only` (the whole frame into an untyped JSON
//! tree, which the reader built before bodies were kept as text, so a lower bound of
//! that older path) and `tokenize_only` (serde_json's scanner alone, the floor of any
//! parse).
//!
//! `cargo bench --bench codec -- --warm-up-time 1 --measurement-time 3`

mod support;

use std::hint::black_box;

use bytes::{Bytes, BytesMut};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use dapvisor::wire::types::{OutputEventBody, StackTraceResponseBody, StoppedEventBody};
use dapvisor::wire::{ContentLengthCodec, Message};
use serde::de::IgnoredAny;
use serde_json::Value;
use tokio_util::codec::{Decoder, Encoder};

use support::messages;

/// Bytes of frames per iteration.
const STREAM_BYTES: usize = 1 << 20;
/// The transport reads through `FramedRead`, whose buffer starts at 8 KiB; pipes
/// hand over at most 64 KiB per read. 8 KiB chunks are the conservative case.
const READ_CHUNK: usize = 8 * 1024;

/// The two kinds of traffic: (name, stream of frames, frame count).
fn samples() -> Vec<(&'static str, Vec<u8>, usize)> {
    let small = messages::stream(STREAM_BYTES, |seq| match seq % 2 {
        0 => messages::output_event(seq),
        _ => messages::stopped_event(seq),
    });
    let stack = messages::stream(STREAM_BYTES, messages::stack_trace_response);
    vec![
        ("small_events", small.0, small.1),
        ("stack_trace_4k", stack.0, stack.1),
    ]
}

/// Feed `stream` to `codec` in `READ_CHUNK` pieces, as reads from a pipe would, and
/// hand each frame body to `each`.
fn feed(stream: &[u8], mut each: impl FnMut(Bytes)) {
    let mut codec = ContentLengthCodec::new();
    let mut buf = BytesMut::with_capacity(READ_CHUNK);
    for chunk in stream.chunks(READ_CHUNK) {
        buf.extend_from_slice(chunk);
        while let Some(body) = codec.decode(&mut buf).expect("valid frames") {
            each(body);
        }
    }
}

/// Parse the body the way the runtime's consumers do for these messages.
fn typed_body(message: &Message) {
    match message {
        Message::Event(e) if e.event == "output" => {
            black_box(e.parse_body::<OutputEventBody>().expect("output body"));
        }
        Message::Event(e) => {
            black_box(e.parse_body::<StoppedEventBody>().expect("stopped body"));
        }
        Message::Response(r) => {
            black_box(
                r.parse_body::<StackTraceResponseBody>()
                    .expect("stack body"),
            );
        }
        Message::Request(_) => unreachable!("the samples hold no requests"),
    }
}

fn framing(c: &mut Criterion) {
    let mut group = c.benchmark_group("framing");
    for (name, stream, frames) in samples() {
        group.throughput(Throughput::Bytes(stream.len() as u64));
        // The whole stream already buffered: the header scan and split alone.
        group.bench_function(BenchmarkId::new("decode_one_buffer", name), |b| {
            b.iter_batched(
                || BytesMut::from(&stream[..]),
                |mut buf| {
                    let mut codec = ContentLengthCodec::new();
                    let mut n = 0;
                    while let Some(body) = codec.decode(&mut buf).expect("valid frames") {
                        black_box(body);
                        n += 1;
                    }
                    assert_eq!(n, frames);
                },
                BatchSize::LargeInput,
            )
        });
        // As the transport sees it: bytes arrive in reads and are copied in.
        group.bench_function(BenchmarkId::new("decode_8k_reads", name), |b| {
            b.iter(|| feed(&stream, |body| drop(black_box(body))))
        });
        let bodies = bodies_of(&stream);
        group.bench_function(BenchmarkId::new("encode", name), |b| {
            let mut dst = BytesMut::with_capacity(stream.len());
            b.iter(|| {
                dst.clear();
                let mut codec = ContentLengthCodec::new();
                for body in &bodies {
                    codec.encode(body, &mut dst).expect("encoding cannot fail");
                }
                black_box(&dst);
            })
        });
    }
    group.finish();
}

fn bodies_of(stream: &[u8]) -> Vec<Bytes> {
    let mut bodies = Vec::new();
    feed(stream, |body| bodies.push(body));
    bodies
}

fn decoding(c: &mut Criterion) {
    let mut group = c.benchmark_group("framing_and_decoding");
    for (name, stream, _) in samples() {
        group.throughput(Throughput::Bytes(stream.len() as u64));
        // What the transport's reader does: frame, then the envelope.
        group.bench_function(BenchmarkId::new("message", name), |b| {
            b.iter(|| {
                feed(&stream, |body| {
                    black_box(Message::decode(&body).expect("a message"));
                })
            })
        });
        // Plus the typed body, as the session core or a handle parses it.
        group.bench_function(BenchmarkId::new("message_and_typed_body", name), |b| {
            b.iter(|| {
                feed(&stream, |body| {
                    typed_body(&Message::decode(&body).expect("a message"));
                })
            })
        });
        // For comparison: the same bytes into an untyped JSON value.
        group.bench_function(BenchmarkId::new("json_value_only", name), |b| {
            b.iter(|| {
                feed(&stream, |body| {
                    black_box(serde_json::from_slice::<Value>(&body).expect("JSON"));
                })
            })
        });
        group.bench_function(BenchmarkId::new("tokenize_only", name), |b| {
            b.iter(|| {
                feed(&stream, |body| {
                    black_box(serde_json::from_slice::<IgnoredAny>(&body).expect("JSON"));
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, framing, decoding);
criterion_main!(benches);
