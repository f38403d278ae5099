//! Start-up faults of the hostile adapter (`tests/support/hostile_adapter.py`): an exit
//! before `initialize`, garbage, an oversized frame, no answer, an answer that is not
//! JSON. The launch fails with an error that names what happened, within a bound,
//! leaves no session and restarts nothing, while a healthy launch started at the same
//! moment succeeds.

mod common;
mod hostile_support;

use std::time::{Duration, Instant};

use dapvisor::{Runtime, RuntimeConfig, SessionError};
use hostile_support::*;

/// A hostile launch that must fail while a healthy one, started at the same moment,
/// succeeds. Checks the error is `StartFailed`; returns its text and how long it took.
/// Each test's text names the cause (an exit, a codec error, a deadline), so a failure
/// at once is told from one at the deadline by what it says, not by a clock.
async fn failed_launch_beside_a_healthy_one(runtime: &Runtime) -> (String, Duration) {
    let started = Instant::now();
    let hostile = async {
        let result = bounded("hostile launch", runtime.launch(spec("hostile"))).await;
        (result, started.elapsed())
    };
    let (healthy, (hostile, took)) = tokio::join!(launch_stopped(runtime, "healthy"), hostile);
    let err = hostile.expect_err("the hostile launch must fail");
    assert!(matches!(err, SessionError::StartFailed { .. }), "{err:?}");
    assert_eq!(
        runtime.sessions().len(),
        1,
        "a failed launch leaves no session"
    );
    carries_on(&healthy).await;
    (err.to_string(), took)
}

/// The shortest deadlines, for requests and for the launch handshake (its own).
fn short_deadlines() -> RuntimeConfig {
    RuntimeConfig::default()
        .request_timeout(SHORT)
        .launch_timeout(SHORT)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exit_before_initialize_fails_the_launch_with_exit_code_and_stderr() {
    let runtime = runtime(&["exit-at-start"]).await;
    let (text, _) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(text.contains("exit code 3"), "{text}");
    assert!(text.contains("refusing to start, as asked"), "{text}");
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_at_start_fails_the_launch_with_the_codec_error() {
    let runtime = runtime(&["garbage-on=start"]).await;
    let (text, _) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(
        text.contains("no end of DAP header found within 8192 bytes"),
        "{text}"
    );
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_frame_fails_the_launch_with_the_codec_error() {
    let runtime = runtime(&["oversized-on=initialize"]).await;
    let (text, _) = failed_launch_beside_a_healthy_one(&runtime).await;
    let limit = "Content-Length 16777217, above the limit of 16777216 bytes";
    assert!(text.contains(limit), "{text}");
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_to_initialize_fails_the_launch_at_the_deadline() {
    let runtime = runtime_with(short_deadlines(), &["hang-on=initialize"]).await;
    let (text, took) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(text.contains("within 5s"), "{text}");
    // At the deadline, not before it.
    assert!(took >= SHORT, "took {took:?}");
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_json_for_initialize_fails_the_launch_at_once_quoting_it() {
    // Not JSON at all: nothing after it can be trusted, so the adapter is ended.
    let runtime = runtime_with(short_deadlines(), &["invalid-json-on=initialize"]).await;
    let (text, _) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(
        text.contains("not JSON") && text.contains("this is not JSON"),
        "{text}"
    );
    shut_down(runtime).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_startup_timeout_names_the_request_left_unanswered() {
    let runtime = runtime_with(short_deadlines(), &["hang-on=initialize"]).await;
    let (text, _) = failed_launch_beside_a_healthy_one(&runtime).await;
    assert!(text.contains("`initialize`"), "{text}");
    shut_down(runtime).await;
}
