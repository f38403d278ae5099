//! What an idle session costs in this process's memory, for [`super::fake`]: RSS
//! deltas once freed memory is handed back, and the fake adapter's own share, so
//! that it can be taken out of the per-session figure.

use std::time::Duration;

use dapvisor::testing::FakeAdapter;
use dapvisor::wire::{DapCodec, Message, Request};
use futures::{SinkExt, StreamExt};
use tokio_util::codec::Framed;

use crate::support::memory;

/// RSS once freed memory is handed back and things have settled, in KiB.
pub async fn settled_rss_kib() -> u64 {
    tokio::time::sleep(Duration::from_millis(300)).await;
    memory::release_freed();
    memory::rss_kib()
}

/// Bytes per item of the RSS growth from `before_kib` to now, over `count` items.
pub async fn per_item_bytes(before_kib: u64, count: usize) -> u64 {
    settled_rss_kib().await.saturating_sub(before_kib) * 1024 / count.max(1) as u64
}

/// Bytes of RSS per connection of the fake adapter alone, each through the
/// handshake a session makes and then left idle: the fake's share of an idle
/// session's cost.
pub async fn fake_only_bytes(count: usize) -> u64 {
    let (connect, _probe) = FakeAdapter::new().keep_running().connector();
    let before = settled_rss_kib().await;
    let mut streams = Vec::with_capacity(count);
    for _ in 0..count {
        let mut framed = Framed::new(connect(), DapCodec::new());
        for command in ["initialize", "launch", "configurationDone"] {
            let request = Message::Request(Request::new(command, None));
            let _ = framed.send(request).await;
        }
        while let Some(Ok(message)) = framed.next().await {
            if matches!(&message, Message::Response(r) if r.command == "configurationDone") {
                break;
            }
        }
        // Keep the stream, not this client's buffers: those stand for dapvisor's side.
        streams.push(framed.into_inner());
    }
    let per = per_item_bytes(before, count).await;
    drop(streams);
    per
}
