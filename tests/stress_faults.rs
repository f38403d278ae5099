//! Parallel faults: 32 sessions in one runtime, driven at once. Real adapters
//! (debugpy, lldb-dap, dlv) and the hostile adapter (tests/support/hostile_adapter.py,
//! a real process) side by side; adapters are killed with SIGKILL at every phase of a
//! session's life (its first handshake, running, stopped at its breakpoint, in the
//! middle of a restart), some several times; some hostile adapters crash on their own
//! (on `evaluate`, by dying or by answering garbage) until their budget is spent.
//!
//! Checked: every request gets exactly one answer, a result or an error, in bounded
//! time (a ledger counts them); no session sees another's events or values; every killed session comes back and stops at its
//! breakpoint again, then runs to its end; a session that keeps crashing fails with
//! its reason; and at the end no process is left.
//!
//! Everything random comes from a seed printed at the start; set
//! `DAPVISOR_STRESS_SEED` to replay a run's plans and delays.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::procs::{descendants, wait_gone};
use common::*;
use dapvisor::registry::AdapterDef;
use dapvisor::{
    EventKind, EventStream, LaunchSpec, Received, RunTicket, Runtime, RuntimeConfig, SessionError,
    SessionEvent, SessionHandle, SessionState, StopInfo, StopOutcome,
};

/// A bound on any one request, wait or event; past it, something hung.
const ANSWER_WAIT: Duration = Duration::from_secs(120);
/// A bound on the whole run.
const RUN_BOUND: Duration = Duration::from_secs(900);

/// Where a planned kill lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Phase {
    /// During the agent's own start: the start fails and is made again (or, if the
    /// kill lands after it, a crash).
    Handshake,
    /// Stopped at the breakpoint, among the agent's requests.
    Stopped,
    /// After a restart, while the program runs toward its breakpoint.
    Running,
    /// During a restart's own handshake.
    Restarting,
}

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

/// Every request made, and how many answers each got.
#[derive(Default)]
struct Ledger {
    next: AtomicU64,
    answers: Mutex<HashMap<u64, (String, u32)>>,
}

impl Ledger {
    /// Make a request, bounded: it must be answered within [`ANSWER_WAIT`].
    async fn call<T>(
        &self,
        what: String,
        request: impl std::future::Future<Output = Result<T, SessionError>>,
    ) -> Result<T, SessionError> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.answers.lock().unwrap().insert(id, (what.clone(), 0));
        let result = tokio::time::timeout(ANSWER_WAIT, request)
            .await
            .unwrap_or_else(|_| panic!("{what} went unanswered for {ANSWER_WAIT:?}"));
        self.answers.lock().unwrap().get_mut(&id).unwrap().1 += 1;
        result
    }

    /// Every request answered exactly once; how many there were.
    fn check(&self) -> usize {
        let answers = self.answers.lock().unwrap();
        let wrong: Vec<_> = answers.values().filter(|(_, n)| *n != 1).collect();
        assert!(
            wrong.is_empty(),
            "requests not answered exactly once: {wrong:?}"
        );
        assert_eq!(answers.len() as u64, self.next.load(Ordering::Relaxed));
        answers.len()
    }
}

/// Every process the run caused, to check none is left.
type Pids = Arc<Mutex<BTreeSet<u32>>>;

/// One session's driver.
struct Driver {
    n: u64,
    session: SessionHandle,
    ledger: Arc<Ledger>,
    pids: Pids,
    /// The session's events, read as it goes, for the phases of its kills.
    phases: EventStream<SessionEvent>,
    rng: u64,
    ticket: RunTicket,
    /// The breakpoint line, and what evaluating `expression` must give there.
    line: i64,
    expression: String,
    expected: String,
}

/// What one driver saw.
#[derive(Debug, Default)]
struct Outcome {
    kills: Vec<Phase>,
    crashes_seen: usize,
    failed_starts: usize,
    stops: usize,
    exit_code: Option<i64>,
    failure: Option<String>,
}

impl Driver {
    fn random(&mut self, below_ms: u64) -> Duration {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        Duration::from_millis(self.rng % below_ms.max(1))
    }

    fn record_pids(&self) {
        if let Some(adapter) = self.session.adapter_pid() {
            let mut all = self.pids.lock().unwrap();
            all.insert(adapter);
            all.extend(descendants(adapter));
        }
    }

    /// SIGKILL the adapter running now; false if there is none.
    fn kill_now(&self) -> bool {
        self.record_pids();
        match self.session.adapter_pid() {
            // SAFETY: a signal to an adapter this test started.
            Some(pid) => unsafe { libc::kill(pid as i32, libc::SIGKILL) == 0 },
            None => false,
        }
    }

    /// The next event of the session that `pick` accepts.
    async fn next_event(
        &mut self,
        what: &str,
        mut pick: impl FnMut(&EventKind) -> bool,
    ) -> EventKind {
        loop {
            match tokio::time::timeout(ANSWER_WAIT, self.phases.recv()).await {
                Ok(Some(Received::Event(event))) => {
                    assert_eq!(event.session_id, self.session.id(), "another's event");
                    if pick(&event.kind) {
                        return event.kind.clone();
                    }
                }
                Ok(Some(Received::Lagged { .. })) => {}
                other => panic!("session {}: no {what}: {other:?}", self.n),
            }
        }
    }

    /// After a kill: the crash it caused, as the session announced it. Stops
    /// announced before it were the dead adapter's: the next wait is for a later one.
    async fn crash_seen(&mut self, o: &mut Outcome) {
        let mut stale = self.ticket.epoch;
        let kind = self
            .next_event("crash", |k| {
                if let EventKind::Stopped(stop) = k {
                    stale = stale.max(stop.epoch);
                }
                matches!(
                    k,
                    EventKind::AdapterCrashed { .. } | EventKind::SessionFailed { .. }
                )
            })
            .await;
        assert!(
            matches!(
                kind,
                EventKind::AdapterCrashed {
                    attempt: Some(_),
                    ..
                }
            ),
            "session {}: a kill should be restarted, got {kind:?}",
            self.n
        );
        self.ticket = RunTicket { epoch: stale };
        o.crashes_seen += 1;
    }

    /// The session's state entering one of `states` (after everything read so far).
    async fn entering(&mut self, states: &[SessionState]) {
        self.next_event(
            "state change",
            |k| matches!(k, EventKind::StateChanged { to, .. } if states.contains(to)),
        )
        .await;
    }

    /// The next stop (through crashes and restarts) or the failure.
    async fn next_stop(&mut self, o: &mut Outcome) -> Result<StopOutcome, String> {
        loop {
            let what = format!("session {} wait_for_stop", self.n);
            let wait = self.session.wait_for_stop(self.ticket, ANSWER_WAIT);
            match self.ledger.call(what, wait).await {
                Ok(StopOutcome::Stopped(stop)) => {
                    self.ticket = RunTicket { epoch: stop.epoch };
                    self.record_pids();
                    o.stops += 1;
                    return Ok(StopOutcome::Stopped(stop));
                }
                Ok(other) => return Ok(other),
                Err(SessionError::AdapterCrashed { .. }) => {}
                Err(SessionError::SessionFailed { reason }) => return Err(reason),
                Err(other) => panic!("session {}: waiting for a stop: {other}", self.n),
            }
        }
    }

    /// At the breakpoint: the frame, and a value unique to this session. False if the
    /// adapter went away meanwhile (a crash, or the session between adapters).
    async fn inspect(&self, stop: &StopInfo) -> bool {
        let what = format!("session {} stack_trace", self.n);
        let trace = self.session.stack_trace(stop.thread_id, Some(1));
        let frames = match self.ledger.call(what, trace).await {
            Ok(frames) => frames,
            Err(err) if between_adapters(&err) => return false,
            Err(other) => panic!("session {}: stack_trace: {other}", self.n),
        };
        assert_eq!(frames[0].line, self.line, "session {} off its line", self.n);
        let what = format!("session {} evaluate", self.n);
        let eval = self
            .session
            .evaluate(&self.expression, Some(frames[0].id), None);
        match self.ledger.call(what, eval).await {
            Ok(body) => {
                assert!(
                    body.result.contains(&self.expected),
                    "session {} got {:?} for {}",
                    self.n,
                    body.result,
                    self.expression
                );
                true
            }
            Err(err) if between_adapters(&err) => false,
            Err(other) => panic!("session {}: evaluate: {other}", self.n),
        }
    }

    /// Start (again after a start a kill failed) with `kill_in_handshake` planned.
    async fn start(
        &mut self,
        spec: &LaunchSpec,
        runtime: &Runtime,
        o: &mut Outcome,
        mut kill: bool,
    ) {
        loop {
            let plan = runtime.plan_launch(spec.clone()).await.unwrap();
            let what = format!("session {} start", self.n);
            let started = if std::mem::take(&mut kill) {
                let delay = self.random(60);
                let session = self.session.clone();
                let ledger = self.ledger.clone();
                let (started, killed) =
                    tokio::join!(ledger.call(what, session.start(plan)), async {
                        self.entering(&[SessionState::Initializing]).await;
                        tokio::time::sleep(delay).await;
                        self.kill_now()
                    });
                assert!(killed, "session {}: no adapter in its handshake", self.n);
                o.kills.push(Phase::Handshake);
                if started.is_ok() {
                    // The kill came after the start: a crash, restarted.
                    self.crash_seen(o).await;
                }
                started
            } else {
                self.ledger.call(what, self.session.start(plan)).await
            };
            match started {
                Ok(_) => return,
                Err(SessionError::StartFailed { .. }) => o.failed_starts += 1,
                Err(other) => panic!("session {}: start: {other}", self.n),
            }
        }
    }

    /// Carry out one planned kill after the start.
    async fn kill_at(&mut self, phase: Phase, o: &mut Outcome) {
        match phase {
            Phase::Handshake => unreachable!("only the first kill of a plan"),
            Phase::Stopped => loop {
                let Ok(StopOutcome::Stopped(stop)) = self.next_stop(o).await else {
                    panic!("session {} should stop at its breakpoint", self.n);
                };
                // Requests go on while the kill lands among them; they end at the first
                // one the crash answers.
                let delay = self.random(300);
                let inspecting = async { while self.inspect(&stop).await {} };
                let killing = async {
                    tokio::time::sleep(delay).await;
                    self.kill_now()
                };
                let ((), killed) = tokio::join!(inspecting, killing);
                if killed {
                    break;
                }
                // The adapter was already gone (a stale stop): wait for the next one.
            },
            Phase::Running | Phase::Restarting => {
                // A run may stop before it is seen running (a stop that beats the
                // answer to configurationDone): the kill then lands just after the stop.
                let (states, below): (&[SessionState], u64) = match phase {
                    Phase::Running => (&[SessionState::Running, SessionState::Stopped], 100),
                    _ => (&[SessionState::Initializing], 20),
                };
                self.entering(states).await;
                let delay = self.random(below);
                tokio::time::sleep(delay).await;
                assert!(self.kill_now(), "session {}: no adapter to kill", self.n);
            }
        }
        o.kills.push(phase);
        self.crash_seen(o).await;
    }

    /// Come back to the breakpoint and inspect it whole; then run to the end.
    async fn finish(&mut self, file: &std::path::Path, o: &mut Outcome) {
        loop {
            match self.next_stop(o).await {
                Ok(StopOutcome::Stopped(stop)) => {
                    if self.inspect(&stop).await {
                        break;
                    }
                }
                other => panic!("session {} did not come back: {other:?}", self.n),
            }
        }
        let what = format!("session {} clear breakpoints", self.n);
        self.ledger
            .call(what, self.session.set_breakpoints(file, vec![]))
            .await
            .unwrap();
        let what = format!("session {} continue", self.n);
        self.ticket = self
            .ledger
            .call(what, self.session.continue_(None))
            .await
            .unwrap();
        match self.next_stop(o).await {
            Ok(StopOutcome::Terminated { exit_code }) => o.exit_code = exit_code,
            other => panic!("session {} should run to its end: {other:?}", self.n),
        }
    }

    /// A doomed session: stop, evaluate (the adapter crashes), until the budget is spent.
    async fn until_failed(&mut self, o: &mut Outcome) {
        loop {
            match self.next_stop(o).await {
                Ok(StopOutcome::Stopped(stop)) => {
                    let answered = self.inspect(&stop).await;
                    assert!(!answered, "session {}: evaluate should crash", self.n);
                }
                Ok(other) => panic!("session {}: {other:?}", self.n),
                Err(reason) => {
                    o.failure = Some(reason);
                    return;
                }
            }
        }
    }
}

/// Whether `err` says the adapter went away, before or after the request was sent
/// (or, past the budget, for good: the next wait reports it).
fn between_adapters(err: &SessionError) -> bool {
    matches!(
        err,
        SessionError::AdapterCrashed { .. }
            | SessionError::InvalidState { .. }
            | SessionError::SessionFailed { .. }
    )
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
            let expression = format!("{n} * 1000 + 7");
            let value = (n * 1000 + 7).to_string();
            (example.spec.clone(), example.line, expression, value)
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

/// The hostile adapter registered as `name`, with these `--fault`s.
fn hostile(name: &str, faults: &[&str]) -> AdapterDef {
    let python = std::env::var("DAPVISOR_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut def = AdapterDef::generic(name, python);
    def.args = vec![root()
        .join("tests/support/hostile_adapter.py")
        .display()
        .to_string()];
    for fault in faults {
        def.args.extend(["--fault".to_string(), fault.to_string()]);
    }
    def
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
    config.registry.register(hostile("hostile", &[]));
    config.registry.register(hostile("hostile-crash", &[CRASH]));
    config
        .registry
        .register(hostile("hostile-garbage", &[GARBAGE]));
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
    let requests = ledger.check();
    let failed_starts: usize = outcomes.iter().map(|(_, _, o)| o.failed_starts).sum();
    let crashes: usize = outcomes.iter().map(|(_, _, o)| o.crashes_seen).sum();
    println!(
        "kills by phase: {by_phase:?} ({failed_starts} failed a start, {crashes} were \
         crashes restarted); requests answered, each once: {requests}"
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
