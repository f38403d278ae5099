//! Parallel faults: 32 sessions in one runtime, driven at once. Real adapters
//! (debugpy, lldb-dap, dlv) and the hostile adapter (tests/support/hostile_adapter.py,
//! a real process) side by side; adapters are killed with SIGKILL at every phase of a
//! session's life (its first handshake, running, stopped at its breakpoint, in the
//! middle of a restart), some several times; some hostile adapters crash on their own
//! (on `evaluate`, by dying or by answering garbage) until their budget is spent.
//!
//! Checked: every request gets exactly one answer, a result or an error, in bounded
//! time (a ledger counts them); no session sees another's events or values; every
//! killed session comes back and stops at its breakpoint again, then runs to its end;
//! a session that keeps crashing fails with its reason; and at the end no process is
//! left. The driver of each session is in `stress_support/`.
//!
//! Everything random comes from a seed printed at the start; set
//! `DAPVISOR_STRESS_SEED` to replay a run's plans and delays.

mod common;
mod stress_support;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use common::procs::wait_gone;
use common::*;
use dapvisor::{LaunchSpec, Received, RunTicket, Runtime, RuntimeConfig};
use stress_support::{Driver, Ledger, Outcome, Phase, Pids};

/// A bound on the whole run.
const RUN_BOUND: Duration = Duration::from_secs(900);

/// The kill plans handed out: every phase, once and several times per session. A
/// `Running` or `Restarting` kill follows a kill, whose restart it lands in.
const PLANS: [&[Phase]; 7] = [
    &[],
    &[Phase::Stopped],
    &[Phase::Handshake, Phase::Stopped],
    &[Phase::Stopped, Phase::Running],
    &[Phase::Stopped, Phase::Restarting],
    &[Phase::Stopped, Phase::Restarting, Phase::Running],
    &[Phase::Handshake, Phase::Stopped, Phase::Restarting],
];

/// What a session runs on.
#[derive(Clone)]
enum Adapter {
    Real(Box<Example>),
    /// The hostile adapter with no faults: it stops wherever its breakpoint is.
    Hostile,
    /// The hostile adapter with this fault, which crashes it on every `evaluate`.
    Doomed(&'static str),
}

/// `example` launched with a tag of its own (`stress-N`, in its environment and, for
/// Go, which cannot call `getenv` from an evaluation, its arguments), the expression
/// that reads the tag inside the debuggee, and how its value shows. An evaluation
/// answered by another session's debuggee would show that session's tag.
fn tagged(example: &Example, n: u64) -> (LaunchSpec, String, String) {
    let tag = format!("stress-{n}");
    let mut spec = example.spec.clone();
    spec.env
        .insert("DAPVISOR_STRESS_SESSION".into(), tag.clone());
    let program = spec.program.to_string_lossy().into_owned();
    let (expression, value) = if program.ends_with(".py") {
        (
            "__import__('os').environ['DAPVISOR_STRESS_SESSION']".to_string(),
            format!("'{tag}'"),
        )
    } else if example.function == "main.main" {
        spec = spec.args([tag.clone()]);
        ("os.Args".to_string(), format!("\"{tag}\""))
    } else {
        (
            "(const char *)getenv(\"DAPVISOR_STRESS_SESSION\")".to_string(),
            format!("\"{tag}\""),
        )
    };
    (spec, expression, value)
}

/// One session, start to end.
async fn drive(
    runtime: Runtime,
    adapter: Adapter,
    n: u64,
    kills: &'static [Phase],
    seed: u64,
    ledger: Arc<Ledger>,
    pids: Pids,
) -> Outcome {
    let mut o = Outcome::default();
    let session = ledger
        .call(format!("session {n} new"), runtime.new_session())
        .await
        .unwrap();
    let mut audit = session.subscribe();
    let file = program("python/discount.py");
    let (spec, line, expression, expected) = match &adapter {
        Adapter::Real(example) => {
            let (spec, expression, value) = tagged(example, n);
            (spec, example.line, expression, value)
        }
        // The hostile adapter stops on whatever line its breakpoint names: one per
        // session, so that a frame from another session's adapter would show.
        Adapter::Hostile | Adapter::Doomed(_) => {
            let name = if matches!(adapter, Adapter::Hostile) {
                "hostile"
            } else {
                fault_name(&adapter)
            };
            let line = 100 + n as i64;
            let spec = LaunchSpec::new(&file).adapter(name).breakpoint(&file, line);
            (spec, line, "qty".to_string(), "3".to_string())
        }
    };
    let mut driver = Driver {
        n,
        phases: session.subscribe(),
        session: session.clone(),
        ledger: ledger.clone(),
        pids,
        rng: (seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1,
        ticket: RunTicket { epoch: 0 },
        line,
        expression,
        expected,
    };
    let mut plan = kills.iter().copied().peekable();
    let kill_first = plan.next_if_eq(&Phase::Handshake).is_some();
    driver.start(&spec, &runtime, &mut o, kill_first).await;
    if matches!(adapter, Adapter::Doomed(_)) {
        driver.until_failed(&mut o).await;
    } else {
        for phase in plan {
            driver.kill_at(phase, &mut o).await;
        }
        driver.finish(&spec.breakpoints[0].file, &mut o).await;
    }

    // Only its own events, all along.
    while let Ok(received) = audit.try_recv() {
        if let Received::Event(event) = received {
            assert_eq!(
                event.session_id,
                session.id(),
                "session {n} saw another's event"
            );
        }
    }
    ledger
        .call(
            format!("session {n} end"),
            runtime.end_session(session.id()),
        )
        .await
        .unwrap();
    o
}

/// The registry name of a doomed adapter's fault.
fn fault_name(adapter: &Adapter) -> &'static str {
    match adapter {
        Adapter::Doomed(fault) if fault.starts_with("crash") => "hostile-crash",
        Adapter::Doomed(_) => "hostile-garbage",
        _ => "hostile",
    }
}

const CRASH: &str = "crash-on=evaluate:sigkill";
const GARBAGE: &str = "garbage-on=evaluate";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_two_sessions_survive_adapters_killed_at_every_phase() {
    let seed: u64 = std::env::var("DAPVISOR_STRESS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| (std::process::id() as u64 * 2_654_435_761) | 1);
    println!("DAPVISOR_STRESS_SEED={seed}");

    let mut config = RuntimeConfig::default();
    config
        .adapters_mut()
        .register(hostile_adapter("hostile", &[]));
    config
        .adapters_mut()
        .register(hostile_adapter("hostile-crash", &[CRASH]));
    config
        .adapters_mut()
        .register(hostile_adapter("hostile-garbage", &[GARBAGE]));
    let runtime = Runtime::start(config).await.unwrap();

    let mut adapters = Vec::new();
    adapters.extend((0..6).map(|_| Adapter::Real(Box::new(discount_example()))));
    adapters.extend((0..4).map(|_| Adapter::Real(Box::new(average_example()))));
    adapters.extend((0..4).map(|_| Adapter::Real(Box::new(inventory_example()))));
    adapters.extend((0..14).map(|_| Adapter::Hostile));
    adapters.extend([CRASH, CRASH, GARBAGE, GARBAGE].map(Adapter::Doomed));
    assert_eq!(adapters.len(), 32);

    let (ledger, pids): (Arc<Ledger>, Pids) = Default::default();
    let mut drivers = Vec::new();
    for (i, adapter) in adapters.iter().cloned().enumerate() {
        let kills = match adapter {
            Adapter::Doomed(_) => &[][..],
            _ => PLANS[(i + seed as usize) % PLANS.len()],
        };
        let n = i as u64 + 1;
        let task = drive(
            runtime.clone(),
            adapter,
            n,
            kills,
            seed,
            ledger.clone(),
            pids.clone(),
        );
        drivers.push((n, kills, tokio::spawn(task)));
    }
    let outcomes = tokio::time::timeout(RUN_BOUND, async {
        let mut outcomes = Vec::new();
        for (n, kills, driver) in drivers {
            let outcome = driver
                .await
                .unwrap_or_else(|e| panic!("session {n}'s driver: {e}"));
            outcomes.push((n, kills, outcome));
        }
        outcomes
    })
    .await
    .expect("the run did not finish in its bound");

    let mut by_phase: HashMap<Phase, usize> = HashMap::new();
    for (n, kills, outcome) in &outcomes {
        let adapter = &adapters[*n as usize - 1];
        match adapter {
            Adapter::Doomed(fault) => {
                let reason = outcome
                    .failure
                    .as_deref()
                    .unwrap_or_else(|| panic!("session {n} ({fault}) should fail: {outcome:?}"));
                assert!(reason.contains("restart budget: 5 in 60s"), "{reason}");
                let cause = if *fault == CRASH {
                    "crashing on `evaluate`"
                } else {
                    "no end of DAP header"
                };
                assert!(reason.contains(cause), "session {n}: {reason}");
            }
            Adapter::Real(_) | Adapter::Hostile => {
                let expected = match adapter {
                    Adapter::Real(example) => example.exit_code,
                    _ => 0,
                };
                assert_eq!(
                    outcome.exit_code,
                    Some(expected),
                    "session {n}: {outcome:?}"
                );
                assert_eq!(&outcome.kills[..], *kills, "session {n}: every kill landed");
                // A kill that failed a start is not a crash; every other one is.
                let crash_kills = kills.len() - outcome.failed_starts;
                assert_eq!(
                    outcome.crashes_seen, crash_kills,
                    "session {n}: {outcome:?}"
                );
                // Killed or not, it stopped at its breakpoint (again) and was
                // inspected whole after its last kill.
                assert!(
                    outcome.stops > crash_kills.min(1),
                    "session {n}: {outcome:?}"
                );
            }
        }
        for phase in &outcome.kills {
            *by_phase.entry(*phase).or_default() += 1;
        }
    }
    // Each session made at least its launch, a wait for its stop, a stack trace and an
    // evaluation: a driver that skipped its calls would answer for fewer.
    let requests = ledger.answered();
    assert!(requests >= 4 * 32, "only {requests} requests were answered");
    let failed_starts: usize = outcomes.iter().map(|(_, _, o)| o.failed_starts).sum();
    let crashes: usize = outcomes.iter().map(|(_, _, o)| o.crashes_seen).sum();
    println!(
        "kills by phase: {by_phase:?} ({failed_starts} failed a start, {crashes} were \
         crashes restarted); requests answered: {requests}"
    );
    for phase in [
        Phase::Handshake,
        Phase::Stopped,
        Phase::Running,
        Phase::Restarting,
    ] {
        assert!(
            by_phase.get(&phase).copied().unwrap_or(0) >= 2,
            "{by_phase:?}"
        );
    }
    assert!(runtime.sessions().is_empty());
    runtime.shutdown().await;

    let all: Vec<u32> = pids.lock().unwrap().iter().copied().collect();
    assert!(all.len() >= 32, "processes recorded: {all:?}");
    let left = wait_gone(all).await;
    assert!(left.is_empty(), "processes left behind: {left:?}");
}
