//! Unpacking an archive into a fresh folder dapvisor made ([`Fresh`]), entry by entry: a
//! `.tgz`/`.tar.gz` (npm packages, js-debug-dap releases) through the `tar` and `flate2`
//! crates, a `.zip`/`.vsix` (CodeLLDB releases) through the `zip` crate. Those crates only
//! read the entries; each one's type and name pass [`entry::check`] before anything is
//! written, and a single refused entry refuses the whole archive. Only the entries the
//! install wants are written; every entry is checked all the same.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use super::entry::{self, Accepted, EntryType};
use super::staging::Fresh;

/// The most bytes dapvisor reads out of one archive once decompressed: 1 GiB (the npm
/// package it installs from unpacks to 172 MB). Past it the install stops, so that an
/// archive that inflates without end cannot fill the disk or memory.
pub const MAX_UNPACKED_BYTES: u64 = 1 << 30;
/// The most entries dapvisor reads from one archive: 100,000 (the npm package has 1,052).
pub const MAX_ARCHIVE_ENTRIES: usize = 100_000;

/// How much of an archive an install reads: [`MAX_UNPACKED_BYTES`] and
/// [`MAX_ARCHIVE_ENTRIES`] by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArchiveLimits {
    max_bytes: u64,
    max_entries: usize,
}

impl Default for ArchiveLimits {
    fn default() -> Self {
        Self {
            max_bytes: MAX_UNPACKED_BYTES,
            max_entries: MAX_ARCHIVE_ENTRIES,
        }
    }
}

impl ArchiveLimits {
    /// Read at most `bytes` out of an archive, decompressed; at least 1.
    pub fn with_max_bytes(self, bytes: u64) -> Result<Self, String> {
        if bytes == 0 {
            return Err("an archive's byte limit must be at least 1".into());
        }
        Ok(Self {
            max_bytes: bytes,
            ..self
        })
    }

    /// Read at most `entries` entries of an archive; at least 1.
    pub fn with_max_entries(self, entries: usize) -> Result<Self, String> {
        if entries == 0 {
            return Err("an archive's entry limit must be at least 1".into());
        }
        Ok(Self {
            max_entries: entries,
            ..self
        })
    }
}

/// The kinds of archive an install takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ArchiveKind {
    TarGz,
    Zip,
}

impl ArchiveKind {
    /// The kind `file` is, by its name.
    pub(super) fn of(file: &Path) -> Option<Self> {
        let name = file.file_name()?.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".tgz") || name.ends_with(".tar.gz") {
            Some(Self::TarGz)
        } else if name.ends_with(".zip") || name.ends_with(".vsix") {
            Some(Self::Zip)
        } else {
            None
        }
    }
}

/// The files an archive left in its folder: each one's path there (as `/`-separated
/// plain parts) and its sha256 in hex.
pub(super) type Unpacked = BTreeMap<String, String>;

/// Check every entry of `file` and write the regular files whose path `wanted` accepts
/// into `into`, within `limits`. The error names the entry that was refused.
pub(super) fn unpack(
    file: &Path,
    into: &Fresh,
    wanted: &dyn Fn(&str) -> bool,
    limits: ArchiveLimits,
) -> Result<Unpacked, String> {
    let kind = ArchiveKind::of(file).ok_or_else(|| {
        format!(
            "{} is not an archive dapvisor can unpack (.tgz, .tar.gz, .zip or .vsix)",
            file.display()
        )
    })?;
    let opened = File::open(file).map_err(|e| format!("could not open {}: {e}", file.display()))?;
    let mut writer = Writer {
        into,
        wanted,
        limits,
        budget: limits.max_bytes,
        entries: 0,
        files: Unpacked::new(),
    };
    let unpacked = match kind {
        ArchiveKind::TarGz => writer.tar(opened),
        ArchiveKind::Zip => writer.zip(opened),
    };
    unpacked
        .map(|()| writer.files)
        .map_err(|e| format!("{}: {e}; nothing was installed", file.display()))
}

/// One archive's unpacking under way.
struct Writer<'a> {
    into: &'a Fresh,
    wanted: &'a dyn Fn(&str) -> bool,
    limits: ArchiveLimits,
    /// Bytes still allowed out of the archive.
    budget: u64,
    entries: usize,
    files: Unpacked,
}

impl Writer<'_> {
    fn tar(&mut self, file: File) -> Result<(), String> {
        let gz = flate2::read::MultiGzDecoder::new(BufReader::new(file));
        // Headers and long names count too: the whole decompressed stream is limited.
        let mut archive = tar::Archive::new(Limited {
            inner: gz,
            left: self.limits.max_bytes,
            max: self.limits.max_bytes,
        });
        let entries = archive.entries().map_err(|e| e.to_string())?;
        for entry in entries {
            let mut entry = entry.map_err(|e| format!("not a readable .tar.gz: {e}"))?;
            let header = entry.header();
            let mode = header.mode().unwrap_or(0o644);
            let kind = match header.entry_type() {
                tar::EntryType::Regular | tar::EntryType::Continuous => EntryType::File {
                    executable: mode & 0o100 != 0,
                },
                tar::EntryType::Directory => EntryType::Dir,
                tar::EntryType::Symlink => EntryType::Symlink,
                tar::EntryType::Link => EntryType::HardLink,
                tar::EntryType::Char | tar::EntryType::Block | tar::EntryType::Fifo => {
                    EntryType::Device
                }
                tar::EntryType::XGlobalHeader => EntryType::Metadata,
                _ => EntryType::Other,
            };
            let name = entry.path_bytes().into_owned();
            let target = entry.link_name_bytes().map(|t| t.into_owned());
            let size = entry.size();
            self.entry(&name, kind, target.as_deref(), size, &mut entry)?;
        }
        Ok(())
    }

    fn zip(&mut self, file: File) -> Result<(), String> {
        let mut archive = zip::ZipArchive::new(BufReader::new(file))
            .map_err(|e| format!("not a readable .zip: {e}"))?;
        if archive.len() > self.limits.max_entries {
            return Err(self.too_many());
        }
        for index in 0..archive.len() {
            let mut entry = archive
                .by_index(index)
                .map_err(|e| format!("not a readable .zip (entry {index}): {e}"))?;
            let name = entry.name_raw().to_vec();
            let kind = zip_kind(entry.unix_mode().unwrap_or(0), &name);
            // A zip's link keeps its target as its content.
            let target = if kind == EntryType::Symlink && entry.size() <= 4096 {
                let mut target = Vec::new();
                let _ = (&mut entry).take(4096).read_to_end(&mut target);
                Some(target)
            } else {
                None
            };
            let size = entry.size();
            self.entry(&name, kind, target.as_deref(), size, &mut entry)?;
        }
        Ok(())
    }

    /// Check one entry, and write it when it is a file the install wants.
    fn entry(
        &mut self,
        name: &[u8],
        kind: EntryType,
        target: Option<&[u8]>,
        size: u64,
        content: &mut dyn Read,
    ) -> Result<(), String> {
        self.entries += 1;
        if self.entries > self.limits.max_entries {
            return Err(self.too_many());
        }
        let Accepted::File { path, executable } = entry::check(name, kind, target)? else {
            return Ok(());
        };
        if size > self.budget {
            return Err(self.too_big());
        }
        if !(self.wanted)(&path) {
            return Ok(());
        }
        let max = self.limits.max_bytes;
        let too_big = || too_big(max);
        let digest =
            self.into
                .write_file(&path, content, executable, &mut self.budget, &too_big)?;
        self.files.insert(path, digest);
        Ok(())
    }

    fn too_many(&self) -> String {
        format!(
            "it has more than {} entries (dapvisor's limit, MAX_ARCHIVE_ENTRIES)",
            self.limits.max_entries
        )
    }

    fn too_big(&self) -> String {
        too_big(self.limits.max_bytes)
    }
}

/// What a zip entry is: its Unix mode's file type when it has one, else a folder when its
/// name ends in `/`, else a file.
fn zip_kind(mode: u32, name: &[u8]) -> EntryType {
    match mode & 0o170_000 {
        0o120_000 => EntryType::Symlink,
        0o020_000 | 0o060_000 | 0o010_000 | 0o140_000 => EntryType::Device,
        0o040_000 => EntryType::Dir,
        _ if name.ends_with(b"/") => EntryType::Dir,
        0 | 0o100_000 => EntryType::File {
            executable: mode & 0o100 != 0,
        },
        _ => EntryType::Other,
    }
}

fn too_big(max: u64) -> String {
    format!("it unpacks to more than {max} bytes (dapvisor's limit, MAX_UNPACKED_BYTES)")
}

/// A reader that fails, saying why, once more than `max` bytes were read through it.
struct Limited<R> {
    inner: R,
    left: u64,
    max: u64,
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.left = self
            .left
            .checked_sub(read as u64)
            .ok_or_else(|| io::Error::other(too_big(self.max)))?;
        Ok(read)
    }
}

#[cfg(test)]
#[path = "archive_tests.rs"]
mod tests;
