//! [`PathPolicy`]: where the programs, working directories and breakpoint files an
//! agent names may live. Unrestricted by default; with a root, every path must resolve
//! (after `..` and symlinks) inside it, and relative paths resolve against it.

use std::path::{Path, PathBuf};

use crate::tools::catalogue::spec::ToolError;

/// Which paths tools accept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathPolicy {
    root: Option<PathBuf>,
}

impl PathPolicy {
    /// Any path; relative ones resolve against the process's working directory.
    pub fn unrestricted() -> Self {
        Self::default()
    }

    /// Only paths inside `root` (which must exist); relative ones resolve against it.
    pub fn rooted(root: impl AsRef<Path>) -> std::io::Result<Self> {
        let root = std::fs::canonicalize(root.as_ref()).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("the root {} is not usable: {e}", root.as_ref().display()),
            )
        })?;
        Ok(Self { root: Some(root) })
    }

    /// The root, if there is one (canonical).
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// Whether dapvisor may read `path` (a file an adapter named, such as a stopped
    /// frame's source): always without a root; with one, only if it resolves (after
    /// `..` and symlinks) inside it.
    pub fn may_read(&self, path: &Path) -> bool {
        match &self.root {
            None => true,
            Some(root) => std::fs::canonicalize(path).is_ok_and(|real| real.starts_with(root)),
        }
    }

    /// [`Self::resolve`] for an argument that may be absent.
    pub fn resolve_given(
        &self,
        path: Option<&str>,
        what: &str,
    ) -> Result<Option<PathBuf>, ToolError> {
        path.map(|path| self.resolve(path, what)).transpose()
    }

    /// Resolve `path`, which names the call's `what` (`program`, `cwd`, `file`).
    pub fn resolve(&self, path: &str, what: &str) -> Result<PathBuf, ToolError> {
        if path.trim().is_empty() {
            return Err(ToolError::invalid(
                format!("`{what}` is empty"),
                format!("pass the {what}'s path"),
            ));
        }
        let given = Path::new(path);
        let Some(root) = &self.root else {
            return Ok(std::path::absolute(given).unwrap_or_else(|_| given.to_path_buf()));
        };
        let joined = root.join(given);
        let real = std::fs::canonicalize(&joined).map_err(|e| {
            ToolError::invalid(
                format!(
                    "`{what}` {path} cannot be resolved inside the root {}: {e}",
                    root.display()
                ),
                format!("pass a {what} that exists under {}", root.display()),
            )
        })?;
        if !real.starts_with(root) {
            return Err(ToolError::new(
                500,
                format!(
                    "`{what}` {path} resolves to {}, outside the root {}",
                    real.display(),
                    root.display()
                ),
                format!(
                    "this server only debugs under {}; pass a {what} inside it",
                    root.display()
                ),
            )
            .with_kind(crate::permission::FORBIDDEN));
        }
        Ok(real)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooted_paths_stay_inside_the_root() {
        let dir = std::env::temp_dir().join(format!("dapvisor-paths-{}", std::process::id()));
        let inner = dir.join("inner");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(inner.join("a.py"), "").unwrap();
        std::fs::write(dir.join("outside.py"), "").unwrap();
        let policy = PathPolicy::rooted(&inner).unwrap();

        assert_eq!(
            policy.resolve("a.py", "program").unwrap(),
            inner.canonicalize().unwrap().join("a.py")
        );
        let escape = policy.resolve("../outside.py", "program").unwrap_err();
        assert_eq!(
            (escape.code, escape.kind.as_str()),
            (500, "forbidden"),
            "{escape}"
        );
        let absolute = dir.join("outside.py");
        let escape = policy
            .resolve(absolute.to_str().unwrap(), "file")
            .unwrap_err();
        assert_eq!((escape.code, escape.kind.as_str()), (500, "forbidden"));
        #[cfg(unix)]
        {
            let link = inner.join("link.py");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(dir.join("outside.py"), &link).unwrap();
            assert_eq!(
                policy.resolve("link.py", "file").unwrap_err().kind,
                "forbidden"
            );
        }
        assert_eq!(policy.resolve("missing.py", "file").unwrap_err().code, 400);
        assert!(policy.may_read(&inner.join("a.py")));
        assert!(!policy.may_read(&dir.join("outside.py")));
        assert!(!policy.may_read(&inner.join("../outside.py")));
        assert!(PathPolicy::unrestricted().may_read(&dir.join("outside.py")));
        assert_eq!(policy.resolve("  ", "file").unwrap_err().code, 400);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
