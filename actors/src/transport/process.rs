//! Adapter processes in their own process group, ended with everything they started.
//!
//! The adapter is spawned as the leader of a new process group, so its debuggee
//! (a child or grandchild that stays in the group) can be ended with one `killpg`.
//! Descendants that moved to a group of their own are found through `/proc` and
//! ended too. [`ProcessGroup`] does this on [`ProcessGroup::kill`] and on `Drop`, so
//! cleanup holds even where ractor skips `post_stop` (a kill or a panic).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};

/// The process group an adapter leads.
#[derive(Debug)]
pub struct ProcessGroup {
    pid: u32,
    swept: AtomicBool,
}

impl ProcessGroup {
    /// The group led by `pid` (the adapter, spawned with `process_group(0)`).
    pub fn new(pid: u32) -> Self {
        Self {
            pid,
            swept: AtomicBool::new(false),
        }
    }

    /// The leader's pid (also the group id).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Send SIGKILL to every descendant of the leader and to every member of its
    /// group. Only the first call acts: once the leader is reaped its pid may be
    /// reused, so the group is swept once, right when the adapter ends.
    pub fn kill(&self) {
        if self.swept.swap(true, Ordering::SeqCst) {
            return;
        }
        let mut targets = descendants(self.pid);
        targets.push(self.pid);
        // SAFETY: killpg with a positive pgid only sends a signal.
        unsafe {
            libc::killpg(self.pid as libc::pid_t, libc::SIGKILL);
        }
        for pid in targets {
            // SAFETY: kill with a positive pid only sends a signal.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Every live descendant of `root`, from `/proc` (children before grandchildren).
pub fn descendants(root: u32) -> Vec<u32> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some(ppid) = parent_of(pid) {
            children.entry(ppid).or_default().push(pid);
        }
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut frontier = vec![root];
    while let Some(p) = frontier.pop() {
        for &c in children.get(&p).map(Vec::as_slice).unwrap_or(&[]) {
            if seen.insert(c) {
                out.push(c);
                frontier.push(c);
            }
        }
    }
    out
}

/// The parent pid of `pid`, from `/proc/PID/stat`.
pub fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces: parse after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Whether `pid` is alive (not a zombie).
pub fn is_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};

    #[test]
    fn killing_the_group_ends_the_leader_and_its_grandchildren() {
        // A shell that starts a background sleeper and waits: leader + child.
        let mut leader = Command::new("sh")
            .args(["-c", "sleep 300 & sleep 300; wait"])
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let pid = leader.id();
        let group = ProcessGroup::new(pid);
        // The children appear once the shell has forked them.
        let mut kids = Vec::new();
        for _ in 0..200 {
            kids = descendants(pid);
            if kids.len() >= 2 {
                break;
            }
            std::thread::yield_now();
            std::thread::park_timeout(std::time::Duration::from_millis(5));
        }
        assert!(kids.len() >= 2, "expected two sleepers, saw {kids:?}");
        drop(group);
        leader.wait().unwrap();
        for kid in kids {
            // Orphans are reaped by init; give it a moment by polling the state.
            let mut alive = true;
            for _ in 0..200 {
                alive = is_alive(kid);
                if !alive {
                    break;
                }
                std::thread::park_timeout(std::time::Duration::from_millis(5));
            }
            assert!(!alive, "descendant {kid} survived");
        }
    }

    #[test]
    fn parent_of_reads_proc() {
        let me = std::process::id();
        assert!(parent_of(me).is_some());
        assert!(is_alive(me));
        assert!(!is_alive(u32::MAX - 1));
    }
}
