//! The file that hands an exposure's token to the person: the agent's answer hides
//! the token (it is a secret, and what an agent reads is kept in transcripts and
//! logs; see `crate::redact`), so the address, the token and the editor entries are
//! written to a file only the user can read, which the answer names. It is removed
//! when the exposure closes; the files of a dapvisor that was killed first (its pid
//! is in their names) are removed by the next exposure on the machine.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The folder of dapvisor's home that holds the open exposures' files.
pub const EXPOSED_DIR: &str = "exposed";

/// Where the file of session `session`'s exposure on `port` goes: named by this
/// process and the port, which tell apart the exposures of two dapvisor servers whose
/// sessions share an id.
pub fn path_for(home: &Path, session: &str, port: u16) -> PathBuf {
    let pid = std::process::id();
    home.join(EXPOSED_DIR)
        .join(format!("{pid}-{session}-{port}.json"))
}

/// Remove the files left in `home`'s exposures folder by dapvisor processes that are
/// gone (killed before they could remove them): their tokens open nothing any more.
pub fn sweep(home: &Path) {
    let Ok(entries) = std::fs::read_dir(home.join(EXPOSED_DIR)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            remove(&entry.path());
        }
    }
}

/// Write `contents` to `path`, readable and writable by the user only, in a folder
/// only the user can enter; a file or link already there is replaced, never followed.
pub fn write(path: &Path, contents: &Value) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if let Some(dir) = path.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(failed)?;
    }
    let _ = std::fs::remove_file(path);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(failed)?;
    let text = serde_json::to_string_pretty(contents).map_err(|e| failed(e.into()))?;
    file.write_all(text.as_bytes()).map_err(failed)
}

/// Remove the file at `path`, if it is there.
pub fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use serde_json::json;

    use super::*;

    #[test]
    fn the_file_is_private_replaces_a_link_and_goes() {
        let home = std::env::temp_dir().join(format!("dapvisor-exposed-{}", std::process::id()));
        let path = path_for(&home, "s1", 41234);
        let name = format!("{}-s1-41234.json", std::process::id());
        assert!(
            path.ends_with(format!("exposed/{name}")),
            "{}",
            path.display()
        );
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let elsewhere = home.join("elsewhere");
        std::fs::write(&elsewhere, "keep").unwrap();
        std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
        write(&path, &json!({"token": "abc"})).unwrap();
        assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "keep");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(written["token"], "abc");
        // A file of a process that is gone is swept; this process's stays.
        let gone = path.with_file_name(format!("{}-s1-1.json", u32::MAX));
        std::fs::write(&gone, "{}").unwrap();
        sweep(&home);
        assert!(!gone.exists() && path.exists());
        remove(&path);
        assert!(!path.exists());
        std::fs::remove_dir_all(home).unwrap();
    }
}
