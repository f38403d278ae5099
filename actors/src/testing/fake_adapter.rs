//! [`FakeAdapter`]: the builder of the scripted adapter, and the task that serves one
//! connection (framing, delayed answers, pacing, closing). What it answers to each
//! request is in `program.rs`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::DuplexStream;
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

use crate::testing::probe::FakeAdapterProbe;
use crate::testing::program::{Out, Program, Reaction};
use crate::transport::InProcessConnect;
use crate::wire::{DapCodec, Message};

/// Bytes each direction of the in-memory stream buffers before a writer waits.
const DUPLEX_BUFFER: usize = 64 * 1024;

/// A scripted DAP adapter for tests and benchmarks.
///
/// [`FakeAdapter::new`] is well behaved. It models a program with one thread
/// (`{id: 1, name: "main"}`) and one frame `main` in the launched program, at line 1:
///
/// - `initialize` is answered with the capabilities `supportsConfigurationDoneRequest`,
///   `supportsConditionalBreakpoints`, `supportsFunctionBreakpoints`,
///   `supportsHitConditionalBreakpoints`, `supportsLogPoints`,
///   `supportsTerminateRequest`, `supportsReadMemoryRequest` and
///   `supportsWriteMemoryRequest` (and those [`Self::capability`] adds);
/// - `launch` / `attach` are answered, then the `initialized` event is sent;
/// - `setBreakpoints` answers every breakpoint verified, with ids counted from 1 per
///   connection; `setFunctionBreakpoints` likewise; `setExceptionBreakpoints` succeeds;
/// - after `configurationDone`: the reverse requests ([`Self::reverse_request`]) are
///   sent, then the output burst ([`Self::output_burst`]) if there is one; otherwise the
///   program runs to its next breakpoint (each breakpoint is hit once, in id order:
///   `stopped` with reason `breakpoint` and `hitBreakpointIds`, and the frame moves to
///   the breakpoint's line) or, with none left, ends (`exited` with
///   [`Self::exit_code`], then `terminated`) unless [`Self::keep_running`];
/// - `continue` is answered and runs on the same way; `next` / `stepIn` / `stepOut` are
///   answered, the frame moves one line down, and `stopped` reason `step` follows;
///   `pause` is answered and `stopped` reason `pause` follows;
/// - `threads`, `stackTrace`, `scopes` (one scope `Locals`, reference 1000),
///   `variables` (`x = 42` and `s = "hi"` under 1000, with their memory references)
///   and `evaluate` (the result is the expression reversed, or what
///   [`Self::evaluate_result`] says; `x` also gives its memory reference) are
///   answered;
/// - `readMemory` and `writeMemory` work on 32 bytes at `0x1000` that hold `x` (an
///   `i32`, little-endian, at `0x1000`; a write there changes the value `variables`
///   shows) and `s` (`"hi\0"` at `0x1004`), the rest `0xAA`. A memory reference is
///   an address (`0x` hex, or decimal) moved by `offset`; bytes past the end are
///   answered as `unreadableBytes` (bytes before the start too, with no data, to skip);
///   a write that does not fit fails, or with `allowPartial` writes what fits and
///   answers `bytesWritten`;
/// - `terminate` is answered and `terminated` follows; `disconnect` is answered and
///   the connection closed;
/// - any other command fails with a message naming it.
///
/// The adapter's own messages are numbered from 1 per connection.
#[derive(Debug, Clone, Default)]
pub struct FakeAdapter {
    script: Script,
}

/// What a [`FakeAdapter`] was told to do; shared by all its connections.
#[derive(Debug, Clone, Default)]
pub(crate) struct Script {
    pub(crate) hang: HashSet<String>,
    pub(crate) fail: HashMap<String, String>,
    pub(crate) close: HashSet<String>,
    pub(crate) late: HashMap<String, Duration>,
    pub(crate) reverse: Vec<(String, Value)>,
    pub(crate) burst: Option<(usize, usize)>,
    pub(crate) pace: Option<(usize, Duration)>,
    pub(crate) evaluate: HashMap<String, String>,
    pub(crate) exit_code: i64,
    pub(crate) keep_running: bool,
    pub(crate) junk_frames: usize,
    pub(crate) unrecorded: bool,
    pub(crate) thread_churn: usize,
    pub(crate) capabilities: serde_json::Map<String, Value>,
}

impl FakeAdapter {
    /// A well-behaved adapter (see the type's docs).
    pub fn new() -> Self {
        Self::default()
    }

    /// Never answer `command` (it is still recorded by the probe).
    pub fn hang_on(mut self, command: &str) -> Self {
        self.script.hang.insert(command.to_string());
        self
    }

    /// Answer `command` with `success: false` and `message`, and do nothing else.
    pub fn fail_on(mut self, command: &str, message: &str) -> Self {
        self.script
            .fail
            .insert(command.to_string(), message.to_string());
        self
    }

    /// Close the connection when `command` arrives, without answering: the adapter
    /// "dies".
    pub fn close_on(mut self, command: &str) -> Self {
        self.script.close.insert(command.to_string());
        self
    }

    /// Answer `command` (and send what follows the answer, such as a `stopped` event)
    /// only `after` this long, in tokio (virtual, when paused) time. Requests that come
    /// meanwhile are answered as usual.
    pub fn late_answer(mut self, command: &str, after: Duration) -> Self {
        self.script.late.insert(command.to_string(), after);
        self
    }

    /// After `configurationDone`, send the reverse request `command` with `arguments`;
    /// the client's response is recorded by the probe. Several are sent in the order
    /// they were added.
    pub fn reverse_request(mut self, command: &str, arguments: Value) -> Self {
        self.script.reverse.push((command.to_string(), arguments));
        self
    }

    /// After `configurationDone`, emit `outputs` `output` events (`stdout`, text
    /// `out <n>\n`, n from 0) with `lifecycle_pairs` pairs of `stopped` (reason
    /// `pause`) and `continued` events spread evenly among them, then end the program
    /// (`exited`, `terminated`). See [`Self::pace_burst`].
    pub fn output_burst(mut self, lifecycle_pairs: usize, outputs: usize) -> Self {
        self.script.burst = Some((lifecycle_pairs, outputs));
        self
    }

    /// Pause the output burst for `pause` after every `every` outputs. Under paused
    /// time a pause lasts until every other task is idle, so a subscriber that keeps
    /// up is never more than `every` outputs behind.
    pub fn pace_burst(mut self, every: usize, pause: Duration) -> Self {
        self.script.pace = Some((every.max(1), pause));
        self
    }

    /// Answer `evaluate` of `expression` with `result` (instead of the expression
    /// reversed).
    pub fn evaluate_result(mut self, expression: &str, result: &str) -> Self {
        self.script
            .evaluate
            .insert(expression.to_string(), result.to_string());
        self
    }

    /// Answer `initialize` with capability `name` set to `value` as well (or instead of
    /// the default's value), such as `supportsCancelRequest`.
    pub fn capability(mut self, name: &str, value: Value) -> Self {
        self.script.capabilities.insert(name.to_string(), value);
        self
    }

    /// The exit code the program reports when it ends (default 0).
    pub fn exit_code(mut self, code: i64) -> Self {
        self.script.exit_code = code;
        self
    }

    /// When no breakpoint is left to hit, keep running (send nothing) instead of
    /// ending, until paused, terminated or disconnected.
    pub fn keep_running(mut self) -> Self {
        self.script.keep_running = true;
        self
    }

    /// After `configurationDone` (and any reverse requests), write `count` JSON
    /// frames that are not DAP messages: JSON that is no message, an empty object, a
    /// message of a type DAP does not have, in turn. Past the runtime's
    /// `max_malformed_frames` the connection is ended as broken.
    pub fn junk_frames(mut self, count: usize) -> Self {
        self.script.junk_frames = count;
        self
    }

    /// After `configurationDone`, report `count` threads that start and exit at once
    /// (`thread` events, ids from 100).
    pub fn thread_churn(mut self, count: usize) -> Self {
        self.script.thread_churn = count;
        self
    }

    /// Keep no record of the messages (the probe still counts connections): for
    /// benchmarks that serve thousands of sessions and measure what the runtime keeps,
    /// not what the probe does.
    pub fn unrecorded(mut self) -> Self {
        self.script.unrecorded = true;
        self
    }

    /// The connector to register with
    /// [`RuntimeConfig::in_process_adapter`](crate::RuntimeConfig::in_process_adapter),
    /// and the probe that sees every connection it serves. Each call of the connector
    /// starts a new adapter task on a fresh stream (it must run inside a tokio runtime).
    pub fn connector(self) -> (InProcessConnect, FakeAdapterProbe) {
        let script = Arc::new(self.script);
        let probe = FakeAdapterProbe::default();
        let for_connector = probe.clone();
        let connect: InProcessConnect = Arc::new(move || {
            let (client, server) = tokio::io::duplex(DUPLEX_BUFFER);
            let connection = for_connector.record_connection();
            tokio::spawn(serve(
                server,
                script.clone(),
                for_connector.clone(),
                connection,
            ));
            client
        });
        (connect, probe)
    }
}

/// Serve one connection until the client goes away or the script closes it.
async fn serve(
    stream: DuplexStream,
    script: Arc<Script>,
    probe: FakeAdapterProbe,
    connection: usize,
) {
    let mut framed = Framed::new(stream, DapCodec::new());
    let (delayed_tx, mut delayed_rx) = mpsc::unbounded_channel::<Vec<Out>>();
    let recorded = !script.unrecorded;
    let mut program = Program::new(script);
    let mut next_seq = 1;
    loop {
        let outs = tokio::select! {
            incoming = framed.next() => match incoming {
                Some(Ok(Message::Request(request))) => {
                    if recorded {
                        probe.record_request(connection, &request);
                    }
                    match program.handle(&request) {
                        Reaction::Now(outs) => outs,
                        Reaction::Later(after, outs) => {
                            let tx = delayed_tx.clone();
                            tokio::spawn(async move {
                                tokio::time::sleep(after).await;
                                let _ = tx.send(outs);
                            });
                            continue;
                        }
                        Reaction::Nothing => continue,
                    }
                }
                Some(Ok(Message::Response(response))) => {
                    if recorded {
                        probe.record_response(connection, response);
                    }
                    continue;
                }
                Some(Ok(Message::Event(_))) => continue,
                Some(Err(_)) | None => break,
            },
            Some(outs) = delayed_rx.recv() => outs,
        };
        let probe = recorded.then_some(&probe);
        if !write(&mut framed, outs, &mut next_seq, probe, connection).await {
            break;
        }
    }
    drop(framed);
    probe.record_closed();
}

/// Send `outs` in order; false when the connection is to end (closed by the script,
/// or the client is gone).
async fn write(
    framed: &mut Framed<DuplexStream, DapCodec>,
    outs: Vec<Out>,
    next_seq: &mut i64,
    probe: Option<&FakeAdapterProbe>,
    connection: usize,
) -> bool {
    for out in outs {
        match out {
            Out::Message(mut message) => {
                let seq = *next_seq;
                *next_seq += 1;
                match &mut message {
                    Message::Request(r) => r.seq = seq,
                    Message::Response(r) => r.seq = seq,
                    Message::Event(e) => e.seq = seq,
                }
                if let Some(probe) = probe {
                    probe.record_sent(connection, &message);
                }
                if framed.feed(message).await.is_err() {
                    return false;
                }
            }
            Out::Pause(pause) => {
                if SinkExt::<Message>::flush(framed).await.is_err() {
                    return false;
                }
                tokio::time::sleep(pause).await;
            }
            Out::Close => {
                let _ = SinkExt::<Message>::flush(framed).await;
                return false;
            }
            Out::Raw(bytes) => {
                use tokio::io::AsyncWriteExt;
                if SinkExt::<Message>::flush(framed).await.is_err()
                    || framed.get_mut().write_all(&bytes).await.is_err()
                {
                    return false;
                }
            }
        }
    }
    SinkExt::<Message>::flush(framed).await.is_ok()
}
