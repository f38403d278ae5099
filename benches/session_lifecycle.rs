//! Session start and stop against the in-process fake adapter: the runtime's own
//! cost of a session (supervisor spawn, session and transport actors, the DAP
//! handshake over an in-memory stream, terminate, removal), without an adapter
//! process's start-up. Prints p50/p99 of each half as well.
//!
//! `cargo bench --bench session_lifecycle -- --warm-up-time 1 --measurement-time 3`

mod support;

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use dapvisor::Runtime;

use support::{fake, stats::Summary};

/// Sessions started and stopped one by one for the percentiles.
const SAMPLES: usize = 2_000;

/// Launch (stopping at a breakpoint if `line`), then end; how long each half took.
async fn start_stop(runtime: &Runtime, line: Option<i64>) -> (Duration, Duration) {
    let start = Instant::now();
    let session = fake::launch(runtime, line).await.expect("launch");
    let launched = start.elapsed();
    runtime.end_session(session.id()).await.expect("end");
    (launched, start.elapsed() - launched)
}

fn session_lifecycle(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let (runtime, probe) = rt.block_on(fake::idle_runtime(8));
    let mut group = c.benchmark_group("session_lifecycle");
    for (name, line) in [
        ("launch_and_end", None),
        ("launch_to_breakpoint_and_end", Some(3)),
    ] {
        group.bench_function(name, |b| {
            b.to_async(&rt).iter_custom(|iters| {
                let runtime = runtime.clone();
                async move {
                    let task = tokio::spawn(async move {
                        let start = Instant::now();
                        for _ in 0..iters {
                            start_stop(&runtime, line).await;
                        }
                        start.elapsed()
                    });
                    task.await.expect("no panic")
                }
            })
        });
        let runtime = runtime.clone();
        let (mut launches, mut ends): (Vec<_>, Vec<_>) = rt
            .block_on(rt.spawn(async move {
                let mut halves = Vec::with_capacity(SAMPLES);
                for _ in 0..SAMPLES {
                    halves.push(start_stop(&runtime, line).await);
                }
                halves
            }))
            .expect("no panic")
            .into_iter()
            .unzip();
        for (half, samples) in [("launch", &mut launches), ("end_session", &mut ends)] {
            if let Some(summary) = Summary::of(samples) {
                println!("session_lifecycle {name:<30} {half:<12} {summary}");
            }
        }
    }
    group.finish();
    rt.block_on(runtime.shutdown());
    let log = probe.log();
    assert_eq!(log.connections, log.closed, "every fake connection ended");
    assert!(runtime.sessions().is_empty(), "every session was removed");
}

criterion_group!(benches, session_lifecycle);
criterion_main!(benches);
