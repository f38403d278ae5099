//! How a target spells its paths: POSIX (`/srv/app/main.py`), or Windows
//! (`C:\app\src\main.py`, `\\server\share\app`), as a debugpy or js-debug server on a
//! Windows machine reports them. Which one a mapping's target uses is read from its
//! remote root: a drive letter (`C:\`, `c:/`) or a UNC prefix (`\\`) is Windows;
//! anything else is POSIX. On the Windows side both separators are taken and letters
//! compare without case (as Windows compares file names); what goes to the target
//! uses its own separator, `\`.

use std::path::Path;

/// The spelling of a target's paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TargetStyle {
    /// `/`-separated, case-sensitive.
    Posix,
    /// `\`-separated (`/` taken too), with a drive letter or a UNC prefix,
    /// case-insensitive.
    Windows,
}

impl TargetStyle {
    /// The style of a mapping whose remote root is `root`.
    pub(super) fn of_root(root: &Path) -> Self {
        match root.to_str() {
            Some(text) if is_windows_absolute(text) => Self::Windows,
            _ => Self::Posix,
        }
    }
}

/// Whether `path` is an absolute Windows path: a drive letter, a colon and a
/// separator (`C:\app`, `c:/app`), or a UNC path (`\\server\share`).
pub fn is_windows_absolute(path: &str) -> bool {
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && matches!(bytes[2], b'\\' | b'/');
    let unc = path.starts_with(r"\\") && path.len() > 2;
    drive || unc
}

/// The names of a Windows path, either separator splitting it (`C:\a/b` is `C:`,
/// `a`, `b`; a UNC path's leading `\\` is dropped).
pub(super) fn windows_names(path: &str) -> Vec<&str> {
    path.split(['\\', '/']).filter(|n| !n.is_empty()).collect()
}

/// Whether a Windows path has a `.` or `..` in it.
pub(super) fn windows_has_dots(path: &str) -> bool {
    windows_names(path).iter().any(|n| *n == "." || *n == "..")
}

/// The names of Windows path `path` after `root`'s, if `path` is `root` or under it
/// (names compared without case).
pub(super) fn windows_rest<'a>(path: &'a str, root: &str) -> Option<Vec<&'a str>> {
    let names = windows_names(path);
    let root = windows_names(root);
    let under = names.len() >= root.len()
        && names
            .iter()
            .zip(&root)
            .all(|(a, b)| a.eq_ignore_ascii_case(b) || a.to_lowercase() == b.to_lowercase());
    // A UNC root and a drive root never match one another: `\\c:` is no path.
    under.then(|| names[root.len()..].to_vec())
}

/// Whether two Windows paths name the same folder.
pub(super) fn windows_same(a: &str, b: &str) -> bool {
    windows_rest(a, b).is_some_and(|rest| rest.is_empty())
}

/// `root` with the local names `rest` under it, in the target's separator.
pub(super) fn windows_join(root: &str, rest: &Path) -> String {
    let unc = root.starts_with(r"\\");
    let mut joined = windows_names(root).join("\\");
    if unc {
        joined.insert_str(0, r"\\");
    }
    let names: Vec<_> = rest
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    if names.is_empty() && !unc && joined.len() == 2 {
        joined.push('\\'); // the drive's root folder, `C:\`, not `C:`
    }
    for name in names {
        joined.push('\\');
        joined.push_str(&name);
    }
    joined
}

/// How many names deep a remote root is, in its own style, so the deepest mapping
/// of a path wins.
pub(super) fn depth(root: &Path, style: TargetStyle) -> usize {
    match style {
        TargetStyle::Posix => root.components().count(),
        TargetStyle::Windows => windows_names(&root.to_string_lossy()).len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drive_letter_or_unc_prefix_is_windows_and_anything_else_posix() {
        for windows in [r"C:\app", "c:/app", r"D:\", r"\\server\share\app"] {
            assert!(is_windows_absolute(windows), "{windows}");
            assert_eq!(
                TargetStyle::of_root(Path::new(windows)),
                TargetStyle::Windows
            );
        }
        for other in [
            "/srv/app",
            "app",
            "C:",
            "C:app",
            r"\\",
            "node:internal/x",
            "//srv",
        ] {
            assert!(!is_windows_absolute(other), "{other}");
        }
        assert_eq!(
            TargetStyle::of_root(Path::new("/srv/app")),
            TargetStyle::Posix
        );
    }

    #[test]
    fn windows_names_compare_without_case_and_either_separator() {
        assert_eq!(
            windows_rest(r"c:\APP\src\Lib\x.py", r"C:\app\src"),
            Some(vec!["Lib", "x.py"])
        );
        assert_eq!(
            windows_rest("C:/app/src/x.py", r"C:\app\src\"),
            Some(vec!["x.py"])
        );
        assert_eq!(windows_rest(r"C:\application\x.py", r"C:\app"), None);
        assert_eq!(windows_rest(r"D:\app\x.py", r"C:\app"), None);
        assert_eq!(
            windows_rest(r"\\srv\share\a.py", r"\\SRV\Share"),
            Some(vec!["a.py"])
        );
        assert!(windows_same(r"C:\App", "c:/app/"));
        assert!(!windows_same(r"C:\app", r"C:\apple"));
        assert!(windows_has_dots(r"C:\app\..\x"));
        assert!(!windows_has_dots(r"C:\app\.x"));
    }

    #[test]
    fn joined_paths_use_the_targets_separator() {
        assert_eq!(
            windows_join(r"C:\app\src", Path::new("pkg/main.py")),
            r"C:\app\src\pkg\main.py"
        );
        assert_eq!(windows_join("c:/app/", Path::new("")), r"c:\app");
        assert_eq!(windows_join(r"D:\", Path::new("x.js")), r"D:\x.js");
        assert_eq!(windows_join("D:/", Path::new("")), r"D:\");
        assert_eq!(
            windows_join(r"\\srv\share", Path::new("a/b.py")),
            r"\\srv\share\a\b.py"
        );
        assert_eq!(depth(Path::new(r"C:\app\src"), TargetStyle::Windows), 3);
    }
}
