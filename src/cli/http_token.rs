//! Where `dapvisor mcp --http` gets the bearer token its clients must show: the file
//! `--token-file` names, else `DAPVISOR_TOKEN`, else a new random one written to a file
//! only the user can read (`TOKEN_FILE` in dapvisor's home), whose path is printed.

use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::mcp::BearerToken;

/// The file a made-up token is written to, in dapvisor's home.
pub const TOKEN_FILE: &str = "mcp-token";

/// Random bytes in a made-up token (written as hex): 32.
const TOKEN_BYTES: usize = 32;

/// The token, and the file it was made up into if it was.
pub fn resolve(token_file: Option<&Path>) -> Result<(BearerToken, Option<PathBuf>), String> {
    if let Some(path) = token_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?;
        let token = BearerToken::new(&text)
            .map_err(|e| format!("the token file {}: {e}", path.display()))?;
        return Ok((token, None));
    }
    if let Ok(text) = std::env::var("DAPVISOR_TOKEN") {
        let token = BearerToken::new(&text).map_err(|e| format!("DAPVISOR_TOKEN: {e}"))?;
        return Ok((token, None));
    }
    let path = dapvisor_actors::registry::dapvisor_home().join(TOKEN_FILE);
    let secret = made_up()?;
    write_private(&path, &secret)?;
    let token = BearerToken::new(&secret).expect("a made-up token is long enough");
    Ok((token, Some(path)))
}

/// A new token: random bytes from the kernel, as hex. Also an exposed session's
/// token (`expose/token.rs`).
pub(crate) fn made_up() -> Result<String, String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("cannot make a token (reading /dev/urandom): {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Write `secret` to `path`, readable and writable by the user only.
fn write_private(path: &Path, secret: &str) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("cannot write the token to {}: {e}", path.display());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(failed)?;
    }
    // Removed first: an existing file keeps its permissions when truncated.
    let _ = std::fs::remove_file(path);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(failed)?;
    file.write_all(secret.as_bytes()).map_err(failed)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn a_made_up_token_is_long_and_new_and_its_file_is_private() {
        let (a, b) = (made_up().unwrap(), made_up().unwrap());
        assert_eq!(a.len(), 2 * TOKEN_BYTES);
        assert_ne!(a, b);
        let dir = std::env::temp_dir().join(format!("dapvisor-token-{}", std::process::id()));
        let path = dir.join(TOKEN_FILE);
        write_private(&path, &a).unwrap();
        write_private(&path, &b).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), b);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_token_file_that_is_empty_short_or_missing_is_refused_naming_it() {
        let missing = resolve(Some(Path::new("/nonexistent/token"))).unwrap_err();
        assert!(missing.contains("/nonexistent/token"), "{missing}");
        let empty = std::env::temp_dir().join(format!("dapvisor-empty-{}", std::process::id()));
        std::fs::write(&empty, "\n").unwrap();
        let refused = resolve(Some(&empty)).unwrap_err();
        assert!(refused.contains("is empty"), "{refused}");
        std::fs::write(&empty, "s3cret\n").unwrap();
        let refused = resolve(Some(&empty)).unwrap_err();
        assert!(refused.contains("at least 32"), "{refused}");
        std::fs::remove_file(empty).unwrap();
    }
}
