//! minitest (bundled with Ruby) under rdbg: one test of a test file, run as rake's test
//! task runs a file (`ruby -Ilib -Itest FILE`) with minitest's own name filter
//! (`-n TestCart#test_total`), and its outcome read from minitest's report.
//!
//! rdbg runs the test file itself and passes nothing before it to Ruby, so the
//! project's `lib` and `test` folders reach Ruby's load path through `RUBYLIB`.

use std::path::{Path, PathBuf};

use super::TestRunError;
use crate::launch::LaunchSpec;

/// The file of a minitest id (`test/test_cart.rb::TestCart#test_total`): the part
/// before the first `::`, when it names a `.rb` file.
pub(crate) fn minitest_file(id: &str) -> Option<&str> {
    let (file, _) = id.split_once("::")?;
    file.ends_with(".rb").then_some(file)
}

/// The test's name for minitest's `-n`, from an id with or without its file:
/// `TestCart#test_total` as minitest spells it, `test_total` (in any class), or
/// `TestCart::test_total` as a pytest id would say it (made `TestCart#test_total`).
/// A name minitest reads as a pattern (`/total/`) is passed as it is.
fn filter_of(id: &str) -> String {
    let name = match minitest_file(id) {
        Some(file) => &id[file.len() + 2..],
        None => id,
    };
    if name.contains('#') || name.starts_with('/') {
        return name.to_string();
    }
    match name.rsplit_once("::") {
        Some((class, method)) => format!("{class}#{method}"),
        None => name.to_string(),
    }
}

/// The project a test file belongs to: the nearest folder at or above the file's own
/// that holds a `test` or `lib` folder (rake's layout), looking no higher than
/// `highest`; else the file's own folder.
fn project_of(file: &Path, highest: &Path) -> PathBuf {
    let own = file.parent().unwrap_or(file);
    own.ancestors()
        .take_while(|dir| dir.starts_with(highest))
        .find(|dir| dir.join("test").is_dir() || dir.join("lib").is_dir())
        .unwrap_or(own)
        .to_path_buf()
}

/// Fill `spec` to run test `id` (its file from the id, else `path`), paths taken from
/// `base`; each path handed to Ruby passes `confine` (the root's check) first.
pub(crate) fn launch(
    spec: &mut LaunchSpec,
    id: &str,
    (path, base, root): (Option<&Path>, &Path, Option<&Path>),
    confine: impl Fn(PathBuf, &str) -> Result<PathBuf, TestRunError>,
) -> Result<(), TestRunError> {
    let file = match (minitest_file(id), path) {
        (Some(file), _) => base.join(file),
        (None, Some(path)) => base.join(path),
        (None, None) => {
            return Err(TestRunError::NoTestFile { id: id.to_string() });
        }
    };
    spec.program = confine(file, "the test file")?;
    // Looked for no higher than the root, else the working folder where the file is in
    // it, else the folder above the file's own (`test/`'s project): never `/`'s `lib`.
    let own = spec.program.parent().unwrap_or(&spec.program);
    let highest = match root {
        Some(root) => root,
        None if spec.program.starts_with(base) => base,
        None => own.parent().unwrap_or(own),
    };
    let project = confine(project_of(&spec.program, highest), "the test's project")?;
    let mut load_path = Vec::new();
    for folder in ["lib", "test"] {
        let dir = project.join(folder);
        if dir.is_dir() {
            load_path.push(confine(dir, "a load path folder")?.display().to_string());
        }
    }
    if !load_path.is_empty() {
        spec.env.insert("RUBYLIB".into(), load_path.join(":"));
    }
    spec.cwd = Some(project);
    spec.adapter = Some("rdbg".into());
    let filter = filter_of(id);
    if !filter.is_empty() {
        spec.args = vec!["-n".into(), filter];
    }
    spec.args.push("-v".into());
    Ok(())
}

/// How many tests minitest's summary (`1 runs, 1 assertions, 1 failures, ...`) says it
/// ran; `None` without a summary.
pub(crate) fn runs(output: &str) -> Option<u64> {
    output
        .lines()
        .rev()
        .find_map(|line| line.strip_suffix(" skips").and(line.split_once(" runs, ")))
        .and_then(|(count, _)| count.trim().parse().ok())
}

/// minitest's words on a failure: each `N) Failure:` or `N) Error:` with the lines
/// under it up to the blank line that ends it, and the summary; where the name
/// matched no test (`0 runs`), that.
pub(crate) fn failure(output: &str) -> Vec<&str> {
    if runs(output) == Some(0) {
        return vec![NO_TEST_RAN];
    }
    let mut kept = Vec::new();
    let mut in_failure = false;
    for line in output.lines() {
        let trimmed = line.trim_start();
        let numbered = trimmed
            .split_once(") ")
            .is_some_and(|(n, rest)| n.parse::<u32>().is_ok() && rest.ends_with(':'));
        if numbered {
            in_failure = true;
            kept.push(line);
        } else if in_failure && trimmed.is_empty() {
            in_failure = false;
        } else if in_failure || (line.ends_with(" skips") && line.contains(" runs, ")) {
            kept.push(line);
        }
    }
    kept
}

/// What a run that ran no test says: minitest exits 0 when its `-n` matched nothing.
const NO_TEST_RAN: &str = "no test ran (minitest: 0 runs): the file has no test by that \
                           name; name one as `Class#test_method` or `test_method`";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_names_the_file_and_minitests_filter() {
        let id = "test/test_cart.rb::TestCart#test_total";
        assert_eq!(minitest_file(id), Some("test/test_cart.rb"));
        assert_eq!(filter_of(id), "TestCart#test_total");
        assert_eq!(filter_of("test/t.rb::test_total"), "test_total");
        assert_eq!(
            filter_of("Shop::TestCart::test_total"),
            "Shop::TestCart#test_total"
        );
        assert_eq!(filter_of("/total/"), "/total/");
        assert_eq!(minitest_file("cart::tests::total"), None);
        assert_eq!(minitest_file("test_cart.rb"), None, "a file alone is no id");
    }

    #[test]
    fn a_failure_keeps_minitests_assertion_and_summary() {
        let output = "\
Run options: -n TestCart#test_total -v --seed 49252

# Running:

TestCart#test_total = 0.00 s = F

Finished in 0.010213s, 97.9175 runs/s, 97.9175 assertions/s.

  1) Failure:
TestCart#test_total [test/test_cart.rb:6]:
Expected: 42
  Actual: 41

1 runs, 1 assertions, 1 failures, 0 errors, 0 skips
";
        assert_eq!(runs(output), Some(1));
        assert_eq!(
            failure(output),
            [
                "  1) Failure:",
                "TestCart#test_total [test/test_cart.rb:6]:",
                "Expected: 42",
                "  Actual: 41",
                "1 runs, 1 assertions, 1 failures, 0 errors, 0 skips",
            ]
        );
    }

    #[test]
    fn a_name_that_matched_nothing_is_said() {
        let output = "Finished in 0.002636s, 0.0000 runs/s, 0.0000 assertions/s.\n\n\
                      0 runs, 0 assertions, 0 failures, 0 errors, 0 skips\n";
        assert_eq!(runs(output), Some(0));
        assert_eq!(failure(output), [NO_TEST_RAN]);
        assert_eq!(runs("no summary"), None);
    }

    #[test]
    fn the_project_is_the_folder_holding_test_or_lib() {
        let root = std::env::temp_dir().join(format!("dapvisor-minitest-{}", std::process::id()));
        std::fs::create_dir_all(root.join("shop/test/models")).unwrap();
        std::fs::create_dir_all(root.join("shop/lib")).unwrap();
        let file = root.join("shop/test/models/test_cart.rb");
        std::fs::write(&file, "").unwrap();
        assert_eq!(project_of(&file, &root), root.join("shop"));
        let mut spec = LaunchSpec::default();
        let id = "test/models/test_cart.rb::TestCart#test_total";
        launch(&mut spec, id, (None, &root.join("shop"), None), |p, _| {
            Ok(p)
        })
        .unwrap();
        assert_eq!(spec.program, file);
        assert_eq!(spec.cwd.as_deref(), Some(root.join("shop").as_path()));
        let load_path = format!(
            "{}:{}",
            root.join("shop/lib").display(),
            root.join("shop/test").display()
        );
        assert_eq!(spec.env["RUBYLIB"], load_path);
        assert_eq!(spec.args, ["-n", "TestCart#test_total", "-v"]);
        assert_eq!(spec.adapter.as_deref(), Some("rdbg"));
        // No higher than the root: a file alone in it is its own project.
        let alone = root.join("shop/test/models");
        assert_eq!(project_of(&file, &alone), alone);
        // Outside the working folder, no higher than the folder above the file's.
        let mut spec = LaunchSpec::default();
        let elsewhere = (Some(file.as_path()), Path::new("/nowhere"), None);
        launch(&mut spec, "test_total", elsewhere, |p, _| Ok(p)).unwrap();
        assert_eq!(spec.cwd.as_deref(), Some(alone.as_path()));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
