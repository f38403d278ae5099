//! What a launched program reads as its standard input: text the agent gives
//! (`stdin`), kept in a file of dapvisor's own for as long as the session lives (a
//! restarted program reads it again from the start), or a file it names
//! (`stdin_file`, under the root like every path). Without either, the program reads
//! an empty input: never the terminal the server runs in.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::SessionHandle;

use crate::tools::catalogue::spec::ToolError;

/// The longest text `stdin` takes: 1 MiB. Past it, write a file and pass `stdin_file`.
pub const MAX_STDIN_TEXT_BYTES: usize = 1 << 20;

/// A file holding a launch's stdin text, removed when dropped.
#[derive(Debug)]
pub(crate) struct StdinText(PathBuf);

impl StdinText {
    /// Write `text` to a new file only this user may read.
    pub(crate) fn write(text: &str) -> Result<Self, ToolError> {
        if text.len() > MAX_STDIN_TEXT_BYTES {
            return Err(ToolError::invalid(
                format!(
                    "stdin is {} bytes, more than {MAX_STDIN_TEXT_BYTES}",
                    text.len()
                ),
                "write the input to a file and pass it as stdin_file",
            ));
        }
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let name = format!(
            "dapvisor-stdin-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .and_then(|mut file| file.write_all(text.as_bytes()));
        let file = Self(path);
        written.map_err(|e| {
            ToolError::new(
                500,
                format!("could not keep the stdin text in {}: {e}", file.0.display()),
                "pass the input as a file with stdin_file",
            )
        })?;
        Ok(file)
    }

    /// Where it is.
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }

    /// Keep it until `session` has ended (its events end).
    pub(crate) fn keep_for(self, session: &SessionHandle) {
        let mut events = session.subscribe();
        tokio::spawn(async move {
            while events.recv().await.is_some() {}
            drop(self);
        });
    }
}

impl Drop for StdinText {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_kept_in_a_private_file_until_dropped() {
        use std::os::unix::fs::PermissionsExt as _;
        let file = StdinText::write("bob\n").unwrap();
        let path = file.path().to_path_buf();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "bob\n");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        drop(file);
        assert!(!path.exists());
        let too_long = "x".repeat(MAX_STDIN_TEXT_BYTES + 1);
        assert!(StdinText::write(&too_long).is_err());
    }
}
