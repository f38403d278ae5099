//! Folders dapvisor makes itself, fresh, and writes into without ever following a link:
//! each folder is created with `mkdir` (which fails if anything, a link included, is
//! already there), each file with `O_CREAT | O_EXCL | O_NOFOLLOW` and its final mode, so
//! no mode is changed afterwards and nothing an archive named can redirect a write.

use std::fs::{DirBuilder, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The mode of the staging folder itself: only its owner may look inside while an
/// archive is being unpacked into it.
pub(super) const STAGING_MODE: u32 = 0o700;
/// The mode of the folders made inside it, which are moved into place as they are.
const FOLDER_MODE: u32 = 0o755;

/// A folder dapvisor created, fresh, and the writes into it.
#[derive(Debug)]
pub(super) struct Fresh {
    root: PathBuf,
}

impl Fresh {
    /// Create the folder `path` with `mode`; its parent must exist. Refused when
    /// anything is at `path` already.
    pub(super) fn create(path: PathBuf, mode: u32) -> Result<Self, String> {
        DirBuilder::new()
            .mode(mode)
            .create(&path)
            .map_err(|e| format!("could not create {}: {e}", path.display()))?;
        Ok(Self { root: path })
    }

    /// A fresh folder `name` inside this one.
    pub(super) fn subfolder(&self, name: &str) -> Result<Self, String> {
        Self::create(self.root.join(name), FOLDER_MODE)
    }

    pub(super) fn path(&self) -> &Path {
        &self.root
    }

    /// Write what `content` reads to the new file `relative` (plain parts joined by `/`,
    /// as [`super::entry::check`] gives), creating its folders; at most `budget` bytes,
    /// which it lowers by what it wrote. Returns the file's sha256, in hex.
    pub(super) fn write_file(
        &self,
        relative: &str,
        content: &mut dyn Read,
        executable: bool,
        budget: &mut u64,
        over_budget: &dyn Fn() -> String,
    ) -> Result<String, String> {
        let path = self.parents_of(relative)?;
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if executable { 0o755 } else { 0o644 })
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&path)
            .map_err(|e| match e.kind() {
                ErrorKind::AlreadyExists => {
                    format!("the archive holds `{relative}` twice (or as a file and a folder)")
                }
                _ => format!("could not create {}: {e}", path.display()),
            })?;
        let mut hash = Sha256::new();
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let read = content
                .read(&mut buffer)
                .map_err(|e| format!("could not read `{relative}` from the archive: {e}"))?;
            if read == 0 {
                break;
            }
            *budget = budget.checked_sub(read as u64).ok_or_else(over_budget)?;
            hash.update(&buffer[..read]);
            file.write_all(&buffer[..read])
                .map_err(|e| format!("could not write {}: {e}", path.display()))?;
        }
        Ok(hex(&hash.finalize()))
    }

    /// Move `from` (a file or folder dapvisor made) to `relative` inside this folder,
    /// creating the folders on the way.
    pub(super) fn move_in(&self, from: &Path, relative: &str) -> Result<(), String> {
        let to = self.parents_of(relative)?;
        std::fs::rename(from, &to)
            .map_err(|e| format!("could not move {} to {}: {e}", from.display(), to.display()))
    }

    /// The path of `relative` inside this folder, once every folder above it exists as a
    /// real folder (made here, or made here before).
    fn parents_of(&self, relative: &str) -> Result<PathBuf, String> {
        let mut at = self.root.clone();
        let mut parts = relative.split('/').peekable();
        while let Some(part) = parts.next() {
            at.push(part);
            if parts.peek().is_none() {
                break;
            }
            match DirBuilder::new().mode(FOLDER_MODE).create(&at) {
                Ok(()) => {}
                // Made here before, for an earlier file: a real folder, or refused.
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    let is_folder = std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir());
                    if !is_folder {
                        return Err(format!(
                            "the archive holds `{relative}` inside `{}`, which it holds as a file",
                            at.strip_prefix(&self.root).unwrap_or(&at).display()
                        ));
                    }
                }
                Err(e) => return Err(format!("could not create {}: {e}", at.display())),
            }
        }
        Ok(at)
    }
}

/// Write `text` to `name` in the folder `dir` atomically: into a new file beside it
/// (created without following links), then renamed over it.
pub(super) fn write_atomically(dir: &Path, name: &str, text: &str) -> Result<(), String> {
    let temporary = dir.join(format!(".{name}.{}.new", std::process::id()));
    let target = dir.join(name);
    let _ = std::fs::remove_file(&temporary);
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(&temporary)
        .and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temporary, &target));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        format!("could not write {}: {e}", target.display())
    })
}

/// Read the small file `path` (at most `limit` bytes) without following a link.
pub(super) fn read_small(path: &Path, limit: u64) -> Result<String, String> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| format!("could not read {}: {e}", path.display()))?;
    let mut text = String::new();
    file.take(limit)
        .read_to_string(&mut text)
        .map_err(|e| format!("could not read {}: {e}", path.display()))?;
    Ok(text)
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("dapvisor-fresh-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_fresh_folder_refuses_a_link_in_its_place_and_writes_no_file_twice() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = scratch("links");
        let outside = dir.join("outside");
        std::fs::create_dir(&outside).unwrap();
        symlink(&outside, dir.join("staging")).unwrap();
        let err = Fresh::create(dir.join("staging"), STAGING_MODE).unwrap_err();
        assert!(err.contains("could not create"), "{err}");

        let fresh = Fresh::create(dir.join("real"), STAGING_MODE).unwrap();
        let mode = std::fs::metadata(fresh.path())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
        let mut budget = 10;
        let over = || "over".to_string();
        let digest = fresh
            .write_file("a/b.sh", &mut &b"hi"[..], true, &mut budget, &over)
            .unwrap();
        assert_eq!(budget, 8);
        assert_eq!(digest.len(), 64);
        let mode = std::fs::metadata(fresh.path().join("a/b.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o100, 0o100, "executable as asked");
        let twice = fresh.write_file("a/b.sh", &mut &b"x"[..], false, &mut budget, &over);
        assert!(twice.unwrap_err().contains("`a/b.sh` twice"));
        let under_a_file = fresh.write_file("a/b.sh/c", &mut &b"x"[..], false, &mut budget, &over);
        assert!(under_a_file.unwrap_err().contains("holds as a file"));
        let too_big = fresh.write_file("big", &mut &[0u8; 9][..], false, &mut budget, &over);
        assert_eq!(too_big.unwrap_err(), "over");
        assert!(std::fs::read_dir(&outside).unwrap().next().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_atomic_write_replaces_a_link_instead_of_writing_through_it() {
        let dir = scratch("atomic");
        let private = dir.join("private");
        std::fs::write(&private, "secret").unwrap();
        std::os::unix::fs::symlink(&private, dir.join("record.json")).unwrap();
        write_atomically(&dir, "record.json", "{}\n").unwrap();
        assert_eq!(std::fs::read_to_string(&private).unwrap(), "secret");
        let record = dir.join("record.json");
        assert!(std::fs::symlink_metadata(&record).unwrap().is_file());
        assert_eq!(read_small(&record, 64).unwrap(), "{}\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
