//! The limits of a [`RuntimeConfig`] reach the layers that enforce them.

use super::*;

#[test]
fn transport_limits_reach_the_transport() {
    let config = RuntimeConfig::default()
        .max_frame_bytes(1000)
        .max_header_bytes(100)
        .stderr_tail_bytes(10)
        .connect_timeout(Duration::from_secs(1))
        .shutdown_grace(Duration::from_secs(2))
        .exit_wait(Duration::from_secs(3))
        .output_drain_wait(Duration::from_secs(4))
        .unmatched_responses_kept(5)
        .transport();
    assert_eq!(config.max_frame_bytes, 1000);
    assert_eq!(config.frame_limits().codec().max_header_length(), 100);
    assert_eq!(config.frame_limits().codec().max_content_length(), 1000);
    assert_eq!(config.stderr_tail_bytes, 10);
    assert_eq!(config.connect_timeout, Duration::from_secs(1));
    assert_eq!(config.shutdown_grace, Duration::from_secs(2));
    assert_eq!(config.exit_wait, Duration::from_secs(3));
    assert_eq!(config.output_drain_wait, Duration::from_secs(4));
    assert_eq!(config.unmatched_responses_kept, 5);
}

#[test]
fn ending_limits_reach_the_core_clamped() {
    let core = RuntimeConfig::default()
        .terminate_grace(Duration::from_secs(12))
        .disconnect_timeout(Duration::from_secs(1))
        .core();
    assert_eq!(core.terminate_grace, Duration::from_secs(12));
    assert_eq!(core.disconnect_timeout, limits::MIN_REQUEST_TIMEOUT);
    let defaults = RuntimeConfig::default().core();
    assert_eq!(defaults.terminate_grace, limits::DEFAULT_TERMINATE_GRACE);
    assert_eq!(
        defaults.disconnect_timeout,
        limits::DEFAULT_DISCONNECT_TIMEOUT
    );
}

#[test]
fn the_defaults_are_the_named_limits() {
    let config = RuntimeConfig::default().transport();
    assert_eq!(config.max_header_bytes, limits::DEFAULT_MAX_HEADER_LENGTH);
    assert_eq!(config.exit_wait, limits::DEFAULT_EXIT_WAIT);
    assert_eq!(config.output_drain_wait, limits::DEFAULT_OUTPUT_DRAIN_WAIT);
    assert_eq!(
        config.unmatched_responses_kept,
        limits::DEFAULT_UNMATCHED_RESPONSES_KEPT
    );
}

/// Issue 27, item 13: each adapter family has its own handshake deadline, unless the
/// runtime names one for all.
#[test]
fn the_launch_deadline_is_the_familys_unless_the_runtime_names_one() {
    use crate::registry::AdapterFlavor;
    let config = RuntimeConfig::default();
    assert_eq!(
        config.launch_timeout_for(AdapterFlavor::Delve),
        limits::DLV_LAUNCH_TIMEOUT
    );
    assert_eq!(
        config.launch_timeout_for(AdapterFlavor::Debugpy),
        limits::DEFAULT_LAUNCH_TIMEOUT
    );
    let config = config.launch_timeout(Duration::from_secs(50));
    assert_eq!(
        config.launch_timeout_for(AdapterFlavor::Delve),
        Duration::from_secs(50)
    );
    assert_eq!(config.core().launch_timeout, Some(Duration::from_secs(50)));
}
