//! Archives the install tests build themselves: `.tgz` and `.zip`/`.vsix` files holding
//! the entries a test names, hostile ones included (links, hard links, devices, names
//! with `..`), and release-shaped archives repacked from the npm package's real files.

#![allow(dead_code)]

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

/// One entry to put in an archive.
pub struct Entry {
    pub name: String,
    pub kind: Kind,
}

pub enum Kind {
    File { content: Vec<u8>, mode: u32 },
    Symlink(String),
    HardLink(String),
    CharDevice,
}

pub fn file(name: &str, content: &[u8]) -> Entry {
    Entry {
        name: name.into(),
        kind: Kind::File {
            content: content.to_vec(),
            mode: 0o644,
        },
    }
}

pub fn program(name: &str, content: &[u8]) -> Entry {
    Entry {
        name: name.into(),
        kind: Kind::File {
            content: content.to_vec(),
            mode: 0o755,
        },
    }
}

pub fn symlink(name: &str, target: &Path) -> Entry {
    Entry {
        name: name.into(),
        kind: Kind::Symlink(target.to_str().unwrap().into()),
    }
}

/// A `.tgz` at `path` holding `entries` as they are: names and link targets are written
/// into the headers byte for byte (tar's own setters refuse `..`), so each stays under
/// 100 bytes.
pub fn tar_gz(path: &Path, entries: &[Entry]) {
    let gz =
        flate2::write::GzEncoder::new(File::create(path).unwrap(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(gz);
    for entry in entries {
        let mut header = tar::Header::new_gnu();
        let raw = header.as_old_mut();
        assert!(entry.name.len() < 100, "{}", entry.name);
        raw.name[..entry.name.len()].copy_from_slice(entry.name.as_bytes());
        let (kind, mode, target, content): (_, _, &str, &[u8]) = match &entry.kind {
            Kind::File { content, mode } => (tar::EntryType::Regular, *mode, "", content),
            Kind::Symlink(target) => (tar::EntryType::Symlink, 0o777, target, &[]),
            Kind::HardLink(target) => (tar::EntryType::Link, 0o644, target, &[]),
            Kind::CharDevice => (tar::EntryType::Char, 0o644, "", &[]),
        };
        raw.linkname[..target.len()].copy_from_slice(target.as_bytes());
        header.set_entry_type(kind);
        header.set_mode(mode);
        header.set_size(content.len() as u64);
        header.set_cksum();
        builder.append(&header, content).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap();
}

/// A `.zip` (or `.vsix`) at `path` holding `entries`; a zip has no hard links or devices.
pub fn zip(path: &Path, entries: &[Entry]) {
    let mut writer = zip::ZipWriter::new(File::create(path).unwrap());
    for entry in entries {
        match &entry.kind {
            Kind::File { content, mode } => {
                writer.start_file(&entry.name, stored(*mode)).unwrap();
                writer.write_all(content).unwrap();
            }
            Kind::Symlink(target) => writer
                .add_symlink(&entry.name, target, stored(0o777))
                .unwrap(),
            Kind::HardLink(_) | Kind::CharDevice => panic!("a zip has no {}", entry.name),
        }
    }
    writer.finish().unwrap();
}

fn stored(mode: u32) -> zip::write::SimpleFileOptions {
    zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .unix_permissions(mode)
        .large_file(false)
}

/// The files of the npm package `tarball` that `rename` keeps, under the names it gives,
/// with `extra` files after them: a `.zip` when `out` ends so (or `.vsix`), else a
/// `.tgz`. `change` may alter a kept file's content by its new name.
pub fn repack(
    tarball: &Path,
    out: &Path,
    rename: &dyn Fn(&str) -> Option<String>,
    change: &dyn Fn(&str, &mut Vec<u8>),
    extra: &[Entry],
) {
    let gz = flate2::read::GzDecoder::new(File::open(tarball).unwrap());
    let mut npm = tar::Archive::new(gz);
    let as_zip = out.extension().is_some_and(|e| e == "zip" || e == "vsix");
    let mut zipped = as_zip.then(|| zip::ZipWriter::new(File::create(out).unwrap()));
    let mut tarred = (!as_zip).then(|| {
        let gz =
            flate2::write::GzEncoder::new(File::create(out).unwrap(), flate2::Compression::fast());
        tar::Builder::new(gz)
    });
    for entry in npm.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().to_str().unwrap().to_string();
        let Some(name) = rename(&path) else { continue };
        let mode = entry.header().mode().unwrap();
        let mut content = Vec::new();
        entry.read_to_end(&mut content).unwrap();
        change(&name, &mut content);
        if let Some(writer) = zipped.as_mut() {
            writer.start_file(&name, stored(mode)).unwrap();
            writer.write_all(&content).unwrap();
        }
        if let Some(builder) = tarred.as_mut() {
            let mut header = tar::Header::new_gnu();
            header.set_mode(mode);
            header.set_size(content.len() as u64);
            builder
                .append_data(&mut header, &name, &content[..])
                .unwrap();
        }
    }
    for entry in extra {
        let Kind::File { content, mode } = &entry.kind else {
            panic!("only files are added to a repacked archive");
        };
        if let Some(writer) = zipped.as_mut() {
            writer.start_file(&entry.name, stored(*mode)).unwrap();
            writer.write_all(content).unwrap();
        }
        if let Some(builder) = tarred.as_mut() {
            let mut header = tar::Header::new_gnu();
            header.set_mode(*mode);
            header.set_size(content.len() as u64);
            builder
                .append_data(&mut header, &entry.name, &content[..])
                .unwrap();
        }
    }
    if let Some(writer) = zipped {
        writer.finish().unwrap();
    }
    if let Some(builder) = tarred {
        builder.into_inner().unwrap().finish().unwrap();
    }
}

/// Every path under `dir`, relative to it, with whether it is a link, sorted: what a
/// test compares before and after an install to prove nothing outside the home changed.
pub fn listing(dir: &Path) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for e in std::fs::read_dir(&folder).unwrap() {
            let path = e.unwrap().path();
            let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
            let relative = path.strip_prefix(dir).unwrap().display().to_string();
            found.push((relative, kind.is_symlink()));
            if kind.is_dir() {
                folders.push(path);
            }
        }
    }
    found.sort();
    found
}
