//! What dapvisor accepts of an archive's entries, decided from the entry's header alone,
//! before anything is written: regular files and folders whose names stay inside the
//! folder they unpack into. Links, hard links, devices and every other kind of entry are
//! refused, whatever they point at, and so is a name that is absolute, climbs out with
//! `..`, or is not plain UTF-8. The archive tools' own defaults are not relied on: the
//! archive is read entry by entry ([`super::archive`]) and each one passes here first.

/// What an archive entry is, as its header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EntryType {
    /// A regular file; `executable` when its mode has the owner's execute bit.
    File {
        executable: bool,
    },
    Dir,
    Symlink,
    HardLink,
    /// A character or block device, a FIFO or a socket.
    Device,
    /// Metadata for the archive as a whole, naming no file (a pax global header).
    Metadata,
    /// Any other kind (a sparse file, a volume label, a type letter no one knows).
    Other,
}

/// An entry dapvisor accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Accepted {
    /// A regular file, to be written at `path` (`/`-separated, every part a plain name)
    /// under the folder the archive unpacks into.
    File { path: String, executable: bool },
    /// A folder or metadata: nothing to write (folders are made for the files in them).
    Nothing,
}

/// Check one entry: its raw `name`, its type, and (for links) the `target` it names.
/// The error names the entry and says why it was refused.
pub(super) fn check(
    name: &[u8],
    kind: EntryType,
    target: Option<&[u8]>,
) -> Result<Accepted, String> {
    let refused = |why: String| format!("the archive's entry `{}` {why}", shown(name));
    let link_target = || {
        target
            .map(|t| format!(" (to `{}`)", shown(t)))
            .unwrap_or_default()
    };
    let executable = match kind {
        EntryType::File { executable } => executable,
        EntryType::Dir | EntryType::Metadata => {
            plain_path(name).map_err(refused)?;
            return Ok(Accepted::Nothing);
        }
        EntryType::Symlink => {
            return Err(refused(format!("is a symbolic link{}", link_target())));
        }
        EntryType::HardLink => {
            return Err(refused(format!("is a hard link{}", link_target())));
        }
        EntryType::Device => {
            return Err(refused(
                "is a device, FIFO or socket, not a file".to_string(),
            ))
        }
        EntryType::Other => {
            return Err(refused(
                "is of a kind dapvisor does not unpack (only regular files and folders)"
                    .to_string(),
            ))
        }
    };
    let path = plain_path(name).map_err(refused)?;
    if path.is_empty() {
        return Err(refused("names no file".to_string()));
    }
    Ok(Accepted::File { path, executable })
}

/// `name` as a relative path of plain parts joined by `/`: `.` and empty parts dropped;
/// an absolute name, a `..`, a backslash or a NUL refused (the error says which).
fn plain_path(name: &[u8]) -> Result<String, String> {
    let text = std::str::from_utf8(name).map_err(|_| "has a name that is not UTF-8")?;
    if text.starts_with('/') {
        return Err("is an absolute path".to_string());
    }
    if text.contains('\\') {
        return Err("has a backslash in its name (a Windows path)".to_string());
    }
    if text.contains('\0') {
        return Err("has a NUL in its name".to_string());
    }
    let mut parts = Vec::new();
    for part in text.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err("climbs out of the folder it unpacks into (`..`)".to_string()),
            plain => parts.push(plain),
        }
    }
    Ok(parts.join("/"))
}

/// `bytes` for an error message: lossy UTF-8 with control characters escaped, so a name
/// cannot rewrite the user's terminal.
pub(super) fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn file(name: &str) -> Result<Accepted, String> {
        check(name.as_bytes(), EntryType::File { executable: false }, None)
    }

    #[test]
    fn plain_files_are_accepted_with_dots_and_empty_parts_dropped() {
        let accepted = |path: &str| Accepted::File {
            path: path.into(),
            executable: false,
        };
        assert_eq!(file("package/a.js"), Ok(accepted("package/a.js")));
        assert_eq!(file("./package//a.js"), Ok(accepted("package/a.js")));
        assert_eq!(file("a..b/..c"), Ok(accepted("a..b/..c")));
        assert_eq!(
            check(b"./", EntryType::Dir, None),
            Ok(Accepted::Nothing),
            "the archive's own root"
        );
    }

    #[test]
    fn each_refusal_names_the_entry_and_says_why() {
        let cases: [(&[u8], EntryType, &str); 9] = [
            (b"../x", EntryType::File { executable: false }, "climbs out"),
            (b"a/../../x", EntryType::Dir, "climbs out"),
            (b"/etc/x", EntryType::File { executable: true }, "absolute"),
            (
                b"a\\..\\x",
                EntryType::File { executable: false },
                "backslash",
            ),
            (
                b"a/\xff",
                EntryType::File { executable: false },
                "not UTF-8",
            ),
            (
                b"lldb/bin/lldb",
                EntryType::Symlink,
                "symbolic link (to `/p`)",
            ),
            (b"lldb/bin/lldb", EntryType::HardLink, "hard link (to `/p`)"),
            (b"dev/null", EntryType::Device, "device"),
            (b"x", EntryType::Other, "of a kind"),
        ];
        for (name, kind, why) in cases {
            let err = check(name, kind, Some(b"/p")).unwrap_err();
            assert!(err.contains(&format!("`{}`", shown(name))), "{err}");
            assert!(err.contains(why), "{err}");
        }
        assert!(file("./").unwrap_err().contains("names no file"));
        // A name cannot rewrite the terminal the error is printed on.
        let err = file("\u{1b}[2J/../x").unwrap_err();
        assert!(err.contains("`\\u{1b}[2J/../x`"), "{err}");
    }

    /// A part of a generated name: plain, or one of the ways a name can try to leave.
    fn part() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z]{1,6}",
            Just("..".to_string()),
            Just(".".to_string()),
            Just(String::new()),
            Just("a\\..".to_string()),
            Just("\u{0}".to_string()),
            "\\PC{1,4}",
        ]
    }

    fn kind() -> impl Strategy<Value = EntryType> {
        prop_oneof![
            any::<bool>().prop_map(|executable| EntryType::File { executable }),
            Just(EntryType::Dir),
            Just(EntryType::Symlink),
            Just(EntryType::HardLink),
            Just(EntryType::Device),
            Just(EntryType::Metadata),
            Just(EntryType::Other),
        ]
    }

    proptest! {
        /// Whatever the name, type and link target, what is accepted is a regular file
        /// whose path, joined to any folder, stays inside it; everything else is refused.
        #[test]
        fn only_plain_files_inside_the_folder_are_accepted(
            parts in prop::collection::vec(part(), 1..6),
            leading_slash in any::<bool>(),
            kind in kind(),
            target in prop::option::of("\\PC{0,12}"),
        ) {
            let name = format!("{}{}", if leading_slash { "/" } else { "" }, parts.join("/"));
            let verdict = check(name.as_bytes(), kind, target.as_deref().map(str::as_bytes));
            match verdict {
                Ok(Accepted::File { path, .. }) => {
                    prop_assert!(matches!(kind, EntryType::File { .. }), "{kind:?}");
                    let root = std::path::Path::new("/staging");
                    let joined = root.join(&path);
                    prop_assert!(joined.starts_with(root) && joined != root);
                    for c in std::path::Path::new(&path).components() {
                        prop_assert!(matches!(c, std::path::Component::Normal(_)), "{path}");
                    }
                    prop_assert!(!path.contains('\\') && !path.contains('\0'));
                }
                Ok(Accepted::Nothing) => {
                    prop_assert!(matches!(kind, EntryType::Dir | EntryType::Metadata), "{kind:?}");
                }
                Err(err) => prop_assert!(err.contains("the archive's entry `"), "{err}"),
            }
            if matches!(kind, EntryType::Symlink | EntryType::HardLink | EntryType::Device | EntryType::Other) {
                prop_assert!(check(name.as_bytes(), kind, None).is_err());
            }
        }
    }
}
