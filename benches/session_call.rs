//! An agent's call to a session that needs no adapter I/O (`snapshot`, which `state`
//! and the cached breakpoints are read through; and `output`), with 1 and with 100
//! sessions live on the in-process fake adapter. Criterion gives the mean; the
//! targets are percentiles, so each case also times 10 000 single calls and prints
//! p50 and p99.
//!
//! The calls come from a task on the runtime's workers, as an agent's would (an MCP
//! server's request handler), not from the bench's own thread.
//!
//! Each session holds [`CACHED_BREAKPOINTS`] breakpoints, so that a snapshot copies a
//! cache of a realistic size. `tool_output` is the same `output` read through the
//! agent surface (`ToolCatalogue::call("debug.output", ..)`: arguments parsed from
//! JSON, the permission gate, the result rendered as JSON and text), the cost an MCP
//! client's read adds before the MCP transport.
//!
//! For scale, `threads_via_fake` is a call that does go to the adapter: the whole
//! request path (session actor, transport, framing, an in-memory stream, the fake's
//! answer, and back), which bounds what dapvisor adds to any adapter's round trip.
//!
//! Then the cause of the many-agents p99, measured ([`queueing`]): the allocations one
//! snapshot makes, and p50/p99 with 1, 10, 50 and 100 agents calling at once on 1 and
//! 2 workers, for both routes a snapshot can take: the copy the session publishes
//! (`snapshot`, what [`SessionHandle::snapshot`] reads while nothing changed) and a
//! message through the session's mailbox (`snapshot_mailbox`, the route it takes
//! after a change, and every time before the copy was published), side by side in one
//! run.
//!
//! `cargo bench --bench session_call -- --warm-up-time 1 --measurement-time 3`

mod support;

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dapvisor::tools::ToolCatalogue;
use dapvisor::wire::types::SourceBreakpoint;
use dapvisor::{Runtime, SessionHandle};
use futures::future::join_all;
use serde_json::json;

use support::allocations::{allocations, CountingAllocator};
use support::{fake, stats::Summary};

// Counts allocations for the allocations-per-call figures (a relaxed atomic add per
// allocation, on every route alike).
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Calls timed one by one for the percentiles.
const SAMPLES: usize = 10_000;

/// Breakpoints each session holds (two files of ten), which a snapshot copies.
const CACHED_BREAKPOINTS: usize = 20;

/// Concurrent agents in the queueing figures.
const AGENTS: [usize; 4] = [1, 10, 50, 100];

/// A two-worker runtime, like the machines the figures are for.
fn tokio_runtime() -> tokio::runtime::Runtime {
    tokio_runtime_with(2)
}

fn tokio_runtime_with(workers: usize) -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// A runtime with `live` idle sessions (launched, program running), each holding
/// [`CACHED_BREAKPOINTS`] breakpoints.
async fn with_sessions(live: usize) -> (Runtime, Vec<SessionHandle>) {
    let (runtime, _probe) = fake::idle_runtime(live).await;
    let launches = (0..live).map(|_| fake::launch(&runtime, None));
    let sessions = join_all(launches)
        .await
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .expect("fake sessions launch");
    for session in &sessions {
        for file in ["/bench/cart.py", "/bench/tax.py"] {
            let lines = (1..=CACHED_BREAKPOINTS as i64 / 2).map(|i| SourceBreakpoint {
                line: i * 10,
                condition: Some(format!("i == {i}")),
                ..Default::default()
            });
            let set = session.set_breakpoints(file, lines.collect()).await;
            set.expect("the fake takes breakpoints");
        }
    }
    (runtime, sessions)
}

/// One call of `call` ("snapshot", "snapshot_mailbox", "output", "tool_output" or
/// "threads").
async fn one_call(session: &SessionHandle, tools: &ToolCatalogue, call: &str) {
    match call {
        "snapshot" => drop(session.snapshot().await.expect("snapshot")),
        "snapshot_mailbox" => {
            let snapshot = session.snapshot_through_mailbox().await;
            drop(snapshot.expect("snapshot"))
        }
        "output" => drop(session.output(0, 4096).await.expect("output")),
        "tool_output" => {
            let args = json!({"session_id": session.id().to_string(), "since": 0});
            let result = tools.call("debug.output", args).await;
            assert!(!result.is_error, "debug.output: {}", result.text);
        }
        _ => drop(session.threads().await.expect("threads")),
    }
}

/// Time `SAMPLES` calls of `snapshot`, one at a time, going round `sessions`.
async fn sample(sessions: Vec<SessionHandle>, tools: ToolCatalogue) -> Vec<Duration> {
    sample_call(sessions, tools, "snapshot").await
}

async fn sample_call(
    sessions: Vec<SessionHandle>,
    tools: ToolCatalogue,
    call: &'static str,
) -> Vec<Duration> {
    let mut samples = Vec::with_capacity(SAMPLES);
    for i in 0..SAMPLES {
        let session = &sessions[i % sessions.len()];
        let start = Instant::now();
        one_call(session, &tools, call).await;
        samples.push(start.elapsed());
    }
    samples
}

/// `agents` tasks at once, each calling `call` on its own session `SAMPLES` times;
/// the last `SAMPLES / agents` of each are kept.
async fn sample_concurrent(
    sessions: &[SessionHandle],
    tools: &ToolCatalogue,
    agents: usize,
    call: &'static str,
) -> Vec<Duration> {
    let tasks = sessions.iter().take(agents).cloned().map(|session| {
        let tools = tools.clone();
        tokio::spawn(async move {
            sample_call(vec![session], tools, call)
                .await
                .split_off(SAMPLES - SAMPLES / agents)
        })
    });
    join_all(tasks)
        .await
        .into_iter()
        .flat_map(|t| t.expect("no panic"))
        .collect()
}

fn print(label: &str, mut samples: Vec<Duration>) {
    if let Some(summary) = Summary::of(&mut samples) {
        println!("session_call {label:<34} {summary}");
    }
}

fn session_call(c: &mut Criterion) {
    let rt = tokio_runtime();
    let mut group = c.benchmark_group("session_call");
    for live in [1, 100] {
        let (runtime, sessions) = rt.block_on(with_sessions(live));
        let tools = ToolCatalogue::new(runtime.clone());
        let first = sessions[0].clone();
        let calls = [
            "snapshot",
            "snapshot_mailbox",
            "output",
            "tool_output",
            "threads_via_fake",
        ];
        for call in calls {
            group.bench_function(BenchmarkId::new(call, format!("{live}_live")), |b| {
                b.to_async(&rt).iter_custom(|iters| {
                    let (session, tools) = (first.clone(), tools.clone());
                    async move {
                        let task = tokio::spawn(async move {
                            let start = Instant::now();
                            for _ in 0..iters {
                                one_call(&session, &tools, call).await;
                            }
                            start.elapsed()
                        });
                        task.await.expect("no panic")
                    }
                })
            });
        }
        let one = rt
            .block_on(rt.spawn(sample(vec![first.clone()], tools.clone())))
            .expect("no panic");
        print(&format!("snapshot, {live} live, one session"), one);
        for call in ["tool_output", "threads"] {
            let samples = sample_call(vec![first.clone()], tools.clone(), call);
            let samples = rt.block_on(rt.spawn(samples)).expect("no panic");
            print(&format!("{call}, {live} live"), samples);
        }
        if live > 1 {
            let all = rt
                .block_on(rt.spawn(sample(sessions.clone(), tools.clone())))
                .expect("no panic");
            print(&format!("snapshot, {live} live, round robin"), all);
            for call in ["snapshot_mailbox", "snapshot"] {
                let busy = rt.block_on(sample_concurrent(&sessions, &tools, live, call));
                print(&format!("{call}, {live} live, {live} agents at once"), busy);
            }
        }
        rt.block_on(runtime.shutdown());
    }
    group.finish();
    queueing();
}

/// What the many-agents p99 is made of: the allocations per call, then p50/p99
/// against the number of agents calling at once and the number of workers, for the
/// published copy and the mailbox alike (see the module docs).
fn queueing() {
    let routes = ["snapshot_mailbox", "snapshot"];
    let rt = tokio_runtime();
    let (runtime, sessions) = rt.block_on(with_sessions(1));
    let tools = ToolCatalogue::new(runtime.clone());
    for call in routes {
        let (session, tools) = (sessions[0].clone(), tools.clone());
        let per_call = rt.block_on(rt.spawn(async move {
            one_call(&session, &tools, call).await;
            let before = allocations();
            for _ in 0..SAMPLES {
                one_call(&session, &tools, call).await;
            }
            (allocations() - before) as f64 / SAMPLES as f64
        }));
        let per_call = per_call.expect("no panic");
        println!("session_call {call:<34} {per_call:.1} allocations a call");
    }
    rt.block_on(runtime.shutdown());
    for workers in [1, 2] {
        let rt = tokio_runtime_with(workers);
        let (runtime, sessions) = rt.block_on(with_sessions(AGENTS[AGENTS.len() - 1]));
        let tools = ToolCatalogue::new(runtime.clone());
        for call in routes {
            for agents in AGENTS {
                let samples = rt.block_on(sample_concurrent(&sessions, &tools, agents, call));
                let label = format!("{call}, {workers} workers, {agents} agents");
                print(&label, samples);
            }
        }
        rt.block_on(runtime.shutdown());
    }
}

criterion_group!(benches, session_call);
criterion_main!(benches);
