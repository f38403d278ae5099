//! Path mappings of a remote or container target: the agent's folders on one side,
//! the target's on the other, so that every path an agent names or reads is its own.
//!
//! A session attached with [`PathMapping`]s keeps a [`PathMap`]. What goes to the
//! adapter has each local path under a mapping's `local` folder rewritten to the
//! `remote` one ([`PathMap::outgoing`]); what comes back has each path under a
//! `remote` folder rewritten to the `local` one, keeps paths already local (an
//! adapter that was given the mappings in its own dialect maps them itself), and
//! marks every other path as the target's with [`REMOTE_MARK`] ([`PathMap::incoming`]):
//! a path with no mapping is shown as it is on the target, never guessed. A marked
//! path sent back (a `source` request for a frame in a library) goes unmarked.
//!
//! Only DAP `Source` and `Module` objects carry the paths rewritten: a `source`
//! object's `path`, and each of a `sources` list's, at any depth (stack frames,
//! breakpoints, scopes, loaded sources, output events); a `module`'s (a `module`
//! event's, each of a `modules` answer's) `path` and `symbolFilePath`.
//!
//! [`check`] refuses mappings that could not be applied exactly: relative paths, `..`,
//! two mappings of one remote (or one local) folder, and a local folder and a remote
//! folder where one holds the other (a path under both could be either side's).
//!
//! A mapping's remote root says how its target spells paths (`target_style.rs`): a
//! drive letter (`C:\app\src`) or a UNC prefix (`\\server\share`) is a Windows
//! target's, whose paths are matched with either separator and without case, and sent
//! with `\`; any other root is POSIX.

mod target_style;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod windows_tests;

pub use target_style::is_windows_absolute;
use target_style::TargetStyle;

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The mark before a path that is the target's and has no mapping:
/// `remote:/usr/lib/python3.11/threading.py`.
pub const REMOTE_MARK: &str = "remote:";

/// Whether `path` is an absolute path on a target: POSIX (`/srv/a.py`) or Windows
/// (`C:\app\a.py`, `\\server\share\a.py`).
pub fn is_target_absolute(path: &str) -> bool {
    path.starts_with('/') || is_windows_absolute(path)
}

/// Whether `path` is a remote target's file marked as such ([`REMOTE_MARK`]).
pub fn is_remote(path: &std::path::Path) -> bool {
    path.to_str().is_some_and(|p| p.starts_with(REMOTE_MARK))
}

/// The most path mappings one attach may give (default 64).
pub const MAX_PATH_MAPPINGS: usize = 64;

/// One folder of the agent's (`local`) and the folder it is on the target (`remote`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PathMapping {
    /// The agent's folder, absolute.
    pub local: PathBuf,
    /// The same folder on the target, absolute.
    pub remote: PathBuf,
}

impl PathMapping {
    /// `local` on this side is `remote` on the target.
    pub fn new(local: impl Into<PathBuf>, remote: impl Into<PathBuf>) -> Self {
        Self {
            local: local.into(),
            remote: remote.into(),
        }
    }
}

/// Why `mappings` cannot be applied exactly, with what to do instead; `Ok` when they
/// can (none is fine too).
pub fn check(mappings: &[PathMapping]) -> Result<(), String> {
    if mappings.len() > MAX_PATH_MAPPINGS {
        return Err(format!(
            "{} path mappings is more than the {MAX_PATH_MAPPINGS} an attach may give; \
             map common parent folders instead",
            mappings.len()
        ));
    }
    for m in mappings {
        for (side, path) in [("local", &m.local), ("remote", &m.remote)] {
            let plain = match side {
                "remote" => plain_remote(path),
                _ => plain_absolute(path),
            };
            plain.map_err(|why| {
                format!(
                    "the {side} path {} of a path mapping {why}; give both sides as \
                     absolute folders, such as {{\"local\": \"/home/me/app\", \"remote\": \
                     \"/app\"}} (a Windows target's: \"C:\\\\app\")",
                    path.display()
                )
            })?;
        }
    }
    for (i, a) in mappings.iter().enumerate() {
        for b in &mappings[i + 1..] {
            if same_remote(&a.remote, &b.remote) {
                return Err(format!(
                    "the remote folder {} is mapped twice (to {} and {}); map each remote \
                     folder once",
                    a.remote.display(),
                    a.local.display(),
                    b.local.display()
                ));
            }
            if same(&a.local, &b.local) {
                return Err(format!(
                    "the local folder {} is mapped twice (to {} and {}); map each local \
                     folder once",
                    a.local.display(),
                    a.remote.display(),
                    b.remote.display()
                ));
            }
        }
    }
    for local in mappings {
        for remote in mappings {
            let (l, r) = (&local.local, &remote.remote);
            // A Windows target's folder is never one of this machine's.
            let posix = TargetStyle::of_root(r) == TargetStyle::Posix;
            if posix && (l.starts_with(r) || r.starts_with(l)) {
                return Err(format!(
                    "the local folder {} and the remote folder {} overlap, so a path under \
                     both could be either side's; map folders that do not hold one \
                     another (a path that is the same on both sides needs no mapping)",
                    l.display(),
                    r.display()
                ));
            }
        }
    }
    Ok(())
}

/// Why `path` is not an absolute path without `.` or `..`.
fn plain_absolute(path: &Path) -> Result<(), &'static str> {
    if !path.is_absolute() {
        return Err("is not absolute");
    }
    if path
        .components()
        .any(|c| matches!(c, Component::ParentDir | Component::CurDir))
    {
        return Err("has `.` or `..` in it");
    }
    Ok(())
}

/// Why a remote root is not an absolute path, in its target's style, without `.`
/// or `..`.
fn plain_remote(path: &Path) -> Result<(), &'static str> {
    match TargetStyle::of_root(path) {
        TargetStyle::Windows if target_style::windows_has_dots(&path.to_string_lossy()) => {
            Err("has `.` or `..` in it")
        }
        TargetStyle::Windows => Ok(()),
        TargetStyle::Posix => plain_absolute(path),
    }
}

fn same(a: &Path, b: &Path) -> bool {
    a.components().eq(b.components())
}

/// Whether two remote roots are one folder (a Windows one without case).
fn same_remote(a: &Path, b: &Path) -> bool {
    match (TargetStyle::of_root(a), TargetStyle::of_root(b)) {
        (TargetStyle::Windows, TargetStyle::Windows) => {
            target_style::windows_same(&a.to_string_lossy(), &b.to_string_lossy())
        }
        _ => same(a, b),
    }
}

/// The mappings of one session, applied to the messages it exchanges with its
/// adapter. Empty (the default) changes nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathMap {
    /// Longest `local` first, so the deepest mapping of a path wins.
    by_local: Vec<PathMapping>,
    /// Longest `remote` first.
    by_remote: Vec<PathMapping>,
}

impl PathMap {
    /// A map of `mappings`, which [`check`] accepted.
    pub fn new(mappings: &[PathMapping]) -> Self {
        let mut by_local = mappings.to_vec();
        by_local.sort_by_key(|m| std::cmp::Reverse(m.local.components().count()));
        let mut by_remote = mappings.to_vec();
        by_remote.sort_by_key(|m| {
            let style = TargetStyle::of_root(&m.remote);
            std::cmp::Reverse(target_style::depth(&m.remote, style))
        });
        Self {
            by_local,
            by_remote,
        }
    }

    /// Whether there is nothing to map.
    pub fn is_empty(&self) -> bool {
        self.by_local.is_empty()
    }

    /// The mappings, deepest local folder first.
    pub fn mappings(&self) -> &[PathMapping] {
        &self.by_local
    }

    /// `path` as the target names it: under a local folder, under its remote one;
    /// a marked remote path, unmarked; anything else as it is.
    pub fn to_remote(&self, path: &str) -> String {
        if let Some(remote) = path.strip_prefix(REMOTE_MARK) {
            return remote.to_string();
        }
        for m in &self.by_local {
            if let Ok(rest) = Path::new(path).strip_prefix(&m.local) {
                return match TargetStyle::of_root(&m.remote) {
                    TargetStyle::Windows => {
                        target_style::windows_join(&m.remote.to_string_lossy(), rest)
                    }
                    TargetStyle::Posix => join(&m.remote, rest),
                };
            }
        }
        path.to_string()
    }

    /// `path`, as the target named it, as the agent sees it: a local path as it is;
    /// under a remote folder, under its local one; any other file path marked as the
    /// target's ([`REMOTE_MARK`]). A name that is no absolute path (`<string>`, a
    /// node internal such as `node:internal/timers`) stays as it is, as does
    /// everything when the map is empty.
    pub fn to_local(&self, path: &str) -> String {
        if self.is_empty() || path.starts_with(REMOTE_MARK) {
            return path.to_string();
        }
        if is_windows_absolute(path) {
            return self.windows_to_local(path);
        }
        if !path.starts_with('/') {
            return path.to_string();
        }
        let given = Path::new(path);
        if self.by_local.iter().any(|m| given.starts_with(&m.local)) {
            return path.to_string();
        }
        for m in &self.by_remote {
            if TargetStyle::of_root(&m.remote) == TargetStyle::Windows {
                continue;
            }
            if let Ok(rest) = given.strip_prefix(&m.remote) {
                return join(&m.local, rest);
            }
        }
        format!("{REMOTE_MARK}{path}")
    }

    /// A Windows target's `path` as the agent sees it: under a Windows remote folder,
    /// under its local one; any other marked. Without a Windows mapping it is no
    /// target's path this map knows of, and stays as it is.
    fn windows_to_local(&self, path: &str) -> String {
        let mut windows = self
            .by_remote
            .iter()
            .filter(|m| TargetStyle::of_root(&m.remote) == TargetStyle::Windows)
            .peekable();
        if windows.peek().is_none() {
            return path.to_string();
        }
        for m in windows {
            if let Some(rest) = target_style::windows_rest(path, &m.remote.to_string_lossy()) {
                return rest
                    .iter()
                    .fold(m.local.clone(), |folder, name| folder.join(name))
                    .display()
                    .to_string();
            }
        }
        format!("{REMOTE_MARK}{path}")
    }

    /// Rewrite the paths of the `Source` objects in a request's arguments for the
    /// target (without mappings, only marked remote paths change: they lose the mark).
    pub fn outgoing(&self, value: &mut Value) {
        walk(value, &|path| self.to_remote(path));
    }

    /// Rewrite the paths of the `Source` objects in a response's or event's body for
    /// the agent.
    pub fn incoming(&self, value: &mut Value) {
        if !self.is_empty() {
            walk(value, &|path| self.to_local(path));
        }
    }
}

fn join(folder: &Path, rest: &Path) -> String {
    if rest.as_os_str().is_empty() {
        folder.display().to_string()
    } else {
        folder.join(rest).display().to_string()
    }
}

/// Apply `map` to the `path` of every `source` object and `sources` entry in `value`.
fn walk(value: &mut Value, map: &dyn Fn(&str) -> String) {
    match value {
        Value::Object(object) => {
            for (key, inner) in object.iter_mut() {
                match (key.as_str(), &mut *inner) {
                    ("source", Value::Object(source)) => map_path(source, map),
                    ("sources", Value::Array(sources)) => {
                        for source in sources.iter_mut() {
                            if let Value::Object(source) = source {
                                map_path(source, map);
                            }
                        }
                    }
                    ("module", Value::Object(module)) => map_module(module, map),
                    ("modules", Value::Array(modules)) => {
                        for module in modules.iter_mut() {
                            if let Value::Object(module) = module {
                                map_module(module, map);
                            }
                        }
                    }
                    _ => {}
                }
                walk(inner, map);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| walk(item, map)),
        _ => {}
    }
}

fn map_path(source: &mut serde_json::Map<String, Value>, map: &dyn Fn(&str) -> String) {
    if let Some(Value::String(path)) = source.get_mut("path") {
        *path = map(path);
    }
}

/// A module's file and its symbol file, where it names them.
fn map_module(module: &mut serde_json::Map<String, Value>, map: &dyn Fn(&str) -> String) {
    map_path(module, map);
    if let Some(Value::String(path)) = module.get_mut("symbolFilePath") {
        *path = map(path);
    }
}
