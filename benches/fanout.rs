//! Event fan-out through the runtime's [`EventHub`] to 1, 10 and 100 subscribers:
//! the cost of publishing (what a session actor pays per adapter event) and of
//! delivery to subscribers that are tasks waiting on their streams.
//!
//! `cargo bench --bench fanout -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dapvisor::testing::EventHub;
use dapvisor::{EventKind, SessionEvent, SessionId, StopInfo};
use dapvisor::{EventStream, Received};
use tokio::sync::mpsc;

/// Events published per iteration.
const BATCH: usize = 1000;

fn stopped() -> Arc<SessionEvent> {
    Arc::new(SessionEvent {
        session_id: SessionId(1),
        kind: EventKind::Stopped(StopInfo {
            reason: "breakpoint".into(),
            thread_id: Some(1),
            all_threads_stopped: true,
            hit_breakpoint_ids: vec![1],
            description: None,
            text: None,
            epoch: 1,
        }),
    })
}

fn output() -> Arc<SessionEvent> {
    Arc::new(SessionEvent {
        session_id: SessionId(1),
        kind: EventKind::Output {
            category: "stdout".into(),
            output: "processing item 17 of the order\n".into(),
        },
    })
}

/// Publish and drain on one thread: the hub's own cost, no task wake-ups.
fn publish_and_drain(c: &mut Criterion) {
    let mut group = c.benchmark_group("fanout_publish_and_drain");
    group.throughput(Throughput::Elements(BATCH as u64));
    for (kind, event) in [("lifecycle", stopped()), ("output", output())] {
        for subscribers in [1, 10, 100] {
            let hub = EventHub::new(BATCH);
            let mut streams: Vec<_> = (0..subscribers).map(|_| hub.subscribe()).collect();
            let id = BenchmarkId::new(kind, format!("{subscribers}_subscribers"));
            group.bench_function(id, |b| {
                b.iter(|| {
                    for _ in 0..BATCH {
                        hub.publish_arc(event.clone());
                    }
                    for stream in &mut streams {
                        for _ in 0..BATCH {
                            black_box(stream.try_recv().expect("queued"));
                        }
                    }
                })
            });
        }
    }
    group.finish();
}

/// A subscriber task: counts events and reports every `BATCH`th.
fn spawn_subscriber(mut stream: EventStream<SessionEvent>, done: mpsc::UnboundedSender<()>) {
    tokio::spawn(async move {
        let mut seen = 0;
        while let Some(item) = stream.recv().await {
            if let Received::Event(_) = item {
                seen += 1;
                if seen % BATCH == 0 && done.send(()).is_err() {
                    return;
                }
            }
        }
    });
}

/// Publish from a task and wait until every subscriber task has received the batch:
/// includes waking the subscribers, on two workers.
fn delivered_to_tasks(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let mut group = c.benchmark_group("fanout_to_tasks");
    group.throughput(Throughput::Elements(BATCH as u64));
    for subscribers in [1, 10, 100] {
        let hub = EventHub::new(BATCH);
        let (done_tx, mut done_rx) = mpsc::unbounded_channel();
        rt.block_on(async {
            for _ in 0..subscribers {
                spawn_subscriber(hub.subscribe(), done_tx.clone());
            }
        });
        let event = stopped();
        let id = BenchmarkId::new("lifecycle", format!("{subscribers}_subscribers"));
        group.bench_function(id, |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let start = Instant::now();
                    for _ in 0..iters {
                        for _ in 0..BATCH {
                            hub.publish_arc(event.clone());
                        }
                        for _ in 0..subscribers {
                            done_rx.recv().await.expect("subscribers run");
                        }
                    }
                    start.elapsed()
                })
            })
        });
        hub.close();
    }
    group.finish();
}

criterion_group!(benches, publish_and_drain, delivered_to_tasks);
criterion_main!(benches);
