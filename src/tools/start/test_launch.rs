//! `debug.launch` with `test`: one test run under the debugger, named in its runner's
//! spelling (see [`crate::TestRunner`]), and its outcome (passed or failed, the runner's
//! failure text) in the result that reports the run's end.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{json, Value};

use crate::{
    LaunchSpec, SessionHandle, SessionId, TestOutcome, TestRequest, TestRunError, TestRunner,
};

use crate::tools::catalogue::context::Context;
use crate::tools::catalogue::spec::ToolError;

/// Output read to find a test's failure text at its end: all the session holds (its
/// output buffer bounds it, 128 KiB by default; the runner's report is at the end).
const OUTCOME_OUTPUT_BYTES: usize = 16 * 1024 * 1024;

/// The runner of each session that runs a test, so its end can be read as a test's.
#[derive(Debug, Default)]
pub(crate) struct TestRuns(Mutex<HashMap<SessionId, TestRunner>>);

impl TestRuns {
    fn insert(&self, id: SessionId, runner: TestRunner, live: &[SessionId]) {
        let mut runs = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // Forget the sessions that are gone, so the map stays as small as the runtime.
        runs.retain(|id, _| live.contains(id));
        runs.insert(id, runner);
    }

    fn runner(&self, id: SessionId) -> Option<TestRunner> {
        let runs = self.0.lock().unwrap_or_else(|e| e.into_inner());
        runs.get(&id).copied()
    }
}

/// The launch that runs test `id` (with `program` the file or folder it lives in, and
/// `cwd` the folder it runs in), and its runner; under `root`, only what lies inside
/// it (the runner's working folder, the test's file, package or crate). A Rust test's
/// crate is built first; a build failure is the error, with the compiler's words.
pub(crate) async fn test_launch(
    build_deadline: Duration,
    id: &str,
    runner: Option<&str>,
    (program, cwd): (Option<PathBuf>, Option<PathBuf>),
    root: Option<&Path>,
) -> Result<(LaunchSpec, TestRunner), ToolError> {
    let mut request = TestRequest::new(id);
    if let Some(root) = root {
        request = request.within(root);
    }
    if let Some(name) = runner {
        request = request.runner(TestRunner::parse(name).ok_or_else(|| {
            ToolError::invalid(
                format!("no test runner `{name}`"),
                "pass runner: pytest, go, cargo, node or minitest, or leave it out to tell from the test",
            )
        })?);
    }
    // A folder given as `program` is the project the test's paths are relative to
    // (a pytest node id's file), unless `cwd` says otherwise.
    let cwd = cwd.or_else(|| program.clone().filter(|p| p.is_dir()));
    if let Some(program) = program {
        request = request.path(program);
    }
    if let Some(cwd) = cwd {
        request = request.cwd(cwd);
    }
    let runner = request.resolved_runner().map_err(test_error)?;
    let spec = request
        .launch_spec(build_deadline)
        .await
        .map_err(test_error)?;
    Ok((spec, runner))
}

/// Remember that `session` runs a test of `runner`.
pub(crate) fn remember(ctx: &Context, session: &SessionHandle, runner: TestRunner) {
    let live: Vec<SessionId> = ctx.runtime.sessions().iter().map(|s| s.id()).collect();
    ctx.test_runs.insert(session.id(), runner, &live);
}

/// The outcome of the test `session` ran, once it ended with `exit_code`; `None` for a
/// session that runs no test.
pub(crate) async fn outcome(
    ctx: &Context,
    session: &SessionHandle,
    exit_code: Option<i64>,
) -> Option<(Value, String)> {
    let exit_code = exit_code.and_then(|code| i32::try_from(code).ok());
    let runner = ctx.test_runs.runner(session.id())?;
    let output = session.output(0, OUTCOME_OUTPUT_BYTES).await.ok()?.text();
    let outcome = TestOutcome::read(runner, exit_code, &output);
    let text = match (&outcome.failure, outcome.passed) {
        (_, true) => format!("the {} test passed", runner.name()),
        (Some(failure), false) => format!("the {} test failed:\n{failure}", runner.name()),
        (None, false) => format!(
            "the {} test failed (the runner said nothing more; read {})",
            runner.name(),
            ctx.tool("debug.output")
        ),
    };
    let json = json!({
        "runner": runner.name(),
        "passed": outcome.passed,
        "exit_code": outcome.exit_code,
        "failure": outcome.failure,
    });
    Some((json, text))
}

fn test_error(err: TestRunError) -> ToolError {
    let text = err.to_string();
    match err {
        TestRunError::UnknownRunner { .. } => ToolError::invalid(
            text,
            "pass `runner` (pytest, go, cargo, node, minitest) or `program` (the test file, \
             package folder or crate folder)",
        ),
        TestRunError::NoCrate { .. } | TestRunError::NoTestFile { .. } => {
            ToolError::invalid(text, "pass `program`: the crate folder or test file")
        }
        TestRunError::NotUnderRoot { root, .. } => ToolError::new(
            500,
            text,
            format!(
                "this server only debugs under {}; name a test inside it",
                root.display()
            ),
        )
        .with_kind(crate::permission::FORBIDDEN),
        TestRunError::NoSuchTest { .. } => {
            ToolError::new(404, text, "pass one of the tests named, by its full path")
        }
        TestRunError::BuildFailed { .. } => ToolError::new(
            422,
            text,
            "fix what the compiler says, then launch the test again",
        )
        .with_kind("build_failed"),
        _ => ToolError::new(
            500,
            text,
            "check that the test's toolchain (cargo, go, python, node, ruby) is installed and \
             works, then launch the test again",
        ),
    }
}
