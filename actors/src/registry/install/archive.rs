//! Unpacking a downloaded archive into a folder with the system's own tools: `tar` for
//! `.tgz`/`.tar.gz` (npm packages, js-debug-dap releases), `unzip` or else Python's
//! `zipfile` for `.zip`/`.vsix` (CodeLLDB releases).

use std::path::Path;

use crate::clean_start::std_command;

use super::run;

/// The kinds of archive an install takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ArchiveKind {
    TarGz,
    Zip,
}

impl ArchiveKind {
    /// The kind `file` is, by its name.
    pub(super) fn of(file: &Path) -> Option<Self> {
        let name = file.file_name()?.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".tgz") || name.ends_with(".tar.gz") {
            Some(Self::TarGz)
        } else if name.ends_with(".zip") || name.ends_with(".vsix") {
            Some(Self::Zip)
        } else {
            None
        }
    }
}

/// Unpack `file` into the existing folder `into`.
pub(super) fn unpack(file: &Path, into: &Path) -> Result<(), String> {
    let kind = ArchiveKind::of(file).ok_or_else(|| {
        format!(
            "{} is not an archive dapvisor can unpack (.tgz, .tar.gz, .zip or .vsix)",
            file.display()
        )
    })?;
    match kind {
        ArchiveKind::TarGz => run(
            std_command("tar").arg("-xzf").arg(file).arg("-C").arg(into),
            &format!("unpack {}", file.display()),
        ),
        ArchiveKind::Zip => {
            let unzipped = run(
                std_command("unzip").arg("-q").arg(file).arg("-d").arg(into),
                &format!("unzip {}", file.display()),
            );
            // No unzip on PATH: Python's zipfile, which the debugpy install needs anyway.
            // It drops the files' modes; the installs set the executable bits they need.
            unzipped.or_else(|_| {
                run(
                    std_command("python3")
                        .args(["-m", "zipfile", "-e"])
                        .arg(file)
                        .arg(into),
                    &format!(
                        "unzip {} (no unzip on PATH, so with python3)",
                        file.display()
                    ),
                )
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name() {
        let kind = |name: &str| ArchiveKind::of(Path::new(name));
        assert_eq!(kind("mcp-debugger-0.24.2.tgz"), Some(ArchiveKind::TarGz));
        assert_eq!(
            kind("js-debug-dap-v1.112.0.TAR.GZ"),
            Some(ArchiveKind::TarGz)
        );
        assert_eq!(kind("codelldb-linux-x64.vsix"), Some(ArchiveKind::Zip));
        assert_eq!(kind("release.zip"), Some(ArchiveKind::Zip));
        assert_eq!(kind("codelldb"), None);
    }

    #[test]
    fn a_tarball_unpacks_and_a_file_of_another_kind_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("dapvisor-archive-{}", std::process::id()));
        let src = dir.join("src");
        std::fs::create_dir_all(src.join("pkg")).unwrap();
        std::fs::write(src.join("pkg/hello.txt"), "hi").unwrap();
        let tarball = dir.join("pkg.tgz");
        run(
            std_command("tar")
                .arg("-czf")
                .arg(&tarball)
                .arg("-C")
                .arg(&src)
                .arg("pkg"),
            "pack",
        )
        .unwrap();
        let out = dir.join("out");
        std::fs::create_dir_all(&out).unwrap();
        unpack(&tarball, &out).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("pkg/hello.txt")).unwrap(),
            "hi"
        );

        let err = unpack(&src.join("pkg/hello.txt"), &out).unwrap_err();
        assert!(err.contains("hello.txt is not an archive"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
