//! End-to-end overhead: the same request loop (`threads`, and `evaluate` in the
//! stopped frame) through dapvisor and through a minimal direct DAP client
//! (`support/direct_client.rs`), each on its own debugpy adapter stopped at the same
//! breakpoint of the same program. The figure is the ratio dapvisor / direct.
//!
//! Criterion times each side on its own; because the machine is shared and noisy, the
//! bench also runs 1000 requests per side in alternating rounds of 100 and prints
//! the ratio of the totals and per-request p50/p99: that ratio is the one to quote.
//!
//! debugpy 1.8 answers every request that reaches the debuggee ~44 ms late: pydevd
//! writes each message's header and body in two `sendall`s on a socket without
//! `TCP_NODELAY`, so Nagle's algorithm holds the body until the adapter's delayed
//! ACK (40 ms). That floor would hide any overhead of ours, so the loop runs twice:
//! as shipped (`end_to_end`), then with `TCP_NODELAY` set on pydevd's socket on both
//! sides by one `evaluate` (`PYDEVD_NODELAY`; `end_to_end_nodelay`), and a third
//! time with each request [`PACE`] after the answer to the one before
//! (`end_to_end_nodelay_paced`, the interleaved comparison only).
//!
//! Back to back, every answer dapvisor delivers leads straight into the next request,
//! a chain of task wake-ups longer than the three tokio's scheduler runs in a row on
//! one worker (its LIFO slot limit); past that it wakes another worker, which costs a
//! thread sleep and wake-up per request on top of the direct client's one. A paced
//! loop, like an agent's, starts each request afresh.
//!
//! Needs debugpy (`$DAPVISOR_PYTHON`, or the project's `.venv`). The tokio runtime
//! has 2 workers, or `$DAPVISOR_BENCH_WORKERS`.
//! `cargo bench --bench end_to_end -- --warm-up-time 1 --measurement-time 3`

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dapvisor::{RunTicket, Runtime, RuntimeConfig, SessionHandle, StopOutcome};
use serde_json::json;
use tokio::sync::Mutex;

use support::counters::Counters;
use support::direct_client::DirectClient;
use support::python::{python, scratch_dir, PYDEVD_NODELAY as NODELAY};
use support::stats::{human, Summary};
use support::token::{Language, TokenProgram, TokenPrograms};

/// Requests per side in the interleaved comparison, and per round.
const REQUESTS: usize = 1000;
const ROUND: usize = 100;

/// In the paced comparison, the time between an answer and the next request: an
/// agent's calls come with its own work between them, not back to back.
const PACE: Duration = Duration::from_millis(2);

/// The two sides, each stopped at `program.first_line` with a frame id to evaluate in.
struct Sides {
    runtime: Runtime,
    session: SessionHandle,
    session_frame: i64,
    direct: Arc<Mutex<DirectClient>>,
    direct_frame: i64,
}

async fn start(program: &TokenProgram) -> Sides {
    let runtime = Runtime::start(RuntimeConfig::default())
        .await
        .expect("runtime");
    let spec = program.launch_spec();
    let session = runtime.launch(spec).await.expect("debugpy launches");
    let stop = session.wait_for_stop(RunTicket { epoch: 0 }, Duration::from_secs(60));
    assert!(
        matches!(stop.await, Ok(StopOutcome::Stopped(_))),
        "dapvisor side stops"
    );
    let session_frame = session.stack_trace(None, Some(1)).await.expect("stack")[0].id;
    let mut direct = DirectClient::launch(&python(), &program.source, program.first_line)
        .await
        .expect("the direct client launches debugpy");
    let args = json!({"threadId": direct.thread_id, "levels": 1});
    let stack = direct.request("stackTrace", args).await.expect("stack");
    let direct_frame = stack["stackFrames"][0]["id"].as_i64().expect("a frame id");
    Sides {
        runtime,
        session,
        session_frame,
        direct: Arc::new(Mutex::new(direct)),
        direct_frame,
    }
}

/// One request of `command` through dapvisor.
async fn via_dapvisor(session: &SessionHandle, frame: i64, command: &str) {
    match command {
        "threads" => drop(session.threads().await.expect("threads")),
        _ => {
            let value = session
                .evaluate("token * 2", Some(frame), None)
                .await
                .expect("eval");
            assert_eq!(value.result, "14");
        }
    }
}

/// The same request through the direct client.
async fn via_direct(client: &mut DirectClient, frame: i64, command: &str) {
    match command {
        "threads" => drop(client.request("threads", json!({})).await.expect("threads")),
        _ => {
            let args = json!({"expression": "token * 2", "frameId": frame, "context": "repl"});
            let value = client.request("evaluate", args).await.expect("eval");
            assert_eq!(value["result"], "14");
        }
    }
}

/// Time `n` requests on one side; every request is timed on its own. With `pace`,
/// each request comes that long after the answer to the one before (untimed), as an
/// agent's do; without, back to back.
async fn run(
    sides: &Sides,
    dapvisor: bool,
    command: &str,
    n: usize,
    pace: Option<Duration>,
) -> Vec<Duration> {
    let mut samples = Vec::with_capacity(n);
    let mut direct = sides.direct.lock().await;
    for _ in 0..n {
        if let Some(pace) = pace {
            tokio::time::sleep(pace).await;
        }
        let start = Instant::now();
        if dapvisor {
            via_dapvisor(&sides.session, sides.session_frame, command).await;
        } else {
            via_direct(&mut direct, sides.direct_frame, command).await;
        }
        samples.push(start.elapsed());
    }
    samples
}

/// `REQUESTS` per side in alternating rounds; prints per-request figures and the ratio.
async fn interleaved(sides: &Sides, group: &str, command: &str, pace: Option<Duration>) {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    // This process's system calls and sleeps per side: the work behind a difference.
    let (mut our_work, mut their_work) = (Counters::default(), Counters::default());
    for round in 0..REQUESTS / ROUND {
        // Alternate which side goes first, so neither always follows the other.
        for dapvisor in [round % 2 == 0, round % 2 == 1] {
            let before = Counters::now();
            let samples = run(sides, dapvisor, command, ROUND, pace).await;
            let work = Counters::now() - before;
            if dapvisor {
                ours.extend(samples);
                our_work += work;
            } else {
                theirs.extend(samples);
                their_work += work;
            }
        }
    }
    let total = |s: &[Duration]| s.iter().sum::<Duration>();
    let ratio = total(&ours).as_secs_f64() / total(&theirs).as_secs_f64();
    let (ours, theirs) = (
        Summary::of(&mut ours).unwrap(),
        Summary::of(&mut theirs).unwrap(),
    );
    println!("{group} {command:<9} dapvisor {ours}");
    println!("{group} {command:<9} direct   {theirs}");
    println!(
        "{group} {command:<9} ratio dapvisor/direct {ratio:.3} (mean {} vs {}, p50 {} vs {})",
        human(ours.mean),
        human(theirs.mean),
        human(ours.p50),
        human(theirs.p50)
    );
    println!(
        "{group} {command:<9} per request, dapvisor: {}",
        our_work.per(REQUESTS)
    );
    println!(
        "{group} {command:<9} per request, direct:   {}",
        their_work.per(REQUESTS)
    );
}

/// Set `TCP_NODELAY` on pydevd's socket on both sides.
async fn set_nodelay(sides: &Sides) {
    let set = sides
        .session
        .evaluate(NODELAY, Some(sides.session_frame), None)
        .await;
    set.expect("dapvisor side: setsockopt");
    let args = json!({"expression": NODELAY, "frameId": sides.direct_frame, "context": "repl"});
    let mut direct = sides.direct.lock().await;
    direct
        .request("evaluate", args)
        .await
        .expect("direct side: setsockopt");
}

/// Criterion's timing of each side, then the interleaved comparison.
fn measure(c: &mut Criterion, rt: &tokio::runtime::Runtime, sides: &Arc<Sides>, group: &str) {
    let mut criterion_group = c.benchmark_group(group);
    for command in ["threads", "evaluate"] {
        for (side, dapvisor) in [("dapvisor", true), ("direct", false)] {
            criterion_group.bench_function(BenchmarkId::new(command, side), |b| {
                b.iter_custom(|iters| {
                    let sides = sides.clone();
                    let task = async move {
                        run(&sides, dapvisor, command, iters as usize, None)
                            .await
                            .iter()
                            .sum()
                    };
                    rt.block_on(rt.spawn(task)).expect("no panic")
                })
            });
        }
        let (sides, group) = (sides.clone(), group.to_string());
        let compare = async move { interleaved(&sides, &group, command, None).await };
        rt.block_on(rt.spawn(compare)).expect("no panic");
    }
    criterion_group.finish();
}

fn end_to_end(c: &mut Criterion) {
    // Two workers, as on the machines the figures are for; DAPVISOR_BENCH_WORKERS
    // changes that, to see how much of the overhead is hops between workers.
    let workers = std::env::var("DAPVISOR_BENCH_WORKERS")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(2);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let dir = scratch_dir("end-to-end");
    let programs = TokenPrograms::prepare(Language::Python, &dir).expect("scratch folder");
    let program = programs.program(7).expect("scratch program");
    let sides = Arc::new(rt.block_on(start(&program)));
    measure(c, &rt, &sides, "end_to_end");
    rt.block_on(set_nodelay(&sides));
    measure(c, &rt, &sides, "end_to_end_nodelay");
    for command in ["threads", "evaluate"] {
        let sides = sides.clone();
        let paced = async move {
            let group = "end_to_end_nodelay_paced";
            interleaved(&sides, group, command, Some(PACE)).await
        };
        rt.block_on(rt.spawn(paced)).expect("no panic");
    }
    let sides = Arc::into_inner(sides).expect("no other owner is left");
    rt.block_on(async move {
        Arc::into_inner(sides.direct)
            .expect("sole owner")
            .into_inner()
            .close()
            .await;
        sides.runtime.shutdown().await;
    });
    let _ = std::fs::remove_dir_all(dir);
}

criterion_group!(benches, end_to_end);
criterion_main!(benches);
