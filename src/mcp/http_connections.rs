//! The connections `dapvisor mcp --http` holds: at most a cap, so that connections
//! that never send a whole request cannot take every descriptor. At the cap, a new
//! connection closes the oldest one that has not yet shown the token (a client with
//! it is then served at once, however many half-open connections there are); one
//! that has shown it is no longer closed for another. When every connection has
//! shown the token, a newcomer is told the server is full.
//!
//! Each connection also watches its own bytes: one on which nothing moved either way
//! for the idle timeout is closed ([`Activity`]).

use std::collections::BTreeMap;
use std::io::IoSlice;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::Instant;

/// The open connections, oldest first.
pub(super) struct Connections {
    cap: usize,
    state: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    next_id: u64,
    /// By id, which grows with each connection: the first is the oldest.
    slots: BTreeMap<u64, Slot>,
}

struct Slot {
    shown_token: bool,
    evict: Arc<Notify>,
}

impl Connections {
    /// Room for `cap` connections.
    pub fn new(cap: usize) -> Arc<Self> {
        Arc::new(Self {
            cap,
            state: Mutex::default(),
        })
    }

    /// The most connections held at once.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// A place for a new connection. At the cap, the oldest connection that has not
    /// shown the token is told to close to make room; `None` when every one has.
    pub fn open(self: &Arc<Self>) -> Option<Ticket> {
        let mut open = self.lock();
        if open.slots.len() >= self.cap {
            let oldest = open
                .slots
                .iter()
                .find(|(_, slot)| !slot.shown_token)
                .map(|(&id, _)| id)?;
            if let Some(evicted) = open.slots.remove(&oldest) {
                // A permit kept until the connection's task looks.
                evicted.evict.notify_one();
            }
        }
        let id = open.next_id;
        open.next_id += 1;
        let evict = Arc::new(Notify::new());
        open.slots.insert(
            id,
            Slot {
                shown_token: false,
                evict: evict.clone(),
            },
        );
        Some(Ticket {
            id,
            evict,
            connections: self.clone(),
        })
    }

    /// How many connections are held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().slots.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One connection's place among the [`Connections`], given up when dropped.
pub(super) struct Ticket {
    id: u64,
    evict: Arc<Notify>,
    connections: Arc<Connections>,
}

impl Ticket {
    /// The connection showed the token: it is no longer closed to make room.
    pub fn shown_token(&self) {
        if let Some(slot) = self.connections.lock().slots.get_mut(&self.id) {
            slot.shown_token = true;
        }
    }

    /// Completes when the connection is to close to make room for a newer one.
    pub async fn evicted(&self) {
        self.evict.notified().await;
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.connections.lock().slots.remove(&self.id);
    }
}

/// When a connection last moved a byte either way.
pub(super) struct Activity {
    start: Instant,
    /// Milliseconds from `start` to the last byte moved.
    last: AtomicU64,
}

impl Activity {
    /// A connection that moved a byte just now.
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            start: Instant::now(),
            last: AtomicU64::new(0),
        })
    }

    fn moved(&self) {
        let since = self.start.elapsed().as_millis() as u64;
        self.last.fetch_max(since, Ordering::Relaxed);
    }

    /// Completes once nothing has moved for `limit`.
    pub async fn idle_for(&self, limit: Duration) {
        loop {
            let last = self.start + Duration::from_millis(self.last.load(Ordering::Relaxed));
            let deadline = last + limit;
            if Instant::now() >= deadline {
                return;
            }
            tokio::time::sleep_until(deadline).await;
        }
    }
}

/// A connection's stream, telling its [`Activity`] of every byte read or written.
pub(super) struct Watched<S> {
    stream: S,
    activity: Arc<Activity>,
}

impl<S> Watched<S> {
    pub fn new(stream: S, activity: Arc<Activity>) -> Self {
        Self { stream, activity }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.moved();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.moved();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.moved();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[test]
    fn at_the_cap_the_oldest_connection_without_the_token_makes_room() {
        let connections = Connections::new(3);
        let first = connections.open().unwrap();
        let second = connections.open().unwrap();
        let third = connections.open().unwrap();
        first.shown_token();
        // Full: the oldest without the token is the second.
        let fourth = connections.open().unwrap();
        assert_eq!(connections.len(), 3);
        assert!(was_evicted(&second));
        assert!(!was_evicted(&first) && !was_evicted(&third));
        // Its own drop later changes nothing.
        drop(second);
        assert_eq!(connections.len(), 3);
        third.shown_token();
        fourth.shown_token();
        // Every one has shown the token: a newcomer gets no place.
        assert!(connections.open().is_none());
        drop(first);
        assert_eq!(connections.len(), 2);
        let fifth = connections.open().unwrap();
        assert!(!was_evicted(&third) && !was_evicted(&fourth) && !was_evicted(&fifth));
    }

    /// Whether `ticket` was told to close (taking the permit if so).
    fn was_evicted(ticket: &Ticket) -> bool {
        use futures::FutureExt;
        ticket.evicted().now_or_never().is_some()
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_is_idle_once_no_byte_moved_for_the_limit() {
        let limit = Duration::from_secs(60);
        let (near, mut far) = tokio::io::duplex(64);
        let activity = Activity::new();
        let mut watched = Watched::new(near, activity.clone());
        let began = Instant::now();
        tokio::time::sleep(Duration::from_secs(50)).await;
        watched.write_all(b"x").await.unwrap();
        tokio::time::sleep(Duration::from_secs(50)).await;
        far.write_all(b"y").await.unwrap();
        watched.read_exact(&mut [0u8; 1]).await.unwrap();
        activity.idle_for(limit).await;
        assert_eq!(began.elapsed(), Duration::from_secs(160));
    }
}
