//! What a program path says about the adapter it needs, without running anything: its
//! extension, or for a folder or an extensionless file a look at what it holds.

use std::io::Read;
use std::path::Path;

use super::go_binary::is_go_binary;

/// The extension key a program is selected by (lowercase, no dot; "" for a native
/// binary), or `None` for a folder that is not a Go package.
///
/// - a folder holding `go.mod` or a `.go` file is a Go package: `go`;
/// - a file with an extension: that extension;
/// - an extensionless file starting with a `#!` line naming python or node: `py` / `js`;
/// - any other extensionless path (existing or not): "" (a native binary).
pub(crate) fn program_key(program: &Path) -> Option<String> {
    if program.is_dir() {
        return is_go_package(program).then(|| "go".to_string());
    }
    if let Some(ext) = program.extension() {
        return Some(ext.to_string_lossy().to_ascii_lowercase());
    }
    if is_go_binary(program) {
        return Some("go".to_string());
    }
    Some(script_key(program).unwrap_or_default().to_string())
}

/// Whether `program` starts like a native executable (ELF or Mach-O), for binaries whose
/// names hold a dot (`server-1.2`), which look like an extension.
pub(crate) fn is_native_binary(program: &Path) -> bool {
    const MAGICS: [[u8; 4]; 5] = [
        *b"\x7fELF",
        [0xfe, 0xed, 0xfa, 0xce],
        [0xfe, 0xed, 0xfa, 0xcf],
        [0xce, 0xfa, 0xed, 0xfe],
        [0xcf, 0xfa, 0xed, 0xfe],
    ];
    let head = read_head(program, 4);
    head.len() == 4 && MAGICS.iter().any(|m| m[..] == head[..])
}

fn is_go_package(dir: &Path) -> bool {
    if dir.join("go.mod").is_file() {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let path = e.path();
        path.extension().is_some_and(|x| x == "go") && path.is_file()
    })
}

/// `py` or `js` for a script whose `#!` line names its interpreter.
fn script_key(program: &Path) -> Option<&'static str> {
    let head = read_head(program, 128);
    let line = head.strip_prefix(b"#!")?.split(|&b| b == b'\n').next()?;
    let line = String::from_utf8_lossy(line);
    if line.contains("python") {
        Some("py")
    } else if line.contains("node") {
        Some("js")
    } else {
        None
    }
}

/// Up to `limit` bytes from the start of a regular file; empty when it cannot be read.
fn read_head(path: &Path, limit: usize) -> Vec<u8> {
    let mut head = Vec::with_capacity(limit);
    if path.is_file() {
        if let Ok(file) = std::fs::File::open(path) {
            let _ = file.take(limit as u64).read_to_end(&mut head);
        }
    }
    head
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::detect::tests::TempDir;

    #[test]
    fn keys_by_extension_folder_and_shebang() {
        let dir = TempDir::new("keys");
        assert_eq!(program_key(Path::new("/x/app.PY")).as_deref(), Some("py"));
        assert_eq!(
            program_key(Path::new("/x/no-such-binary")).as_deref(),
            Some("")
        );
        assert_eq!(program_key(&dir.0), None);
        std::fs::write(dir.0.join("main.go"), "package main\n").unwrap();
        assert_eq!(program_key(&dir.0).as_deref(), Some("go"));
        let script = dir.0.join("tool");
        std::fs::write(&script, "#!/usr/bin/env python3\nprint(1)\n").unwrap();
        assert_eq!(program_key(&script).as_deref(), Some("py"));
        std::fs::write(&script, "#!/usr/bin/env node\n").unwrap();
        assert_eq!(program_key(&script).as_deref(), Some("js"));
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        assert_eq!(program_key(&script).as_deref(), Some(""));
    }

    #[test]
    fn recognises_native_binaries() {
        let dir = TempDir::new("magic");
        let bin = dir.0.join("server-1.2");
        std::fs::write(&bin, b"\x7fELF\x02\x01\x01").unwrap();
        assert!(is_native_binary(&bin));
        std::fs::write(&bin, b"text").unwrap();
        assert!(!is_native_binary(&bin));
        assert!(!is_native_binary(&dir.0.join("missing")));
    }
}
