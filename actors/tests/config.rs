//! A runtime refuses, at start, a configuration holding a value that would hang it or
//! refuse everything, naming the field and its range; it used to accept them and hang
//! at the first session (`max_unhandled_events: 0`: the reader waits for a place that
//! never comes) or refuse every request (`max_queued_requests: 0`). A deadline out of
//! range cannot get in at all: its setter clamps it, and the fields are private.

use dapvisor_actors::{ConfigError, ConfigRule, Runtime, RuntimeConfig, SessionError};

/// The refusal, and its text as an agent reads it.
async fn refused(config: RuntimeConfig) -> (ConfigError, String) {
    match Runtime::start(config).await {
        Err(err @ SessionError::Config(_)) => {
            let text = err.to_string();
            let SessionError::Config(config) = err else {
                unreachable!()
            };
            (config, text)
        }
        Err(other) => panic!("want a refusal naming the field, got {other:?}"),
        Ok(_) => panic!("the runtime started with a configuration that cannot work"),
    }
}

async fn refusal(config: RuntimeConfig) -> String {
    refused(config).await.1
}

#[tokio::test]
async fn a_deadline_outside_its_setters_range_is_clamped_and_starts() {
    let clamped = RuntimeConfig::default()
        .request_timeout(std::time::Duration::from_millis(1))
        .terminate_grace(std::time::Duration::ZERO)
        .launch_timeout(std::time::Duration::from_secs(3 * 60 * 60));
    assert!(clamped.validate().is_ok());
    let runtime = Runtime::start(clamped).await.unwrap();
    runtime.shutdown().await;
}

#[tokio::test]
async fn a_config_that_would_hang_or_refuse_everything_is_refused_at_start() {
    let (err, text) = refused(RuntimeConfig::default().max_unhandled_events(0)).await;
    assert_eq!(
        (err.field(), err.rule()),
        ("max_unhandled_events", ConfigRule::AtLeast { min: 1 })
    );
    assert!(
        text.contains("RuntimeConfig::max_unhandled_events is 0"),
        "{text}"
    );
    assert!(text.contains("at least 1"), "{text}");

    let text = refusal(RuntimeConfig::default().subscriber_max_waiting(0)).await;
    assert!(
        text.contains("RuntimeConfig::subscriber_max_waiting is 0"),
        "{text}"
    );

    let text = refusal(RuntimeConfig::default().max_queued_requests(0)).await;
    assert!(
        text.contains("RuntimeConfig::max_queued_requests is 0")
            && text.contains("every request would be refused as busy"),
        "{text}"
    );

    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    runtime.shutdown().await;
}
