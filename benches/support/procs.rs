//! Which processes are alive, read from `/proc` (Linux): to check that sessions
//! leave no adapter or debuggee behind, and to kill an adapter on purpose.

use std::collections::HashSet;
use std::time::{Duration, Instant};

/// One process, as `/proc/<pid>/stat` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proc {
    /// Its id.
    pub pid: u32,
    /// Its parent's id.
    pub ppid: u32,
    /// Its process group.
    pub pgid: u32,
    /// Its state letter (`R`, `S`, `Z` for a zombie, ...).
    pub state: char,
    /// Its command name.
    pub comm: String,
    /// Its command line, arguments separated by spaces.
    pub cmdline: String,
}

/// Every process visible now.
pub fn all() -> Vec<Proc> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(read)
        .collect()
}

fn read(pid: u32) -> Option<Proc> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let mut rest = stat[close + 1..].split_whitespace();
    let state = rest.next()?.chars().next()?;
    let ppid = rest.next()?.parse().ok()?;
    let pgid = rest.next()?.parse().ok()?;
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    Some(Proc {
        pid,
        ppid,
        pgid,
        state,
        comm: stat[open + 1..close].to_string(),
        cmdline: String::from_utf8_lossy(&cmdline).replace('\0', " "),
    })
}

/// What a run may have left behind: processes in any of `groups` (adapters lead
/// their own group, and their debuggees join it), whose parent is this process, or
/// whose command line mentions `marker` (such as a folder of generated programs,
/// which catches a debuggee that left its adapter's group).
pub fn leftovers(groups: &HashSet<u32>, marker: Option<&str>) -> Vec<Proc> {
    let me = std::process::id();
    all()
        .into_iter()
        .filter(|p| p.pid != me)
        .filter(|p| {
            groups.contains(&p.pgid)
                || p.ppid == me
                || marker.is_some_and(|m| p.cmdline.contains(m))
        })
        .collect()
}

/// Wait up to `grace` for [`leftovers`] to be empty; returns what is left then.
pub async fn wait_for_no_leftovers(
    groups: &HashSet<u32>,
    marker: Option<&str>,
    grace: Duration,
) -> Vec<Proc> {
    let deadline = Instant::now() + grace;
    loop {
        let left = leftovers(groups, marker);
        if left.is_empty() || Instant::now() >= deadline {
            return left;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Send SIGKILL to `pid`; false if it was already gone.
pub fn kill(pid: u32) -> bool {
    // SAFETY: kill(2) has no memory effects; a stale pid at worst hits nothing.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) == 0 }
}
