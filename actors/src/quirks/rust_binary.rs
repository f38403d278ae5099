//! Whether a native executable was built by rustc: its ELF `.comment` section, where
//! compilers and linkers sign their work, names `rustc version ...`. Only the ELF
//! header, the section headers, the section-name table and `.comment` are read, each
//! bounded, so a large binary costs a few small reads.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// What rustc writes into `.comment`.
const RUSTC_SIGNATURE: &[u8] = b"rustc version ";

/// Most section headers read: 4096 (real binaries have a few dozen).
const MAX_SECTIONS: u64 = 4096;

/// Largest section-name table or `.comment` section read: 1 MiB.
const MAX_SECTION_BYTES: u64 = 1024 * 1024;

/// Whether `program` is an ELF executable whose `.comment` names rustc. Anything
/// unreadable or not ELF is not.
pub(crate) fn is_rust_binary(program: &Path) -> bool {
    let Ok(mut file) = File::open(program) else {
        return false;
    };
    comment_section(&mut file).is_some_and(|comment| {
        comment
            .windows(RUSTC_SIGNATURE.len())
            .any(|w| w == RUSTC_SIGNATURE)
    })
}

/// The ELF file's layout, as far as finding a section by name needs it.
struct Elf {
    is_64: bool,
    little_endian: bool,
}

/// One section header: where its bytes are, and the offset of its name.
struct Section {
    name: u32,
    offset: u64,
    size: u64,
}

impl Elf {
    fn u16(&self, b: &[u8]) -> u16 {
        let b = [b[0], b[1]];
        if self.little_endian {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        }
    }

    fn u32(&self, b: &[u8]) -> u32 {
        let b = [b[0], b[1], b[2], b[3]];
        if self.little_endian {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        }
    }

    fn u64(&self, b: &[u8]) -> u64 {
        let mut a = [0u8; 8];
        a.copy_from_slice(&b[..8]);
        if self.little_endian {
            u64::from_le_bytes(a)
        } else {
            u64::from_be_bytes(a)
        }
    }

    /// An address-sized field: 8 bytes in ELF64, 4 in ELF32.
    fn word(&self, b: &[u8]) -> u64 {
        if self.is_64 {
            self.u64(b)
        } else {
            u64::from(self.u32(b))
        }
    }

    /// A section header as laid out in the file.
    fn section(&self, h: &[u8]) -> Option<Section> {
        let (offset_at, size_at) = if self.is_64 { (24, 32) } else { (16, 20) };
        let end = if self.is_64 { 40 } else { 24 };
        (h.len() >= end).then(|| Section {
            name: self.u32(&h[0..4]),
            offset: self.word(&h[offset_at..]),
            size: self.word(&h[size_at..]),
        })
    }
}

/// The bytes of the `.comment` section, if the file is ELF and has one.
fn comment_section(file: &mut File) -> Option<Vec<u8>> {
    let mut header = [0u8; 64];
    file.read_exact(&mut header[..52]).ok()?;
    if &header[..4] != b"\x7fELF" {
        return None;
    }
    let elf = Elf {
        is_64: header[4] == 2,
        little_endian: header[5] == 1,
    };
    if elf.is_64 {
        file.read_exact(&mut header[52..64]).ok()?;
    }
    let (shoff, rest) = if elf.is_64 {
        (elf.u64(&header[40..]), &header[58..64])
    } else {
        (u64::from(elf.u32(&header[32..])), &header[46..52])
    };
    let entry_size = u64::from(elf.u16(&rest[0..2]));
    let count = u64::from(elf.u16(&rest[2..4]));
    let names_index = u64::from(elf.u16(&rest[4..6]));
    if shoff == 0 || count == 0 || count > MAX_SECTIONS || entry_size < 24 {
        return None;
    }
    let table = read_at(file, shoff, entry_size * count)?;
    let sections: Vec<Section> = table
        .chunks(entry_size as usize)
        .filter_map(|h| elf.section(h))
        .collect();
    let names = sections.get(names_index as usize)?;
    let names = read_at(file, names.offset, names.size.min(MAX_SECTION_BYTES))?;
    let comment = sections.iter().find(|s| {
        let start = s.name as usize;
        names
            .get(start..)
            .is_some_and(|n| n.starts_with(b".comment\0"))
    })?;
    read_at(file, comment.offset, comment.size.min(MAX_SECTION_BYTES))
}

/// `len` bytes of `file` from `offset`.
fn read_at(file: &mut File, offset: u64, len: u64) -> Option<Vec<u8>> {
    file.seek(SeekFrom::Start(offset)).ok()?;
    let mut buf = vec![0u8; usize::try_from(len).ok()?];
    file.read_exact(&mut buf).ok()?;
    Some(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_binary_itself_is_rust_and_a_shell_is_not() {
        // This test runs inside an executable rustc built.
        let me = std::env::current_exe().unwrap();
        assert!(is_rust_binary(&me), "{}", me.display());
        assert!(!is_rust_binary(Path::new("/bin/sh")));
    }

    #[test]
    fn files_that_are_not_elf_are_not_rust() {
        let dir = std::env::temp_dir().join(format!("dapvisor-rust-bin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = dir.join("notes.txt");
        std::fs::write(&text, "rustc version 1.0 mentioned in plain text").unwrap();
        assert!(!is_rust_binary(&text));
        let short = dir.join("short");
        std::fs::write(&short, b"\x7fELF\x02\x01").unwrap();
        assert!(!is_rust_binary(&short));
        assert!(!is_rust_binary(&dir.join("missing")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
