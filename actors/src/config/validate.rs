//! [`RuntimeConfig::validate`]: every limit in its range, checked once, when a runtime
//! starts. A setter clamps a deadline into its range, but a count of 0 (that refuses
//! every request, or a reader that can never read) has no sensible clamp: it is
//! refused here before it hangs or refuses everything at the first session. The
//! deadlines are checked too, so the crate's own code cannot bypass a clamp either.

use std::time::Duration;

use crate::config::RuntimeConfig;
use crate::error::{ConfigError, ConfigRule};
use crate::limits;

impl RuntimeConfig {
    /// Check every limit is in its range: [`crate::Runtime::start`] refuses a
    /// configuration that is not, with a [`ConfigError`] naming the field, its value,
    /// the rule it broke and what the value would have done.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.restart_policy.validate()?;
        at_least(
            "max_sessions",
            self.max_sessions,
            1,
            "no session could be started",
            limits::DEFAULT_MAX_SESSIONS,
        )?;
        at_least(
            "max_queued_requests",
            self.max_queued_requests,
            1,
            "every request would be refused as busy",
            limits::DEFAULT_MAX_QUEUED_REQUESTS,
        )?;
        at_least(
            "max_unhandled_events",
            self.max_unhandled_events,
            1,
            "nothing the adapter sends would ever be read, and every start would hang",
            limits::DEFAULT_MAX_UNHANDLED_EVENTS,
        )?;
        at_least(
            "max_unhandled_output",
            self.max_unhandled_output,
            1,
            "forwarded debuggee output would never be read, and the program would block \
             on it",
            limits::DEFAULT_MAX_UNHANDLED_OUTPUT,
        )?;
        at_least(
            "max_unwritten_messages",
            self.max_unwritten_messages,
            1,
            "no request could ever be sent",
            limits::DEFAULT_MAX_UNWRITTEN_MESSAGES,
        )?;
        at_least(
            "subscriber_max_waiting",
            self.subscriber_max_waiting,
            1,
            "every subscriber would be cut off at its first event",
            limits::DEFAULT_SUBSCRIBER_MAX_WAITING,
        )?;
        at_least(
            "max_child_sessions",
            self.max_child_sessions,
            1,
            "js-debug, whose program runs in a session it asks for, could never start one",
            limits::DEFAULT_MAX_CHILD_SESSIONS,
        )?;
        at_least(
            "max_breakpoints",
            self.max_breakpoints,
            1,
            "every breakpoint would be refused",
            limits::DEFAULT_MAX_BREAKPOINTS,
        )?;
        at_least(
            "max_trace_rows",
            self.max_trace_rows,
            1,
            "every tracepoint row would be dropped",
            limits::DEFAULT_MAX_TRACE_ROWS,
        )?;
        at_least(
            "max_calls_per_second",
            self.max_calls_per_second as usize,
            1,
            "every call of a call trace would go unrecorded",
            limits::DEFAULT_MAX_CALLS_PER_SECOND as usize,
        )?;
        at_least(
            "max_frame_bytes",
            self.max_frame_bytes,
            limits::MIN_MAX_CONTENT_LENGTH,
            "an adapter's first answers may not fit, failing every start",
            limits::DEFAULT_MAX_CONTENT_LENGTH,
        )?;
        at_least(
            "max_header_bytes",
            self.max_header_bytes,
            limits::MIN_MAX_HEADER_LENGTH,
            "no frame header would fit",
            limits::DEFAULT_MAX_HEADER_LENGTH,
        )?;
        at_least(
            "stderr_tail_bytes",
            self.stderr_tail_bytes,
            limits::MIN_STDERR_TAIL_BYTES,
            "the port an adapter such as js-debug names in its banner would never be found",
            limits::DEFAULT_STDERR_TAIL_BYTES,
        )?;
        not_zero(
            "connect_timeout",
            Some(self.connect_timeout),
            "no adapter reached over TCP could ever connect",
            limits::DEFAULT_CONNECT_TIMEOUT,
        )?;
        not_zero(
            "idle_limit",
            self.idle_limit,
            "every session would be reaped at once (None keeps idle sessions)",
            limits::DEFAULT_IDLE_LIMIT,
        )?;
        // The deadlines their setters clamp: set through the fields, a value out of
        // the setter's range is refused rather than used.
        let request_range = (limits::MIN_REQUEST_TIMEOUT, limits::MAX_REQUEST_TIMEOUT);
        within("request_timeout", self.request_timeout, request_range)?;
        within("terminate_grace", self.terminate_grace, request_range)?;
        within("disconnect_timeout", self.disconnect_timeout, request_range)?;
        let launch_range = (limits::MIN_REQUEST_TIMEOUT, limits::MAX_LAUNCH_TIMEOUT);
        if let Some(launch_timeout) = self.launch_timeout {
            within("launch_timeout", launch_timeout, launch_range)?;
        }
        Ok(())
    }
}

/// `value` within `min..=max`, as the field's setter would have clamped it.
fn within(
    field: &'static str,
    value: Duration,
    (min, max): (Duration, Duration),
) -> Result<(), ConfigError> {
    if (min..=max).contains(&value) {
        return Ok(());
    }
    Err(
        ConfigError::new(field, format!("{value:?}"), ConfigRule::Within { min, max }).because(
            format!("its setter, RuntimeConfig::{field}(..), clamps a value into that range"),
        ),
    )
}

fn at_least(
    field: &'static str,
    value: usize,
    min: usize,
    otherwise: &str,
    default: usize,
) -> Result<(), ConfigError> {
    if value >= min {
        return Ok(());
    }
    Err(ConfigError::new(field, value, ConfigRule::AtLeast { min })
        .because(format!("with {value}, {otherwise}"))
        .with_default(default))
}

fn not_zero(
    field: &'static str,
    value: Option<Duration>,
    otherwise: &str,
    default: Duration,
) -> Result<(), ConfigError> {
    match value {
        Some(value) if value.is_zero() => Err(ConfigError::new(field, "0s", ConfigRule::NotZero)
            .because(format!("with 0, {otherwise}"))
            .with_default(format!("{}s", default.as_secs_f64()))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(config: RuntimeConfig) -> ConfigError {
        match config.validate() {
            Err(err) => err,
            Ok(()) => panic!("want a refusal, got none"),
        }
    }

    const AT_LEAST_1: ConfigRule = ConfigRule::AtLeast { min: 1 };

    #[test]
    fn the_defaults_are_valid() {
        RuntimeConfig::default().validate().unwrap();
    }

    #[test]
    fn each_value_that_would_hang_or_refuse_everything_is_refused_naming_its_field() {
        let cases: Vec<(&str, ConfigRule, &str, RuntimeConfig)> = vec![
            (
                "max_sessions",
                AT_LEAST_1,
                "at least 1",
                RuntimeConfig {
                    max_sessions: 0,
                    ..Default::default()
                },
            ),
            (
                "max_queued_requests",
                AT_LEAST_1,
                "at least 1",
                RuntimeConfig {
                    max_queued_requests: 0,
                    ..Default::default()
                },
            ),
            (
                "max_unhandled_events",
                AT_LEAST_1,
                "at least 1",
                RuntimeConfig {
                    max_unhandled_events: 0,
                    ..Default::default()
                },
            ),
            (
                "max_unhandled_output",
                AT_LEAST_1,
                "at least 1",
                RuntimeConfig {
                    max_unhandled_output: 0,
                    ..Default::default()
                },
            ),
            (
                "max_unwritten_messages",
                AT_LEAST_1,
                "at least 1",
                RuntimeConfig {
                    max_unwritten_messages: 0,
                    ..Default::default()
                },
            ),
            (
                "subscriber_max_waiting",
                AT_LEAST_1,
                "at least 1",
                RuntimeConfig {
                    subscriber_max_waiting: 0,
                    ..Default::default()
                },
            ),
            (
                "max_breakpoints",
                AT_LEAST_1,
                "at least 1",
                RuntimeConfig {
                    max_breakpoints: 0,
                    ..Default::default()
                },
            ),
            (
                "max_child_sessions",
                AT_LEAST_1,
                "at least 1",
                RuntimeConfig {
                    max_child_sessions: 0,
                    ..Default::default()
                },
            ),
            (
                "max_frame_bytes",
                ConfigRule::AtLeast {
                    min: limits::MIN_MAX_CONTENT_LENGTH,
                },
                "at least 4096",
                RuntimeConfig {
                    max_frame_bytes: 100,
                    ..Default::default()
                },
            ),
            (
                "max_header_bytes",
                ConfigRule::AtLeast {
                    min: limits::MIN_MAX_HEADER_LENGTH,
                },
                "at least 64",
                RuntimeConfig {
                    max_header_bytes: 10,
                    ..Default::default()
                },
            ),
            (
                "stderr_tail_bytes",
                ConfigRule::AtLeast {
                    min: limits::MIN_STDERR_TAIL_BYTES,
                },
                "at least 256",
                RuntimeConfig {
                    stderr_tail_bytes: 0,
                    ..Default::default()
                },
            ),
            (
                "connect_timeout",
                ConfigRule::NotZero,
                "longer than 0",
                RuntimeConfig {
                    connect_timeout: Duration::ZERO,
                    ..Default::default()
                },
            ),
            (
                "idle_limit",
                ConfigRule::NotZero,
                "longer than 0",
                RuntimeConfig {
                    idle_limit: Some(Duration::ZERO),
                    ..Default::default()
                },
            ),
        ];
        for (field, rule, range, config) in cases {
            let err = refused(config);
            assert_eq!((err.field(), err.rule()), (field, rule), "{err}");
            assert!(err.default_value().is_some(), "{err:?}");
            let text = err.to_string();
            assert!(
                text.contains(&format!("RuntimeConfig::{field} is ")) && text.contains(range),
                "{field}: {text}"
            );
            assert!(text.contains("the default is"), "{text}");
        }
        let busy = refused(RuntimeConfig {
            max_queued_requests: 0,
            ..Default::default()
        });
        assert_eq!(busy.value(), "0");
        assert_eq!(
            busy.to_string(),
            format!(
                "RuntimeConfig::max_queued_requests is 0; it must be at least 1 (with 0, every \
                 request would be refused as busy); the default is {}",
                limits::DEFAULT_MAX_QUEUED_REQUESTS
            )
        );
    }

    #[test]
    fn a_deadline_outside_its_setters_range_is_refused() {
        let err = refused(RuntimeConfig {
            request_timeout: Duration::from_millis(1),
            ..Default::default()
        });
        assert_eq!(
            (err.field(), err.value(), err.rule()),
            (
                "request_timeout",
                "1ms",
                ConfigRule::Within {
                    min: limits::MIN_REQUEST_TIMEOUT,
                    max: limits::MAX_REQUEST_TIMEOUT
                }
            )
        );
        assert_eq!(
            err.to_string(),
            "RuntimeConfig::request_timeout is 1ms; it must be within 5..=300 s (its setter, \
             RuntimeConfig::request_timeout(..), clamps a value into that range)"
        );
        let err = refused(RuntimeConfig {
            launch_timeout: Some(Duration::from_secs(3 * 60 * 60)),
            ..Default::default()
        });
        assert_eq!(err.field(), "launch_timeout");
        assert!(
            matches!(err.rule(), ConfigRule::Within { max, .. } if max == limits::MAX_LAUNCH_TIMEOUT)
        );
        let text = err.to_string();
        assert!(text.contains("RuntimeConfig::launch_timeout"), "{text}");
        assert!(text.contains("5..=1800 s"), "{text}");
    }

    #[test]
    fn a_restart_policy_refusal_names_its_field_under_restart_policy() {
        let err = refused(
            RuntimeConfig::default().restart_policy(crate::config::RestartPolicy {
                jitter: 2.0,
                ..Default::default()
            }),
        );
        assert_eq!((err.field(), err.value()), ("restart_policy.jitter", "2"));
        assert!(
            err.to_string().starts_with(
                "RuntimeConfig::restart_policy.jitter is 2; it must be a number from 0 to 1"
            ),
            "{err}"
        );
    }

    #[test]
    fn the_smallest_valid_values_pass() {
        let config = RuntimeConfig {
            max_sessions: 1,
            max_queued_requests: 1,
            max_unhandled_events: 1,
            max_unhandled_output: 1,
            max_unwritten_messages: 1,
            subscriber_max_waiting: 1,
            max_breakpoints: 1,
            max_child_sessions: 1,
            max_malformed_frames: 0,
            max_terminal_processes: 0,
            max_frame_bytes: limits::MIN_MAX_CONTENT_LENGTH,
            max_header_bytes: limits::MIN_MAX_HEADER_LENGTH,
            stderr_tail_bytes: limits::MIN_STDERR_TAIL_BYTES,
            connect_timeout: Duration::from_millis(1),
            idle_limit: None,
            ..Default::default()
        };
        config.validate().unwrap();
    }
}
