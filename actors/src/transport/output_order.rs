//! Debuggee output and events in the order they happened, for an adapter whose
//! debuggee writes to pipes of ours while its events come over a socket (dlv 1.20).
//!
//! The two streams have no order between them: a program that prints its last line
//! and exits can have its `exited` event read before that line, and an agent that
//! reads the output at the exit misses it. So an event that marks such a moment
//! (`stopped`, `exited`, `terminated`, and the adapter's own `console` lines, where
//! dlv says the program has exited) is held, and every forwarded pipe is asked to
//! flush: to pass on at once what it holds now, which is everything the program wrote
//! before the adapter saw the moment (the kernel put it in the pipe before the program
//! stopped or exited). The event goes on once every pipe has answered; what the
//! adapter says after it (events, responses) waits behind it, so their order is kept
//! too: dlv says the exit status while it answers the `disconnect`.

use std::collections::VecDeque;
use std::os::fd::{AsFd, AsRawFd, RawFd};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::mpsc;

use crate::transport::io::{OutputForward, TextOut};
use crate::transport::messages::{FrameCredit, TransportOutput};
use crate::transport::output_tail::OutputTail;
use crate::wire::Event;

/// The most a flush reads at once (16 pipes' worth at Linux's default 64 KiB): a
/// program still writing as fast as it can has its later output read as usual.
pub const MAX_FLUSH_BYTES: usize = 1 << 20;

/// Events whose output must come before them.
const MOMENTS: [&str; 3] = ["stopped", "exited", "terminated"];

/// Whether the debuggee's output so far must be passed on before `event`: a moment,
/// or a line of the adapter's own (dlv's word of the exit is one).
fn marks_a_moment(event: &Event) -> bool {
    #[derive(serde::Deserialize)]
    struct Category {
        category: Option<String>,
    }
    MOMENTS.contains(&event.event.as_str())
        || (event.event == "output"
            && event
                .parse_body::<Category>()
                .is_ok_and(|body| body.category.as_deref() == Some("console")))
}

/// The transport's side: which events wait for a flush, and the pipes to ask.
#[derive(Default)]
pub struct OutputOrder {
    /// One per forwarded pipe still open; a send fails once its drain has ended.
    flushers: Vec<mpsc::UnboundedSender<()>>,
    /// Answers still to come for the flush asked.
    awaiting: usize,
    /// What the adapter said after the moment, held until the flush is done, oldest
    /// first.
    held: VecDeque<TransportOutput>,
}

impl OutputOrder {
    /// Something the adapter said (an event, a response): what to pass on now (it
    /// among them, unless it waits for a flush or behind an event that does).
    pub fn admit(&mut self, output: TransportOutput) -> Vec<TransportOutput> {
        if self.awaiting > 0 {
            self.held.push_back(output);
            return Vec::new();
        }
        if matches!(&output, TransportOutput::Event(event, _) if marks_a_moment(event)) {
            // A drain that has ended has nothing left to pass on.
            self.flushers.retain(|flusher| flusher.send(()).is_ok());
            self.awaiting = self.flushers.len();
            if self.awaiting > 0 {
                self.held.push_back(output);
                return Vec::new();
            }
        }
        vec![output]
    }

    /// A pipe has flushed: the held events, once every pipe has.
    pub fn flushed(&mut self) -> Vec<TransportOutput> {
        self.awaiting = self.awaiting.saturating_sub(1);
        if self.awaiting > 0 {
            return Vec::new();
        }
        self.release()
    }

    /// The connection is over: every event still held, in order.
    pub fn release(&mut self) -> Vec<TransportOutput> {
        self.awaiting = 0;
        self.held.drain(..).collect()
    }
}

/// A pipe's output forwarded in order with the adapter's events.
pub struct OrderedForward {
    /// Where its text goes, under `category`.
    pub forward: OutputForward,
    /// `stdout` or `stderr`.
    pub category: &'static str,
    /// The transport's requests to flush.
    pub flushes: mpsc::UnboundedReceiver<()>,
    /// Tells the transport a flush is done (`TransportMsg::OutputFlushed`).
    pub flushed: Box<dyn Fn() + Send + Sync>,
}

impl OrderedForward {
    /// Forward under `category` to `forward`, flushing on request from an `order`
    /// whose flusher this adds, and answering with `flushed`.
    pub fn new(
        forward: OutputForward,
        category: &'static str,
        order: &mut OutputOrder,
        flushed: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        let (flusher, flushes) = mpsc::unbounded_channel();
        order.flushers.push(flusher);
        Self {
            forward,
            category,
            flushes,
            flushed: Box::new(flushed),
        }
    }
}

/// Drain `reader` (a pipe the debuggee writes to) into `tail` and to the forward,
/// after `already_read` (what was read before, such as the rest of a banner's buffer);
/// on each request to flush, pass on what the pipe holds now, then answer. `at_end`
/// runs once the pipe is at its end.
pub fn drain_in_order<R>(
    mut reader: R,
    already_read: Vec<u8>,
    tail: OutputTail,
    ordered: OrderedForward,
    at_end: impl FnOnce() + Send + 'static,
) where
    R: AsyncRead + AsFd + Unpin + Send + 'static,
{
    let OrderedForward {
        forward,
        category,
        mut flushes,
        flushed,
    } = ordered;
    tokio::spawn(async move {
        let send = |text, credit| (forward.send)(category, text, credit);
        let mut out = TextOut::new(Some(forward.credits.clone()), |b| tail.push(b), send);
        let fd = reader.as_fd().as_raw_fd();
        let mut buf = [0u8; 4096];
        let mut open = already_read.is_empty() || out.take(&already_read).await;
        while open {
            tokio::select! {
                biased;
                Some(()) = flushes.recv() => {
                    open = flush(fd, &mut buf, &mut out).await;
                    flushed();
                }
                read = reader.read(&mut buf) => {
                    open = match read {
                        Ok(0) | Err(_) => false,
                        Ok(n) => out.take(&buf[..n]).await,
                    };
                }
            }
        }
        out.finish();
        // Asked after the end: answered, since everything is passed on.
        flushes.close();
        while flushes.try_recv().is_ok() {
            flushed();
        }
        at_end();
    });
}

/// Pass on what the pipe `fd` holds now, up to [`MAX_FLUSH_BYTES`]; `false` at its end.
async fn flush<B: FnMut(&[u8]), T: FnMut(String, FrameCredit)>(
    fd: RawFd,
    buf: &mut [u8],
    out: &mut TextOut<B, T>,
) -> bool {
    let mut budget = MAX_FLUSH_BYTES;
    while budget > 0 {
        match read_now(fd, buf) {
            Ok(0) => return false,
            Ok(n) => {
                budget = budget.saturating_sub(n);
                if !out.take(&buf[..n]).await {
                    return false;
                }
            }
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => return true,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    true
}

/// One read of what the pipe `fd` (non-blocking, as tokio keeps it) holds now, straight
/// from the kernel: tokio's readiness may not yet know of bytes that are there.
fn read_now(fd: RawFd, buf: &mut [u8]) -> std::io::Result<usize> {
    // SAFETY: the reader that owns `fd` outlives every flush of it, and `buf` is
    // writable for its length.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    fn event(name: &str) -> Event {
        Event::new(name, None)
    }

    fn out(name: &str) -> TransportOutput {
        TransportOutput::Event(event(name), FrameCredit::none())
    }

    fn names(outputs: &[TransportOutput]) -> Vec<&str> {
        outputs
            .iter()
            .map(|output| match output {
                TransportOutput::Event(e, _) => e.event.as_str(),
                TransportOutput::Response { .. } => "<response>",
                _ => "<other>",
            })
            .collect()
    }

    fn two_pipes() -> (OutputOrder, Vec<mpsc::UnboundedReceiver<()>>) {
        let (flushers, pipes): (Vec<_>, Vec<_>) = (0..2).map(|_| mpsc::unbounded_channel()).unzip();
        (
            OutputOrder {
                flushers,
                ..OutputOrder::default()
            },
            pipes,
        )
    }

    #[test]
    fn an_output_event_passes_at_once() {
        let (mut order, mut pipes) = two_pipes();
        let now = order.admit(out("output"));
        assert_eq!(names(&now), ["output"]);
        assert!(pipes.iter_mut().all(|p| p.try_recv().is_err()));
    }

    #[test]
    fn an_exit_waits_for_every_pipe_and_what_the_adapter_says_next_waits_behind_it() {
        let (mut order, mut pipes) = two_pipes();
        assert!(order.admit(out("exited")).is_empty());
        assert!(order.admit(out("output")).is_empty());
        let response = TransportOutput::Response {
            tag: 7,
            result: Err(crate::error::TransportError::AdapterGone {
                exit: crate::error::AdapterExit::default(),
            }),
        };
        assert!(order.admit(response).is_empty());
        assert!(order.admit(out("terminated")).is_empty());
        assert!(pipes.iter_mut().all(|p| p.try_recv().is_ok()));
        assert!(order.flushed().is_empty(), "one pipe has not answered");
        assert_eq!(
            names(&order.flushed()),
            ["exited", "output", "<response>", "terminated"]
        );
        // Only one flush was asked: the later moments waited behind the first.
        assert!(pipes.iter_mut().all(|p| p.try_recv().is_err()));
        assert_eq!(names(&order.admit(out("continued"))), ["continued"]);
    }

    #[test]
    fn a_pipe_at_its_end_is_not_waited_for() {
        let (mut order, mut pipes) = two_pipes();
        drop(pipes.remove(0));
        assert!(order.admit(out("stopped")).is_empty());
        assert_eq!(names(&order.flushed()), ["stopped"]);
        drop(pipes);
        let now = order.admit(out("stopped"));
        assert_eq!(names(&now), ["stopped"], "no pipe is left to wait for");
    }

    #[test]
    fn the_adapters_console_line_waits_and_the_programs_output_does_not() {
        let (mut order, _pipes) = two_pipes();
        let body = |category| Some(serde_json::json!({ "category": category, "output": "x" }));
        let stdout = Event::new("output", body("stdout"));
        assert_eq!(
            names(&order.admit(TransportOutput::Event(stdout, FrameCredit::none()))),
            ["output"]
        );
        let console = Event::new("output", body("console"));
        assert!(order
            .admit(TransportOutput::Event(console, FrameCredit::none()))
            .is_empty());
    }

    #[test]
    fn with_no_pipes_nothing_is_held() {
        let mut order = OutputOrder::default();
        let now = order.admit(out("exited"));
        assert_eq!(names(&now), ["exited"]);
    }

    #[test]
    fn the_end_of_the_connection_releases_what_is_held() {
        let (mut order, _pipes) = two_pipes();
        order.admit(out("stopped"));
        order.admit(out("output"));
        assert_eq!(names(&order.release()), ["stopped", "output"]);
        assert!(order.release().is_empty());
    }

    /// What a drain passed on, and when it answered a flush, in one log.
    fn logged_drain(
        reader: tokio::net::unix::pipe::Receiver,
    ) -> (
        OutputOrder,
        mpsc::UnboundedReceiver<String>,
        tokio::sync::oneshot::Receiver<()>,
    ) {
        let (log_tx, log) = mpsc::unbounded_channel();
        let (ended_tx, ended) = tokio::sync::oneshot::channel();
        let text_log = log_tx.clone();
        let forward = OutputForward {
            send: std::sync::Arc::new(move |_category, text, _credit| {
                let _ = text_log.send(text);
            }),
            credits: std::sync::Arc::new(tokio::sync::Semaphore::new(8)),
        };
        let flushed = move || {
            let _ = log_tx.send("<flushed>".to_string());
        };
        let at_end = move || {
            let _ = ended_tx.send(());
        };
        let mut order = OutputOrder::default();
        let ordered = OrderedForward::new(forward, "stdout", &mut order, flushed);
        drain_in_order(reader, Vec::new(), OutputTail::new(1024), ordered, at_end);
        (order, log, ended)
    }

    #[tokio::test]
    async fn a_flush_passes_on_what_the_pipe_holds_before_it_answers() {
        let (mut writer, reader) = tokio::net::unix::pipe::pipe().unwrap();
        // Written, and the flush asked, before the drain ever polls the pipe: tokio
        // does not know yet that it is readable, so only a read straight from the
        // kernel finds the line before the answer.
        writer.write_all(b"last words\n").await.unwrap();
        let (mut order, mut log, _ended) = logged_drain(reader);
        assert!(order.admit(out("exited")).is_empty());
        assert_eq!(log.recv().await.unwrap(), "last words\n");
        assert_eq!(log.recv().await.unwrap(), "<flushed>");
        assert_eq!(names(&order.flushed()), ["exited"]);
    }

    #[tokio::test]
    async fn a_pipe_at_its_end_is_not_asked() {
        let (mut writer, reader) = tokio::net::unix::pipe::pipe().unwrap();
        writer.write_all(b"bye").await.unwrap();
        drop(writer);
        let (mut order, mut log, ended) = logged_drain(reader);
        ended.await.unwrap();
        assert_eq!(log.recv().await.unwrap(), "bye");
        // The drain is gone: the exit waits for no answer.
        let now = order.admit(out("exited"));
        assert_eq!(names(&now), ["exited"]);
        assert!(log.recv().await.is_none(), "nothing more is passed on");
    }
}
