//! The bearer token `dapvisor mcp --http` asks of its clients: the file `--token-file`
//! names, else `mcp-token` in dapvisor's home (made on the first run without a token).
//! Whoever reads it can drive the debugger, which runs code as you: it must be a
//! file of yours that only you can read, holding a token the server accepts.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::report::Check;
use crate::mcp::BearerToken;

/// What is at the token file's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenState {
    /// Nothing.
    Missing,
    /// A regular file.
    File {
        /// Its owner's uid.
        owner: u32,
        /// Its permission bits.
        mode: u32,
        /// Whether the server would accept the token in it, or why not.
        accepted: Result<(), String>,
    },
    /// Something else (a folder, a device), or a file that could not be read.
    Unusable(String),
}

/// What was read about the token file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenReading {
    /// The file.
    pub path: PathBuf,
    /// Whether `--token-file` named it (else it is the home's made-up one).
    pub given: bool,
    /// Whether `DAPVISOR_TOKEN` is set, which the server takes over the home's file.
    pub from_env: bool,
    /// This process's effective uid.
    pub uid: u32,
    /// What is there.
    pub state: TokenState,
}

const NAME: &str = "token file";

/// Whether the token file is safe and usable.
pub fn check(r: &TokenReading) -> Check {
    let file = r.path.display();
    let checked = match &r.state {
        TokenState::Missing if r.given => Check::fail(
            NAME,
            format!("{file} does not exist"),
            format!(
                "write a token of at least {} visible characters to it, readable by you only \
                 (`chmod 600 {file}`), or leave out --token-file",
                crate::mcp::MIN_TOKEN_CHARS
            ),
        ),
        TokenState::Missing if r.from_env => {
            Check::ok(NAME, "none: the token comes from DAPVISOR_TOKEN")
        }
        TokenState::Missing => Check::ok(
            NAME,
            format!("none yet: `dapvisor mcp --http` makes {file}, readable by you only"),
        ),
        TokenState::Unusable(why) => Check::fail(
            NAME,
            format!("{file}: {why}"),
            format!("make it a file holding the token, readable by you only (`chmod 600 {file}`)"),
        ),
        TokenState::File { mode, .. } if mode & 0o077 != 0 => Check::fail(
            NAME,
            format!(
                "{file} has mode {:04o}: others on this machine can read the token and \
                 drive the debugger, which runs code as you",
                mode & 0o7777
            ),
            format!("`chmod 600 {file}`"),
        ),
        TokenState::File { owner, .. } if *owner != r.uid => Check::fail(
            NAME,
            format!("{file} belongs to uid {owner}, not to you (uid {})", r.uid),
            format!("`sudo chown {} {file}`", r.uid),
        ),
        TokenState::File {
            accepted: Err(why), ..
        } => Check::fail(
            NAME,
            format!("{file} holds no token the server accepts: {why}"),
            match r.given {
                true => format!(
                    "write a token of at least {} visible characters to {file}",
                    crate::mcp::MIN_TOKEN_CHARS
                ),
                false => format!("remove {file}: `dapvisor mcp --http` then makes a new one"),
            },
        ),
        TokenState::File { mode, .. } => {
            Check::ok(NAME, format!("{file}: yours, mode {:04o}", mode & 0o7777))
        }
    };
    checked.fact("path", r.path.display().to_string())
}

/// Read the token file at `path` (its text is checked, never shown).
pub fn read(path: &Path, given: bool) -> TokenReading {
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    // The server reads the file through a link, so the doctor checks what it reads.
    let state = match std::fs::metadata(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => TokenState::Missing,
        Err(err) => TokenState::Unusable(err.to_string()),
        Ok(meta) if meta.is_file() => TokenState::File {
            owner: meta.uid(),
            mode: meta.permissions().mode(),
            accepted: std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|text| BearerToken::new(&text).map(drop).map_err(|e| e.to_string())),
        },
        Ok(_) => TokenState::Unusable("not a regular file".into()),
    };
    TokenReading {
        path: path.to_path_buf(),
        given,
        from_env: std::env::var_os("DAPVISOR_TOKEN").is_some(),
        uid,
        state,
    }
}

#[cfg(test)]
mod tests {
    use super::super::report::Status;
    use super::*;

    fn file(mode: u32, owner: u32, accepted: Result<(), String>) -> TokenReading {
        TokenReading {
            path: PathBuf::from("/h/dapvisor/mcp-token"),
            given: false,
            from_env: false,
            uid: 1000,
            state: TokenState::File {
                owner,
                mode: 0o100000 | mode,
                accepted,
            },
        }
    }

    #[test]
    fn a_private_file_of_yours_with_a_good_token_is_fine() {
        let fine = check(&file(0o600, 1000, Ok(())));
        assert_eq!(fine.status, Status::Ok);
        assert_eq!(fine.detail, "/h/dapvisor/mcp-token: yours, mode 0600");
    }

    #[test]
    fn a_readable_foreign_or_bad_token_file_fails_with_its_fix() {
        let open = check(&file(0o644, 1000, Ok(())));
        assert_eq!(open.status, Status::Fail);
        assert!(open.detail.contains("mode 0644"), "{}", open.detail);
        assert_eq!(
            open.fix.as_deref(),
            Some("`chmod 600 /h/dapvisor/mcp-token`")
        );
        let foreign = check(&file(0o600, 0, Ok(())));
        assert!(foreign.fix.unwrap().contains("chown 1000"));
        let short = check(&file(0o600, 1000, Err("is 6 characters".into())));
        assert_eq!(short.status, Status::Fail);
        assert!(short
            .fix
            .unwrap()
            .starts_with("remove /h/dapvisor/mcp-token"));
    }

    #[test]
    fn a_missing_file_is_fine_unless_it_was_named() {
        let none = TokenReading {
            state: TokenState::Missing,
            ..file(0o600, 1000, Ok(()))
        };
        assert_eq!(check(&none).status, Status::Ok);
        let named = TokenReading {
            given: true,
            ..none
        };
        let named = check(&named);
        assert_eq!(named.status, Status::Fail);
        assert!(named.fix.unwrap().contains("chmod 600"));
    }

    #[test]
    fn reading_checks_the_token_and_what_is_not_a_file() {
        let dir =
            std::env::temp_dir().join(format!("dapvisor-doctor-token-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("token");
        std::fs::write(&path, "x".repeat(40)).unwrap();
        let r = read(&path, true);
        assert!(
            matches!(
                r.state,
                TokenState::File {
                    accepted: Ok(()),
                    ..
                }
            ),
            "{r:?}"
        );
        std::fs::write(&path, "short").unwrap();
        assert!(matches!(
            read(&path, true).state,
            TokenState::File {
                accepted: Err(_),
                ..
            }
        ));
        assert!(matches!(read(&dir, true).state, TokenState::Unusable(_)));
        assert_eq!(read(&dir.join("none"), true).state, TokenState::Missing);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
