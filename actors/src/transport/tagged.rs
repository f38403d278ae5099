//! Processes found by a variable in their environment (the sweep's [`TREE_ENV`] tag),
//! including those caught in the middle of an `execve`.
//!
//! Between an `execve`'s point of no return and the new program's start the kernel
//! shows a process with neither a command line nor an environment (its new memory has
//! none yet), and a loaded machine can keep it there for many milliseconds. A child of
//! the adapter that leaves its group and is still in that window when the adapter dies
//! is re-parented away and shows no tag: read once, it escapes the sweep (one in about
//! ten such launches on a loaded machine, `tests/detached.rs`). So a reading also
//! names the processes it could not tell ([`Carrying::unread`]), and the sweep reads
//! those again until they show ([`carrying_once_shown`]). An attach's check of which
//! session holds a process reads its tag the same way ([`env_var_once_shown`]): a
//! daemon of one client's program, read mid-`execve`, showed no owner, and another
//! client's attach to it was let through.
//!
//! [`TREE_ENV`]: crate::transport::process::TREE_ENV

use std::time::{Duration, Instant};

use crate::transport::procfs::{ProcessId, Stat};

/// How often a process caught mid-`execve` is read again.
const READ_AGAIN_EVERY: Duration = Duration::from_millis(5);

/// The `PF_KTHREAD` bit of the flags in `/proc/PID/stat`: a kernel thread, which
/// shows neither a command line nor an environment for ever.
const PF_KTHREAD: u64 = 0x0020_0000;

/// What one reading of the environments found.
#[derive(Debug, Default)]
pub struct Carrying {
    /// The processes that carry the variable.
    pub found: Vec<ProcessId>,
    /// Running processes (no kernel thread) whose environment read empty: perhaps in
    /// the middle of an `execve`, perhaps started with none.
    pub unread: Vec<ProcessId>,
}

/// The processes in `stats` whose environment holds `name=value` (this user's:
/// another's cannot be read), this process aside, and those that could not be told.
pub fn carrying(stats: &[Stat], name: &str, value: &str) -> Carrying {
    let entry = format!("{name}={value}");
    let me = std::process::id();
    let mut reading = Carrying::default();
    for stat in stats.iter().filter(|s| s.pid != me && s.is_alive()) {
        match environ(stat.pid) {
            Some(env) if env.is_empty() && !is_kernel_thread(stat.pid) => {
                reading.unread.push(stat.id());
            }
            Some(env) if holds(&env, &entry) => reading.found.push(stat.id()),
            _ => {}
        }
    }
    reading
}

/// Of `unread` ([`Carrying::unread`]), those that show `name=value` once their
/// `execve` is through, read again every few milliseconds for at most `wait`. One
/// that shows a command line and still no environment was started with none; one
/// still mid-`execve` at the end is given up.
pub fn carrying_once_shown(
    mut unread: Vec<ProcessId>,
    name: &str,
    value: &str,
    wait: Duration,
) -> Vec<ProcessId> {
    let entry = format!("{name}={value}");
    let deadline = Instant::now() + wait;
    let mut found = Vec::new();
    loop {
        unread.retain(|process| match look(*process) {
            Look::MidExec => true,
            Look::Shown(env) => {
                if holds(&env, &entry) {
                    found.push(*process);
                }
                false
            }
            Look::Gone => false,
        });
        if unread.is_empty() || Instant::now() >= deadline {
            return found;
        }
        std::thread::sleep(READ_AGAIN_EVERY);
    }
}

/// The value of the variable `name` in the environment of `pid` (this user's
/// processes only), read again while the process is mid-`execve`, for at most `wait`.
pub fn env_var_once_shown(pid: u32, name: &str, wait: Duration) -> Option<String> {
    let process = ProcessId::of(pid)?;
    let prefix = format!("{name}=");
    let deadline = Instant::now() + wait;
    loop {
        match look(process) {
            Look::Shown(env) => {
                return env
                    .split(|b| *b == 0)
                    .find_map(|entry| entry.strip_prefix(prefix.as_bytes()))
                    .map(|value| String::from_utf8_lossy(value).into_owned())
            }
            Look::Gone => return None,
            Look::MidExec if Instant::now() >= deadline => return None,
            Look::MidExec => std::thread::sleep(READ_AGAIN_EVERY),
        }
    }
}

/// What one look at a process's environment shows.
enum Look {
    /// Its environment (perhaps empty: it was started with none).
    Shown(Vec<u8>),
    /// Neither a command line nor an environment yet: in the middle of an `execve`.
    MidExec,
    /// Gone, its pid now another's, or not this user's.
    Gone,
}

fn look(process: ProcessId) -> Look {
    // The command line first: the kernel sets both at once, so an empty
    // environment read after a command line is an empty environment.
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", process.pid));
    match environ(process.pid) {
        Some(_) if !process.is_current() => Look::Gone,
        Some(env) if env.is_empty() => {
            let no_cmdline = cmdline.is_ok_and(|line| line.is_empty());
            if no_cmdline && !is_kernel_thread(process.pid) {
                Look::MidExec
            } else {
                Look::Shown(env)
            }
        }
        Some(env) => Look::Shown(env),
        None => Look::Gone,
    }
}

fn environ(pid: u32) -> Option<Vec<u8>> {
    std::fs::read(format!("/proc/{pid}/environ")).ok()
}

fn holds(env: &[u8], entry: &str) -> bool {
    env.split(|b| *b == 0).any(|e| e == entry.as_bytes())
}

fn is_kernel_thread(pid: u32) -> bool {
    let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // After the name: state (field 3), ... flags (9).
    text.rfind(')')
        .and_then(|end| {
            text[end + 1..]
                .split_whitespace()
                .nth(6)?
                .parse::<u64>()
                .ok()
        })
        .is_some_and(|flags| flags & PF_KTHREAD != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    use crate::transport::procfs::scan;

    #[test]
    fn a_process_started_with_no_environment_is_told_at_once_and_not_waited_for() {
        let mut child = Command::new("sleep")
            .arg("30")
            .env_clear()
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let id = ProcessId::of(child.id()).unwrap();
        // It may still be mid-execve at the first reading; by the end it is not.
        let started = Instant::now();
        let shown = carrying_once_shown(vec![id], "TAG", "x", Duration::from_secs(30));
        assert!(shown.is_empty(), "{shown:?}");
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "an empty environment was waited on to its end"
        );
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn a_tagged_child_is_found_and_kernel_threads_are_not_unread() {
        let mut child = Command::new("sleep")
            .arg("30")
            .env("DAPVISOR_TAGGED_TEST", "yes")
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let id = ProcessId::of(child.id()).unwrap();
        // Either read at once, or once its execve is through.
        let reading = carrying(&scan(), "DAPVISOR_TAGGED_TEST", "yes");
        let found = if reading.found.contains(&id) {
            reading.found
        } else {
            assert!(reading.unread.contains(&id), "{reading:?}");
            carrying_once_shown(
                reading.unread,
                "DAPVISOR_TAGGED_TEST",
                "yes",
                Duration::from_secs(30),
            )
        };
        assert!(found.contains(&id), "{found:?}");
        // kthreadd (pid 2, where the kernel's threads are visible) is never unread.
        let reading = carrying(&scan(), "DAPVISOR_TAGGED_TEST", "yes");
        assert!(!reading.unread.iter().any(|p| p.pid == 2), "{reading:?}");
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn a_tagged_process_named_unread_is_found_once_it_shows() {
        // `spawn` returns once the execve is past its point of no return, which may
        // be before the new program shows its environment.
        let mut child = Command::new("sleep")
            .arg("30")
            .env("DAPVISOR_TAGGED_TEST", "late")
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let id = ProcessId::of(child.id()).unwrap();
        let found = carrying_once_shown(
            vec![id],
            "DAPVISOR_TAGGED_TEST",
            "late",
            Duration::from_secs(30),
        );
        assert_eq!(found, vec![id]);
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn a_variable_is_read_once_shown_and_an_empty_environment_answers_none_at_once() {
        let mut tagged = Command::new("sleep")
            .arg("30")
            .env("DAPVISOR_TAGGED_TEST", "s7")
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let wait = Duration::from_secs(30);
        assert_eq!(
            env_var_once_shown(tagged.id(), "DAPVISOR_TAGGED_TEST", wait).as_deref(),
            Some("s7")
        );
        let mut bare = Command::new("sleep")
            .arg("30")
            .env_clear()
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        assert_eq!(
            env_var_once_shown(bare.id(), "DAPVISOR_TAGGED_TEST", wait),
            None
        );
        assert!(
            started.elapsed() < wait,
            "an empty environment was waited on"
        );
        for child in [&mut tagged, &mut bare] {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }
}
