//! Core dumps made in the tests: a program run until it crashes, its dump kept in a
//! folder of the test's own.
//!
//! The kernel writes the dump where `/proc/sys/kernel/core_pattern` says. A plain
//! name (`core`, `core.%p`) is written in the crashing process's working folder:
//! the program runs there with `RLIMIT_CORE` raised to unlimited for it alone (in
//! a `pre_exec`), and the file is its real dump. A pattern that pipes dumps to a
//! handler (systemd-coredump, apport) or names other specifiers cannot be reached
//! without root: then, and where the kernel wrote nothing, the program runs under
//! gdb until the signal that kills it and `gcore` writes the dump of the process
//! stopped at that fault: the same memory and registers, a real dump of the crash
//! (gdb's note says it made it).

#![allow(dead_code)]

use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

/// `examples/programs/c/parcels.c`, which dies of SIGSEGV, built once per test
/// binary (its tests run at once: each building it over the same file would run or
/// dump a half-written one).
pub fn parcels_binary() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| super::common::build_c("parcels"))
        .clone()
}

/// How the dump of a test was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MadeBy {
    /// The kernel, as the program crashed.
    Kernel,
    /// gdb's `gcore`, of the program stopped at its fatal signal.
    Gcore,
}

/// A crashing program's dump, in a folder of its own that goes when it is dropped
/// (a Go program's dump is tens of MB).
#[derive(Debug)]
pub struct Dump {
    /// The dump.
    pub core: PathBuf,
    /// How it was made.
    pub made_by: MadeBy,
    /// The folder it is in.
    dir: PathBuf,
}

impl Drop for Dump {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A new folder of this test binary's own for one dump.
fn fresh_dir(name: &str) -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("dapvisor-cores-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The file the kernel writes a dump of process `pid` to in its working folder
/// `dir`, where the pattern is a plain name (only `%p` and `%%` in it); `None` for
/// a pipe, an absolute path or other specifiers.
fn kernel_file(pattern: &str, uses_pid: bool, dir: &Path, pid: u32) -> Option<PathBuf> {
    let pattern = pattern.trim();
    if pattern.is_empty() || pattern.starts_with('|') || pattern.contains('/') {
        return None;
    }
    let mut name = String::new();
    let mut chars = pattern.chars();
    let mut named_pid = false;
    while let Some(c) = chars.next() {
        match (c, c == '%') {
            (_, false) => name.push(c),
            (_, true) => match chars.next()? {
                'p' => {
                    named_pid = true;
                    name.push_str(&pid.to_string());
                }
                '%' => name.push('%'),
                _ => return None,
            },
        }
    }
    if uses_pid && !named_pid {
        name = format!("{name}.{pid}");
    }
    Some(dir.join(name))
}

/// Run `program` with `env` until it crashes, and its dump. `pass_signals` are
/// the signals the program handles itself before the fatal one (Go's runtime turns
/// SIGFPE and SIGSEGV into panics): gdb lets them through.
pub fn dump_of(program: &Path, env: &[(&str, &str)], pass_signals: &[&str]) -> Dump {
    let name = program.file_name().unwrap().to_string_lossy().to_string();
    let dir = fresh_dir(&name);
    let pattern = std::fs::read_to_string("/proc/sys/kernel/core_pattern").unwrap_or_default();
    let uses_pid =
        std::fs::read_to_string("/proc/sys/kernel/core_uses_pid").is_ok_and(|v| v.trim() == "1");
    if kernel_file(&pattern, uses_pid, &dir, 0).is_some() {
        let mut run = Command::new(program);
        run.current_dir(&dir)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: setrlimit is async-signal-safe; it raises this child's own limit.
        unsafe {
            run.pre_exec(|| {
                let unlimited = libc::rlimit {
                    rlim_cur: libc::RLIM_INFINITY,
                    rlim_max: libc::RLIM_INFINITY,
                };
                if libc::setrlimit(libc::RLIMIT_CORE, &unlimited) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = run.spawn().expect("the crashing program starts");
        let pid = child.id();
        let status = child.wait_with_output().unwrap().status;
        assert!(
            status.signal().is_some(),
            "{name} did not crash: {status:?}"
        );
        let file = kernel_file(&pattern, uses_pid, &dir, pid).unwrap();
        if status.core_dumped() && file.is_file() {
            return Dump {
                core: file,
                made_by: MadeBy::Kernel,
                dir,
            };
        }
    }
    gcore_dump(program, env, pass_signals, &dir)
}

/// The dump gdb's `gcore` writes of `program` stopped at its fatal signal, in `dir`
/// (removed with the dump).
pub fn gcore_dump(program: &Path, env: &[(&str, &str)], pass_signals: &[&str], dir: &Path) -> Dump {
    let core = dir.join("core.gcore");
    let mut gdb = Command::new("gdb");
    gdb.args(["-batch", "-nx", "-ex", "set pagination off"]);
    if !pass_signals.is_empty() {
        let handle = format!("handle {} nostop noprint pass", pass_signals.join(" "));
        gdb.args(["-ex", &handle]);
    }
    gdb.args(["-ex", "run", "-ex"])
        .arg(format!("gcore {}", core.display()))
        .arg("--args")
        .arg(program)
        .current_dir(dir)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let status = gdb
        .status()
        .expect("gdb must be installed (scripts/provision installs it)");
    assert!(
        status.success() && core.is_file(),
        "gdb made no dump of {}: {status:?}",
        program.display()
    );
    Dump {
        core,
        made_by: MadeBy::Gcore,
        dir: dir.to_path_buf(),
    }
}

#[test]
fn a_plain_pattern_names_a_file_in_the_working_folder() {
    let dir = Path::new("/w");
    assert_eq!(kernel_file("core\n", false, dir, 7), Some(dir.join("core")));
    assert_eq!(kernel_file("core", true, dir, 7), Some(dir.join("core.7")));
    assert_eq!(
        kernel_file("core.%p", true, dir, 7),
        Some(dir.join("core.7"))
    );
    assert_eq!(kernel_file("c%%", false, dir, 7), Some(dir.join("c%")));
    assert_eq!(kernel_file("core.%e", false, dir, 7), None);
    assert_eq!(kernel_file("/var/cores/core", false, dir, 7), None);
    assert_eq!(
        kernel_file("|/usr/lib/systemd/systemd-coredump %P", false, dir, 7),
        None
    );
}
