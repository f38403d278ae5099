//! dapvisor's home folder (`$DAPVISOR_HOME`, else `$XDG_DATA_HOME/dapvisor`, else
//! `~/.local/share/dapvisor`): it must be a folder of yours that you can write and
//! others cannot, since dapvisor runs the adapters installed there (debugpy's venv,
//! CodeLLDB, js-debug) and keeps the HTTP token in it.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::report::Check;

/// What was found at the home's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HomeState {
    /// Nothing: dapvisor makes it when it first needs it, under `ancestor`, the
    /// nearest folder that exists, whose writing was tried.
    Missing {
        /// The nearest existing folder above it.
        ancestor: PathBuf,
        /// Whether a file could be made there, or why not.
        writable: Result<(), String>,
    },
    /// Something that is not a folder.
    NotFolder,
    /// A folder.
    Folder {
        /// Its owner's uid.
        owner: u32,
        /// Its permission bits.
        mode: u32,
        /// Whether a file could be made in it, or why not.
        writable: Result<(), String>,
    },
    /// Its metadata could not be read.
    Unreadable(String),
}

/// What was read about the home.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeReading {
    /// The path.
    pub path: PathBuf,
    /// This process's effective uid.
    pub uid: u32,
    /// What is there.
    pub state: HomeState,
}

const NAME: &str = "home";
const ELSEWHERE: &str = "or set DAPVISOR_HOME to a folder of yours";

/// Whether the home is fit to use.
pub fn check(r: &HomeReading) -> Check {
    let dir = r.path.display();
    let checked = match &r.state {
        HomeState::Missing {
            ancestor,
            writable: Ok(()),
        } => Check::ok(
            NAME,
            format!(
                "{dir} does not exist yet; dapvisor makes it when it first needs it ({} is writable)",
                ancestor.display()
            ),
        ),
        HomeState::Missing {
            ancestor,
            writable: Err(why),
        } => Check::fail(
            NAME,
            format!(
                "{dir} does not exist and cannot be made: writing in {} fails: {why}",
                ancestor.display()
            ),
            format!("`mkdir -p {dir}` where you may, {ELSEWHERE}"),
        ),
        HomeState::NotFolder => Check::fail(
            NAME,
            format!("{dir} is not a folder"),
            format!("move it away, {ELSEWHERE}"),
        ),
        HomeState::Unreadable(why) => Check::fail(
            NAME,
            format!("{dir} cannot be read: {why}"),
            format!("check the folders above it, {ELSEWHERE}"),
        ),
        HomeState::Folder { owner, .. } if *owner != r.uid => Check::fail(
            NAME,
            format!(
                "{dir} belongs to uid {owner}, not to you (uid {}): its owner could change \
                 the adapters dapvisor runs from it",
                r.uid
            ),
            format!("`sudo chown -R {} {dir}`, {ELSEWHERE}", r.uid),
        ),
        HomeState::Folder { mode, .. } if mode & 0o022 != 0 => Check::fail(
            NAME,
            format!(
                "{dir} has mode {:04o}: others can write in it, and so change the adapters \
                 dapvisor runs from it",
                mode & 0o7777
            ),
            format!("`chmod go-w {dir}`"),
        ),
        HomeState::Folder {
            writable: Err(why), ..
        } => Check::fail(
            NAME,
            format!("{dir} cannot be written: {why}"),
            format!("`chmod u+w {dir}` (a read-only file system needs another folder), {ELSEWHERE}"),
        ),
        HomeState::Folder { mode, .. } => Check::ok(
            NAME,
            format!("{dir}: yours, mode {:04o}, writable", mode & 0o7777),
        ),
    };
    checked.fact("path", r.path.display().to_string())
}

/// Read the state of the home at `path` (trying to write in it leaves nothing behind).
pub fn read(path: &Path) -> HomeReading {
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    let state = match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => HomeState::Folder {
            owner: meta.uid(),
            mode: meta.permissions().mode(),
            writable: try_writing(path),
        },
        Ok(_) => HomeState::NotFolder,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            let ancestor = path
                .ancestors()
                .skip(1)
                .find(|p| p.is_dir())
                .unwrap_or(Path::new("/"))
                .to_path_buf();
            HomeState::Missing {
                writable: try_writing(&ancestor),
                ancestor,
            }
        }
        Err(err) => HomeState::Unreadable(err.to_string()),
    };
    HomeReading {
        path: path.to_path_buf(),
        uid,
        state,
    }
}

/// Make a file of our own in `dir` and remove it: the only test of writing that
/// holds for root, read-only mounts and ACLs alike.
pub fn try_writing(dir: &Path) -> Result<(), String> {
    let probe = dir.join(format!(".dapvisor-doctor-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| e.to_string())?;
    std::fs::remove_file(&probe).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::super::report::Status;
    use super::*;

    fn folder(owner: u32, mode: u32, writable: Result<(), String>) -> HomeReading {
        HomeReading {
            path: PathBuf::from("/h/dapvisor"),
            uid: 1000,
            state: HomeState::Folder {
                owner,
                mode: 0o040000 | mode,
                writable,
            },
        }
    }

    #[test]
    fn a_folder_of_yours_that_only_you_write_is_fine() {
        let fine = check(&folder(1000, 0o755, Ok(())));
        assert_eq!(fine.status, Status::Ok);
        assert_eq!(fine.detail, "/h/dapvisor: yours, mode 0755, writable");
    }

    #[test]
    fn unwritable_foreign_or_open_homes_fail_with_their_fix() {
        let stuck = check(&folder(
            1000,
            0o555,
            Err("Permission denied (os error 13)".into()),
        ));
        assert_eq!(stuck.status, Status::Fail);
        assert!(
            stuck
                .detail
                .contains("cannot be written: Permission denied"),
            "{}",
            stuck.detail
        );
        let fix = stuck.fix.unwrap();
        assert!(
            fix.contains("chmod u+w /h/dapvisor") && fix.contains("DAPVISOR_HOME"),
            "{fix}"
        );

        let foreign = check(&folder(0, 0o755, Ok(())));
        assert_eq!(foreign.status, Status::Fail);
        assert!(foreign.fix.unwrap().contains("chown -R 1000"));

        let open = check(&folder(1000, 0o777, Ok(())));
        assert_eq!(open.status, Status::Fail);
        assert!(open.detail.contains("mode 0777"), "{}", open.detail);
        assert_eq!(open.fix.as_deref(), Some("`chmod go-w /h/dapvisor`"));
    }

    #[test]
    fn a_missing_home_is_fine_where_it_can_be_made() {
        let reading = |writable| HomeReading {
            path: PathBuf::from("/h/.local/share/dapvisor"),
            uid: 1000,
            state: HomeState::Missing {
                ancestor: PathBuf::from("/h"),
                writable,
            },
        };
        assert_eq!(check(&reading(Ok(()))).status, Status::Ok);
        let stuck = check(&reading(Err("Read-only file system (os error 30)".into())));
        assert_eq!(stuck.status, Status::Fail);
        assert!(
            stuck.detail.contains("writing in /h fails: Read-only"),
            "{}",
            stuck.detail
        );
        let file = HomeReading {
            state: HomeState::NotFolder,
            ..reading(Ok(()))
        };
        assert_eq!(check(&file).status, Status::Fail);
    }

    #[test]
    fn reading_a_real_folder_tries_writing_and_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("dapvisor-doctor-home-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let r = read(&dir);
        assert!(
            matches!(
                r.state,
                HomeState::Folder {
                    writable: Ok(()),
                    ..
                }
            ),
            "{r:?}"
        );
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let missing = read(&dir.join("a/b"));
        assert!(
            matches!(&missing.state, HomeState::Missing { ancestor, .. } if *ancestor == dir),
            "{missing:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        // /proc takes no files, not even root's.
        let proc = read(Path::new("/proc"));
        assert!(
            matches!(
                proc.state,
                HomeState::Folder {
                    writable: Err(_),
                    ..
                }
            ),
            "{proc:?}"
        );
    }
}
