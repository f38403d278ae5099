//! Parallel faults: 32 sessions in one runtime (debugpy, lldb-dap and dlv, and the
//! scripted in-process adapter), driven at once, with half of the real adapters killed
//! at random moments. Every request is answered (a result or an error, none hangs), no
//! session sees another's events or values, killed sessions come back and stop at
//! their breakpoints again, and at the end no process is left.
//!
//! The random moments come from a seed printed at the start; set
//! `DAPVISOR_STRESS_SEED` to replay a run.

mod common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::procs::{descendants, wait_gone};
use common::*;
use dapvisor::testing::FakeAdapter;
use dapvisor::{
    EventStream, LaunchSpec, Received, RunTicket, Runtime, RuntimeConfig, SessionError,
    SessionEvent, SessionHandle, StopInfo, StopOutcome,
};

/// A bound on any one request or wait; a request that needs longer has hung.
const ANSWER_WAIT: Duration = Duration::from_secs(120);

/// Which program a session debugs.
#[derive(Clone)]
enum Kind {
    Real(Box<Example>),
    Fake,
}

/// What one session's driver saw.
#[derive(Debug, Default)]
struct Outcome {
    /// Requests that got an answer (a result or an error).
    answered: usize,
    /// Crashes the driver's requests were told of.
    crashes: usize,
    /// Stops at the breakpoint, counting those after restarts.
    stops: usize,
    exit_code: Option<i64>,
    /// The end of the session's output, for a failure message.
    output_tail: String,
    /// The session's lifecycle events, for a failure message.
    signals: Vec<String>,
}

/// Every process the run caused, to check none is left.
type Pids = Arc<Mutex<BTreeSet<u32>>>;

fn record_pids(session: &SessionHandle, pids: &Pids) {
    if let Some(adapter) = session.adapter_pid() {
        let mut all = pids.lock().unwrap();
        all.insert(adapter);
        all.extend(descendants(adapter));
    }
}

/// Bound a call: an answer within [`ANSWER_WAIT`] or the test fails.
async fn answered<T>(
    outcome: &mut Outcome,
    call: impl std::future::Future<Output = Result<T, SessionError>>,
) -> Result<T, SessionError> {
    let result = tokio::time::timeout(ANSWER_WAIT, call)
        .await
        .expect("a request went unanswered");
    outcome.answered += 1;
    if matches!(result, Err(SessionError::AdapterCrashed { .. })) {
        outcome.crashes += 1;
    }
    result
}

/// The next stop or end after `ticket`, waiting through crashes and restarts.
async fn next_stop(session: &SessionHandle, ticket: RunTicket, o: &mut Outcome) -> StopOutcome {
    loop {
        match answered(o, session.wait_for_stop(ticket, ANSWER_WAIT)).await {
            Ok(outcome) => return outcome,
            Err(SessionError::AdapterCrashed { .. }) => continue,
            Err(other) => panic!("waiting for a stop failed: {other}"),
        }
    }
}

/// Whether `err` says the adapter crashed, before or after the request was sent
/// (a session between adapters refuses inspection as not stopped).
fn between_adapters(err: &SessionError) -> bool {
    matches!(
        err,
        SessionError::AdapterCrashed { .. } | SessionError::InvalidState { .. }
    )
}

/// At the breakpoint: read the frame and evaluate a value unique to session `n`.
/// `Ok(false)` if the adapter crashed meanwhile (the caller waits for the new stop).
async fn inspect(
    session: &SessionHandle,
    stop: &StopInfo,
    line: i64,
    n: u64,
    o: &mut Outcome,
) -> bool {
    let frames = match answered(o, session.stack_trace(stop.thread_id, Some(1))).await {
        Ok(frames) => frames,
        Err(err) if between_adapters(&err) => return false,
        Err(other) => panic!("stack_trace: {other}"),
    };
    if line > 0 {
        assert_eq!(
            frames[0].line, line,
            "session {n} stopped off its breakpoint"
        );
    }
    let expression = format!("{n} * 1000 + 7");
    match answered(o, session.evaluate(&expression, Some(frames[0].id), None)).await {
        Ok(body) => {
            let expected = (n * 1000 + 7).to_string();
            let reversed: String = expression.chars().rev().collect();
            assert!(
                body.result.contains(&expected) || body.result == reversed,
                "session {n} got {:?} for {expression}",
                body.result
            );
            true
        }
        Err(err) if between_adapters(&err) => false,
        Err(other) => panic!("evaluate: {other}"),
    }
}

/// One session, start to end.
async fn drive(
    runtime: Runtime,
    kind: Kind,
    n: u64,
    kill_after: Option<Duration>,
    pids: Pids,
) -> Outcome {
    let mut o = Outcome::default();
    let (spec, line) = match &kind {
        Kind::Real(example) => (example.spec.clone(), example.line),
        Kind::Fake => (
            LaunchSpec::new("Cargo.toml")
                .adapter("fake")
                .breakpoint("src/lib.rs", 3),
            0,
        ),
    };
    let session = answered(&mut o, runtime.launch(spec.clone()))
        .await
        .unwrap();
    let mut events = session.subscribe();
    let mut ticket = RunTicket { epoch: 0 };
    let mut kill_after = kill_after;
    // Stop, inspect, and go on until the breakpoint has been inspected once whole
    // (for a session whose adapter is to be killed: once after the kill).
    loop {
        let stop = match next_stop(&session, ticket, &mut o).await {
            StopOutcome::Stopped(stop) => stop,
            other => panic!("session {n} did not stop at its breakpoint: {other:?}"),
        };
        o.stops += 1;
        record_pids(&session, &pids);
        ticket = RunTicket { epoch: stop.epoch };
        match kill_after.take() {
            Some(after) => {
                // The kill lands at a random moment among the requests that follow.
                let killer = session.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(after).await;
                    if let Some(pid) = killer.adapter_pid() {
                        // SAFETY: a signal to an adapter this test started.
                        unsafe { libc::kill(pid as i32, libc::SIGKILL) };
                    }
                });
                while inspect(&session, &stop, line, n, &mut o).await {}
            }
            None => {
                if inspect(&session, &stop, line, n, &mut o).await {
                    break;
                }
            }
        }
    }
    // Then run to the end without the breakpoint.
    let file = spec.breakpoints[0].file.clone();
    loop {
        match answered(&mut o, session.set_breakpoints(&file, vec![])).await {
            Ok(_) | Err(SessionError::AdapterCrashed { .. }) => {}
            Err(other) => panic!("clearing breakpoints: {other}"),
        }
        match answered(&mut o, session.continue_(None)).await {
            Ok(t) => ticket = t,
            Err(SessionError::AdapterCrashed { .. }) | Err(SessionError::InvalidState { .. }) => {}
            Err(other) => panic!("continue: {other}"),
        }
        match next_stop(&session, ticket, &mut o).await {
            StopOutcome::Terminated { exit_code } => {
                o.exit_code = exit_code;
                break;
            }
            StopOutcome::Stopped(stop) => ticket = RunTicket { epoch: stop.epoch },
            StopOutcome::TimedOut => panic!("session {n} neither stopped nor ended"),
        }
    }
    if let Ok(out) = session.output(0, 1 << 20).await {
        let text = out.text();
        o.output_tail = text[text.len().saturating_sub(400)..].to_string();
    }
    o.signals = own_lifecycle_events(&mut events, session.id().0, n);
    answered(&mut o, runtime.end_session(session.id()))
        .await
        .unwrap();
    o
}

/// The lifecycle events the session's stream holds (as `signal payload`), checking
/// that every event is the session's own.
fn own_lifecycle_events(events: &mut EventStream<SessionEvent>, id: u64, n: u64) -> Vec<String> {
    let mut seen = Vec::new();
    while let Ok(received) = events.try_recv() {
        if let Received::Event(event) = received {
            assert_eq!(event.session_id.0, id, "session {n} saw another's event");
            if event.kind.is_lifecycle() {
                seen.push(format!("{} {}", event.signal(), event.payload()));
            }
        }
    }
    seen
}

/// A small xorshift generator: the test needs varied moments, not quality.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_two_sessions_survive_random_adapter_kills() {
    let mut seed: u64 = std::env::var("DAPVISOR_STRESS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| (std::process::id() as u64 * 2_654_435_761) | 1);
    println!("DAPVISOR_STRESS_SEED={seed}");

    let (connect, _probe) = FakeAdapter::new().connector();
    let runtime = Runtime::start(RuntimeConfig::default().in_process_adapter("fake", connect))
        .await
        .unwrap();
    let mut kinds = Vec::new();
    kinds.extend((0..8).map(|_| Kind::Real(Box::new(discount_example()))));
    kinds.extend((0..4).map(|_| Kind::Real(Box::new(average_example()))));
    kinds.extend((0..4).map(|_| Kind::Real(Box::new(inventory_example()))));
    kinds.extend((0..16).map(|_| Kind::Fake));

    let pids: Pids = Arc::default();
    let mut drivers = Vec::new();
    for (n, kind) in kinds.iter().cloned().enumerate() {
        // Every other real session has its adapter killed 0 to 300 ms into its
        // first stop.
        let kill = (matches!(kind, Kind::Real(_)) && n % 2 == 0)
            .then(|| Duration::from_millis(next(&mut seed) % 300));
        let task = drive(runtime.clone(), kind, n as u64 + 1, kill, pids.clone());
        drivers.push(tokio::spawn(task));
    }
    let mut restarted = 0;
    for (n, driver) in drivers.into_iter().enumerate() {
        let outcome = driver.await.expect("a session's driver panicked");
        let expected = match &kinds[n] {
            Kind::Real(example) => Some(example.exit_code),
            Kind::Fake => Some(0),
        };
        assert_eq!(
            outcome.exit_code,
            expected,
            "session {}: {outcome:?}",
            n + 1
        );
        assert!(outcome.stops >= 1 && outcome.answered >= 5, "{outcome:?}");
        if matches!(kinds[n], Kind::Real(_)) && n % 2 == 0 {
            // Killed: it came back and stopped at its breakpoint again.
            assert!(outcome.stops >= 2, "session {}: {outcome:?}", n + 1);
            restarted += 1;
        }
    }
    println!("sessions killed that came back to their breakpoint: {restarted}");
    assert!(runtime.sessions().is_empty());
    runtime.shutdown().await;

    let all: Vec<u32> = pids.lock().unwrap().iter().copied().collect();
    assert!(all.len() >= 16, "processes recorded: {all:?}");
    let left = wait_gone(all).await;
    assert!(left.is_empty(), "processes left behind: {left:?}");
}
