//! Accounting for every call the harness makes: how long each successful one took,
//! that each got exactly one answer (a result or an error), and which correctness
//! checks failed.
//!
//! An async call returns at most once by construction, so "exactly one answer" comes
//! down to "no call left unanswered": each runs under a watchdog far past the
//! runtime's own deadlines (30 s per request, 60 s for the waits the harness asks
//! for), and one that outlives it is a missing answer.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dapvisor::SessionError;

use crate::support::stats::{human, Summary};

/// How long a call may take before it counts as never answered.
pub const WATCHDOG: Duration = Duration::from_secs(150);

#[derive(Default)]
struct State {
    timings: BTreeMap<&'static str, Vec<Duration>>,
    issued: u64,
    answered_ok: u64,
    errors: BTreeMap<String, u64>,
    missing: Vec<String>,
    failures: Vec<String>,
}

/// Shared by every session task of one part of the run.
#[derive(Default)]
pub struct Ledger {
    state: Mutex<State>,
}

impl Ledger {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Run one call of `op`, timing it if it succeeds; `None` if it got no answer.
    pub async fn call<T>(
        &self,
        op: &'static str,
        call: impl Future<Output = Result<T, SessionError>>,
    ) -> Option<Result<T, SessionError>> {
        self.lock().issued += 1;
        let start = Instant::now();
        let answer = tokio::time::timeout(WATCHDOG, call).await;
        let elapsed = start.elapsed();
        let mut state = self.lock();
        match answer {
            Ok(Ok(value)) => {
                state.answered_ok += 1;
                state.timings.entry(op).or_default().push(elapsed);
                Some(Ok(value))
            }
            Ok(Err(err)) => {
                *state
                    .errors
                    .entry(format!("{op}: {}", kind(&err)))
                    .or_default() += 1;
                Some(Err(err))
            }
            Err(_) => {
                state
                    .missing
                    .push(format!("`{op}` got no answer within {WATCHDOG:?}"));
                None
            }
        }
    }

    /// Record a failed correctness check.
    pub fn fail(&self, what: String) {
        self.lock().failures.push(what);
    }

    /// Every failed check and missing answer so far.
    pub fn failures(&self) -> Vec<String> {
        let state = self.lock();
        state
            .missing
            .iter()
            .chain(&state.failures)
            .cloned()
            .collect()
    }

    /// Successful calls and all calls so far.
    pub fn counts(&self) -> (u64, u64) {
        let state = self.lock();
        (state.answered_ok, state.issued)
    }

    /// Print each operation's latencies, with the latency target where there is one,
    /// and the calls that answered with an error.
    pub fn print(&self, targets: &[(&str, Duration)]) {
        let state = self.lock();
        for (op, samples) in &state.timings {
            let mut samples = samples.clone();
            let Some(summary) = Summary::of(&mut samples) else {
                continue;
            };
            let target = match targets.iter().find(|(name, _)| name == op) {
                Some((_, limit)) if summary.p99 <= *limit => {
                    format!("target {} met (p99)", human(*limit))
                }
                Some((_, limit)) if summary.p50 <= *limit => {
                    format!("target {} met at p50, not p99", human(*limit))
                }
                Some((_, limit)) => format!("target {} MISSED", human(*limit)),
                None => String::new(),
            };
            println!("  {op:<16} {summary}  {target}");
        }
        let answered: u64 = state.answered_ok + state.errors.values().sum::<u64>();
        println!(
            "  calls: {} issued, {} answered ({} ok, {} errors), {} unanswered",
            state.issued,
            answered,
            state.answered_ok,
            answered - state.answered_ok,
            state.missing.len()
        );
        for (what, count) in &state.errors {
            println!("    error {what} x{count}");
        }
    }
}

/// The error's variant name (`Timeout`, `AdapterExited`, ...), for counting.
fn kind(err: &SessionError) -> String {
    let debug = format!("{err:?}");
    let end = debug.find([' ', '(', '{']).unwrap_or(debug.len());
    debug[..end].to_string()
}
