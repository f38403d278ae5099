//! Helpers of the debugpy protocol tests (`protocol_debugpy*.rs`): its programs, a
//! session stopped at a line, exception options that always break.

use std::path::{Path, PathBuf};

use dapvisor::wire::types::{
    ExceptionBreakMode, ExceptionOptions, ExceptionPathSegment, SetExceptionBreakpointsArguments,
};
use dapvisor::{LaunchSpec, RunTicket, Runtime, RuntimeConfig, SessionHandle};

use crate::common::*;

pub fn scores() -> PathBuf {
    program("python/scores.py")
}

pub fn discount() -> PathBuf {
    program("python/discount.py")
}

/// `file` under debugpy, stopped at the first hit of the line holding `needle`.
pub async fn stopped_at(file: &Path, needle: &str) -> (Runtime, SessionHandle) {
    let runtime = Runtime::start(RuntimeConfig::default()).await.unwrap();
    let line = line_of(file, needle);
    let session = runtime
        .launch(LaunchSpec::new(file).breakpoint(file, line))
        .await
        .unwrap();
    let stop = expect_stop(&session, RunTicket { epoch: 0 }).await;
    assert_eq!(stop.reason, "breakpoint");
    (runtime, session)
}

/// Break whenever a Python exception of type `name` is raised, caught or not.
pub fn always_on(name: &str) -> SetExceptionBreakpointsArguments {
    let segment = |n: &str| ExceptionPathSegment {
        negate: None,
        names: vec![n.to_string()],
    };
    SetExceptionBreakpointsArguments {
        filters: vec![],
        filter_options: None,
        exception_options: Some(vec![ExceptionOptions {
            path: Some(vec![segment("Python Exceptions"), segment(name)]),
            break_mode: ExceptionBreakMode::Always,
        }]),
    }
}

pub async fn top_frame(session: &SessionHandle) -> dapvisor::wire::types::StackFrame {
    session.stack_trace(None, Some(1)).await.unwrap()[0].clone()
}
