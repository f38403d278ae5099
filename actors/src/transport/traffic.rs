//! What passed between a session and its adapters, counted exactly: DAP requests
//! sent, events received, and bytes each way (frames with their headers). A session's
//! transports (one per adapter run, and js-debug's second connection) add to the same
//! [`Traffic`], so the counts are the session's whole life.

use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

pub use crate::core::snapshot::TrafficCounts;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The counters, shared by a session and its transports.
#[derive(Debug, Default)]
pub struct Traffic {
    requests_sent: AtomicU64,
    events_received: AtomicU64,
    bytes_sent: AtomicU64,
    bytes_received: AtomicU64,
}

impl Traffic {
    /// The counts now.
    pub fn counts(&self) -> TrafficCounts {
        TrafficCounts {
            requests_sent: self.requests_sent.load(Ordering::Relaxed),
            events_received: self.events_received.load(Ordering::Relaxed),
            bytes_sent: self.bytes_sent.load(Ordering::Relaxed),
            bytes_received: self.bytes_received.load(Ordering::Relaxed),
        }
    }

    pub(crate) fn request_sent(&self) {
        self.requests_sent.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn event_received(&self) {
        self.events_received.fetch_add(1, Ordering::Relaxed);
    }
}

/// A byte stream to or from an adapter, whose bytes are counted as they pass.
pub(crate) struct Counted<S> {
    inner: S,
    traffic: Arc<Traffic>,
}

impl<S> Counted<S> {
    pub(crate) fn new(inner: S, traffic: Arc<Traffic>) -> Self {
        Self { inner, traffic }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Counted<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        let read = (buf.filled().len() - before) as u64;
        self.traffic
            .bytes_received
            .fetch_add(read, Ordering::Relaxed);
        polled
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for Counted<W> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, bytes);
        if let Poll::Ready(Ok(written)) = &polled {
            let written = *written as u64;
            self.traffic
                .bytes_sent
                .fetch_add(written, Ordering::Relaxed);
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test]
    async fn bytes_are_counted_each_way_as_they_pass() {
        let traffic = Arc::new(Traffic::default());
        let (near, far) = tokio::io::duplex(64);
        let (mut far_read, mut far_write) = tokio::io::split(far);
        let (near_read, near_write) = tokio::io::split(near);
        let mut writer = Counted::new(near_write, traffic.clone());
        let mut reader = Counted::new(near_read, traffic.clone());

        writer
            .write_all(b"Content-Length: 2\r\n\r\n{}")
            .await
            .unwrap();
        let mut sent = [0u8; 23];
        far_read.read_exact(&mut sent).await.unwrap();
        far_write.write_all(b"hello").await.unwrap();
        let mut got = [0u8; 5];
        reader.read_exact(&mut got).await.unwrap();

        traffic.request_sent();
        traffic.event_received();
        traffic.event_received();
        assert_eq!(
            traffic.counts(),
            TrafficCounts {
                requests_sent: 1,
                events_received: 2,
                bytes_sent: 23,
                bytes_received: 5,
            }
        );
    }
}
