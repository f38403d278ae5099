//! Exceptions on a real lldb-dap 22, on a C++ throw (tests/protocol_support/throws.cpp):
//! the `cpp_throw` filter stops at it and exceptionInfo tells it; a filter's condition
//! (filterOptions) decides whether it stops; exception options, which lldb-dap does not
//! take, are refused.

mod common;
mod protocol_support;

use common::*;
use dapvisor::wire::types::{
    ExceptionBreakMode, ExceptionFilterOptions, ExceptionOptions, SetExceptionBreakpointsArguments,
};
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig};
use protocol_support::*;

/// tests/protocol_support/throws.cpp built with `-g -O0`, once per test binary.
fn throws_binary() -> std::path::PathBuf {
    static BUILT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let dir = root().join("target/test-programs");
            std::fs::create_dir_all(&dir).unwrap();
            let out = dir.join(format!("throws-{}", std::process::id()));
            let status = std::process::Command::new("c++")
                .args(["-g", "-O0", "-o"])
                .arg(&out)
                .arg(throws_source())
                .status()
                .expect("c++ must be installed (scripts/provision installs it)");
            assert!(status.success(), "building throws.cpp failed");
            out
        })
        .clone()
}

fn throws_source() -> std::path::PathBuf {
    root().join("tests/protocol_support/throws.cpp")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_info_tells_a_cpp_throw_filter_options_decide_and_exception_options_are_refused()
{
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let mut spec = LaunchSpec::new(throws_binary());
    spec.exception_filters = vec!["cpp_throw".into()];
    let session = runtime.launch(spec).await.unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(
        (stop.reason.as_str(), stop.description.as_deref()),
        ("exception", Some("C++ Throw"))
    );
    // Stopped in the runtime's throw, called from the throwing line.
    let frames = session.stack_trace(None, Some(2)).await.unwrap();
    assert_eq!(frames[0].name, "__cxa_throw");
    assert!(frames[1].name.contains("parse_quantity"), "{:?}", frames[1]);
    assert_eq!(
        frames[1].line,
        line_of(throws_source(), "throw std::invalid_argument")
    );
    let info = session.exception_info(None).await.unwrap();
    assert_eq!(
        (info.exception_id.as_str(), info.description.as_deref()),
        ("cpp_throw", Some("C++ Throw"))
    );
    assert_eq!(info.break_mode, ExceptionBreakMode::Always);
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(0));
    let out = session.output(0, 1 << 20).await.unwrap().text();
    assert!(out.contains("skipped: negative quantity"), "{out:?}");

    // lldb-dap 22 does not advertise exceptionOptions (19 did, and ignored them): they
    // are refused before anything is sent. It advertises filter options instead, whose
    // condition decides whether a throw stops.
    let line = line_of(throws_source(), "total += parse_quantity(raw);");
    let session = runtime
        .launch(LaunchSpec::new(throws_binary()).breakpoint(throws_source(), line))
        .await
        .unwrap();
    expect_stop(&session, RunTicket { epoch: 0 }).await;
    let always = SetExceptionBreakpointsArguments {
        filters: vec![],
        filter_options: None,
        exception_options: Some(vec![ExceptionOptions {
            path: None,
            break_mode: ExceptionBreakMode::Always,
        }]),
    };
    assert_unsupported(
        session.set_exception_breakpoints_with(always).await,
        "supportsExceptionOptions",
    );
    let throw_if = |condition: &str| SetExceptionBreakpointsArguments {
        filters: vec![],
        filter_options: Some(vec![ExceptionFilterOptions {
            filter_id: "cpp_throw".into(),
            condition: Some(condition.into()),
            mode: None,
        }]),
        exception_options: None,
    };
    // A false condition: the throw (for the third quantity) goes by, and the next stop
    // is the breakpoint's for the fourth.
    let set = session
        .set_exception_breakpoints_with(throw_if("1 == 0"))
        .await
        .unwrap();
    assert!(set.len() == 1 && set[0].verified, "{set:?}");
    for raw in ["5", "-2", "4"] {
        let ticket = session.continue_(None).await.unwrap();
        let stop = expect_stop(&session, ticket).await;
        assert_eq!(stop.reason, "breakpoint", "{stop:?}");
        assert_eq!(local(&session, "raw").await, raw);
    }
    // A true one, and the program run again from the start without the breakpoint:
    // the throw stops it, as the plain filter did.
    session
        .set_exception_breakpoints_with(throw_if("1 == 1"))
        .await
        .unwrap();
    session
        .set_breakpoints(throws_source(), vec![])
        .await
        .unwrap();
    let ticket = session.restart().await.unwrap();
    let stop = expect_stop(&session, ticket).await;
    assert_eq!(
        (stop.reason.as_str(), stop.description.as_deref()),
        ("exception", Some("C++ Throw"))
    );
    let frames = session.stack_trace(None, Some(2)).await.unwrap();
    assert_eq!(frames[0].name, "__cxa_throw");
    assert!(frames[1].name.contains("parse_quantity"), "{:?}", frames[1]);
    let ticket = session.continue_(None).await.unwrap();
    assert_eq!(expect_exit(&session, ticket).await, Some(0));
    runtime.shutdown().await;
}
