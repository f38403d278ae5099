//! Whether a Python can import debugpy, remembered: a server launches many Python
//! sessions, and the probe (start a Python, `import debugpy`) costs 30 ms on an idle
//! machine and about 90 ms on a loaded one, paid before the adapter even starts. A Python
//! that imported debugpy once is trusted again without a probe while neither the
//! interpreter nor debugpy's `__init__.py` has changed (same modification time, still
//! there): an uninstall, upgrade or a new venv in its place makes the next launch probe
//! again. A failure is never remembered, so a Python fixed since is seen at once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use crate::host_probe::{run_probe, ProbeOutcome};

/// The probe: import debugpy and say where it came from.
const PROBE: &str = "import sys, debugpy; sys.stdout.write(debugpy.__file__ or '')";

/// How many Pythons are remembered at once (a launch's `.venv` can differ by project);
/// past that the oldest knowledge is dropped and those Pythons are probed again.
pub(crate) const MAX_KNOWN_PYTHONS: usize = 32;

/// What made a Python known: the interpreter's and debugpy's modification times.
#[derive(Debug, Clone, PartialEq)]
struct Proof {
    python: SystemTime,
    debugpy: PathBuf,
    debugpy_modified: SystemTime,
    /// When it was remembered, to drop the oldest first.
    remembered: SystemTime,
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

fn known() -> &'static Mutex<HashMap<PathBuf, Proof>> {
    static KNOWN: OnceLock<Mutex<HashMap<PathBuf, Proof>>> = OnceLock::new();
    KNOWN.get_or_init(Default::default)
}

impl Proof {
    fn still_holds(&self, python: &Path) -> bool {
        modified(python) == Some(self.python)
            && modified(&self.debugpy) == Some(self.debugpy_modified)
    }
}

/// Whether `python` can import debugpy: from memory when it did before and nothing
/// changed since, else by running it (at most `timeout`).
pub(crate) fn probe_debugpy(python: &Path, timeout: Duration) -> ProbeOutcome {
    let mut map = known().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(proof) = map.get(python) {
        if proof.still_holds(python) {
            return ProbeOutcome::Success(proof.debugpy.to_string_lossy().into_owned());
        }
        map.remove(python);
    }
    drop(map); // not held across the subprocess
    let outcome = run_probe(python, &["-c", PROBE], timeout);
    if let ProbeOutcome::Success(said) = &outcome {
        remember(python, Path::new(said.trim()));
    }
    outcome
}

fn remember(python: &Path, debugpy: &Path) {
    let (Some(python_modified), Some(debugpy_modified)) = (modified(python), modified(debugpy))
    else {
        return; // nothing to check it by later: probe each time
    };
    let mut map = known().lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= MAX_KNOWN_PYTHONS && !map.contains_key(python) {
        let oldest = map
            .iter()
            .min_by_key(|(_, p)| p.remembered)
            .map(|(k, _)| k.clone());
        if let Some(oldest) = oldest {
            map.remove(&oldest);
        }
    }
    map.insert(
        python.to_path_buf(),
        Proof {
            python: python_modified,
            debugpy: debugpy.to_path_buf(),
            debugpy_modified,
            remembered: SystemTime::now(),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::detect::tests::TempDir;

    /// A stand-in Python: counts its runs in `runs`, and prints `debugpy` as debugpy's
    /// place when that file exists (else fails as a Python without debugpy does).
    fn fake_python(dir: &TempDir) -> (PathBuf, PathBuf, PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let python = dir.0.join("python");
        let runs = dir.0.join("runs");
        let debugpy = dir.0.join("debugpy__init__.py");
        std::fs::write(
            &python,
            format!(
                "#!/bin/sh\necho run >> '{runs}'\n[ -e '{init}' ] || {{ echo \"No module named 'debugpy'\" >&2; exit 1; }}\nprintf '%s' '{init}'\n",
                runs = runs.display(),
                init = debugpy.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(&debugpy, "").unwrap();
        (python, runs, debugpy)
    }

    fn runs(file: &Path) -> usize {
        std::fs::read_to_string(file).map_or(0, |t| t.lines().count())
    }

    #[test]
    fn a_python_that_imported_debugpy_is_not_probed_again_until_it_changes() {
        let dir = TempDir::new("probe-cache");
        let (python, count, debugpy) = fake_python(&dir);
        let t = Duration::from_secs(5);
        assert!(matches!(
            probe_debugpy(&python, t),
            ProbeOutcome::Success(_)
        ));
        assert!(matches!(
            probe_debugpy(&python, t),
            ProbeOutcome::Success(_)
        ));
        assert_eq!(runs(&count), 1, "the second launch probed again");

        // debugpy upgraded (its file changed): probed again, then remembered anew.
        let later = SystemTime::now() + Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&debugpy)
            .unwrap()
            .set_modified(later)
            .unwrap();
        assert!(matches!(
            probe_debugpy(&python, t),
            ProbeOutcome::Success(_)
        ));
        assert!(matches!(
            probe_debugpy(&python, t),
            ProbeOutcome::Success(_)
        ));
        assert_eq!(runs(&count), 2);

        // debugpy uninstalled: the next probe runs, fails, and the failure is said.
        std::fs::remove_file(&debugpy).unwrap();
        let failed = probe_debugpy(&python, t);
        assert!(
            matches!(&failed, ProbeOutcome::Failed(why) if why.contains("No module named")),
            "{failed:?}"
        );
        assert_eq!(runs(&count), 3);
        // ... and is not remembered: installed again, it is found at once.
        std::fs::write(&debugpy, "").unwrap();
        assert!(matches!(
            probe_debugpy(&python, t),
            ProbeOutcome::Success(_)
        ));
        assert_eq!(runs(&count), 4);
    }

    #[test]
    fn a_changed_interpreter_is_probed_again() {
        let dir = TempDir::new("probe-cache-python");
        let (python, count, _) = fake_python(&dir);
        let t = Duration::from_secs(5);
        assert!(matches!(
            probe_debugpy(&python, t),
            ProbeOutcome::Success(_)
        ));
        let later = SystemTime::now() + Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&python)
            .unwrap()
            .set_modified(later)
            .unwrap();
        assert!(matches!(
            probe_debugpy(&python, t),
            ProbeOutcome::Success(_)
        ));
        assert_eq!(runs(&count), 2);
    }
}
