//! How a runtime restarts crashed adapters: the budget, the backoff and the stable
//! period a host configures. The supervisor applies it (`supervisor/restart_tracker.rs`).

use std::time::Duration;

use crate::error::{ConfigError, ConfigRule};
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
    /// An adapter that ran this long after its last restart came up has proved
    /// stable: its next crash starts a new series, with the backoff back at
    /// [`Self::initial_backoff`] and the restarts before it forgiven (they no longer
    /// count against [`Self::max_restarts`]). Default [`limits::DEFAULT_RESTART_STABLE`].
    pub stable_after: Duration,
    /// The delay is scaled by a random factor in `1 ± jitter` (default
    /// [`limits::DEFAULT_RESTART_JITTER`]), so that sessions that crashed together do
    /// not restart in lockstep. A number from 0 to 1 (see [`Self::validate`]).
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
            jitter: limits::DEFAULT_RESTART_JITTER,
        }
    }
}

impl RestartPolicy {
    /// Check the policy, saying what is wrong and how to fix it:
    ///
    /// - `jitter` is a number from 0 to 1 (not NaN, not infinite);
    /// - `initial_backoff` is no longer than `max_backoff`;
    /// - `window` is longer than zero when restarts are allowed (a zero window would
    ///   forget every restart at once, so the budget would never be spent).
    ///
    /// [`crate::Runtime::start`] refuses a runtime whose policy fails this.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(0.0..=1.0).contains(&self.jitter) {
            return Err(ConfigError::new(
                "restart_policy.jitter",
                self.jitter,
                ConfigRule::Between { min: 0.0, max: 1.0 },
            )
            .because("the backoff is scaled by 1 ± jitter")
            .with_default(limits::DEFAULT_RESTART_JITTER));
        }
        if self.initial_backoff > self.max_backoff {
            return Err(ConfigError::new(
                "restart_policy.initial_backoff",
                format!("{:?}", self.initial_backoff),
                ConfigRule::NoLongerThan {
                    other: "restart_policy.max_backoff",
                    max: self.max_backoff,
                },
            )
            .because("make max_backoff at least as long"));
        }
        if self.max_restarts > 0 && self.window.is_zero() {
            return Err(ConfigError::new(
                "restart_policy.window",
                "0s",
                ConfigRule::NotZeroWhile {
                    other: "restart_policy.max_restarts",
                },
            )
            .because(format!(
                "with 0, the budget of {} restarts would never be spent; set max_restarts \
                 to 0 to turn restarting off",
                self.max_restarts
            ))
            .with_default(format!("{}s", limits::DEFAULT_RESTART_WINDOW.as_secs())));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_refuses_a_jitter_outside_0_to_1_saying_why() {
        for jitter in [f64::NAN, f64::INFINITY, -0.1, 1.5] {
            let policy = RestartPolicy {
                jitter,
                ..RestartPolicy::default()
            };
            let err = policy.validate().unwrap_err();
            assert_eq!(err.field(), "restart_policy.jitter");
            assert_eq!(err.rule(), ConfigRule::Between { min: 0.0, max: 1.0 });
            let text = err.to_string();
            assert!(
                text.contains(&format!("jitter is {jitter}"))
                    && text.contains("a number from 0 to 1"),
                "{text}"
            );
        }
        for jitter in [0.0, 0.5, 1.0] {
            let policy = RestartPolicy {
                jitter,
                ..RestartPolicy::default()
            };
            assert!(policy.validate().is_ok(), "{jitter}");
        }
        assert!(RestartPolicy::default().validate().is_ok());
    }

    #[test]
    fn validate_refuses_a_backoff_above_its_cap_and_a_zero_window() {
        let inverted = RestartPolicy {
            initial_backoff: Duration::from_secs(60),
            ..RestartPolicy::default()
        };
        let err = inverted.validate().unwrap_err();
        let field = (err.field(), err.value());
        assert_eq!(field, ("restart_policy.initial_backoff", "60s"));
        let max = Duration::from_secs(30);
        assert!(matches!(err.rule(), ConfigRule::NoLongerThan { max: m, .. } if m == max));
        let text = err.to_string();
        assert!(
            text.contains("no longer than restart_policy.max_backoff (30s)"),
            "{text}"
        );
        let no_window = RestartPolicy {
            window: Duration::ZERO,
            ..RestartPolicy::default()
        };
        let err = no_window.validate().unwrap_err();
        assert_eq!(err.field(), "restart_policy.window");
        let other = "restart_policy.max_restarts";
        assert_eq!(err.rule(), ConfigRule::NotZeroWhile { other });
        let text = err.to_string();
        assert!(
            text.contains("window is 0s") && text.contains("max_restarts to 0"),
            "{text}"
        );
        let off = RestartPolicy {
            max_restarts: 0,
            window: Duration::ZERO,
            ..RestartPolicy::default()
        };
        assert!(
            off.validate().is_ok(),
            "restarting turned off needs no window"
        );
    }
}
