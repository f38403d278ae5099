//! Finding adapter executables: the environment resolution reads, and lookups on a
//! `PATH` given as a value (so tests pass their own instead of changing the process's).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use crate::host_probe::DEFAULT_PROBE_TIMEOUT;

/// What adapter resolution looks at, captured once so it can be given explicitly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    /// The `PATH` to search, as the process variable holds it.
    pub path: OsString,
    /// `DAPVISOR_PYTHON`: the Python to run debugpy with. When set, it is the only one tried.
    pub python: Option<PathBuf>,
    /// dapvisor's data folder (see [`dapvisor_home`]); its `venv/bin/python` is the
    /// second Python tried for debugpy.
    pub dapvisor_home: PathBuf,
    /// Folder whose `.venv/bin/python` (or a parent's) is tried for debugpy.
    pub cwd: PathBuf,
    /// `DAPVISOR_JS_DEBUG`: path of js-debug's `dapDebugServer.js`.
    pub js_debug_server: Option<PathBuf>,
    /// Deadline for each probe subprocess; [`DEFAULT_PROBE_TIMEOUT`] by default.
    pub probe_timeout: Duration,
}

impl Environment {
    /// The current process's environment: `PATH`, `DAPVISOR_PYTHON`, `DAPVISOR_HOME` (or
    /// its default), `DAPVISOR_JS_DEBUG` and the working directory.
    pub fn from_process() -> Self {
        Self {
            path: std::env::var_os("PATH").unwrap_or_default(),
            python: non_empty_var("DAPVISOR_PYTHON").map(PathBuf::from),
            dapvisor_home: dapvisor_home(),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            js_debug_server: non_empty_var("DAPVISOR_JS_DEBUG").map(PathBuf::from),
            probe_timeout: DEFAULT_PROBE_TIMEOUT,
        }
    }

    /// This environment with `PATH` set to `path`.
    pub fn with_path(mut self, path: impl Into<OsString>) -> Self {
        self.path = path.into();
        self
    }

    /// This environment with `DAPVISOR_PYTHON` set to `python`.
    pub fn with_python(mut self, python: impl Into<PathBuf>) -> Self {
        self.python = Some(python.into());
        self
    }

    /// This environment with its working directory set to `cwd`.
    pub fn with_cwd(mut self, cwd: impl Into<PathBuf>) -> Self {
        self.cwd = cwd.into();
        self
    }

    /// This environment with dapvisor's data folder set to `home`.
    pub fn with_dapvisor_home(mut self, home: impl Into<PathBuf>) -> Self {
        self.dapvisor_home = home.into();
        self
    }
}

/// dapvisor's data folder, where it keeps its own tools (such as `venv/` with debugpy):
/// `$DAPVISOR_HOME`, else `$XDG_DATA_HOME/dapvisor`, else `~/.local/share/dapvisor`
/// (a `dapvisor` folder in the temp dir when `HOME` is unset too).
pub fn dapvisor_home() -> PathBuf {
    home_from(
        non_empty_var("DAPVISOR_HOME"),
        non_empty_var("XDG_DATA_HOME"),
        non_empty_var("HOME"),
    )
}

fn home_from(explicit: Option<OsString>, xdg: Option<OsString>, home: Option<OsString>) -> PathBuf {
    if let Some(dir) = explicit {
        return PathBuf::from(dir);
    }
    // The XDG spec says relative values are invalid and must be ignored.
    if let Some(xdg) = xdg.map(PathBuf::from).filter(|p| p.is_absolute()) {
        return xdg.join("dapvisor");
    }
    match home {
        Some(home) => Path::new(&home).join(".local/share/dapvisor"),
        None => std::env::temp_dir().join("dapvisor"),
    }
}

fn non_empty_var(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// Every executable a command candidate stands for, in the order to try them: a path
/// (relative ones against `env.cwd`), a name looked up on `PATH`, or a `name-*` pattern
/// (see [`versioned_executables`]).
pub(crate) fn expand_candidate(candidate: &str, env: &Environment) -> Vec<PathBuf> {
    if let Some(base) = candidate.strip_suffix("-*") {
        return versioned_executables(base, &env.path);
    }
    find_executable(candidate, env).into_iter().collect()
}

/// `name` as an executable: checked directly if it holds a `/`, else looked up on `PATH`.
pub(crate) fn find_executable(name: &str, env: &Environment) -> Option<PathBuf> {
    if name.contains('/') {
        let path = env.cwd.join(name);
        return is_executable(&path).then_some(path);
    }
    find_on_path(name, &env.path)
}

/// The first `dir/name` on `path` that is an executable file.
pub(crate) fn find_on_path(name: &str, path: &OsStr) -> Option<PathBuf> {
    path_dirs(path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

/// Every executable `base-N` on `path`, where N is a version (`19`, `19.1`), highest
/// version first. For a name found in several folders, the earlier folder wins.
pub(crate) fn versioned_executables(base: &str, path: &OsStr) -> Vec<PathBuf> {
    let prefix = format!("{base}-");
    let mut found: Vec<(Vec<u32>, String, PathBuf)> = Vec::new();
    for dir in path_dirs(path) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let Some(name) = file_name.to_str() else {
                continue;
            };
            let Some(version) = name.strip_prefix(&prefix).and_then(parse_version) else {
                continue;
            };
            let path = entry.path();
            if found.iter().all(|(_, seen, _)| seen != name) && is_executable(&path) {
                found.push((version, name.to_string(), path));
            }
        }
    }
    // Stable sort: equal versions keep PATH order.
    found.sort_by(|a, b| b.0.cmp(&a.0));
    found.into_iter().map(|(_, _, path)| path).collect()
}

/// `19` or `19.1.0` as numbers; anything else is not a version.
fn parse_version(text: &str) -> Option<Vec<u32>> {
    text.split('.')
        .map(|part| part.parse::<u32>().ok())
        .collect()
}

/// `PATH`'s folders, skipping empty entries (which would mean the working directory).
fn path_dirs(path: &OsStr) -> impl Iterator<Item = PathBuf> + '_ {
    std::env::split_paths(path).filter(|dir| !dir.as_os_str().is_empty())
}

/// A regular file (after following links) that someone may execute.
pub(crate) fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh folder under the temp dir, removed on drop.
    pub(crate) struct TempDir(pub PathBuf);

    impl TempDir {
        pub(crate) fn new(label: &str) -> Self {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!(
                "dapvisor-registry-{label}-{}-{n}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Self(dir)
        }

        /// Create `name` in the folder with `mode`.
        pub(crate) fn file(&self, name: &str, mode: u32) -> PathBuf {
            use std::os::unix::fs::PermissionsExt;
            let path = self.0.join(name);
            std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            path
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn versioned_executables_are_highest_first_and_executable_only() {
        let dir = TempDir::new("scan");
        for name in ["lldb-dap-9", "lldb-dap-17", "lldb-dap-19", "lldb-dap-19.1"] {
            dir.file(name, 0o755);
        }
        dir.file("lldb-dap-20", 0o644); // not executable
        dir.file("lldb-dap-foo", 0o755); // not a version
        dir.file("lldb-dap", 0o755); // the plain name is not a versioned one
        let found = versioned_executables("lldb-dap", dir.0.as_os_str());
        let names: Vec<_> = found
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
            .collect();
        assert_eq!(
            names,
            ["lldb-dap-19.1", "lldb-dap-19", "lldb-dap-17", "lldb-dap-9"]
        );
    }

    #[test]
    fn earlier_path_folders_win() {
        let (first, second) = (TempDir::new("first"), TempDir::new("second"));
        second.file("tool", 0o755);
        second.file("tool-3", 0o755);
        let a = first.file("tool-3", 0o755);
        let path = std::env::join_paths([&first.0, &second.0]).unwrap();
        assert_eq!(find_on_path("tool", &path), Some(second.0.join("tool")));
        assert_eq!(versioned_executables("tool", &path), [a]);
        assert_eq!(find_on_path("missing", &path), None);
    }

    #[test]
    fn home_prefers_explicit_then_xdg_then_home() {
        let os = |s: &str| Some(OsString::from(s));
        assert_eq!(home_from(os("/d"), os("/x"), os("/h")), PathBuf::from("/d"));
        assert_eq!(
            home_from(None, os("/x"), os("/h")),
            PathBuf::from("/x/dapvisor")
        );
        assert_eq!(
            home_from(None, os("rel"), os("/h")),
            PathBuf::from("/h/.local/share/dapvisor")
        );
        assert_eq!(
            home_from(None, None, os("/h")),
            PathBuf::from("/h/.local/share/dapvisor")
        );
    }
}
