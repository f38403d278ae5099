//! Processes as the kernel sees them, read from `/proc`: whether one runs, what it
//! runs, what runs under it, and a bounded wait for processes to be gone. The tests
//! check the runtime's cleanup with these, independently of the runtime's own code.

use std::time::{Duration, Instant};

/// How long killed processes may take to disappear: the kernel needs a moment to
/// deliver SIGKILL and let them go. Not a performance bound.
pub const GONE_WAIT: Duration = Duration::from_secs(10);

/// The fields of `/proc/PID/stat` after the command name (which is in parentheses
/// and may hold spaces): state, parent pid, ...
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// When `pid` started (clock ticks since boot), which tells it from a later process
/// that takes its pid.
fn start_time(pid: u32) -> Option<String> {
    stat_fields(pid)?.get(19).cloned()
}

/// Whether `pid` runs: it exists and is neither a zombie nor dead.
pub fn is_alive(pid: u32) -> bool {
    stat_fields(pid)
        .and_then(|f| f.first().cloned())
        .is_some_and(|state| state != "Z" && state != "X")
}

/// Whether `pid` runs on its own: running or sleeping, not stopped or traced (`t`),
/// not a zombie.
pub fn runs_untraced(pid: u32) -> bool {
    stat_fields(pid)
        .and_then(|f| f.first().cloned())
        .is_some_and(|state| state == "S" || state == "R")
}

/// The parent of `pid`, while `pid` exists.
pub fn parent(pid: u32) -> Option<u32> {
    stat_fields(pid)?.get(1)?.parse().ok()
}

/// The command line of `pid`, arguments joined by spaces (empty once it is gone).
pub fn cmdline(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|raw| String::from_utf8_lossy(&raw).replace('\0', " "))
        .map(|line| line.trim_end().to_string())
        .unwrap_or_default()
}

/// Every live process whose command line ends with `mark`.
pub fn procs_with_cmdline_ending(mark: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| cmdline(pid).ends_with(mark))
        .collect()
}

/// Every process under `root` (children, grandchildren, ...), from `/proc`.
pub fn descendants(root: u32) -> Vec<u32> {
    let links: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| Some((pid, parent(pid)?)))
        .collect();
    let mut found = vec![root];
    let mut next = 0;
    while next < found.len() {
        let of = found[next];
        found.extend(links.iter().filter(|(_, p)| *p == of).map(|(pid, _)| *pid));
        next += 1;
    }
    found.split_off(1)
}

/// Which of `pids` are still alive after up to [`GONE_WAIT`] (none, as soon as all
/// are gone).
pub async fn wait_gone(pids: Vec<u32>) -> Vec<u32> {
    tokio::task::spawn_blocking(move || {
        let deadline = Instant::now() + GONE_WAIT;
        // Each as it is now: a pid that a later process takes (pids wrap at 32,768
        // here, and a suite starts thousands) is not the one waited for.
        let started: Vec<(u32, Option<String>)> =
            pids.iter().map(|&p| (p, start_time(p))).collect();
        loop {
            let alive: Vec<u32> = started
                .iter()
                .filter(|(p, start)| is_alive(*p) && start_time(*p) == *start)
                .map(|(p, _)| *p)
                .collect();
            if alive.is_empty() || Instant::now() >= deadline {
                return alive;
            }
            std::thread::park_timeout(Duration::from_millis(20));
        }
    })
    .await
    .unwrap()
}

/// The process group of `pid` and its session, while it exists.
pub fn group_and_session(pid: u32) -> Option<(u32, u32)> {
    let fields = stat_fields(pid)?;
    Some((fields.get(2)?.parse().ok()?, fields.get(3)?.parse().ok()?))
}

/// Every live process that carries the process-tree mark of the dapvisor process
/// `pid` (`DAPVISOR_PROCESS_TREE=PID-N`, which everything its adapters start
/// inherits), with its command line.
pub fn marked_by(pid: u32) -> Vec<(u32, String)> {
    let mark = format!("DAPVISOR_PROCESS_TREE={pid}-");
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| {
            std::fs::read(format!("/proc/{p}/environ")).is_ok_and(|env| {
                env.split(|b| *b == 0)
                    .any(|e| e.starts_with(mark.as_bytes()))
            })
        })
        .filter(|&p| is_alive(p))
        .map(|p| (p, cmdline(p)))
        .collect()
}

/// The processes still carrying the mark of the dapvisor process `pid` after up to
/// [`GONE_WAIT`] (none, as soon as all are gone).
pub async fn left_behind_by(pid: u32) -> Vec<(u32, String)> {
    tokio::task::spawn_blocking(move || {
        let deadline = Instant::now() + GONE_WAIT;
        loop {
            let left = marked_by(pid);
            if left.is_empty() || Instant::now() >= deadline {
                return left;
            }
            std::thread::park_timeout(Duration::from_millis(20));
        }
    })
    .await
    .unwrap()
}

/// The programs dapvisor started for the js-debug server `adapter` (`runInTerminal`:
/// they are dapvisor's children, not the server's), known by the inspector socket the
/// server gave them (`VSCODE_INSPECTOR_OPTIONS` names `node-cdp.<adapter>-...`), and
/// everything under them.
pub fn started_for_js_debug(adapter: u32) -> Vec<u32> {
    let socket = format!("node-cdp.{adapter}-");
    let programs: Vec<u32> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| {
            std::fs::read(format!("/proc/{p}/environ")).is_ok_and(|env| {
                env.split(|b| *b == 0).any(|e| {
                    e.starts_with(b"VSCODE_INSPECTOR_OPTIONS=")
                        && String::from_utf8_lossy(e).contains(&socket)
                })
            })
        })
        .collect();
    let mut all = programs.clone();
    for program in programs {
        all.extend(descendants(program));
    }
    all
}
