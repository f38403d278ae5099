//! Source files of compiled languages launched as programs (`sum.c`, `shelf.cpp`,
//! `grade.rs`): no adapter runs a source file, so it is built first, for debugging
//! (`-g -O0`), into a folder of its own that lives as long as the session and is then
//! removed ([`BuiltSource`]). A build that fails is a failed launch carrying the
//! compiler's messages, as a Go build's are.
//!
//! Under a root, what the compiler reads must be inside it too: an `#include` or an
//! `include_str!` can name any file, and a `#[path]` module is parsed, its lines quoted
//! in the errors. The files the build reads are listed first (`cc -M`, `rustc
//! --emit=dep-info`), and a build that reads one outside the root (other than the
//! system's headers) is refused before it runs, its compiler's messages withheld.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::core::state::Operation;
use crate::error::SessionError;

/// Most bytes of the compiler's messages a failed build reports: 16 KiB (the start,
/// where the first error is).
pub const MAX_SOURCE_BUILD_MESSAGE_BYTES: usize = 16 * 1024;

/// Where a build may read files outside a root: the system's headers and libraries,
/// which every build reads and which hold nothing of the host's own.
const SYSTEM_PLACES: &[&str] = &["/usr/include", "/usr/lib", "/usr/local/include"];

/// The languages built from a single source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceLanguage {
    /// `.c`, built with `cc`.
    C,
    /// `.cc`, `.cpp`, `.cxx`, `.c++`, built with `c++`.
    Cpp,
    /// `.rs`, built with `rustc`.
    Rust,
}

impl SourceLanguage {
    /// The language of `program` when it is a source file one of them builds.
    pub fn of(program: &Path) -> Option<Self> {
        Self::named(program).filter(|_| program.is_file())
    }

    /// The language a source file named `program` would be in, by its extension alone.
    pub fn named(program: &Path) -> Option<Self> {
        let ext = program.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "c" => Some(Self::C),
            "cc" | "cpp" | "cxx" | "c++" => Some(Self::Cpp),
            "rs" => Some(Self::Rust),
            _ => None,
        }
    }

    /// The compiler and its arguments that build `source` into `binary` for debugging.
    pub fn build_command(self, source: &Path, binary: &Path) -> Vec<String> {
        let (source, binary) = (source.display().to_string(), binary.display().to_string());
        match self {
            Self::C => vec!["cc", "-g", "-O0", &source, "-o", &binary, "-lm"],
            Self::Cpp => vec!["c++", "-g", "-O0", &source, "-o", &binary],
            Self::Rust => {
                let name = crate_name(Path::new(&source));
                return [
                    "rustc",
                    "-g",
                    "-C",
                    "opt-level=0",
                    "--edition",
                    "2021",
                    "--crate-name",
                ]
                .into_iter()
                .map(String::from)
                .chain([name, source, "-o".into(), binary])
                .collect();
            }
        }
        .into_iter()
        .map(String::from)
        .collect()
    }

    /// The command that lists the files building `source` reads, written to `deps`
    /// (make's syntax).
    fn deps_command(self, source: &Path, deps: &Path) -> Vec<String> {
        let source = source.display().to_string();
        let deps = deps.display().to_string();
        match self {
            Self::C | Self::Cpp => {
                let cc = if self == Self::C { "cc" } else { "c++" };
                [cc, "-M", "-MG", "-MF", &deps, &source]
                    .map(String::from)
                    .to_vec()
            }
            Self::Rust => vec![
                "rustc".into(),
                "--edition".into(),
                "2021".into(),
                "--crate-name".into(),
                crate_name(Path::new(&source)),
                format!("--emit=dep-info={deps}"),
                source,
            ],
        }
    }
}

/// A crate name rustc takes from the file's stem: letters, digits and `_`.
fn crate_name(source: &Path) -> String {
    let stem = source
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("main");
    let mut name: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        name.insert(0, '_');
    }
    name
}

/// Why a source file was not built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SourceBuildError {
    /// Under a root, the build would read `read`, outside it (the compiler's messages,
    /// which may quote it, are withheld).
    #[error("building it reads {}, outside the root", read.display())]
    ReadsOutside {
        /// The file outside the root.
        read: PathBuf,
    },
    /// The build failed (the compiler's messages in it), or could not run.
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// A program built from a source file, in a folder of its own (mode 0700) that is
/// removed when this is dropped.
#[derive(Debug)]
pub struct BuiltSource {
    folder: PathBuf,
    binary: PathBuf,
}

impl BuiltSource {
    /// Build `source` for debugging within `deadline`; under `root`, only if every file
    /// the build reads is inside it (or one of the system's headers).
    pub async fn build(
        source: &Path,
        root: Option<&Path>,
        deadline: Duration,
    ) -> Result<Self, SourceBuildError> {
        let language = SourceLanguage::of(source).ok_or_else(|| {
            SessionError::InvalidArgument(format!(
                "{} is not a C, C++ or Rust source file",
                source.display()
            ))
        })?;
        let folder = new_folder()?;
        let stem = source
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("main");
        let built = Self {
            binary: folder.join(stem),
            folder,
        };
        live().insert(built.binary.clone());
        built
            .compile(language, source, root, deadline, &built.binary)
            .await?;
        Ok(built)
    }

    /// Build `source` again (edited since, as a restart expects), into the same
    /// binary: built beside it and renamed over it, so that a program still running
    /// the old one is not disturbed and a failed build leaves the old one in place.
    pub async fn rebuild(
        &self,
        source: &Path,
        root: Option<&Path>,
        deadline: Duration,
    ) -> Result<(), SourceBuildError> {
        let language = SourceLanguage::of(source).ok_or_else(|| {
            SessionError::InvalidArgument(format!(
                "{} is not a C, C++ or Rust source file",
                source.display()
            ))
        })?;
        let next = self.binary.with_extension("next");
        let built = self.compile(language, source, root, deadline, &next).await;
        if built.is_ok() {
            std::fs::rename(&next, &self.binary)
                .map_err(|e| SessionError::internal("replacing the rebuilt program", e))?;
        }
        let _ = std::fs::remove_file(&next);
        built
    }

    /// Compile `source` into `binary`; under `root`, only if every file it reads is
    /// inside it.
    async fn compile(
        &self,
        language: SourceLanguage,
        source: &Path,
        root: Option<&Path>,
        deadline: Duration,
        binary: &Path,
    ) -> Result<(), SourceBuildError> {
        if let Some(root) = root {
            self.check_reads(language, source, root, deadline).await?;
        }
        let command = language.build_command(source, binary);
        let out = run(&command, source, deadline).await?;
        if !out.status.success() {
            return Err(failed(
                format!(
                    "building {} failed (`{}`)",
                    source.display(),
                    command.join(" ")
                ),
                bounded(&out.stderr),
            )
            .into());
        }
        Ok(())
    }

    /// The built program.
    pub fn binary(&self) -> &Path {
        &self.binary
    }

    /// Whether `program` is the binary of a build still kept: a program dapvisor
    /// built itself, which a root takes although it lies outside it (a restart runs
    /// it again).
    pub fn is_kept(program: &Path) -> bool {
        live().contains(program)
    }

    /// Refuse a build under `root` that reads a file outside it.
    async fn check_reads(
        &self,
        language: SourceLanguage,
        source: &Path,
        root: &Path,
        deadline: Duration,
    ) -> Result<(), SourceBuildError> {
        let deps = self.folder.join("reads.d");
        let out = run(&language.deps_command(source, &deps), source, deadline).await?;
        let listed = std::fs::read_to_string(&deps).unwrap_or_default();
        let folder = source.parent().unwrap_or(Path::new("/"));
        let outside = dependencies(&listed)
            .into_iter()
            .chain(named_in_messages(&out.stderr))
            .map(|path| folder.join(path))
            .find(|path| !allowed(path, root));
        if let Some(read) = outside {
            return Err(SourceBuildError::ReadsOutside { read });
        }
        if !out.status.success() {
            return Err(failed(
                format!("building {} failed", source.display()),
                bounded(&out.stderr),
            )
            .into());
        }
        Ok(())
    }
}

/// The binaries of the builds kept now.
fn live() -> std::sync::MutexGuard<'static, std::collections::BTreeSet<PathBuf>> {
    static LIVE: std::sync::Mutex<std::collections::BTreeSet<PathBuf>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    // Each change is one insert or remove: a panic leaves the set whole.
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for BuiltSource {
    fn drop(&mut self) {
        live().remove(&self.binary);
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// A new folder only this user may enter, for one build.
fn new_folder() -> Result<PathBuf, SessionError> {
    use std::os::unix::fs::DirBuilderExt as _;
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let folder = std::env::temp_dir().join(format!(
        "dapvisor-build-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&folder)
        .map_err(|e| SessionError::internal("making a build folder", e))?;
    Ok(folder)
}

/// Run `command` in `source`'s folder within `deadline`, in a process group of its
/// own that is killed whole if the deadline passes or the build is given up on (a
/// compiler's own children, `cc1` and `ld`, with it).
async fn run(
    command: &[String],
    source: &Path,
    deadline: Duration,
) -> Result<std::process::Output, SessionError> {
    let mut process = crate::clean_start::tokio_command(&command[0]);
    process
        .args(&command[1..])
        .current_dir(source.parent().unwrap_or(Path::new("/")))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let child = process.spawn().map_err(|e| {
        failed(
            format!(
                "could not run `{}` to build {}: {e}",
                command[0],
                source.display()
            ),
            String::new(),
        )
    })?;
    let group = GroupKill(child.id());
    let out = tokio::time::timeout(deadline, child.wait_with_output()).await;
    drop(group);
    match out {
        Ok(Ok(out)) => Ok(out),
        Ok(Err(e)) => Err(failed(
            format!("`{}` failed to run: {e}", command[0]),
            String::new(),
        )),
        Err(_) => Err(failed(
            format!(
                "building {} took longer than {} s; build it yourself (`{}`) and launch the \
                 binary",
                source.display(),
                deadline.as_secs(),
                command.join(" ")
            ),
            String::new(),
        )),
    }
}

/// Kills a build's process group when dropped (whatever of it is left).
struct GroupKill(Option<u32>);

impl Drop for GroupKill {
    fn drop(&mut self) {
        if let Some(pid) = self.0 {
            // SAFETY: killpg only sends a signal, to the group this build started.
            unsafe { libc::killpg(pid as libc::pid_t, libc::SIGKILL) };
        }
    }
}

fn failed(message: String, output: String) -> SessionError {
    SessionError::StartFailed {
        operation: Operation::Launch,
        message,
        output,
    }
}

/// The start of the compiler's messages, [`MAX_SOURCE_BUILD_MESSAGE_BYTES`] at most.
fn bounded(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    if text.len() <= MAX_SOURCE_BUILD_MESSAGE_BYTES {
        return text.into_owned();
    }
    let mut end = MAX_SOURCE_BUILD_MESSAGE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n... ({} more bytes)", &text[..end], text.len() - end)
}

/// The files a make-syntax dependency list names (`target: a.c b.h \`).
fn dependencies(listed: &str) -> Vec<PathBuf> {
    let joined = listed.replace("\\\n", " ");
    let mut files = Vec::new();
    for line in joined.lines() {
        let Some((_, after)) = line.split_once(": ").or_else(|| line.split_once(":\t")) else {
            continue;
        };
        files.extend(after.split_whitespace().map(PathBuf::from));
    }
    files
}

/// The files the compiler's messages name where they quote them (`path:line:`,
/// `--> path:line:col`, `In file included from path:line`): a file whose read failed
/// is not in the dependency list, yet its lines may be quoted.
fn named_in_messages(stderr: &[u8]) -> Vec<PathBuf> {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = ["In file included from ", "from ", "--> "]
                .iter()
                .find_map(|p| line.strip_prefix(p))
                .unwrap_or(line);
            let (path, rest) = line.split_once(':')?;
            rest.starts_with(|c: char| c.is_ascii_digit())
                .then(|| PathBuf::from(path))
        })
        .collect()
}

/// Whether a build under `root` may read `path`: inside the root, or a system place,
/// where the path leads (links followed). A path that does not exist reads nothing.
fn allowed(path: &Path, root: &Path) -> bool {
    let Ok(real) = std::fs::canonicalize(path) else {
        return true;
    };
    real.starts_with(root) || SYSTEM_PLACES.iter().any(|place| real.starts_with(place))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_told_by_their_extension_and_built_for_debugging() {
        let dir =
            std::env::temp_dir().join(format!("dapvisor-source-kinds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, language) in [
            ("a.c", Some(SourceLanguage::C)),
            ("a.CPP", Some(SourceLanguage::Cpp)),
            ("a.rs", Some(SourceLanguage::Rust)),
            ("a.py", None),
            ("a", None),
        ] {
            std::fs::write(dir.join(name), "").unwrap();
            assert_eq!(SourceLanguage::of(&dir.join(name)), language, "{name}");
        }
        assert_eq!(SourceLanguage::of(&dir.join("missing.c")), None);
        let rust =
            SourceLanguage::Rust.build_command(Path::new("/p/9-grade.rs"), Path::new("/b/x"));
        assert!(rust.join(" ").contains("-g -C opt-level=0"), "{rust:?}");
        assert!(rust.contains(&"_9_grade".to_string()), "{rust:?}");
        let c = SourceLanguage::C.build_command(Path::new("/p/sum.c"), Path::new("/b/sum"));
        assert_eq!(c[..3], ["cc", "-g", "-O0"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn dependency_lists_and_messages_name_the_files_read() {
        let listed = "sum.o: /r/sum.c /r/a.h \\\n /usr/include/stdio.h\n";
        assert_eq!(
            dependencies(listed),
            ["/r/sum.c", "/r/a.h", "/usr/include/stdio.h"].map(PathBuf::from)
        );
        let rust = "/b/reads.d: /r/g.rs /etc/passwd\n\n/r/g.rs:\n/etc/passwd:\n";
        assert!(dependencies(rust).contains(&PathBuf::from("/etc/passwd")));
        let messages = b"error: expected item\n --> /etc/passwd:1:5\nIn file included from ../x.h:2:\nwarning: no file\n";
        let named = named_in_messages(messages);
        assert_eq!(
            named,
            [PathBuf::from("/etc/passwd"), PathBuf::from("../x.h")]
        );
        assert!(!allowed(Path::new("/etc/passwd"), Path::new("/r")));
        assert!(allowed(Path::new("/usr/include/stdio.h"), Path::new("/r")));
        assert!(allowed(Path::new("/r/does/not/exist"), Path::new("/r")));
    }
}
