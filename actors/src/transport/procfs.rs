//! Processes as `/proc` shows them: each one's parent and start time, and the trees
//! under given roots.
//!
//! A pid alone does not name a process for long: once a process is reaped, its pid
//! can be given to a new, unrelated one. A [`ProcessId`] is a pid with the process's
//! start time (field 22 of `/proc/PID/stat`, in clock ticks since boot), which no
//! later holder of the pid shares, so a remembered process is never mistaken for
//! one that reused its pid.

use std::collections::{HashMap, HashSet};

/// One process, told apart from any later one that reuses its pid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProcessId {
    /// The pid.
    pub pid: u32,
    /// When it started, in clock ticks since boot.
    pub start: u64,
}

impl ProcessId {
    /// The process that holds `pid` now, if any.
    pub fn of(pid: u32) -> Option<Self> {
        let stat = Stat::read(pid)?;
        Some(Self {
            pid,
            start: stat.start,
        })
    }

    /// Whether the process that holds the pid now is this one (alive or a zombie).
    pub fn is_current(&self) -> bool {
        Stat::read(self.pid).is_some_and(|stat| stat.start == self.start)
    }
}

/// What `/proc/PID/stat` says of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    /// The pid.
    pub pid: u32,
    /// One letter: `R`, `S`, `D`, `Z` (zombie), `X` (dead), ...
    pub state: char,
    /// The parent's pid.
    pub ppid: u32,
    /// The process group.
    pub pgrp: u32,
    /// Start time in clock ticks since boot.
    pub start: u64,
}

impl Stat {
    /// The stat of `pid`, while it exists.
    pub fn read(pid: u32) -> Option<Self> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        Self::parse(pid, &text)
    }

    /// Parse the text of `/proc/PID/stat`. The command name is in parentheses and
    /// may hold spaces and parentheses, so fields are counted after the last `)`.
    pub fn parse(pid: u32, text: &str) -> Option<Self> {
        let rest = &text[text.rfind(')')? + 1..];
        // After the name: state (field 3), ppid (4), pgrp (5), ... starttime (22).
        let fields: Vec<&str> = rest.split_whitespace().collect();
        Some(Self {
            pid,
            state: fields.first()?.chars().next()?,
            ppid: fields.get(1)?.parse().ok()?,
            pgrp: fields.get(2)?.parse().ok()?,
            start: fields.get(19)?.parse().ok()?,
        })
    }

    /// Whether it runs (is neither a zombie nor dead).
    pub fn is_alive(&self) -> bool {
        self.state != 'Z' && self.state != 'X'
    }

    /// Its [`ProcessId`].
    pub fn id(&self) -> ProcessId {
        ProcessId {
            pid: self.pid,
            start: self.start,
        }
    }
}

/// The threads scans ran on, for the tests that check no scan runs on an async
/// thread.
#[cfg(test)]
pub(crate) static SCANNED_ON: std::sync::Mutex<Vec<std::thread::ThreadId>> =
    std::sync::Mutex::new(Vec::new());

/// Every process in `/proc` now. Blocking file reads: not for an async thread.
pub fn scan() -> Vec<Stat> {
    #[cfg(test)]
    SCANNED_ON
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(std::thread::current().id());
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(Stat::read)
        .collect()
}

/// The processes under `roots` in `stats` (children, grandchildren, ...), and the
/// roots themselves where they are found with the same start time. A root whose pid
/// now belongs to another process (a reused pid) is left out with its tree.
pub fn trees(stats: &[Stat], roots: &[ProcessId]) -> Vec<ProcessId> {
    let mut children: HashMap<u32, Vec<&Stat>> = HashMap::new();
    for stat in stats {
        children.entry(stat.ppid).or_default().push(stat);
    }
    let by_pid: HashMap<u32, &Stat> = stats.iter().map(|s| (s.pid, s)).collect();
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    let mut frontier: Vec<&Stat> = roots
        .iter()
        .filter_map(|root| by_pid.get(&root.pid).filter(|s| s.start == root.start))
        .copied()
        .collect();
    while let Some(stat) = frontier.pop() {
        if !seen.insert(stat.pid) {
            continue;
        }
        found.push(stat.id());
        frontier.extend(children.get(&stat.pid).into_iter().flatten().copied());
    }
    found
}

/// The parent pid of `pid`, from `/proc/PID/stat`.
#[cfg(test)]
pub fn parent_of(pid: u32) -> Option<u32> {
    Stat::read(pid).map(|s| s.ppid)
}

/// Whether `pid` is alive (not a zombie).
#[cfg(any(test, feature = "testing"))]
pub fn is_alive(pid: u32) -> bool {
    Stat::read(pid).is_some_and(|s| s.is_alive())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(pid: u32, ppid: u32, start: u64) -> Stat {
        Stat {
            pid,
            state: 'S',
            ppid,
            pgrp: pid,
            start,
        }
    }

    #[test]
    fn parses_a_stat_line_whose_name_holds_spaces_and_parentheses() {
        let line = "4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 \
                    20 0 1 0 987654 1000 100 18446744073709551615";
        let stat = Stat::parse(4242, line).unwrap();
        assert_eq!((stat.state, stat.ppid, stat.pgrp), ('S', 17, 4242));
        assert_eq!(stat.start, 987654);
    }

    #[test]
    fn reads_this_process() {
        let me = ProcessId::of(std::process::id()).unwrap();
        assert!(me.is_current());
        assert!(is_alive(me.pid));
        assert!(parent_of(me.pid).is_some());
        let other = ProcessId {
            start: me.start + 1,
            ..me
        };
        assert!(!other.is_current(), "another start time is another process");
        assert!(!is_alive(u32::MAX - 1));
    }

    #[test]
    fn trees_hold_the_roots_and_everything_under_them() {
        let stats = [
            stat(10, 1, 100),
            stat(11, 10, 110),
            stat(12, 11, 120),
            stat(20, 1, 200), // detached, remembered
            stat(21, 20, 210),
            stat(30, 1, 300), // unrelated
        ];
        let roots = [
            ProcessId {
                pid: 10,
                start: 100,
            },
            ProcessId {
                pid: 20,
                start: 200,
            },
        ];
        let mut found: Vec<u32> = trees(&stats, &roots).iter().map(|p| p.pid).collect();
        found.sort();
        assert_eq!(found, [10, 11, 12, 20, 21]);
    }

    #[test]
    fn a_root_whose_pid_was_reused_is_left_out_with_its_tree() {
        // Pid 20 was remembered with start 200; it now belongs to a process started
        // at 999, whose child must not be taken for ours either.
        let stats = [stat(20, 1, 999), stat(21, 20, 1000)];
        let roots = [ProcessId {
            pid: 20,
            start: 200,
        }];
        assert!(trees(&stats, &roots).is_empty());
    }

    #[test]
    fn a_loop_in_parent_links_ends() {
        let stats = [stat(5, 6, 1), stat(6, 5, 2)];
        let found = trees(&stats, &[ProcessId { pid: 5, start: 1 }]);
        assert_eq!(found.len(), 2);
    }
}
