//! The signal that ended a dumped process, read from its core file: the ELF notes the
//! kernel (or gdb's `gcore`) writes for each thread. Said where the adapter's stop
//! names none (dlv's does not; lldb-dap's and CodeLLDB's do).
//!
//! Read: the ELF header, its program headers, and the `PT_NOTE` segments up to
//! [`MAX_CORE_NOTE_BYTES`]; the first thread's `NT_PRSTATUS` note (the thread that
//! took the signal comes first) gives `pr_cursig`, else an `NT_SIGINFO` note its
//! `si_signo`. Anything that does not parse gives `None`, never an error: the signal
//! is said where it can be.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The most of a core's note segments read for its signal: 4 MiB (a thread's notes
/// take a few KiB; a dump of thousands of threads is cut there, and its first
/// thread, which holds the signal, is read all the same).
pub const MAX_CORE_NOTE_BYTES: u64 = 4 << 20;

const PT_NOTE: u32 = 4;
const NT_PRSTATUS: u32 = 1;
const NT_SIGINFO: u32 = 0x5349_4749;

/// The number of the signal that ended the process dumped in `path`, where its notes
/// say one.
pub fn signal_of_core(path: &Path) -> Option<i32> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut header = [0u8; 64];
    file.read_exact(&mut header).ok()?;
    let elf = Elf::of(&header)?;
    let phoff = elf.u64(&header, 32);
    let entry = u64::from(elf.u16(&header, 54));
    let count = u64::from(elf.u16(&header, 56));
    if entry < 56 || count == 0 {
        return None;
    }
    let mut budget = MAX_CORE_NOTE_BYTES;
    for i in 0..count {
        let mut ph = [0u8; 56];
        file.seek(SeekFrom::Start(phoff.checked_add(i.checked_mul(entry)?)?))
            .ok()?;
        file.read_exact(&mut ph).ok()?;
        if elf.u32(&ph, 0) != PT_NOTE {
            continue;
        }
        let size = elf.u64(&ph, 32).min(budget);
        budget -= size;
        let mut notes = vec![0u8; usize::try_from(size).ok()?];
        file.seek(SeekFrom::Start(elf.u64(&ph, 8))).ok()?;
        file.read_exact(&mut notes).ok()?;
        if let Some(signal) = elf.signal_in_notes(&notes) {
            return Some(signal);
        }
        if budget == 0 {
            break;
        }
    }
    None
}

/// A 64-bit ELF file's byte order.
#[derive(Debug, Clone, Copy)]
struct Elf {
    little: bool,
}

impl Elf {
    /// A 64-bit core file's header; `None` for anything else.
    fn of(header: &[u8; 64]) -> Option<Self> {
        if !header.starts_with(b"\x7fELF") || header[4] != 2 {
            return None;
        }
        let elf = match header[5] {
            1 => Elf { little: true },
            2 => Elf { little: false },
            _ => return None,
        };
        (elf.u16(header, 16) == 4).then_some(elf)
    }

    fn bytes<const N: usize>(at: &[u8], offset: usize) -> [u8; N] {
        let mut out = [0u8; N];
        if let Some(slice) = at.get(offset..offset + N) {
            out.copy_from_slice(slice);
        }
        out
    }

    fn u16(self, at: &[u8], offset: usize) -> u16 {
        let b = Self::bytes::<2>(at, offset);
        if self.little {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        }
    }

    fn u32(self, at: &[u8], offset: usize) -> u32 {
        let b = Self::bytes::<4>(at, offset);
        if self.little {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        }
    }

    fn u64(self, at: &[u8], offset: usize) -> u64 {
        let b = Self::bytes::<8>(at, offset);
        if self.little {
            u64::from_le_bytes(b)
        } else {
            u64::from_be_bytes(b)
        }
    }

    /// The first `NT_PRSTATUS` note's `pr_cursig` in `notes`, else the first
    /// `NT_SIGINFO` note's `si_signo`; zero counts as none.
    fn signal_in_notes(self, notes: &[u8]) -> Option<i32> {
        let padded = |n: usize| n.checked_add(3).map(|n| n & !3);
        let mut at = 0usize;
        let mut siginfo = None;
        while at + 12 <= notes.len() {
            let name = usize::try_from(self.u32(notes, at)).ok()?;
            let size = usize::try_from(self.u32(notes, at + 4)).ok()?;
            let kind = self.u32(notes, at + 8);
            let desc = at.checked_add(12)?.checked_add(padded(name)?)?;
            let end = desc.checked_add(size)?;
            let body = notes.get(desc..end)?;
            match kind {
                NT_PRSTATUS if body.len() >= 14 => {
                    let signal = i32::from(self.u16(body, 12));
                    if signal != 0 {
                        return Some(signal);
                    }
                }
                NT_SIGINFO if body.len() >= 4 && siginfo.is_none() => {
                    siginfo = Some(self.u32(body, 0) as i32).filter(|s| *s != 0);
                }
                _ => {}
            }
            at = desc.checked_add(padded(size)?)?;
        }
        siginfo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A little-endian ELF64 core holding one note segment with `notes`.
    fn core_with(notes: &[u8]) -> Vec<u8> {
        let mut file = vec![0u8; 64 + 56];
        file[..7].copy_from_slice(b"\x7fELF\x02\x01\x01");
        file[16..18].copy_from_slice(&4u16.to_le_bytes());
        file[32..40].copy_from_slice(&64u64.to_le_bytes());
        file[54..56].copy_from_slice(&56u16.to_le_bytes());
        file[56..58].copy_from_slice(&1u16.to_le_bytes());
        let ph = &mut file[64..];
        ph[..4].copy_from_slice(&PT_NOTE.to_le_bytes());
        ph[8..16].copy_from_slice(&120u64.to_le_bytes());
        ph[32..40].copy_from_slice(&(notes.len() as u64).to_le_bytes());
        file.extend_from_slice(notes);
        file
    }

    fn note(kind: u32, desc: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&5u32.to_le_bytes());
        out.extend_from_slice(&(desc.len() as u32).to_le_bytes());
        out.extend_from_slice(&kind.to_le_bytes());
        out.extend_from_slice(b"CORE\0\0\0\0");
        out.extend_from_slice(desc);
        while out.len() % 4 != 0 {
            out.push(0);
        }
        out
    }

    fn signal_of(bytes: &[u8], name: &str) -> Option<i32> {
        let path = std::env::temp_dir().join(format!(
            "dapvisor-core-signal-{name}-{}",
            std::process::id()
        ));
        std::fs::write(&path, bytes).unwrap();
        let signal = signal_of_core(&path);
        std::fs::remove_file(&path).unwrap();
        signal
    }

    #[test]
    fn the_first_threads_status_names_the_signal() {
        let mut status = vec![0u8; 336];
        status[12..14].copy_from_slice(&11u16.to_le_bytes());
        let mut other = vec![0u8; 336];
        other[12..14].copy_from_slice(&6u16.to_le_bytes());
        let notes = [note(NT_PRSTATUS, &status), note(NT_PRSTATUS, &other)].concat();
        assert_eq!(signal_of(&core_with(&notes), "status"), Some(11));
    }

    #[test]
    fn siginfo_names_it_where_the_status_does_not() {
        let status = vec![0u8; 336];
        let mut info = vec![0u8; 128];
        info[..4].copy_from_slice(&6u32.to_le_bytes());
        let notes = [note(NT_PRSTATUS, &status), note(NT_SIGINFO, &info)].concat();
        assert_eq!(signal_of(&core_with(&notes), "siginfo"), Some(6));
    }

    #[test]
    fn what_does_not_parse_names_none() {
        assert_eq!(signal_of(b"not an elf", "text"), None);
        assert_eq!(signal_of(&core_with(&[]), "empty"), None);
        let mut truncated = note(NT_PRSTATUS, &[0u8; 336]);
        truncated.truncate(40);
        assert_eq!(signal_of(&core_with(&truncated), "cut"), None);
        let mut executable = core_with(&[]);
        executable[16] = 2;
        assert_eq!(signal_of(&executable, "exec"), None);
    }
}
