//! Whether a native executable was built by Go (it then wants dlv, not lldb-dap): its
//! `.go.buildinfo` section starts with a fixed marker. The file is read in fixed-size
//! chunks, never whole, so a large binary costs one small buffer on every launch.

use std::io::Read;
use std::path::Path;

use super::select::is_native_binary;

/// Largest part of a binary searched for Go's build-info marker: 256 MiB.
const MAX_GO_BINARY_SCAN: u64 = 256 * 1024 * 1024;

/// The chunk read at a time while searching: 64 KiB.
const SCAN_CHUNK: usize = 64 * 1024;

/// What `.go.buildinfo` starts with.
const MARKER: &[u8] = b"\xff Go buildinf:";

/// Whether `program` is a native executable built by Go.
pub(crate) fn is_go_binary(program: &Path) -> bool {
    if !is_native_binary(program) {
        return false;
    }
    let Ok(file) = std::fs::File::open(program) else {
        return false;
    };
    contains(file.take(MAX_GO_BINARY_SCAN), MARKER, SCAN_CHUNK).unwrap_or(false)
}

/// Whether `needle` occurs in what `reader` yields, read `chunk` bytes at a time. The
/// last `needle.len() - 1` bytes of each chunk are kept in front of the next, so a
/// needle split across a chunk edge is found too.
fn contains(mut reader: impl Read, needle: &[u8], chunk: usize) -> std::io::Result<bool> {
    if needle.is_empty() {
        return Ok(true);
    }
    let keep = needle.len() - 1;
    let mut buf = vec![0u8; keep + chunk.max(1)];
    let mut filled = 0;
    loop {
        let read = match reader.read(&mut buf[filled..]) {
            Ok(0) => return Ok(false),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        filled += read;
        if buf[..filled].windows(needle.len()).any(|w| w == needle) {
            return Ok(true);
        }
        // Carry the tail that could start a needle into the next round.
        let tail = filled.saturating_sub(keep);
        buf.copy_within(tail..filled, 0);
        filled -= tail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::detect::tests::TempDir;

    /// A reader that hands out at most `step` bytes per read, like a pipe would.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(out.len()).min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn finds_the_marker_wherever_chunk_edges_split_it() {
        for chunk in [1, 3, 7, 16] {
            for at in 0..40 {
                let mut data = vec![b'.'; 60];
                data[at..at + MARKER.len()].copy_from_slice(MARKER);
                for step in [1, 5, 64] {
                    let reader = Trickle { data: &data, step };
                    assert!(
                        contains(reader, MARKER, chunk).unwrap(),
                        "chunk {chunk}, marker at {at}, reads of {step}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_marker_cut_short_or_absent_is_not_found() {
        let mut data = [b'.'; 100];
        data[90..].copy_from_slice(&MARKER[..10]);
        assert!(!contains(&data[..], MARKER, 8).unwrap());
        // Its last byte missing, then the rest of the marker later on: still no match.
        let mut broken = MARKER[..MARKER.len() - 1].to_vec();
        broken.extend_from_slice(b"x");
        broken.extend_from_slice(&MARKER[1..]);
        assert!(!contains(&broken[..], MARKER, 4).unwrap());
    }

    #[test]
    fn a_go_binary_is_told_by_its_marker_across_the_scan_chunk_edge() {
        let dir = TempDir::new("gobin");
        let bin = dir.0.join("server");
        let mut bytes = b"\x7fELF\x02\x01\x01".to_vec();
        bytes.resize(SCAN_CHUNK - 5, 0);
        let plain = bytes.clone();
        bytes.extend_from_slice(MARKER);
        bytes.resize(3 * SCAN_CHUNK, 0);
        std::fs::write(&bin, &bytes).unwrap();
        assert!(is_go_binary(&bin));
        std::fs::write(&bin, &plain).unwrap();
        assert!(!is_go_binary(&bin));
        // The marker in a file that is not native code does not count.
        std::fs::write(&bin, [b"text".as_slice(), MARKER].concat()).unwrap();
        assert!(!is_go_binary(&bin));
    }
}
