//! N concurrent real-adapter sessions (debugpy, lldb-dap, dlv, js-debug or CodeLLDB),
//! each on a program
//! holding a token only it knows (the script is in [`super::real_script`]): wall time,
//! per-operation latencies against the targets, peak memory, how sessions
//! fared under kills, and no process left behind.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dapvisor::{Runtime, RuntimeConfig};
use futures::future::join_all;

use super::args::Args;
use super::fate::Tally;
use super::kill::{self, Killer};
use super::ledger::Ledger;
use super::real_script::{one, Context, Outcome};
use crate::support::python::scratch_dir;
use crate::support::token::{Language, TokenProgram, TokenPrograms};
use crate::support::{memory, procs, stats::human};

/// The latency targets on real adapters (from the issue). The MCP resource read of a
/// session (`src/mcp/resources.rs`, not public) is a snapshot rendered as JSON, so
/// snapshot and output reads stand for it here, without the MCP transport.
pub const TARGETS: &[(&str, Duration)] = &[
    ("set_breakpoint", Duration::from_millis(50)),
    ("continue", Duration::from_millis(20)),
    ("evaluate", Duration::from_millis(100)),
    ("snapshot", Duration::from_millis(10)),
    ("output", Duration::from_millis(10)),
];

/// How long each adapter may take to start listening or to connect back (the
/// runtime's `connect_timeout`; its default is 10 s): 120 s here, because the harness
/// starts every adapter at once, and 32 js-debug adapters (a Node process each)
/// starting together on 2 cores take longer than 10 s to print their ports.
pub const ADAPTER_START_WAIT: Duration = Duration::from_secs(120);

/// Run the real-session part; returns the failed checks.
pub async fn run(args: &Args) -> Vec<String> {
    let n = args.sessions;
    let killing = if args.kill {
        ", random adapter kills"
    } else {
        ""
    };
    // The delay only debugpy has (see `support::python::PYDEVD_NODELAY`).
    let nodelay = args.pydevd_nodelay && args.language == Language::Python;
    let nodelay_note = if nodelay {
        ", TCP_NODELAY set on pydevd's socket"
    } else {
        ""
    };
    let adapter = args.language.adapter();
    println!("== {n} concurrent {adapter} sessions{killing}{nodelay_note}");
    let dir = scratch_dir("stress");
    let maker = match TokenPrograms::prepare(args.language, &dir) {
        Ok(maker) => maker,
        Err(err) => return vec![format!("the {adapter} programs could not be made: {err}")],
    };
    let programs: Vec<TokenProgram> = (0..n)
        .map(|i| {
            maker
                .program(1_000_003 + 7_919 * i as i64)
                .expect("scratch program")
        })
        .collect();
    let config = RuntimeConfig::default()
        .max_sessions(n + 1)
        .connect_timeout(ADAPTER_START_WAIT);
    let context = Arc::new(Context {
        runtime: Runtime::start(config).await.expect("runtime"),
        ledger: Ledger::default(),
        pids: Mutex::default(),
    });
    let killer = args.kill.then(|| {
        let runtime = context.runtime.clone();
        let gap = (Duration::from_millis(300), Duration::from_millis(1500));
        Killer::spawn(args.seed, gap, move |rng| {
            kill::kill_random_adapter(&runtime, rng)
        })
    });
    let start = Instant::now();
    let tasks = programs
        .into_iter()
        .map(|p| tokio::spawn(one(context.clone(), p, nodelay)));
    let outcomes: Vec<Outcome> = join_all(tasks)
        .await
        .into_iter()
        .map(|t| t.expect("no panic"))
        .collect();
    let wall = start.elapsed();
    let kills = match killer {
        Some(killer) => killer.stop().await,
        None => Vec::new(),
    };
    println!("  wall time {} for {n} sessions", human(wall));
    context.ledger.print(TARGETS);
    let tally = report_fates(&context, &outcomes, &kills, args.kill).await;
    println!("  sessions: {tally}");
    // Under kills every session may break off for a reason the kills explain; the
    // check there is that every call was answered and nothing was left behind.
    if let Some(failure) = tally.none_finished(n).filter(|_| !args.kill) {
        context.ledger.fail(failure);
    }
    println!(
        "  peak RSS of this process so far (VmHWM): {} KiB",
        memory::peak_rss_kib()
    );
    context.runtime.shutdown().await;
    let groups = context
        .pids
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let marker = dir.display().to_string();
    let left = procs::wait_for_no_leftovers(&groups, Some(&marker), Duration::from_secs(10)).await;
    for proc in &left {
        context
            .ledger
            .fail(format!("process left behind: {proc:?}"));
    }
    println!("  processes left after shutdown: {}", left.len());
    let _ = std::fs::remove_dir_all(&dir);
    context.ledger.failures()
}

/// How each session ended, as its snapshot shows; then end it. A session that broke
/// off is a failure, unless kills explain its cause (`Cause::explained_by_kills`).
async fn report_fates(
    context: &Context,
    outcomes: &[Outcome],
    kills: &[String],
    killing: bool,
) -> Tally {
    if killing {
        println!("  {} adapters killed", kills.len());
    }
    let mut tally = Tally::default();
    for outcome in outcomes {
        let token = outcome.token;
        let Some(broke) = &outcome.broke else {
            tally.finished();
            if let Some(session) = &outcome.session {
                let end = context.runtime.end_session(session.id());
                let _ = context.step("end_session", end).await;
            }
            continue;
        };
        let excused = tally.broke(broke.cause, killing);
        let Some(session) = &outcome.session else {
            println!(
                "    token {token}: launch failed ({}): {}",
                broke.cause, broke.what
            );
            if !excused {
                context
                    .ledger
                    .fail(format!("token {token}: launch: {}", broke.what));
            }
            continue;
        };
        let fate = match session.snapshot().await {
            Ok(s) => format!(
                "{:?} after {} restarts, failure {:?}",
                s.state, s.restarts, s.failure
            ),
            Err(err) => format!("gone: {err}"),
        };
        let id = session.id();
        let how = if excused { "excused" } else { "FAILED" };
        println!(
            "    {id} (token {token}) {how}: broke off at {} ({}); now {fate}",
            broke.what, broke.cause
        );
        if !excused {
            context
                .ledger
                .fail(format!("token {token}: {}", broke.what));
        }
        let end = context.runtime.end_session(id);
        let _ = context.step("end_session", end).await;
    }
    tally
}
