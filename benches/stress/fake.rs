//! M concurrent sessions on the in-process fake adapter: how fast they launch, what
//! an idle one costs in this process's memory, how many calls per second they
//! answer together, that each sees only its own answers, and that all of them end
//! with no connection open and no process left.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dapvisor::testing::{FakeAdapter, FakeAdapterProbe};
use dapvisor::{Runtime, SessionError, SessionHandle, StopOutcome};
use futures::future::join_all;

use super::args::Args;
use super::fake_memory::{fake_only_bytes, per_item_bytes, settled_rss_kib};
use super::fate::{Cause, Tally};
use super::kill::{Cutter, Killer};
use super::ledger::Ledger;
use crate::support::{fake, procs, stats::human};

/// How long a session waits for its pause to stop the program.
const STOP_WAIT: Duration = Duration::from_secs(60);

/// The request deadline of a `--hang` run: any will do, since the fake never answers
/// what hangs; the shortest the runtime takes (`MIN_REQUEST_TIMEOUT`) keeps the run
/// that shows the harness failing quick.
pub const HANG_DEADLINE: Duration = dapvisor::limits::MIN_REQUEST_TIMEOUT;

/// Run the fake-adapter part; returns the failed checks.
pub async fn run(args: &Args) -> Vec<String> {
    let m = args.fake;
    let cutting = if args.kill {
        ", random connection cuts"
    } else {
        ""
    };
    let hanging = if args.hang {
        ", the fake never answering `evaluate`"
    } else {
        ""
    };
    println!("== {m} concurrent sessions on the fake adapter{cutting}{hanging}");
    let fake = FakeAdapter::new().keep_running();
    let fake = if args.hang {
        fake.hang_on("evaluate")
    } else {
        fake
    };
    let (connect, probe) = fake.connector();
    let cutter = Cutter::default();
    let connect = if args.kill {
        cutter.wrap(connect)
    } else {
        connect
    };
    let runtime = if args.hang {
        fake::runtime_with_deadline(connect, m + 1, HANG_DEADLINE).await
    } else {
        fake::runtime_with(connect, m + 1).await
    };
    let ledger = Arc::new(Ledger::default());

    // One session first, so one-time allocations land in the baseline.
    if let Ok(session) = fake::launch(&runtime, None).await {
        let _ = runtime.end_session(session.id()).await;
    }
    let before = settled_rss_kib().await;
    let start = Instant::now();
    let launches = (0..m).map(|_| ledger.call("launch", fake::launch(&runtime, None)));
    let mut tally = Tally::default();
    let mut sessions: Vec<SessionHandle> = Vec::new();
    for launched in join_all(launches).await {
        match launched {
            Some(Ok(session)) => sessions.push(session),
            Some(Err(err)) => {
                if !tally.broke(Cause::of(&err), args.kill) {
                    ledger.fail(format!("launch: {err}"));
                }
            }
            None => {
                tally.broke(Cause::NoAnswer, args.kill);
            }
        }
    }
    let wall = start.elapsed();
    let idle = per_item_bytes(before, m).await;
    let rate = sessions.len() as f64 / wall.as_secs_f64();
    println!(
        "  launched {} of {m} in {} ({rate:.0} sessions/s); RSS per idle session {:.1} KiB{}",
        sessions.len(),
        human(wall),
        idle as f64 / 1024.0,
        if args.kill {
            " (fake adapter and cut relay included)"
        } else {
            " (fake adapter included)"
        }
    );

    let killer = args.kill.then(|| {
        let cutter = cutter.clone();
        let gap = (Duration::from_millis(5), Duration::from_millis(50));
        Killer::spawn(args.seed, gap, move |rng| cutter.cut_random(rng))
    });
    let (ok_before, _) = ledger.counts();
    let start = Instant::now();
    let work = sessions
        .iter()
        .cloned()
        .map(|session| tokio::spawn(workload(runtime.clone(), session, ledger.clone())));
    let fates: Vec<Fate> = join_all(work)
        .await
        .into_iter()
        .map(|t| t.expect("no panic"))
        .collect();
    let wall = start.elapsed();
    let cuts = match killer {
        Some(killer) => format!(", {} connections cut", killer.stop().await.len()),
        None => String::new(),
    };
    let answered = ledger.counts().0 - ok_before;
    let rate = answered as f64 / wall.as_secs_f64();
    println!(
        "  workload: {answered} calls answered ok in {} ({rate:.0} calls/s){cuts}",
        human(wall)
    );
    ledger.print(&[]);
    let mut states: BTreeMap<String, usize> = BTreeMap::new();
    for fate in fates {
        match fate.broke {
            None => tally.finished(),
            Some((cause, what)) => {
                if !tally.broke(cause, args.kill) {
                    ledger.fail(format!("{what} ({cause})"));
                }
            }
        }
        *states.entry(fate.state).or_default() += 1;
    }
    println!("  sessions: {tally}");
    if let Some(failure) = tally.none_finished(m).filter(|_| !args.kill) {
        ledger.fail(failure);
    }
    if args.kill {
        let states: Vec<String> = states.iter().map(|(k, n)| format!("{n} {k}")).collect();
        println!("  sessions before their end: {}", states.join("; "));
    }

    runtime.shutdown().await;
    check_all_ended(&runtime, &probe, &ledger).await;
    let fake_only = fake_only_bytes(m).await;
    println!(
        "  the fake adapter alone: {:.1} KiB per connection; dapvisor's own per idle session: {:.1} KiB",
        fake_only as f64 / 1024.0,
        idle.saturating_sub(fake_only) as f64 / 1024.0
    );
    ledger.failures()
}

/// How one session's workload went: the call it broke off at and why (`None`: it
/// ran its calls), and its state and restarts before its end, as its snapshot shows.
struct Fate {
    broke: Option<(Cause, String)>,
    state: String,
}

/// Pause, read, evaluate something only this session asks, resume, end. Every call
/// must succeed; a break is a failure unless cuts explain it (see [`Tally::broke`]).
async fn workload(runtime: Runtime, session: SessionHandle, ledger: Arc<Ledger>) -> Fate {
    let mine = format!("{}-unique", session.id());
    let id = session.id();
    let script = async {
        // The program runs: pause its thread (none has stopped yet to default to).
        let threads = answered(&ledger, "threads", session.threads()).await?;
        let thread = threads
            .first()
            .ok_or((Cause::Wrong, format!("{id}: threads: none")))?
            .id;
        let ticket = answered(&ledger, "pause", session.pause(Some(thread))).await?;
        let stop = session.wait_for_stop(ticket, STOP_WAIT);
        match answered(&ledger, "wait_for_stop", stop).await? {
            StopOutcome::Stopped(_) => {}
            StopOutcome::TimedOut => {
                return Err((Cause::Deadline, format!("{id}: wait_for_stop timed out")))
            }
            other => {
                return Err((Cause::Ended, format!("{id}: wait_for_stop: {other:?}")));
            }
        }
        let frames = answered(&ledger, "stack_trace", session.stack_trace(None, None)).await?;
        let frame = frames.first().map(|f| f.id);
        let value = answered(&ledger, "evaluate", session.evaluate(&mine, frame, None)).await?;
        let expected: String = mine.chars().rev().collect();
        if value.result != expected {
            let got = &value.result;
            ledger.fail(format!("isolation: {id} evaluated {mine:?} to {got:?}"));
        }
        answered(&ledger, "snapshot", session.snapshot()).await?;
        answered(&ledger, "continue", session.continue_(None)).await
    };
    let broke = script.await.err();
    let outcome = if broke.is_none() {
        "ran its calls"
    } else {
        "broke off"
    };
    let state = match session.snapshot().await {
        Ok(s) => format!("{outcome}, {:?} after {} restarts", s.state, s.restarts),
        Err(_) => format!("{outcome}, gone"),
    };
    let _ = ledger
        .call("end_session", runtime.end_session(session.id()))
        .await;
    Fate { broke, state }
}

/// A call through the ledger: its value, or why the script breaks off there.
async fn answered<T>(
    ledger: &Ledger,
    op: &'static str,
    call: impl std::future::Future<Output = Result<T, SessionError>>,
) -> Result<T, (Cause, String)> {
    match ledger.call(op, call).await {
        Some(Ok(value)) => Ok(value),
        Some(Err(err)) => Err((Cause::of(&err), format!("{op}: {err}"))),
        None => Err((Cause::NoAnswer, format!("{op}: no answer"))),
    }
}

/// After shutdown: no session, every fake connection closed, no child process.
async fn check_all_ended(runtime: &Runtime, probe: &FakeAdapterProbe, ledger: &Ledger) {
    let sessions = runtime.sessions().len();
    if sessions > 0 {
        ledger.fail(format!("{sessions} sessions left after shutdown"));
    }
    let closed = probe.wait_until(|log| log.closed == log.connections);
    if tokio::time::timeout(Duration::from_secs(10), closed)
        .await
        .is_err()
    {
        let log = probe.log();
        let open = log.connections - log.closed;
        ledger.fail(format!(
            "{open} of {} fake connections still open",
            log.connections
        ));
    }
    let left = procs::leftovers(&HashSet::new(), None);
    for proc in &left {
        ledger.fail(format!("process left behind: {proc:?}"));
    }
    let log = probe.log();
    println!(
        "  after shutdown: {sessions} sessions, {} of {} connections closed, {} processes left",
        log.closed,
        log.connections,
        left.len()
    );
}
