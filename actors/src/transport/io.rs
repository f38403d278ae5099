//! The tasks that move bytes for a transport: spawning the adapter, reading frames,
//! writing frames, draining stderr, connecting over TCP, watching for exit. (Finding
//! the port of an adapter that picks its own is in `listen.rs`.)
//!
//! Each task reports to the [`TransportActor`](super::TransportActor) by message; none
//! holds actor state, so the actor's handlers never wait on the adapter.

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use ractor::ActorRef;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite};
use tokio::net::TcpStream;
use tokio::process::Child;
use tokio::sync::{mpsc, Semaphore};
use tokio_util::codec::{FramedRead, FramedWrite};
use tracing::Instrument;

use crate::transport::io_tasks::IoTasks;
use crate::transport::malformed::MalformedFrames;
use crate::transport::traffic::{Counted, Traffic};

use crate::transport::messages::{FrameCredit, FrameLimits, Outgoing, TransportMsg};
use crate::transport::output_tail::OutputTail;
use crate::transport::pidfd::{self, Pidfd};
use crate::transport::utf8_chunks::Utf8Chunks;
use crate::wire::{ContentLengthCodec, DapCodec, DecodeError, Message};

/// How a process ended, as seen by the exit watcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitInfo {
    /// Exit code, if it exited.
    pub code: Option<i32>,
    /// Signal, if it was killed.
    pub signal: Option<i32>,
}

/// Spawn `program args` in `cwd` as the leader of a new session (and so of a new
/// process group: see [`in_a_session_of_its_own`]), marked with `tag`
/// (`process::TREE_ENV`), with `stdin` and piped stdout and stderr
/// and clean signals ([`crate::clean_start`]), killed by the kernel if dapvisor dies (see
/// `parent_death.rs`).
pub fn spawn_adapter(
    program: &std::path::Path,
    args: &[String],
    cwd: Option<&std::path::Path>,
    tag: &str,
    stdin: Stdio,
) -> std::io::Result<Child> {
    let mut command = crate::clean_start::tokio_command(program);
    command.env(super::process::TREE_ENV, tag);
    if let Some(cwd) = cwd {
        command.current_dir(cwd);
    }
    command
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    in_a_session_of_its_own(&mut command);
    super::parent_death::die_with_parent(&mut command);
    command.spawn()
}

/// Start what `command` runs in a new session, with no controlling terminal: nothing
/// under it can take the terminal dapvisor runs in. (debugpy's launcher makes its
/// program the terminal's foreground group, and Ctrl-C then reached the program
/// instead of dapvisor; a program reading `/dev/tty` would read the user's keys.) The
/// new session is also a new process group, which it leads.
pub(crate) fn in_a_session_of_its_own(command: &mut tokio::process::Command) {
    // SAFETY: the hook runs in the child between fork and exec and calls only setsid,
    // which is async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

impl ExitInfo {
    /// The process ended, but how could not be read.
    pub const UNKNOWN: ExitInfo = ExitInfo {
        code: None,
        signal: None,
    };
}

/// Call `on_exit` when `pid` (a child of ours that nobody has waited on: the adapter,
/// a `runInTerminal` command) exits, leaving it unreaped: its
/// [`ProcessGroup`](super::process::ProcessGroup) reaps it after the sweep, so that its
/// pid and group id cannot be reused before then. Through a pidfd where the kernel has
/// them; else a blocking `waitid(WNOWAIT)` on a worker thread.
pub fn watch_exit(pid: u32, on_exit: impl FnOnce(ExitInfo) + Send + 'static) {
    match Pidfd::open(pid) {
        Ok(pidfd) => {
            tokio::spawn(async move { on_exit(pidfd.exited().await) });
        }
        Err(err) => {
            tracing::debug!(%err, pid, "no pidfd for a process; its exit is watched by a thread");
            tokio::task::spawn_blocking(move || {
                on_exit(pidfd::exit_info(libc::P_PID, pid as libc::id_t))
            });
        }
    }
}

/// Passes text a process printed on to the session as debuggee output (an adapter
/// whose debuggee inherits its stdout and stderr, as dlv 1.20's does; a
/// `runInTerminal` command), each read holding a place in the connection's bound on
/// unhandled output (`max_unhandled_output`): with every place taken, the reading
/// waits, and the process blocks on its own output until the session catches up.
#[derive(Clone)]
pub struct OutputForward {
    /// Gives the session the text, under its category, with the read's place.
    pub send: Arc<dyn Fn(&'static str, String, FrameCredit) + Send + Sync>,
    /// The connection's places for unhandled output.
    pub credits: Arc<Semaphore>,
}

/// Copy everything from `reader` into `tail` (stderr, or a TCP adapter's stdout, each
/// with a tail of its own). Forwarded debuggee output is drained by `output_order.rs`.
pub fn drain_into_tail<R: AsyncRead + Unpin + Send + 'static>(reader: R, tail: OutputTail) {
    drain_then(reader, tail, || {});
}

/// [`drain_into_tail`], calling `at_end` once the reader is exhausted (so that an exit
/// report can wait for the last words on stderr).
pub fn drain_then<R: AsyncRead + Unpin + Send + 'static>(
    reader: R,
    tail: OutputTail,
    at_end: impl FnOnce() + Send + 'static,
) {
    tokio::spawn(async move {
        // Only the tail keeps it: no text to decode.
        let mut reader = reader;
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf).await {
            if n == 0 {
                break;
            }
            tail.push(&buf[..n]);
        }
        at_end();
    });
}

/// Read `reader` to its end, each read passed through a [`TextOut`].
pub(crate) async fn read_text<R: AsyncRead + Unpin>(
    mut reader: R,
    credits: Option<Arc<Semaphore>>,
    bytes: impl FnMut(&[u8]),
    text: impl FnMut(String, FrameCredit),
) {
    let mut out = TextOut::new(credits, bytes, text);
    let mut buf = [0u8; 4096];
    loop {
        let n = match reader.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if !out.take(&buf[..n]).await {
            return;
        }
    }
    out.finish();
}

/// Where each read of a forwarded stream goes: its bytes to `bytes`, its text to
/// `text` (never empty; a character split by a read's edge comes whole with the next).
/// With `credits`, each read's text first takes a place there, which goes with it:
/// while every place is held the reading waits (so at most one read, 4 KiB, is held
/// by the reader besides them, and a stream with nothing to say holds none); without,
/// the text holds none.
pub(crate) struct TextOut<B, T> {
    decoder: Utf8Chunks,
    credits: Option<Arc<Semaphore>>,
    bytes: B,
    text: T,
}

impl<B: FnMut(&[u8]), T: FnMut(String, FrameCredit)> TextOut<B, T> {
    /// Pass reads on to `bytes` and `text`, under `credits` where given.
    pub(crate) fn new(credits: Option<Arc<Semaphore>>, bytes: B, text: T) -> Self {
        Self {
            decoder: Utf8Chunks::new(),
            credits,
            bytes,
            text,
        }
    }

    /// Pass one read on; `false` if nothing more can be (the credits were closed,
    /// which they never are).
    pub(crate) async fn take(&mut self, read: &[u8]) -> bool {
        (self.bytes)(read);
        let chunk = self.decoder.push(read);
        if chunk.is_empty() {
            return true; // a character cut by the read's end: it comes whole with the next
        }
        let credit = match &self.credits {
            Some(credits) => match credits.clone().acquire_owned().await {
                Ok(place) => FrameCredit::held(place),
                Err(_) => return false,
            },
            None => FrameCredit::none(),
        };
        (self.text)(chunk, credit);
        true
    }

    /// The stream ended: pass on what is left of a character cut short.
    pub(crate) fn finish(mut self) {
        let rest = self.decoder.finish();
        if !rest.is_empty() {
            (self.text)(rest, FrameCredit::none());
        }
    }
}

/// What the reader and writer tasks over an adapter's DAP stream need, whichever way
/// the stream comes (pipes, a connection out, a connection in).
pub struct StreamEnds {
    /// The messages to write, each with the place it holds until written.
    pub outgoing: mpsc::UnboundedReceiver<Outgoing>,
    /// Frame size and the bound on unhandled events.
    pub limits: FrameLimits,
    /// Where the bytes are counted.
    pub traffic: Arc<Traffic>,
    /// The transport the tasks report to.
    pub actor: ActorRef<TransportMsg>,
    /// Where the tasks over the stream are spawned, to end with the transport.
    pub tasks: IoTasks,
}

/// Start the reader and writer tasks over a connected byte stream.
pub fn start_io<R, W>(reader: R, writer: W, ends: StreamEnds)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let StreamEnds {
        outgoing,
        limits,
        traffic,
        actor,
        tasks,
    } = ends;
    let credits = Arc::new(Semaphore::new(limits.max_unhandled_events));
    tasks.spawn(
        read_frames(
            FramedRead::new(Counted::new(reader, traffic.clone()), limits.codec()),
            credits,
            MalformedFrames::new(limits.max_malformed_frames),
            actor.clone(),
        )
        .in_current_span(),
    );
    tasks.spawn(
        write_frames(
            FramedWrite::new(Counted::new(writer, traffic), DapCodec::new()),
            outgoing,
            actor,
        )
        .in_current_span(),
    );
}

async fn read_frames<R: AsyncRead + Unpin>(
    mut frames: FramedRead<R, ContentLengthCodec>,
    credits: Arc<Semaphore>,
    mut malformed: MalformedFrames,
    actor: ActorRef<TransportMsg>,
) {
    let reason = loop {
        // A place for the next frame first: with every place taken by events the
        // session has not handled, the adapter's output waits in its pipe.
        let Ok(credit) = credits.clone().acquire_owned().await else {
            return; // never closed; nothing more can be read if it were
        };
        match frames.next().await {
            Some(Ok(body)) => {
                let excerpt = || String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned();
                match Message::decode(&body) {
                    Ok(message) => {
                        let credit = FrameCredit::held(credit);
                        if actor.cast(TransportMsg::Incoming(message, credit)).is_err() {
                            return;
                        }
                    }
                    // Not JSON at all: nothing that follows can be trusted either.
                    Err(DecodeError::NotJson(err)) => {
                        break format!(
                            "the adapter sent a frame that is not JSON ({err}): {}",
                            excerpt()
                        )
                    }
                    Err(DecodeError::NotDap {
                        request_seq,
                        detail,
                    }) => {
                        // JSON, but not a DAP message: the request it answers (if it
                        // names one) fails with what was wrong; the stream goes on,
                        // up to the bound. It holds its place until handled.
                        let detail = format!("{detail}: {}", excerpt());
                        if let Err(reason) = malformed.note(&detail) {
                            break reason;
                        }
                        let _ = actor.cast(TransportMsg::Malformed {
                            request_seq,
                            detail,
                            credit: FrameCredit::held(credit),
                        });
                    }
                }
            }
            Some(Err(err)) => break format!("the adapter's output could not be read: {err}"),
            None => break "the adapter closed its output".to_string(),
        }
    };
    let _ = actor.cast(TransportMsg::StreamEnded(reason));
}

async fn write_frames<W: AsyncWrite + Unpin>(
    mut frames: FramedWrite<W, DapCodec>,
    mut outgoing: mpsc::UnboundedReceiver<Outgoing>,
    actor: ActorRef<TransportMsg>,
) {
    // Each message's place comes back once it is written.
    while let Some((message, _place)) = outgoing.recv().await {
        if let Err(err) = frames.send(message).await {
            let _ = actor.cast(TransportMsg::StreamEnded(format!(
                "writing to the adapter failed: {err}"
            )));
            return;
        }
    }
    // The sender was dropped: the transport is shutting down. Closing our end tells
    // stdio adapters to exit.
    let _ = SinkExt::<Message>::close(&mut frames).await;
}

/// Connect to `host:port` and start the I/O tasks, or report why not, naming what was
/// connected to as `what` (`the adapter`, `the debugpy debug server`).
pub async fn connect_tcp(
    (host, port): (String, u16),
    what: &str,
    ends: StreamEnds,
    connect_timeout: Duration,
) {
    let actor = ends.actor.clone();
    match tokio::time::timeout(connect_timeout, TcpStream::connect((host.as_str(), port))).await {
        Ok(Ok(stream)) => {
            let _ = stream.set_nodelay(true);
            let _ = actor.cast(TransportMsg::Connected(host, port));
            let (r, w) = stream.into_split();
            start_io(r, w, ends);
        }
        Ok(Err(err)) => {
            let _ = actor.cast(TransportMsg::StreamEnded(format!(
                "could not connect to {what} at {host}:{port}: {err}"
            )));
        }
        Err(_) => {
            let _ = actor.cast(TransportMsg::StreamEnded(format!(
                "connecting to {what} at {host}:{port} took longer than {}s",
                connect_timeout.as_secs_f64()
            )));
        }
    }
}
