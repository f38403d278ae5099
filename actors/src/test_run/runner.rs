//! Which test runner a test id belongs to, from the id's own spelling and the files
//! around it (pure but for looking at the file system).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A test runner dapvisor can run one test of under a debugger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TestRunner {
    /// pytest, under debugpy: a node id such as `tests/test_cart.py::test_total`.
    Pytest,
    /// `go test`, under dlv's test mode: a test function such as `TestTotal`, in a
    /// package folder.
    GoTest,
    /// `cargo test`: a test path such as `cart::tests::total`, in a crate; run from
    /// its built test binary.
    Cargo,
    /// Node's built-in runner (`node:test`), under js-debug: a test file, with an
    /// optional name pattern as the id.
    NodeTest,
    /// minitest, under rdbg: a test file and a test in it, such as
    /// `test/test_cart.rb::TestCart#test_total`.
    Minitest,
}

impl TestRunner {
    /// Its name as a caller spells it (`pytest`, `go`, `cargo`, `node`, `minitest`).
    pub fn name(self) -> &'static str {
        match self {
            TestRunner::Pytest => "pytest",
            TestRunner::GoTest => "go",
            TestRunner::Cargo => "cargo",
            TestRunner::NodeTest => "node",
            TestRunner::Minitest => "minitest",
        }
    }

    /// The runner named `name` (`pytest`, `go`, `cargo`, `node`, `minitest`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "pytest" | "python" => Some(TestRunner::Pytest),
            "go" | "go_test" | "gotest" => Some(TestRunner::GoTest),
            "cargo" | "rust" => Some(TestRunner::Cargo),
            "node" | "node_test" | "javascript" => Some(TestRunner::NodeTest),
            "minitest" | "ruby" => Some(TestRunner::Minitest),
            _ => None,
        }
    }

    /// The runner of test `id`, with `path` the file or folder it lives in when the
    /// id does not say (relative paths against `base`, the working directory).
    /// `None` when neither says.
    pub fn detect(id: &str, path: Option<&Path>, base: &Path) -> Option<Self> {
        if pytest_file(id).is_some() {
            return Some(TestRunner::Pytest);
        }
        if super::minitest::minitest_file(id).is_some() {
            return Some(TestRunner::Minitest);
        }
        let place = path.map(|p| base.join(p)).unwrap_or_else(|| base.into());
        let ext = place.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext {
            "py" => return Some(TestRunner::Pytest),
            "go" => return Some(TestRunner::GoTest),
            "rs" => return Some(TestRunner::Cargo),
            "js" | "mjs" | "cjs" => return Some(TestRunner::NodeTest),
            "rb" => return Some(TestRunner::Minitest),
            _ => {}
        }
        if place.is_dir() {
            if has_file_ending(&place, "_test.go") {
                return Some(TestRunner::GoTest);
            }
            if crate_root(&place).is_some() {
                return Some(TestRunner::Cargo);
            }
        }
        None
    }
}

/// The file of a pytest node id (`tests/test_cart.py::TestCart::test_total[1]`): the
/// part before the first `::`, when it names a `.py` file.
pub(crate) fn pytest_file(id: &str) -> Option<&str> {
    let file = id.split("::").next()?;
    (file.ends_with(".py") && id.contains("::")).then_some(file)
}

/// The nearest folder at or above `from` holding a `Cargo.toml`.
pub(crate) fn crate_root(from: &Path) -> Option<PathBuf> {
    let start = if from.is_file() { from.parent()? } else { from };
    start
        .ancestors()
        .find(|dir| dir.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
}

/// The interpreter of the nearest `.venv` at or above `from`.
pub(crate) fn project_python(from: &Path) -> Option<PathBuf> {
    let start = if from.is_file() { from.parent()? } else { from };
    start
        .ancestors()
        .map(|dir| dir.join(".venv/bin/python"))
        .find(|python| python.is_file())
}

fn has_file_ending(dir: &Path, suffix: &str) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| e.file_name().to_str().is_some_and(|n| n.ends_with(suffix)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pytest_node_id_says_its_runner_and_file() {
        let base = Path::new("/nowhere");
        for id in [
            "tests/test_cart.py::test_total",
            "tests/test_cart.py::TestCart::test_total[case1]",
        ] {
            assert_eq!(TestRunner::detect(id, None, base), Some(TestRunner::Pytest));
            assert_eq!(pytest_file(id), Some("tests/test_cart.py"));
        }
        assert_eq!(
            TestRunner::detect("test/test_cart.rb::TestCart#test_total", None, base),
            Some(TestRunner::Minitest)
        );
        assert_eq!(pytest_file("cart::tests::total"), None);
        assert_eq!(
            pytest_file("test_cart.py"),
            None,
            "a file alone is no node id"
        );
    }

    #[test]
    fn a_file_says_its_runner_by_extension() {
        let base = Path::new("/nowhere");
        let cases = [
            ("cart_test.go", TestRunner::GoTest),
            ("test_cart.py", TestRunner::Pytest),
            ("src/lib.rs", TestRunner::Cargo),
            ("cart.test.mjs", TestRunner::NodeTest),
            ("test/test_cart.rb", TestRunner::Minitest),
        ];
        for (file, runner) in cases {
            let found = TestRunner::detect("total", Some(Path::new(file)), base);
            assert_eq!(found, Some(runner), "{file}");
        }
        assert_eq!(TestRunner::detect("total", None, base), None);
    }

    #[test]
    fn a_folder_says_go_by_its_test_files_and_cargo_by_its_manifest() {
        let root = std::env::temp_dir().join(format!("dapvisor-runner-{}", std::process::id()));
        let go = root.join("go");
        let krate = root.join("krate/src");
        std::fs::create_dir_all(&go).unwrap();
        std::fs::create_dir_all(&krate).unwrap();
        std::fs::write(go.join("cart_test.go"), "package cart").unwrap();
        std::fs::write(root.join("krate/Cargo.toml"), "[package]").unwrap();
        assert_eq!(
            TestRunner::detect("TestTotal", Some(&go), &root),
            Some(TestRunner::GoTest)
        );
        assert_eq!(
            TestRunner::detect("cart::tests::total", Some(&krate), &root),
            Some(TestRunner::Cargo)
        );
        assert_eq!(crate_root(&krate), Some(root.join("krate")));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn runner_names_round_trip() {
        for runner in [
            TestRunner::Pytest,
            TestRunner::GoTest,
            TestRunner::Cargo,
            TestRunner::NodeTest,
            TestRunner::Minitest,
        ] {
            assert_eq!(TestRunner::parse(runner.name()), Some(runner));
        }
        assert_eq!(TestRunner::parse("jest"), None);
    }
}
