//! One test run under the debugger, named in its runner's own spelling:
//!
//! | runner | id | runs |
//! |---|---|---|
//! | pytest | `tests/test_cart.py::test_total`, `...::TestCart::test_total[case1]` | `python -m pytest ID` under debugpy, with the project's `.venv` interpreter when there is one |
//! | go | `TestTotal` (`TestTotal/case` for a subtest), in a package folder | dlv's test mode, `-test.run '^TestTotal$' -test.v` |
//! | cargo | `cart::tests::total`, in a crate | the test binary holding it (`cargo test --no-run`), `ID --exact --nocapture --include-ignored` |
//! | node | a name pattern (or none), in a test file | the file under js-debug, `--test-name-pattern ID` |
//! | minitest | `test/test_cart.rb::TestCart#test_total` (or `test_total`, in any class), or the name with the file as the path | the file under rdbg, `-n NAME -v`, the project's `lib` and `test` on `RUBYLIB` |
//!
//! [`TestRequest::launch_spec`] turns a request into the [`LaunchSpec`] that runs it;
//! breakpoints and the rest are the caller's. [`TestOutcome::read`] reads the run's
//! end. A request [`within`](TestRequest::within) a root runs only what lies under it
//! (`rooted.rs`), and builds only sources that do (`rooted_builds.rs`).

mod cargo;
mod minitest;
mod outcome;
mod rooted;
mod rooted_builds;
mod runner;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::json;

pub use outcome::TestOutcome;
pub use runner::TestRunner;

use crate::launch::LaunchSpec;

/// A test to run under the debugger.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TestRequest {
    /// The test, as its runner spells it (see the module's table).
    pub id: String,
    /// Its runner; found from the id and `path` when absent.
    #[serde(default)]
    pub runner: Option<TestRunner>,
    /// The test file, package folder or crate folder, when the id does not say.
    #[serde(default)]
    pub path: Option<PathBuf>,
    /// The folder relative paths (the id's too) are taken from, and pytest runs in;
    /// the root when there is one, else the process's working directory, when absent.
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// The folder (canonical) every path the run hands its runner must resolve inside
    /// (see [`Self::within`]); `None`: anywhere.
    #[serde(default)]
    pub root: Option<PathBuf>,
}

impl TestRequest {
    /// Run the test `id`.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }

    /// With its runner named.
    pub fn runner(mut self, runner: TestRunner) -> Self {
        self.runner = Some(runner);
        self
    }

    /// With the file or folder it lives in.
    pub fn path(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// With relative paths taken from `cwd`.
    pub fn cwd(mut self, cwd: impl Into<PathBuf>) -> Self {
        self.cwd = Some(cwd.into());
        self
    }

    /// Kept under `root` (a canonical folder, such as a server's `--root`): relative
    /// paths resolve against it, and every path the run hands its runner (the working
    /// folder, the test file, Go package or crate, the project's interpreter) must
    /// resolve inside it after `..` and symlinks, or [`Self::launch_spec`] refuses
    /// the run ([`TestRunError::NotUnderRoot`]) before anything is built or run.
    /// pytest is given `--rootdir` (the working folder), `--confcutdir` (the root) and
    /// `-c` (the nearest configuration file under the root, else none), so that no
    /// file above the root configures it.
    pub fn within(mut self, root: impl Into<PathBuf>) -> Self {
        self.root = Some(root.into());
        self
    }

    /// Its runner: as named, else as the id and path say.
    pub fn resolved_runner(&self) -> Result<TestRunner, TestRunError> {
        self.runner
            .or_else(|| TestRunner::detect(&self.id, self.path.as_deref(), &self.base()))
            .ok_or_else(|| TestRunError::UnknownRunner {
                id: self.id.clone(),
            })
    }

    /// The launch that runs this one test; a Rust test's crate is built first, within
    /// `build_deadline`.
    pub async fn launch_spec(&self, build_deadline: Duration) -> Result<LaunchSpec, TestRunError> {
        let root = self.root.as_deref();
        // Under a root, each path is checked as it is found: before anything runs.
        let confine = |path: PathBuf, what: &str| match root {
            Some(root) => rooted::inside(root, &path, what),
            None => Ok(path),
        };
        let base = confine(self.base(), "the test's working folder")?;
        let place = self.path.as_ref().map(|p| base.join(p));
        let mut spec = LaunchSpec::default();
        match self.resolved_runner()? {
            TestRunner::Pytest => {
                let node_id = match (runner::pytest_file(&self.id), &self.path) {
                    (Some(_), _) | (None, None) => self.id.clone(),
                    (None, Some(file)) => format!("{}::{}", file.display(), self.id),
                };
                let file = runner::pytest_file(&node_id).unwrap_or(&node_id);
                spec.program = confine(base.join(file), "the test file")?;
                spec.adapter = Some("debugpy".into());
                spec.args = vec![node_id.clone()];
                let python = match root {
                    Some(root) => {
                        spec.args.extend(rooted::pytest_arguments(&base, root));
                        rooted::project_python(&spec.program, root)
                    }
                    None => runner::project_python(&spec.program),
                };
                spec.cwd = Some(base.clone());
                spec.extra.insert("module".into(), json!("pytest"));
                if let Some(python) = python {
                    spec.extra.insert("python".into(), json!(python));
                }
            }
            TestRunner::GoTest => {
                let place = place.unwrap_or_else(|| base.clone());
                let package = if place.is_file() {
                    place.parent().map(Path::to_path_buf).unwrap_or(place)
                } else {
                    place
                };
                spec.program = confine(package, "the Go package")?;
                if let Some(root) = root {
                    rooted_builds::go_sources(&spec.program, root, build_deadline).await?;
                    spec.cwd = Some(spec.program.clone());
                }
                spec.adapter = Some("dlv".into());
                spec.args = vec![
                    "-test.run".into(),
                    go_run_pattern(&self.id),
                    "-test.v".into(),
                ];
                spec.extra.insert("mode".into(), json!("test"));
            }
            TestRunner::Cargo => {
                let from = place.unwrap_or_else(|| base.clone());
                let krate =
                    runner::crate_root(&from).ok_or(TestRunError::NoCrate { path: from })?;
                // Its build runs the crate's build scripts: checked first.
                let krate = confine(krate, "the crate")?;
                if let Some(root) = root {
                    rooted_builds::cargo_sources(&krate, root, build_deadline).await?;
                }
                let binaries = cargo::build(&krate, build_deadline).await?;
                spec.program = cargo::binary_holding(&binaries, &self.id, build_deadline).await?;
                spec.args = vec![
                    self.id.clone(),
                    "--exact".into(),
                    "--nocapture".into(),
                    "--include-ignored".into(),
                    "--test-threads=1".into(),
                ];
                spec.cwd = Some(krate);
            }
            TestRunner::Minitest => {
                let found = (self.path.as_deref(), base.as_path(), root);
                minitest::launch(&mut spec, &self.id, found, confine)?;
            }
            TestRunner::NodeTest => {
                let file = place.ok_or(TestRunError::NoTestFile {
                    id: self.id.clone(),
                })?;
                spec.program = confine(file, "the test file")?;
                if root.is_some() {
                    spec.cwd = spec.program.parent().map(Path::to_path_buf);
                }
                spec.adapter = Some("js-debug".into());
                // node:test writes its report to stdout itself, not through `console`.
                spec.extra.insert("outputCapture".into(), json!("std"));
                if !self.id.is_empty() {
                    let pattern = format!("--test-name-pattern={}", self.id);
                    spec.extra.insert("runtimeArgs".into(), json!([pattern]));
                }
            }
        }
        Ok(spec)
    }

    fn base(&self) -> PathBuf {
        let from = match &self.root {
            Some(root) => root.clone(),
            None => std::env::current_dir().unwrap_or_default(),
        };
        match &self.cwd {
            Some(dir) => from.join(dir),
            None => from,
        }
    }
}

/// `-test.run`'s pattern for a test and its subtests: each level anchored
/// (`TestTotal/empty` runs only that subtest).
fn go_run_pattern(id: &str) -> String {
    id.split('/')
        .map(|level| format!("^{level}$"))
        .collect::<Vec<_>>()
        .join("/")
}

/// Why a test could not be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TestRunError {
    /// Neither the id nor the path says which runner the test belongs to.
    #[error(
        "cannot tell which runner test `{id}` belongs to: name the runner (pytest, go, \
         cargo, node, minitest), or give the test file, package folder or crate folder it is in"
    )]
    UnknownRunner {
        /// The test asked for.
        id: String,
    },
    /// A Rust test outside any crate.
    #[error("no Cargo.toml at or above {}: give the crate's folder", path.display())]
    NoCrate {
        /// Where the crate was looked for.
        path: PathBuf,
    },
    /// A Node or minitest test without its file.
    #[error("a Node or minitest test runs from its file: give the test file for `{id}`")]
    NoTestFile {
        /// The test asked for.
        id: String,
    },
    /// The tests did not build.
    #[error("the tests did not build:\n{message}")]
    BuildFailed {
        /// The compiler's messages, bounded ([`MAX_BUILD_ERROR_BYTES`](crate::limits::MAX_BUILD_ERROR_BYTES)).
        message: String,
    },
    /// No test binary lists the test.
    #[error("no test binary of the crate has the test `{id}`{}", near_tests(near))]
    NoSuchTest {
        /// The test asked for.
        id: String,
        /// Tests whose last segment matches, to pick from.
        near: Vec<String>,
    },
    /// A process could not be run.
    #[error("{what} could not run: {error}")]
    Io {
        /// What was being run.
        what: String,
        /// Why.
        error: String,
    },
    /// A path the run would hand its runner lies outside the root it is kept under
    /// ([`TestRequest::within`]), or cannot be resolved there.
    #[error("{what} {} is not under the root {}: {why}", path.display(), root.display())]
    NotUnderRoot {
        /// What the path is (`the test file`, `the crate`, ...).
        what: String,
        /// The path as given (relative ones against the working folder or the root).
        path: PathBuf,
        /// The root.
        root: PathBuf,
        /// Where it leads instead, or why it cannot be resolved.
        why: String,
    },
    /// A build or listing took longer than allowed.
    #[error("{what} took longer than {after:?}: raise the launch timeout, or build first")]
    TimedOut {
        /// What was being run.
        what: String,
        /// The deadline.
        after: Duration,
    },
}

fn near_tests(near: &[String]) -> String {
    if near.is_empty() {
        return "; give its full path, as `cargo test -- --list` prints it".into();
    }
    format!("; tests with that name: {}", near.join(", "))
}

impl TestRunError {
    /// Whether the test asked for is the fault (no runner, crate, file or test of that
    /// name), rather than building or running it.
    pub fn is_argument_error(&self) -> bool {
        match self {
            TestRunError::UnknownRunner { .. }
            | TestRunError::NoCrate { .. }
            | TestRunError::NoTestFile { .. }
            | TestRunError::NoSuchTest { .. }
            | TestRunError::NotUnderRoot { .. } => true,
            TestRunError::BuildFailed { .. }
            | TestRunError::Io { .. }
            | TestRunError::TimedOut { .. } => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_pytest_node_id_runs_pytest_as_a_module_from_the_base() {
        let request = TestRequest::new("tests/test_cart.py::TestCart::test_total[1]").cwd("/proj");
        let spec = request.launch_spec(Duration::from_secs(5)).await.unwrap();
        assert_eq!(spec.program, PathBuf::from("/proj/tests/test_cart.py"));
        assert_eq!(spec.args, ["tests/test_cart.py::TestCart::test_total[1]"]);
        assert_eq!(spec.cwd.as_deref(), Some(Path::new("/proj")));
        assert_eq!(spec.extra["module"], "pytest");
        assert_eq!(spec.adapter.as_deref(), Some("debugpy"));
    }

    #[tokio::test]
    async fn a_bare_test_name_with_its_file_makes_the_node_id() {
        let request = TestRequest::new("test_total")
            .path("tests/test_cart.py")
            .cwd("/proj");
        let spec = request.launch_spec(Duration::from_secs(5)).await.unwrap();
        assert_eq!(spec.args, ["tests/test_cart.py::test_total"]);
    }

    #[tokio::test]
    async fn a_go_test_runs_in_dlvs_test_mode_anchored() {
        let request = TestRequest::new("TestTotal/empty")
            .runner(TestRunner::GoTest)
            .path("/proj/cart");
        let spec = request.launch_spec(Duration::from_secs(5)).await.unwrap();
        assert_eq!(spec.program, PathBuf::from("/proj/cart"));
        assert_eq!(spec.args, ["-test.run", "^TestTotal$/^empty$", "-test.v"]);
        assert_eq!(spec.extra["mode"], "test");
    }

    #[tokio::test]
    async fn a_test_no_runner_claims_says_what_to_give() {
        let err = TestRequest::new("total")
            .cwd("/nowhere")
            .resolved_runner()
            .unwrap_err();
        assert!(err
            .to_string()
            .contains("name the runner (pytest, go, cargo, node, minitest)"));
        let session: crate::SessionError = err.into();
        assert!(
            matches!(session, crate::SessionError::TestRun(ref e) if e.is_argument_error()),
            "{session}"
        );
        assert!(session
            .to_string()
            .starts_with("invalid argument: cannot tell which runner"));
    }

    #[test]
    fn a_test_that_did_not_build_is_a_failed_launch_with_the_compilers_words() {
        let err: crate::SessionError = TestRunError::BuildFailed {
            message: "error[E0425]: cannot find value `x`".into(),
        }
        .into();
        assert!(
            matches!(err, crate::SessionError::TestRun(ref e) if !e.is_argument_error()),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            "launch failed: the tests did not build:\nerror[E0425]: cannot find value `x`"
        );
        assert!(err.hint().contains("fix the build"), "{}", err.hint());
    }
}
