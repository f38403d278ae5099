//! When to restart a crashed adapter: a budget of restarts per window, exponential
//! backoff with jitter between attempts, and forgiveness after a stable period. Plain
//! code: the supervisor passes in the time and a random sample.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::limits;

/// How a session's adapter is restarted after crashes.
#[derive(Debug, Clone, PartialEq)]
pub struct RestartPolicy {
    /// Restarts allowed within [`Self::window`] (default
    /// [`limits::DEFAULT_MAX_RESTARTS`]); 0 turns restarting off.
    pub max_restarts: u32,
    /// The sliding window the budget counts in (default [`limits::DEFAULT_RESTART_WINDOW`]).
    pub window: Duration,
    /// The delay before the first restart of a series (default
    /// [`limits::DEFAULT_RESTART_BACKOFF`]); it doubles with each attempt.
    pub initial_backoff: Duration,
    /// The longest delay (default [`limits::DEFAULT_MAX_RESTART_BACKOFF`]).
    pub max_backoff: Duration,
    /// A crash this long after the previous one starts a new series: the backoff
    /// goes back to [`Self::initial_backoff`] (default [`limits::DEFAULT_RESTART_STABLE`]).
    pub stable_after: Duration,
    /// The delay is scaled by a random factor in `1 ± jitter` (default 0.2), so that
    /// sessions that crashed together do not restart in lockstep.
    pub jitter: f64,
}

impl Default for RestartPolicy {
    fn default() -> Self {
        Self {
            max_restarts: limits::DEFAULT_MAX_RESTARTS,
            window: limits::DEFAULT_RESTART_WINDOW,
            initial_backoff: limits::DEFAULT_RESTART_BACKOFF,
            max_backoff: limits::DEFAULT_MAX_RESTART_BACKOFF,
            stable_after: limits::DEFAULT_RESTART_STABLE,
            jitter: 0.2,
        }
    }
}

/// What to do about one crash.
#[derive(Debug, Clone, PartialEq)]
pub enum RestartDecision {
    /// Start a new adapter after `after`; this is restart `attempt` of the series.
    Restart {
        /// 1 for the first restart after a stable period.
        attempt: u32,
        /// The backoff, jitter included.
        after: Duration,
    },
    /// The budget is spent; the session fails with this reason.
    GiveUp {
        /// For the agent: how many restarts in how long.
        reason: String,
    },
}

/// One session's crash history.
#[derive(Debug, Clone, Default)]
pub struct RestartTracker {
    /// When each restart within the window was granted.
    granted: VecDeque<Instant>,
    /// The attempt number of the current series.
    attempt: u32,
    /// The last crash.
    last_crash: Option<Instant>,
}

impl RestartTracker {
    /// A session that has not crashed.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decide about a crash at `now`. `sample` is a random number in `[0, 1)` for the
    /// jitter.
    pub fn on_crash(
        &mut self,
        policy: &RestartPolicy,
        now: Instant,
        sample: f64,
    ) -> RestartDecision {
        let stable = self
            .last_crash
            .is_none_or(|last| now.saturating_duration_since(last) >= policy.stable_after);
        if stable {
            self.attempt = 0;
        }
        self.last_crash = Some(now);
        while self
            .granted
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) >= policy.window)
        {
            self.granted.pop_front();
        }
        if self.granted.len() as u32 >= policy.max_restarts {
            return RestartDecision::GiveUp {
                reason: format!(
                    "the adapter crashed {} times within {}s (restart budget: {} in {}s)",
                    self.granted.len() + 1,
                    policy.window.as_secs(),
                    policy.max_restarts,
                    policy.window.as_secs()
                ),
            };
        }
        self.granted.push_back(now);
        self.attempt += 1;
        RestartDecision::Restart {
            attempt: self.attempt,
            after: backoff(policy, self.attempt, sample),
        }
    }
}

/// `initial * 2^(attempt-1)`, capped, scaled by `1 ± jitter`, capped again.
fn backoff(policy: &RestartPolicy, attempt: u32, sample: f64) -> Duration {
    let doublings = attempt.saturating_sub(1).min(30);
    let base = policy
        .initial_backoff
        .saturating_mul(1 << doublings)
        .min(policy.max_backoff);
    let jitter = policy.jitter.clamp(0.0, 1.0);
    let factor = 1.0 - jitter + 2.0 * jitter * sample.clamp(0.0, 1.0);
    base.mul_f64(factor).min(policy.max_backoff)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_jitter() -> RestartPolicy {
        RestartPolicy {
            jitter: 0.0,
            ..RestartPolicy::default()
        }
    }

    fn delays(decisions: &[RestartDecision]) -> Vec<u128> {
        decisions
            .iter()
            .map(|d| match d {
                RestartDecision::Restart { after, .. } => after.as_millis(),
                RestartDecision::GiveUp { .. } => 0,
            })
            .collect()
    }

    #[test]
    fn backoff_doubles_from_250ms() {
        let policy = no_jitter();
        let mut tracker = RestartTracker::new();
        let t0 = Instant::now();
        let decisions: Vec<_> = (0..5)
            .map(|i| tracker.on_crash(&policy, t0 + Duration::from_secs(i), 0.5))
            .collect();
        assert_eq!(delays(&decisions), vec![250, 500, 1000, 2000, 4000]);
        assert_eq!(
            decisions[4],
            RestartDecision::Restart {
                attempt: 5,
                after: Duration::from_secs(4)
            }
        );
    }

    #[test]
    fn the_sixth_crash_within_a_minute_gives_up() {
        let policy = no_jitter();
        let mut tracker = RestartTracker::new();
        let t0 = Instant::now();
        for i in 0..5 {
            let d = tracker.on_crash(&policy, t0 + Duration::from_secs(i), 0.5);
            assert!(matches!(d, RestartDecision::Restart { .. }), "{d:?}");
        }
        match tracker.on_crash(&policy, t0 + Duration::from_secs(10), 0.5) {
            RestartDecision::GiveUp { reason } => {
                assert!(reason.contains("6 times within 60s"), "{reason}");
            }
            other => panic!("expected to give up, got {other:?}"),
        }
    }

    #[test]
    fn crashes_spread_wider_than_the_window_never_exhaust_the_budget() {
        let policy = RestartPolicy {
            stable_after: Duration::from_secs(3600),
            ..no_jitter()
        };
        let mut tracker = RestartTracker::new();
        let t0 = Instant::now();
        for i in 0..20 {
            let d = tracker.on_crash(&policy, t0 + Duration::from_secs(13 * i), 0.5);
            assert!(
                matches!(d, RestartDecision::Restart { .. }),
                "crash {i}: {d:?}"
            );
        }
    }

    #[test]
    fn a_stable_period_forgives_the_backoff() {
        let policy = no_jitter();
        let mut tracker = RestartTracker::new();
        let t0 = Instant::now();
        tracker.on_crash(&policy, t0, 0.5);
        tracker.on_crash(&policy, t0 + Duration::from_secs(1), 0.5);
        let later = t0 + Duration::from_secs(1) + policy.stable_after;
        assert_eq!(
            tracker.on_crash(&policy, later, 0.5),
            RestartDecision::Restart {
                attempt: 1,
                after: Duration::from_millis(250)
            }
        );
    }

    #[test]
    fn backoff_is_capped_at_thirty_seconds() {
        let policy = RestartPolicy {
            max_restarts: 100,
            window: Duration::from_secs(1),
            ..no_jitter()
        };
        let mut tracker = RestartTracker::new();
        let t0 = Instant::now();
        let last = (0..12)
            .map(|i| tracker.on_crash(&policy, t0 + Duration::from_secs(i), 0.5))
            .last()
            .unwrap();
        assert_eq!(
            last,
            RestartDecision::Restart {
                attempt: 12,
                after: Duration::from_secs(30)
            }
        );
    }

    #[test]
    fn jitter_stays_within_its_band() {
        let policy = RestartPolicy::default();
        for (sample, low_ms, high_ms) in [(0.0, 200, 200), (0.5, 250, 250), (0.999, 299, 300)] {
            let d = RestartTracker::new().on_crash(&policy, Instant::now(), sample);
            let RestartDecision::Restart { after, .. } = d else {
                panic!("{d:?}")
            };
            let ms = after.as_millis();
            assert!((low_ms..=high_ms).contains(&ms), "sample {sample}: {ms}ms");
        }
    }

    #[test]
    fn a_zero_budget_never_restarts() {
        let policy = RestartPolicy {
            max_restarts: 0,
            ..RestartPolicy::default()
        };
        let d = RestartTracker::new().on_crash(&policy, Instant::now(), 0.5);
        assert!(matches!(d, RestartDecision::GiveUp { .. }), "{d:?}");
    }
}
