//! Helpers of the debugpy protocol tests (`protocol_debugpy*.rs`): its programs and
//! exception options that always break.

use std::path::PathBuf;

use dapvisor::wire::types::{
    ExceptionBreakMode, ExceptionOptions, ExceptionPathSegment, SetExceptionBreakpointsArguments,
};

use dapvisor::SessionHandle;

use crate::common::*;

pub fn scores() -> PathBuf {
    program("python/scores.py")
}

pub fn discount() -> PathBuf {
    program("python/discount.py")
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
