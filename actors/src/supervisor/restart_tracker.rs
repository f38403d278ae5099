//! When to restart a crashed adapter: a budget of restarts per window, exponential
//! backoff with jitter between attempts, and forgiveness after a stable period, as the
//! runtime's [`RestartPolicy`] says. Plain code: the supervisor passes in the time and
//! a random sample.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::config::RestartPolicy;

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

/// One session's crash history (`default()`: a session that has not crashed), as far
/// as the restart budget needs it: the restarts granted within the window, the
/// current series' attempt, and each crash's number. How many restarts a session
/// has had in all is not kept here: the session core counts the restarts it carried
/// out (its snapshot's `restarts`), which is what agents see.
#[derive(Debug, Clone, Default)]
pub struct RestartTracker {
    /// When each restart within the window was granted.
    granted: VecDeque<Instant>,
    /// The attempt number of the current series.
    attempt: u32,
    /// When the last restart came up (its handshake finished); cleared by a crash,
    /// so a restart that crashes before coming up never counts as stable.
    up_since: Option<Instant>,
    /// Crashes decided about so far: each crash's number, so that a restart timer
    /// left over from an earlier crash is told apart from the current one's.
    crashes: u64,
}

impl RestartTracker {
    /// The restarted adapter came up at `now`: the stable period counts from here
    /// (the backoff and the handshake before it do not count).
    pub fn on_restarted(&mut self, now: Instant) {
        self.up_since = Some(now);
    }

    /// The number of the last crash decided about (1 for the first; 0 before any).
    pub fn crashes(&self) -> u64 {
        self.crashes
    }

    /// Decide about a crash at `now`. `sample` is a random number in `[0, 1)` for the
    /// jitter.
    pub fn on_crash(
        &mut self,
        policy: &RestartPolicy,
        now: Instant,
        sample: f64,
    ) -> RestartDecision {
        self.crashes += 1;
        let stable = self
            .up_since
            .take()
            .is_some_and(|up| now.saturating_duration_since(up) >= policy.stable_after);
        if stable {
            // A new series: the earlier restarts are forgiven, not just the backoff.
            self.attempt = 0;
            self.granted.clear();
        }
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
///
/// Never panics, whatever the policy (this runs in the supervisor's handler): a
/// jitter or sample that is not a number counts as 0 (no jitter), other values are
/// clamped into 0..=1, and a product too large for a `Duration` is the cap.
fn backoff(policy: &RestartPolicy, attempt: u32, sample: f64) -> Duration {
    let doublings = attempt.saturating_sub(1).min(30);
    let base = policy
        .initial_backoff
        .saturating_mul(1 << doublings)
        .min(policy.max_backoff);
    let unit = |x: f64| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    let jitter = unit(policy.jitter);
    let factor = 1.0 - jitter + 2.0 * jitter * unit(sample);
    Duration::try_from_secs_f64(base.as_secs_f64() * factor)
        .unwrap_or(policy.max_backoff)
        .min(policy.max_backoff)
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
        let mut tracker = RestartTracker::default();
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
        let mut tracker = RestartTracker::default();
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
        let mut tracker = RestartTracker::default();
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
        let mut tracker = RestartTracker::default();
        let t0 = Instant::now();
        tracker.on_crash(&policy, t0, 0.5);
        tracker.on_crash(&policy, t0 + Duration::from_secs(1), 0.5);
        let up = t0 + Duration::from_secs(2);
        tracker.on_restarted(up);
        assert_eq!(
            tracker.on_crash(&policy, up + policy.stable_after, 0.5),
            RestartDecision::Restart {
                attempt: 1,
                after: Duration::from_millis(250)
            }
        );
    }

    #[test]
    fn a_stable_period_forgives_the_earlier_restarts_too() {
        // stable_after well inside the window: only the stable run forgives.
        let policy = RestartPolicy {
            max_restarts: 2,
            window: Duration::from_secs(60),
            stable_after: Duration::from_secs(10),
            ..no_jitter()
        };
        let t0 = Instant::now();
        let two_restarts = |tracker: &mut RestartTracker| {
            for i in 0..2 {
                let at = t0 + Duration::from_secs(i);
                let d = tracker.on_crash(&policy, at, 0.5);
                assert!(matches!(d, RestartDecision::Restart { .. }), "{d:?}");
                tracker.on_restarted(at + Duration::from_millis(500));
            }
        };
        // Up for 10s since the last restart came up: a new series, budget whole.
        let mut tracker = RestartTracker::default();
        two_restarts(&mut tracker);
        let up = t0 + Duration::from_millis(1500);
        let d = tracker.on_crash(&policy, up + Duration::from_secs(10), 0.5);
        assert_eq!(
            d,
            RestartDecision::Restart {
                attempt: 1,
                after: Duration::from_millis(250)
            }
        );
        // Up for 9s only: still the first series, so its budget of 2 is spent.
        let mut tracker = RestartTracker::default();
        two_restarts(&mut tracker);
        let d = tracker.on_crash(&policy, up + Duration::from_secs(9), 0.5);
        assert!(matches!(d, RestartDecision::GiveUp { .. }), "{d:?}");
    }

    #[test]
    fn time_since_the_last_crash_is_not_a_stable_run() {
        // Backoff and a restart that never came up do not count as running.
        let policy = RestartPolicy {
            stable_after: Duration::from_secs(10),
            ..no_jitter()
        };
        let mut tracker = RestartTracker::default();
        let t0 = Instant::now();
        tracker.on_crash(&policy, t0, 0.5);
        let d = tracker.on_crash(&policy, t0 + Duration::from_secs(30), 0.5);
        assert!(
            matches!(d, RestartDecision::Restart { attempt: 2, .. }),
            "{d:?}"
        );
        assert_eq!(tracker.crashes(), 2);
    }

    #[test]
    fn backoff_is_capped_at_thirty_seconds() {
        let policy = RestartPolicy {
            max_restarts: 100,
            window: Duration::from_secs(1),
            ..no_jitter()
        };
        let mut tracker = RestartTracker::default();
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
            let d = RestartTracker::default().on_crash(&policy, Instant::now(), sample);
            let RestartDecision::Restart { after, .. } = d else {
                panic!("{d:?}")
            };
            let ms = after.as_millis();
            assert!((low_ms..=high_ms).contains(&ms), "sample {sample}: {ms}ms");
        }
    }

    #[test]
    fn backoff_never_panics_on_a_policy_that_skipped_validation() {
        let nan = RestartPolicy {
            jitter: f64::NAN,
            ..RestartPolicy::default()
        };
        let d = RestartTracker::default().on_crash(&nan, Instant::now(), f64::NAN);
        assert_eq!(
            d,
            RestartDecision::Restart {
                attempt: 1,
                after: Duration::from_millis(250)
            }
        );
        let unbounded = RestartPolicy {
            initial_backoff: Duration::MAX,
            max_backoff: Duration::MAX,
            jitter: 1.0,
            ..RestartPolicy::default()
        };
        let d = RestartTracker::default().on_crash(&unbounded, Instant::now(), 0.999);
        assert_eq!(
            d,
            RestartDecision::Restart {
                attempt: 1,
                after: Duration::MAX
            }
        );
    }

    #[test]
    fn a_zero_budget_never_restarts() {
        let policy = RestartPolicy {
            max_restarts: 0,
            ..RestartPolicy::default()
        };
        let d = RestartTracker::default().on_crash(&policy, Instant::now(), 0.5);
        assert!(matches!(d, RestartDecision::GiveUp { .. }), "{d:?}");
    }
}
