//! Archives built here, hostile ones among them, unpacked into a fresh folder beside a
//! victim folder: nothing lands outside the fresh folder, nothing in it is a link, and
//! every refusal names an entry.

use super::*;
use proptest::prelude::*;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// An entry to build: its raw name, kind, link target and content.
#[derive(Debug, Clone)]
struct Built {
    name: String,
    kind: EntryType,
    target: String,
    content: Vec<u8>,
}

fn tar_gz(entries: &[Built]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(gz);
    for e in entries {
        let mut header = tar::Header::new_gnu();
        // The name and link target as they are: tar's own setters refuse `..`.
        let old = header.as_old_mut();
        let name = e.name.as_bytes();
        old.name[..name.len().min(99)].copy_from_slice(&name[..name.len().min(99)]);
        let target = e.target.as_bytes();
        old.linkname[..target.len().min(99)].copy_from_slice(&target[..target.len().min(99)]);
        let (kind, mode) = match e.kind {
            EntryType::File { executable } => (
                tar::EntryType::Regular,
                if executable { 0o755 } else { 0o644 },
            ),
            EntryType::Dir => (tar::EntryType::Directory, 0o755),
            EntryType::Symlink => (tar::EntryType::Symlink, 0o777),
            EntryType::HardLink => (tar::EntryType::Link, 0o644),
            EntryType::Device => (tar::EntryType::Char, 0o644),
            EntryType::Metadata => (tar::EntryType::XGlobalHeader, 0o644),
            EntryType::Other => (tar::EntryType::new(b'Z'), 0o644),
        };
        header.set_entry_type(kind);
        header.set_mode(mode);
        let content: &[u8] = match e.kind {
            EntryType::File { .. } => &e.content,
            _ => &[],
        };
        header.set_size(content.len() as u64);
        header.set_cksum();
        builder.append(&header, content).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

fn zip(entries: &[Built]) -> Vec<u8> {
    zip_of(entries).0
}

/// A zip of `entries`, and those of them it holds: a zip has no hard links, devices or
/// metadata entries of its own, and its writer refuses a name twice.
fn zip_of(entries: &[Built]) -> (Vec<u8>, Vec<Built>) {
    use zip::write::SimpleFileOptions;
    let mut writer = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut held = Vec::new();
    for e in entries {
        let added = match e.kind {
            EntryType::File { executable } => {
                let mode = if executable { 0o755 } else { 0o644 };
                let started = writer.start_file(&e.name, stored.unix_permissions(mode));
                started.is_ok() && writer.write_all(&e.content).is_ok()
            }
            EntryType::Dir => writer.add_directory(&e.name, stored).is_ok(),
            EntryType::Symlink => writer.add_symlink(&e.name, &e.target, stored).is_ok(),
            _ => false,
        };
        if added {
            held.push(e.clone());
        }
    }
    (writer.finish().unwrap().into_inner(), held)
}

/// A sandbox holding a victim folder (a private file and a folder) and the archive.
struct Sandbox {
    dir: PathBuf,
}

impl Sandbox {
    fn new(name: &str) -> Self {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "dapvisor-unpack-{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("victim/dir")).unwrap();
        std::fs::write(dir.join("victim/private"), "secret").unwrap();
        std::fs::set_permissions(dir.join("victim/private"), PermissionsExt::from_mode(0o600))
            .unwrap();
        Self { dir }
    }

    fn unpack(&self, file: &str, bytes: &[u8]) -> Result<Unpacked, String> {
        let archive = self.dir.join(file);
        std::fs::write(&archive, bytes).unwrap();
        let staging = Fresh::create(self.dir.join("staging"), 0o700).unwrap();
        unpack(&archive, &staging, &|_| true, ArchiveLimits::default())
    }

    /// The victim is as it was, the sandbox holds nothing new, and the staging folder
    /// holds only real folders and regular files.
    fn assert_nothing_escaped(&self) {
        let victim = self.dir.join("victim");
        assert_eq!(
            std::fs::read_to_string(victim.join("private")).unwrap(),
            "secret"
        );
        let mode = std::fs::metadata(victim.join("private"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the private file's mode is unchanged");
        assert_eq!(std::fs::read_dir(victim.join("dir")).unwrap().count(), 0);
        let mut names: Vec<_> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| !n.starts_with("archive."))
            .collect();
        names.sort();
        assert_eq!(names, ["staging", "victim"]);
        let mut folders = vec![self.dir.join("staging")];
        while let Some(folder) = folders.pop() {
            for e in std::fs::read_dir(folder).unwrap() {
                let e = e.unwrap();
                let kind = std::fs::symlink_metadata(e.path()).unwrap().file_type();
                assert!(
                    kind.is_dir() || kind.is_file(),
                    "{:?} is {kind:?}",
                    e.path()
                );
                if kind.is_dir() {
                    folders.push(e.path());
                }
            }
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn file(name: &str, content: &str) -> Built {
    Built {
        name: name.into(),
        kind: EntryType::File { executable: false },
        target: String::new(),
        content: content.as_bytes().to_vec(),
    }
}

fn link(name: &str, kind: EntryType, target: &str) -> Built {
    Built {
        name: name.into(),
        kind,
        target: target.into(),
        content: Vec::new(),
    }
}

#[test]
fn kinds_by_name() {
    let kind = |name: &str| ArchiveKind::of(Path::new(name));
    assert_eq!(kind("mcp-debugger-0.24.2.tgz"), Some(ArchiveKind::TarGz));
    assert_eq!(
        kind("js-debug-dap-v1.112.0.TAR.GZ"),
        Some(ArchiveKind::TarGz)
    );
    assert_eq!(kind("codelldb-linux-x64.vsix"), Some(ArchiveKind::Zip));
    assert_eq!(kind("release.zip"), Some(ArchiveKind::Zip));
    assert_eq!(kind("codelldb"), None);
}

#[test]
fn a_zip_entry_is_what_its_unix_mode_says_else_what_its_name_says() {
    assert_eq!(zip_kind(0o120_777, b"a"), EntryType::Symlink);
    for device in [0o020_644, 0o060_644, 0o010_644, 0o140_644] {
        assert_eq!(zip_kind(device, b"a"), EntryType::Device);
    }
    assert_eq!(zip_kind(0o040_755, b"a"), EntryType::Dir);
    assert_eq!(zip_kind(0, b"a/"), EntryType::Dir);
    assert_eq!(
        zip_kind(0o100_755, b"a"),
        EntryType::File { executable: true }
    );
    assert_eq!(zip_kind(0, b"a"), EntryType::File { executable: false });
    assert_eq!(
        zip_kind(0o120_777, b"a/"),
        EntryType::Symlink,
        "a link named like a folder"
    );
}

#[test]
fn plain_archives_unpack_with_their_digests_and_modes() {
    let program = Built {
        kind: EntryType::File { executable: true },
        ..file("./pkg/bin/run", "#!/bin/sh\n")
    };
    let entries = [
        link("pkg/", EntryType::Dir, ""),
        program,
        file("pkg/a.txt", "hi"),
    ];
    for (name, bytes) in [
        ("archive.tgz", tar_gz(&entries)),
        ("archive.zip", zip(&entries)),
    ] {
        let sandbox = Sandbox::new("plain");
        let files = sandbox.unpack(name, &bytes).unwrap();
        let paths: Vec<_> = files.keys().map(String::as_str).collect();
        assert_eq!(paths, ["pkg/a.txt", "pkg/bin/run"], "{name}");
        assert_eq!(
            files["pkg/a.txt"],
            "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"
        );
        let staged = sandbox.dir.join("staging/pkg");
        assert_eq!(std::fs::read_to_string(staged.join("a.txt")).unwrap(), "hi");
        let mode = |f: &str| {
            std::fs::metadata(staged.join(f))
                .unwrap()
                .permissions()
                .mode()
        };
        assert_eq!(mode("bin/run") & 0o111, 0o111, "{name}");
        assert_eq!(mode("a.txt") & 0o111, 0, "{name}");
        sandbox.assert_nothing_escaped();
    }
}

#[test]
fn a_link_then_a_file_through_it_is_refused_at_the_link() {
    let sandbox = Sandbox::new("through");
    let victim = sandbox.dir.join("victim/dir");
    let entries = [
        link("pkg/out", EntryType::Symlink, victim.to_str().unwrap()),
        file("pkg/out/planted", "x"),
    ];
    for (name, bytes) in [
        ("archive.tgz", tar_gz(&entries)),
        ("archive.zip", zip(&entries)),
    ] {
        let _ = std::fs::remove_dir_all(sandbox.dir.join("staging"));
        let err = sandbox.unpack(name, &bytes).unwrap_err();
        assert!(err.contains("`pkg/out` is a symbolic link"), "{err}");
        assert!(err.contains("nothing was installed"), "{err}");
        sandbox.assert_nothing_escaped();
    }
}

#[test]
fn a_file_that_is_also_a_folder_or_appears_twice_is_refused() {
    let sandbox = Sandbox::new("twice");
    let err = sandbox
        .unpack("archive.tgz", &tar_gz(&[file("a", "1"), file("a", "2")]))
        .unwrap_err();
    assert!(err.contains("holds `a` twice"), "{err}");
    let _ = std::fs::remove_dir_all(sandbox.dir.join("staging"));
    let err = sandbox
        .unpack("archive.tgz", &tar_gz(&[file("a", "1"), file("a/b", "2")]))
        .unwrap_err();
    assert!(err.contains("which it holds as a file"), "{err}");
    sandbox.assert_nothing_escaped();
}

#[test]
fn the_limits_stop_an_archive_that_is_too_big_or_has_too_many_entries() {
    let sandbox = Sandbox::new("limits");
    let archive = sandbox.dir.join("archive.tgz");
    std::fs::write(&archive, tar_gz(&[file("a", "12345"), file("b", "1")])).unwrap();
    let staging = Fresh::create(sandbox.dir.join("staging"), 0o700).unwrap();
    let small = ArchiveLimits::default().with_max_bytes(4).unwrap();
    let err = unpack(&archive, &staging, &|_| true, small).unwrap_err();
    assert!(err.contains("more than 4 bytes"), "{err}");
    let few = ArchiveLimits::default().with_max_entries(1).unwrap();
    let err = unpack(&archive, &staging, &|_| true, few).unwrap_err();
    assert!(err.contains("more than 1 entries"), "{err}");
    assert!(ArchiveLimits::default().with_max_bytes(0).is_err());
    assert!(ArchiveLimits::default().with_max_entries(0).is_err());
}

#[test]
fn only_wanted_files_are_written_but_every_entry_is_checked() {
    let sandbox = Sandbox::new("wanted");
    let archive = sandbox.dir.join("archive.tgz");
    let wanted = |path: &str| path.starts_with("keep/");
    std::fs::write(
        &archive,
        tar_gz(&[file("keep/a", "1"), file("skip/b", "2")]),
    )
    .unwrap();
    let staging = Fresh::create(sandbox.dir.join("staging"), 0o700).unwrap();
    let files = unpack(&archive, &staging, &wanted, ArchiveLimits::default()).unwrap();
    assert_eq!(files.keys().collect::<Vec<_>>(), ["keep/a"]);
    assert!(!sandbox.dir.join("staging/skip").exists());

    let hostile = [file("keep/a", "1"), link("skip/dev", EntryType::Device, "")];
    std::fs::write(&archive, tar_gz(&hostile)).unwrap();
    let staging = Fresh::create(sandbox.dir.join("staging2"), 0o700).unwrap();
    let err = unpack(&archive, &staging, &wanted, ArchiveLimits::default()).unwrap_err();
    assert!(err.contains("`skip/dev` is a device"), "{err}");
}

fn built() -> impl Strategy<Value = Built> {
    let part = prop_oneof![
        4 => "[a-z]{1,4}",
        1 => Just("..".to_string()),
        1 => Just(".".to_string()),
        1 => Just(String::new()),
    ];
    let kind = prop_oneof![
        4 => any::<bool>().prop_map(|executable| EntryType::File { executable }),
        1 => Just(EntryType::Dir),
        1 => Just(EntryType::Symlink),
        1 => Just(EntryType::HardLink),
        1 => Just(EntryType::Device),
        1 => Just(EntryType::Metadata),
        1 => Just(EntryType::Other),
    ];
    let target = prop_oneof![
        Just("../victim/private".to_string()),
        Just("victim/dir".to_string()),
        "[a-z./]{0,12}",
    ];
    (
        prop::collection::vec(part, 1..4),
        any::<bool>(),
        kind,
        target,
        prop::collection::vec(any::<u8>(), 0..32),
    )
        .prop_map(|(parts, absolute, kind, target, content)| Built {
            name: format!("{}{}", if absolute { "/" } else { "" }, parts.join("/")),
            kind,
            target,
            content,
        })
}

/// Whether `e` is one dapvisor must refuse, whatever else is in the archive.
fn hostile(e: &Built) -> bool {
    let leaves = e.name.starts_with('/') || e.name.split('/').any(|p| p == "..");
    let kind_refused = matches!(
        e.kind,
        EntryType::Symlink | EntryType::HardLink | EntryType::Device | EntryType::Other
    );
    leaves || kind_refused
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Generated names, link targets and types: nothing lands outside the staging folder,
    /// and an archive holding a link, device or a name that leaves is refused.
    #[test]
    fn nothing_lands_outside_the_staging_folder(entries in prop::collection::vec(built(), 1..8)) {
        let sandbox = Sandbox::new("prop");
        let tar = sandbox.unpack("archive.tgz", &tar_gz(&entries));
        sandbox.assert_nothing_escaped();
        if entries.iter().any(hostile) {
            prop_assert!(tar.is_err(), "{entries:?} was accepted");
        }
        if let Err(err) = &tar {
            prop_assert!(err.contains("entry `") || err.contains("holds `"), "{err}");
        }
        // The same entries as a zip.
        let _ = std::fs::remove_dir_all(sandbox.dir.join("staging"));
        let (bytes, held) = zip_of(&entries);
        let zipped = sandbox.unpack("archive.zip", &bytes);
        sandbox.assert_nothing_escaped();
        if held.iter().any(hostile) {
            prop_assert!(zipped.is_err(), "{entries:?} was accepted as a zip");
        }
    }
}
