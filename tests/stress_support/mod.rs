//! The stress test's machinery: a ledger of requests and their answers, the phases a
//! kill can land in, and the driver that takes one session through its plan of kills.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dapvisor::{
    EventKind, EventStream, LaunchSpec, Received, RunTicket, Runtime, SessionError, SessionEvent,
    SessionHandle, SessionState, StopInfo, StopOutcome,
};

use crate::common::procs::descendants;

pub use crate::common::ANSWER_WAIT;
/// Where a planned kill lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
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

/// Every request made, each bounded: one unanswered for [`ANSWER_WAIT`] fails the
/// test at once (in [`Ledger::call`]). Each call is awaited to its end, so it gets at
/// most one answer by construction; what the ledger adds is the bound, and the count
/// of calls answered, which the test checks against what its drivers must have made.
#[derive(Default)]
pub struct Ledger {
    answered: AtomicU64,
}

impl Ledger {
    /// Make a request, bounded: it must be answered within [`ANSWER_WAIT`].
    pub async fn call<T>(
        &self,
        what: String,
        request: impl std::future::Future<Output = Result<T, SessionError>>,
    ) -> Result<T, SessionError> {
        let result = tokio::time::timeout(ANSWER_WAIT, request)
            .await
            .unwrap_or_else(|_| panic!("{what} went unanswered for {ANSWER_WAIT:?}"));
        self.answered.fetch_add(1, Ordering::Relaxed);
        result
    }

    /// How many requests were answered.
    pub fn answered(&self) -> u64 {
        self.answered.load(Ordering::Relaxed)
    }
}

/// Every process the run caused, to check none is left.
pub type Pids = Arc<Mutex<BTreeSet<u32>>>;

/// One session's driver.
pub struct Driver {
    pub n: u64,
    pub session: SessionHandle,
    pub ledger: Arc<Ledger>,
    pub pids: Pids,
    /// The session's events, read as it goes, for the phases of its kills.
    pub phases: EventStream<SessionEvent>,
    pub rng: u64,
    pub ticket: RunTicket,
    /// The breakpoint line, and what evaluating `expression` must give there.
    pub line: i64,
    pub expression: String,
    pub expected: String,
}

/// What one driver saw.
#[derive(Debug, Default)]
pub struct Outcome {
    pub kills: Vec<Phase>,
    pub crashes_seen: usize,
    pub failed_starts: usize,
    pub stops: usize,
    pub exit_code: Option<i64>,
    pub failure: Option<String>,
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
                Ok(Some(Received::CutOff { waiting })) => {
                    panic!("cut off with {waiting} events unread")
                }
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
    pub async fn start(
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
    pub async fn kill_at(&mut self, phase: Phase, o: &mut Outcome) {
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
    pub async fn finish(&mut self, file: &std::path::Path, o: &mut Outcome) {
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
    pub async fn until_failed(&mut self, o: &mut Outcome) {
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
