//! A test run kept under a root ([`TestRequest::within`](super::TestRequest::within)):
//! every path the run hands its runner (the working folder, the test file, package or
//! crate, the project's interpreter) resolves, after `..` and symlinks, inside the
//! root, or the run is refused before anything builds or runs
//! ([`TestRunError::NotUnderRoot`]). pytest is also told its rootdir, where conftest
//! files stop (`--confcutdir`) and which configuration file to read (the nearest
//! under the root, else none), so that no file above the root configures it or adds
//! plugins and import paths to it.

use std::path::{Path, PathBuf};

use super::TestRunError;

/// `path` (which names `what`) resolved inside `root` (canonical), or why not.
pub(crate) fn inside(root: &Path, path: &Path, what: &str) -> Result<PathBuf, TestRunError> {
    let refused = |why: String| TestRunError::NotUnderRoot {
        what: what.to_string(),
        path: path.to_path_buf(),
        root: root.to_path_buf(),
        why,
    };
    let real = std::fs::canonicalize(root.join(path))
        .map_err(|e| refused(format!("it cannot be resolved: {e}")))?;
    if !real.starts_with(root) {
        return Err(refused(format!("it resolves to {}", real.display())));
    }
    Ok(real)
}

/// The interpreter of the nearest `.venv` at or above `from`, looking no higher than
/// `root`. Its folder must resolve inside the root; the interpreter itself is a link
/// a virtual environment makes to the system's Python, and is not followed here.
pub(crate) fn project_python(from: &Path, root: &Path) -> Option<PathBuf> {
    let start = if from.is_file() { from.parent()? } else { from };
    start
        .ancestors()
        .take_while(|dir| dir.starts_with(root))
        .map(|dir| dir.join(".venv/bin"))
        .find(|bin| bin.join("python").is_file())
        .filter(|bin| std::fs::canonicalize(bin).is_ok_and(|real| real.starts_with(root)))
        .map(|bin| bin.join("python"))
}

/// The files pytest reads its configuration from, each with what marks it as
/// pytest's (`None`: any such file is).
const PYTEST_CONFIGS: [(&str, Option<&str>); 5] = [
    ("pytest.ini", None),
    (".pytest.ini", None),
    ("pyproject.toml", Some("[tool.pytest")),
    ("tox.ini", Some("[pytest]")),
    ("setup.cfg", Some("[tool:pytest]")),
];

/// The arguments that keep pytest, run from `base`, to the root: `-c` the nearest
/// configuration file from `base` up to `root` (as pytest looks for one, but stopping
/// at the root; `/dev/null`, an empty configuration, when there is none),
/// `--rootdir` `base`, `--confcutdir` `root`.
pub(crate) fn pytest_arguments(base: &Path, root: &Path) -> Vec<String> {
    let config = base
        .ancestors()
        .take_while(|dir| dir.starts_with(root))
        .flat_map(|dir| {
            PYTEST_CONFIGS
                .iter()
                .map(move |(name, mark)| (dir.join(name), mark))
        })
        .find(|(file, mark)| match (mark, std::fs::read_to_string(file)) {
            (_, Err(_)) => false,
            (None, Ok(_)) => true,
            (Some(mark), Ok(text)) => text.contains(mark),
        })
        .map(|(file, _)| file)
        .unwrap_or_else(|| PathBuf::from("/dev/null"));
    vec![
        "-c".into(),
        config.display().to_string(),
        format!("--rootdir={}", base.display()),
        format!("--confcutdir={}", root.display()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root with a project under it and files around it; removed when dropped.
    struct Tree(PathBuf);

    impl Tree {
        fn new(name: &str) -> Self {
            let top =
                std::env::temp_dir().join(format!("dapvisor-rooted-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&top);
            std::fs::create_dir_all(top.join("root/proj/tests")).unwrap();
            Self(std::fs::canonicalize(top).unwrap())
        }

        fn root(&self) -> PathBuf {
            self.0.join("root")
        }

        fn write(&self, file: &str, text: &str) {
            std::fs::write(self.0.join(file), text).unwrap();
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn paths_resolve_inside_the_root_or_are_refused_saying_where_they_lead() {
        let tree = Tree::new("inside");
        tree.write("root/proj/tests/test_a.py", "");
        tree.write("outside.py", "");
        let root = tree.root();
        let found = inside(&root, Path::new("proj/tests/test_a.py"), "the test file").unwrap();
        assert_eq!(found, root.join("proj/tests/test_a.py"));
        let escape = inside(&root, Path::new("../outside.py"), "the test file").unwrap_err();
        assert!(escape.to_string().contains("resolves to"), "{escape}");
        assert!(escape.is_argument_error());
        std::os::unix::fs::symlink(tree.0.join("outside.py"), root.join("link.py")).unwrap();
        assert!(inside(&root, Path::new("link.py"), "the test file").is_err());
        let missing = inside(&root, Path::new("nope.py"), "the test file").unwrap_err();
        assert!(
            missing.to_string().contains("cannot be resolved"),
            "{missing}"
        );
    }

    #[test]
    fn pytest_reads_the_nearest_configuration_under_the_root_and_none_above_it() {
        let tree = Tree::new("config");
        let root = tree.root();
        let base = root.join("proj");
        tree.write("pytest.ini", "[pytest]\naddopts = -p elsewhere\n");
        assert_eq!(pytest_arguments(&base, &root)[..2], ["-c", "/dev/null"]);
        tree.write("root/setup.cfg", "[metadata]\nname = x\n");
        assert_eq!(
            pytest_arguments(&base, &root)[1],
            "/dev/null",
            "no [tool:pytest]"
        );
        tree.write("root/tox.ini", "[pytest]\naddopts = -q\n");
        let args = pytest_arguments(&base, &root);
        assert_eq!(args[1], root.join("tox.ini").display().to_string());
        assert_eq!(args[2], format!("--rootdir={}", base.display()));
        assert_eq!(args[3], format!("--confcutdir={}", root.display()));
        tree.write("root/proj/pytest.ini", "[pytest]\n");
        let nearest = pytest_arguments(&base, &root)[1].clone();
        assert_eq!(nearest, base.join("pytest.ini").display().to_string());
    }

    #[test]
    fn the_project_interpreter_is_looked_for_no_higher_than_the_root() {
        let tree = Tree::new("venv");
        let root = tree.root();
        std::fs::create_dir_all(tree.0.join(".venv/bin")).unwrap();
        tree.write(".venv/bin/python", "");
        let test = root.join("proj/tests");
        assert_eq!(project_python(&test, &root), None, "the one above the root");
        std::fs::create_dir_all(root.join("proj/.venv/bin")).unwrap();
        tree.write("root/proj/.venv/bin/python", "");
        assert_eq!(
            project_python(&test, &root),
            Some(root.join("proj/.venv/bin/python"))
        );
    }
}
