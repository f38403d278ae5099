//! M concurrent sessions on the in-process fake adapter: how fast they launch, what
//! an idle one costs in this process's memory, how many calls per second they
//! answer together, that each sees only its own answers, and that all of them end
//! with no connection open and no process left.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dapvisor::testing::{FakeAdapter, FakeAdapterProbe};
use dapvisor::{Runtime, SessionError, SessionHandle, StopOutcome};
use futures::future::join_all;

use super::args::Args;
use super::fake_memory::{fake_only_bytes, per_item_bytes, settled_rss_kib};
use super::kill::{Cutter, Killer};
use super::ledger::Ledger;
use crate::support::{fake, procs, stats::human};

/// Run the fake-adapter part; returns the failed checks.
pub async fn run(args: &Args) -> Vec<String> {
    let m = args.fake;
    let cutting = if args.kill {
        ", random connection cuts"
    } else {
        ""
    };
    println!("== {m} concurrent sessions on the fake adapter{cutting}");
    let (connect, probe) = FakeAdapter::new().keep_running().connector();
    let cutter = Cutter::default();
    let connect = if args.kill {
        cutter.wrap(connect)
    } else {
        connect
    };
    let runtime = fake::runtime_with(connect, m + 1).await;
    let ledger = Arc::new(Ledger::default());

    // One session first, so one-time allocations land in the baseline.
    if let Ok(session) = fake::launch(&runtime, None).await {
        let _ = runtime.end_session(session.id()).await;
    }
    let before = settled_rss_kib().await;
    let start = Instant::now();
    let launches = (0..m).map(|_| ledger.call("launch", fake::launch(&runtime, None)));
    let sessions: Vec<SessionHandle> = join_all(launches)
        .await
        .into_iter()
        .flatten()
        .flatten()
        .collect();
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
    let work = sessions.iter().cloned().map(|session| {
        tokio::spawn(workload(
            runtime.clone(),
            session,
            ledger.clone(),
            args.kill,
        ))
    });
    let fates: Vec<String> = join_all(work)
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
    if args.kill {
        let mut tally: BTreeMap<String, usize> = BTreeMap::new();
        fates
            .into_iter()
            .for_each(|fate| *tally.entry(fate).or_default() += 1);
        let tally: Vec<String> = tally.iter().map(|(k, n)| format!("{n} {k}")).collect();
        println!("  sessions before their end: {}", tally.join("; "));
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

/// Pause, read, evaluate something only this session asks, resume, end. Without
/// cuts every call must succeed; with them, errors are expected and only counted.
/// Returns how the session stood before its end: its script's outcome, its state
/// and its restarts, as its snapshot shows.
async fn workload(
    runtime: Runtime,
    session: SessionHandle,
    ledger: Arc<Ledger>,
    cutting: bool,
) -> String {
    let mine = format!("{}-unique", session.id());
    // A deadline that passed says the machine was slow, not that the runtime is wrong.
    let slow = AtomicBool::new(false);
    let script = async {
        // The program runs: pause its thread (none has stopped yet to default to).
        let threads = ledger
            .call("threads", session.threads())
            .await
            .and_then(|r| kept(r, &slow))?;
        let thread = threads.first()?.id;
        let ticket = ledger
            .call("pause", session.pause(Some(thread)))
            .await
            .and_then(|r| kept(r, &slow))?;
        let stop = session.wait_for_stop(ticket, Duration::from_secs(60));
        match ledger
            .call("wait_for_stop", stop)
            .await
            .and_then(|r| kept(r, &slow))?
        {
            StopOutcome::Stopped(_) => {}
            StopOutcome::TimedOut => {
                slow.store(true, Ordering::Relaxed);
                return None;
            }
            _ => return None,
        }
        let frames = ledger
            .call("stack_trace", session.stack_trace(None, None))
            .await
            .and_then(|r| kept(r, &slow))?;
        let frame = frames.first().map(|f| f.id);
        let value = ledger
            .call("evaluate", session.evaluate(&mine, frame, None))
            .await
            .and_then(|r| kept(r, &slow))?;
        let expected: String = mine.chars().rev().collect();
        if value.result != expected {
            let (id, got) = (session.id(), &value.result);
            ledger.fail(format!("isolation: {id} evaluated {mine:?} to {got:?}"));
        }
        ledger
            .call("snapshot", session.snapshot())
            .await
            .and_then(|r| kept(r, &slow))?;
        ledger
            .call("continue", session.continue_(None))
            .await
            .and_then(|r| kept(r, &slow))
    };
    let finished = script.await.is_some();
    if !finished && !cutting && !slow.load(Ordering::Relaxed) {
        ledger.fail(format!(
            "{} did not get through its calls (see the errors)",
            session.id()
        ));
    }
    let outcome = if finished {
        "ran its calls"
    } else {
        "broke off"
    };
    let fate = match session.snapshot().await {
        Ok(s) => format!("{outcome}, {:?} after {} restarts", s.state, s.restarts),
        Err(_) => format!("{outcome}, gone"),
    };
    let _ = ledger
        .call("end_session", runtime.end_session(session.id()))
        .await;
    fate
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

/// A call's value; an error ends the script, and a timeout among them is noted as
/// slowness.
fn kept<T>(result: Result<T, SessionError>, slow: &AtomicBool) -> Option<T> {
    if let Err(SessionError::Timeout { .. }) = &result {
        slow.store(true, Ordering::Relaxed);
    }
    result.ok()
}
