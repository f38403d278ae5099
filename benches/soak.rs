//! Soak: start and end 1,000 sessions in waves, half of them on a misbehaving fake
//! adapter (a reverse request nobody knows, frames that are not DAP, a churn of
//! short-lived threads, and an `evaluate` it never answers, which its agent gives up
//! on by dropping the call), and read this process's live tokio tasks, open
//! descriptors and resident memory before, during and after each wave.
//!
//! Nothing may grow with the number of sessions once they have ended: after every
//! wave the live tasks and open descriptors must come back to what they were after
//! the first (exact counts, checked: the bench exits non-zero if they do not), and
//! the resident memory kept per ended session is printed (glibc keeps freed pages in
//! its arenas, so it is read after `malloc_trim` and reported, not asserted), beside
//! the heap bytes still allocated (counted by the bench's allocator: what the process
//! holds, without the allocator's free pages), which tells a leak from fragmentation.
//!
//! `cargo bench --bench soak` (about a minute; `SOAK_SESSIONS` and `SOAK_WAVE` change
//! the totals).

mod support;

use std::time::{Duration, Instant};

use dapvisor::testing::FakeAdapter;
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle, StopOutcome};
use futures::future::join_all;
use serde_json::json;

use support::allocations::{live_bytes, CountingAllocator};
use support::memory::{release_freed, rss_kib};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Sessions started and ended in all, by default.
const SESSIONS: usize = 1_000;
/// Sessions live at once (a wave), by default; half of each wave misbehaves.
const WAVE: usize = 100;
/// How long an agent waits for the `evaluate` the misbehaving adapter never answers
/// before it drops the call.
const GIVE_UP_AFTER: Duration = Duration::from_millis(20);
/// How long an agent waits for the breakpoint's stop.
const STOP_WAIT: Duration = Duration::from_secs(60);
/// Calls each misbehaving session's agent drops.
const DROPPED_CALLS: usize = 3;
/// How long the runtime may take to let an ended wave's tasks go, before the counts
/// are read anyway (and compared).
const SETTLE: Duration = Duration::from_secs(20);

/// What this process holds at one moment.
#[derive(Debug, Clone, Copy)]
struct Reading {
    tasks: usize,
    fds: usize,
    rss_kib: u64,
    heap_kib: u64,
    sessions: usize,
}

fn read(runtime: &Runtime) -> Reading {
    release_freed();
    Reading {
        tasks: tokio::runtime::Handle::current()
            .metrics()
            .num_alive_tasks(),
        fds: std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count()),
        rss_kib: rss_kib(),
        heap_kib: live_bytes() / 1024,
        sessions: runtime.sessions().len(),
    }
}

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|v| *v > 0)
        .unwrap_or(default)
}

async fn start_runtime(wave: usize) -> Runtime {
    // The fakes keep no record of what they saw: what is measured is the runtime's.
    let (healthy, _) = FakeAdapter::new().keep_running().unrecorded().connector();
    let (hostile, _) = FakeAdapter::new()
        .keep_running()
        .unrecorded()
        .reverse_request("gossip", json!({ "about": "nothing" }))
        .junk_frames(30)
        .thread_churn(50)
        .hang_on("evaluate")
        .connector();
    let config = RuntimeConfig::default()
        .max_sessions(wave + 1)
        .in_process_adapter("healthy", healthy)
        .in_process_adapter("hostile", hostile);
    Runtime::start(config).await.expect("the runtime starts")
}

fn program() -> std::path::PathBuf {
    support::fake::program()
}

/// The line of the fake program's breakpoint: every session stops there once, so
/// that its agent can read and evaluate.
const LINE: i64 = 3;

/// One agent's session: launch to the breakpoint, a few calls (dropped ones on the
/// misbehaving adapter), then the end, whatever the calls did. Returns what went
/// wrong, if anything.
async fn one_session(runtime: Runtime, hostile: bool) -> Result<(), String> {
    let adapter = if hostile { "hostile" } else { "healthy" };
    let spec = LaunchSpec::new(program())
        .adapter(adapter)
        .breakpoint(program(), LINE);
    let session: SessionHandle = runtime
        .launch(spec)
        .await
        .map_err(|e| format!("{adapter} launch: {e}"))?;
    let calls = calls(&session, hostile).await;
    let ended = runtime
        .end_session(session.id())
        .await
        .map_err(|e| format!("{adapter} end: {e}"));
    calls.and(ended)
}

/// What an agent asks of a session once it stopped at the breakpoint.
async fn calls(session: &SessionHandle, hostile: bool) -> Result<(), String> {
    // The launch answers once the handshake is done; the stop may come just after.
    let first_stop = RunTicket { epoch: 0 };
    match session.wait_for_stop(first_stop, STOP_WAIT).await {
        Ok(StopOutcome::Stopped(_)) => {}
        other => return Err(format!("no stop at the breakpoint: {other:?}")),
    }
    if hostile {
        for _ in 0..DROPPED_CALLS {
            // The adapter never answers: the agent gives up and drops the call.
            let call = session.evaluate("x", None, None);
            if let Ok(answer) = tokio::time::timeout(GIVE_UP_AFTER, call).await {
                return Err(format!(
                    "the hostile adapter's evaluate was answered: {answer:?}"
                ));
            }
        }
        return Ok(());
    }
    session
        .threads()
        .await
        .map_err(|e| format!("threads: {e}"))?;
    session
        .evaluate("x", None, None)
        .await
        .map_err(|e| format!("evaluate: {e}"))?;
    Ok(())
}

/// Read until the tasks and descriptors are down to `reference` or [`SETTLE`] has
/// passed; the last reading.
async fn settled(runtime: &Runtime, reference: Option<Reading>) -> Reading {
    let deadline = Instant::now() + SETTLE;
    loop {
        let now = read(runtime);
        let down = reference.is_none_or(|r| now.tasks <= r.tasks && now.fds <= r.fds);
        if (down && now.sessions == 0) || Instant::now() > deadline {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn main() {
    let total = setting("SOAK_SESSIONS", SESSIONS);
    let wave = setting("SOAK_WAVE", WAVE);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let failures = rt.block_on(soak(total, wave));
    if !failures.is_empty() {
        eprintln!("soak FAILED:\n  {}", failures.join("\n  "));
        std::process::exit(1);
    }
    println!("soak passed: nothing grew with the sessions once they had ended");
}

async fn soak(total: usize, wave: usize) -> Vec<String> {
    let runtime = start_runtime(wave).await;
    let before = read(&runtime);
    println!("== soak: {total} sessions in waves of {wave}, half on a misbehaving adapter");
    println!(
        "{:>6} {:>9} {:>7} {:>5} {:>9} {:>9}",
        "wave", "moment", "tasks", "fds", "RSS KiB", "heap KiB"
    );
    let row = |label: &str, moment: &str, r: Reading| {
        println!(
            "{label:>6} {moment:>9} {:>7} {:>5} {:>9} {:>9}",
            r.tasks, r.fds, r.rss_kib, r.heap_kib
        );
    };
    row("-", "before", before);
    let mut failures = Vec::new();
    let mut reference: Option<Reading> = None;
    let mut after_first = None;
    let mut after_middle = None;
    let waves = total.div_ceil(wave);
    let started = Instant::now();
    for n in 1..=waves {
        let size = wave.min(total - (n - 1) * wave);
        // Launch the wave, read it while every session is live, then end them.
        let sessions: Vec<_> = (0..size)
            .map(|i| {
                let runtime = runtime.clone();
                tokio::spawn(one_session(runtime, i % 2 == 1))
            })
            .collect();
        let mut peak = read(&runtime);
        let results = join_all(sessions).await;
        peak.tasks = peak.tasks.max(read(&runtime).tasks);
        for result in results {
            match result {
                Ok(Ok(())) => {}
                Ok(Err(why)) => failures.push(format!("wave {n}: {why}")),
                Err(panic) => failures.push(format!("wave {n}: a session task panicked: {panic}")),
            }
        }
        let after = settled(&runtime, reference).await;
        row(&n.to_string(), "during", peak);
        row(&n.to_string(), "after", after);
        if n == waves.div_ceil(2) {
            after_middle = Some(after);
        }
        if after.sessions != 0 {
            failures.push(format!(
                "wave {n}: {} sessions still listed",
                after.sessions
            ));
        }
        match reference {
            None => {
                reference = Some(after);
                after_first = Some(after);
            }
            Some(first) => {
                if after.tasks > first.tasks {
                    failures.push(format!(
                        "wave {n}: {} live tasks after it ended, {} after the first",
                        after.tasks, first.tasks
                    ));
                }
                if after.fds > first.fds {
                    failures.push(format!(
                        "wave {n}: {} open descriptors after it ended, {} after the first",
                        after.fds, first.fds
                    ));
                }
            }
        }
    }
    let last = read(&runtime);
    let ended_since_first = total.saturating_sub(wave.min(total));
    let ended_since_middle = total.saturating_sub((waves.div_ceil(2) * wave).min(total));
    let (first, middle) = (after_first.unwrap_or(last), after_middle.unwrap_or(last));
    let per_session =
        |now: u64, from: u64, sessions: usize| (now as f64 - from as f64) / sessions.max(1) as f64;
    println!(
        "resident memory after the first wave {} KiB, after the middle one {} KiB, at the \
         end {} KiB: {:+.2} KiB per session ended since the first, {:+.2} since the middle",
        first.rss_kib,
        middle.rss_kib,
        last.rss_kib,
        per_session(last.rss_kib, first.rss_kib, ended_since_first),
        per_session(last.rss_kib, middle.rss_kib, ended_since_middle),
    );
    println!(
        "heap still allocated after the first wave {} KiB, after the middle one {} KiB, at \
         the end {} KiB: {:+.3} KiB per session ended since the first, {:+.3} since the \
         middle",
        first.heap_kib,
        middle.heap_kib,
        last.heap_kib,
        per_session(last.heap_kib, first.heap_kib, ended_since_first),
        per_session(last.heap_kib, middle.heap_kib, ended_since_middle),
    );
    println!(
        "{total} sessions started and ended in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    runtime.shutdown().await;
    failures
}
